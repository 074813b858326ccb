// SPDX-License-Identifier: GPL-2.0
/* The symbol table: symbols, definitions, expressions; ordering, reverse links, dumps. */
#include "kconfig-internal.h"

#include <stdlib.h>
#include <string.h>

const char *kconfig_type_name(enum kconfig_type t)
{
	static const char *const names[] = {
		[KCONFIG_UNKNOWN] = "unknown", [KCONFIG_BOOL] = "bool",
		[KCONFIG_TRISTATE] = "tristate", [KCONFIG_STRING] = "string",
		[KCONFIG_INT] = "int", [KCONFIG_HEX] = "hex",
	};

	return (unsigned)t < ARRAY_SIZE(names) ? names[t] : "unknown";
}

static struct kconfig_symbol *new_symbol(struct kconfig *kc, const char *name, size_t len)
{
	struct kconfig_private *p = kc->priv;
	struct kconfig_symbol *sym = arena_alloc(&p->arena, sizeof(*sym));

	sym->name = arena_strndup(&p->arena, name, len);
	strmap_put(&p->symbols, sym->name, sym);
	ALLOC_GROW(p->created, p->nr_created + 1, p->alloc_created);
	p->created[p->nr_created++] = sym;
	return sym;
}

struct kconfig *kconfig_tree_alloc(void)
{
	struct kconfig *kc = xcalloc(1, sizeof(*kc));

	kc->priv = xcalloc(1, sizeof(*kc->priv));
	kc->sym_y = new_symbol(kc, "y", 1);
	kc->sym_m = new_symbol(kc, "m", 1);
	kc->sym_n = new_symbol(kc, "n", 1);
	kc->sym_y->flags = kc->sym_m->flags = kc->sym_n->flags = KSYM_CONST;
	kc->sym_y->type = kc->sym_m->type = kc->sym_n->type = KCONFIG_TRISTATE;
	return kc;
}

struct kconfig_symbol *kconfig_tree_symbol(struct kconfig *kc, const char *name, size_t len)
{
	struct kconfig_symbol *sym = strmap_getn(&kc->priv->symbols, name, len);

	return sym ? sym : new_symbol(kc, name, len);
}

struct kconfig_symbol *kconfig_tree_new_probe(struct kconfig *kc, const char *text)
{
	struct kconfig_symbol *sym = strmap_get(&kc->priv->symbols, text);

	if (!sym) {
		sym = new_symbol(kc, text, strlen(text));
		sym->flags |= KSYM_PROBE;
	}
	return sym;
}

struct kconfig_symbol *kconfig_lookup(const struct kconfig *kc, const char *name)
{
	return strmap_get(&kc->priv->symbols, name);
}

const char *kconfig_tree_path(struct kconfig *kc, const char *path)
{
	char *p = strmap_get(&kc->priv->paths, path);

	if (!p) {
		p = arena_strndup(&kc->priv->arena, path, strlen(path));
		strmap_put(&kc->priv->paths, p, p);
	}
	return p;
}

static void prefix_defs(struct kconfig *kc, struct kconfig_definition **defs, size_t nr,
			const char *dir, struct strbuf *sb)
{
	for (size_t i = 0; i < nr; i++) {
		strbuf_reset(sb);
		strbuf_addf(sb, "%s/%s", dir, defs[i]->loc.path);
		defs[i]->loc.path = kconfig_tree_path(kc, sb->buf);
	}
}

void kconfig_tree_prefix_paths(struct kconfig *kc, const char *dir)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < kc->nr_symbols; i++)
		prefix_defs(kc, kc->symbols[i]->defs, kc->symbols[i]->nr_defs, dir, &sb);
	for (size_t i = 0; i < kc->nr_choices; i++)
		prefix_defs(kc, kc->choices[i]->defs, kc->choices[i]->nr_defs, dir, &sb);
	strbuf_release(&sb);
}

struct kconfig_definition *kconfig_tree_new_definition(struct kconfig *kc, enum kconfig_def_kind kind,
					     const char *path, int line)
{
	struct kconfig_private *p = kc->priv;
	struct kconfig_definition *def = arena_alloc(&p->arena, sizeof(*def));

	def->kind = kind;
	def->loc.path = kconfig_tree_path(kc, path);
	def->loc.line = line;
	def->index = p->nr_defs;
	ALLOC_GROW(p->defs, p->nr_defs + 1, p->alloc_defs);
	p->defs[p->nr_defs++] = def;
	return def;
}

struct kconfig_choice *kconfig_tree_choice(struct kconfig *kc, const char *name)
{
	struct kconfig_private *p = kc->priv;
	struct kconfig_choice *c = name ? strmap_get(&p->choices, name) : NULL;

	if (c)
		return c;
	c = arena_alloc(&p->arena, sizeof(*c));
	if (name) {
		c->name = arena_strndup(&p->arena, name, strlen(name));
		strmap_put(&p->choices, c->name, c);
	}
	c->index = kc->nr_choices;
	ALLOC_GROW(kc->choices, kc->nr_choices + 1, p->alloc_choices);
	kc->choices[kc->nr_choices++] = c;
	return c;
}

struct kconfig_expr *kconfig_tree_expr(struct kconfig *kc, enum kconfig_expr_type type,
			     struct kconfig_expr *l, struct kconfig_expr *r)
{
	struct kconfig_expr *e = arena_alloc(&kc->priv->arena, sizeof(*e));

	e->type = type;
	e->depth = 1 + (l ? l->depth : 0);
	if (r && r->depth >= e->depth)
		e->depth = 1 + r->depth;
	e->left = l;
	e->right = r;
	return e;
}

struct kconfig_expr *kconfig_tree_expr_symbol(struct kconfig *kc, struct kconfig_symbol *sym)
{
	struct kconfig_expr *e = arena_alloc(&kc->priv->arena, sizeof(*e));

	e->type = KEXPR_SYMBOL;
	e->depth = 1;
	e->sym = sym;
	return e;
}

struct kconfig_expr *kconfig_tree_expr_const(struct kconfig *kc, const char *value, size_t len)
{
	struct kconfig_expr *e = arena_alloc(&kc->priv->arena, sizeof(*e));

	e->type = KEXPR_CONST;
	e->depth = 1;
	e->value = arena_strndup(&kc->priv->arena, value, len);
	return e;
}

struct kconfig_expr *kconfig_tree_and(struct kconfig *kc, struct kconfig_expr *a, struct kconfig_expr *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	return kconfig_tree_expr(kc, KEXPR_AND, a, b);
}

int kconfig_all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

int kconfig_tree_is_number(const char *s)
{
	if (*s == '-')
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		if (!*s)
			return 0;
		for (; *s; s++)
			if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F')))
				return 0;
		return 1;
	}
	return kconfig_all_digits(s);
}

/* Undefined symbols named like numbers (`default 64`) are constants. */
static void numbers_to_constants(struct kconfig_expr *e)
{
	if (!e)
		return;
	switch (e->type) {
	case KEXPR_SYMBOL:
		if (!e->sym->nr_defs && !(e->sym->flags & (KSYM_CONST | KSYM_PROBE)) &&
		    kconfig_tree_is_number(e->sym->name)) {
			const char *v = e->sym->name;
			e->type = KEXPR_CONST;
			e->value = v;
		}
		return;
	case KEXPR_CONST:
		return;
	default:
		numbers_to_constants(e->left);
		if (e->type != KEXPR_NOT)
			numbers_to_constants(e->right);
	}
}

static void definition_numbers_to_constants(struct kconfig_definition *def)
{
	size_t j;

	numbers_to_constants(def->dep);
	numbers_to_constants(def->in_choice_dep);
	for (j = 0; j < def->nr_prompts; j++)
		numbers_to_constants(def->prompts[j].cond);
	for (j = 0; j < def->nr_defaults; j++) {
		numbers_to_constants(def->defaults[j].value);
		numbers_to_constants(def->defaults[j].cond);
	}
	for (j = 0; j < def->nr_selects; j++)
		numbers_to_constants(def->selects[j].cond);
	for (j = 0; j < def->nr_implies; j++)
		numbers_to_constants(def->implies[j].cond);
	for (j = 0; j < def->nr_ranges; j++) {
		numbers_to_constants(def->ranges[j].low);
		numbers_to_constants(def->ranges[j].high);
		numbers_to_constants(def->ranges[j].cond);
	}
}

/* Counts first, then arrays of the exact size from the arena: no allocation per symbol. */
static void link_definitions(struct kconfig *kc)
{
	struct kconfig_private *p = kc->priv;
	struct arena *a = &p->arena;
	size_t i, j;

	for (i = 0; i < p->nr_defs; i++) {
		struct kconfig_definition *def = p->defs[i];

		if (def->symbol)
			def->symbol->nr_defs++;
		for (j = 0; j < def->nr_selects; j++)
			def->selects[j].target->nr_selected_by++;
		for (j = 0; j < def->nr_implies; j++)
			def->implies[j].target->nr_implied_by++;
	}
	for (i = 0; i < p->nr_created; i++) {
		struct kconfig_symbol *sym = p->created[i];

		if (sym->nr_defs)
			sym->defs = arena_alloc(a, sym->nr_defs * sizeof(*sym->defs));
		if (sym->nr_selected_by)
			sym->selected_by = arena_alloc(a, sym->nr_selected_by * sizeof(*sym->selected_by));
		if (sym->nr_implied_by)
			sym->implied_by = arena_alloc(a, sym->nr_implied_by * sizeof(*sym->implied_by));
		sym->nr_defs = sym->nr_selected_by = sym->nr_implied_by = 0;
	}
	for (i = 0; i < p->nr_defs; i++) {
		struct kconfig_definition *def = p->defs[i];
		struct kconfig_symbol *t;

		if (def->symbol)
			def->symbol->defs[def->symbol->nr_defs++] = def;
		for (j = 0; j < def->nr_selects; j++) {
			t = def->selects[j].target;
			t->selected_by[t->nr_selected_by].from = def;
			t->selected_by[t->nr_selected_by++].cond = def->selects[j].cond;
		}
		for (j = 0; j < def->nr_implies; j++) {
			t = def->implies[j].target;
			t->implied_by[t->nr_implied_by].from = def;
			t->implied_by[t->nr_implied_by++].cond = def->implies[j].cond;
		}
	}
}

void kconfig_tree_finish(struct kconfig *kc)
{
	struct kconfig_private *p = kc->priv;
	size_t i, j, n = 0;

	link_definitions(kc);
	for (i = 0; i < p->nr_defs; i++)
		definition_numbers_to_constants(p->defs[i]);
	kc->symbols = xmalloc((p->nr_created + 1) * sizeof(*kc->symbols));
	/* Defined symbols in the order of their first definition. */
	for (i = 0; i < p->nr_defs; i++) {
		struct kconfig_symbol *sym = p->defs[i]->symbol;

		if (sym && sym->defs[0] == p->defs[i])
			kc->symbols[n++] = sym;
	}
	kc->nr_defined = n;
	for (i = 0; i < p->nr_created; i++)
		if (!p->created[i]->nr_defs && !(p->created[i]->flags & (KSYM_CONST | KSYM_PROBE)) &&
		    !kconfig_tree_is_number(p->created[i]->name))
			kc->symbols[n++] = p->created[i];
	for (i = 0; i < p->nr_created; i++)
		if (p->created[i]->flags & KSYM_PROBE)
			kc->symbols[n++] = p->created[i];
	kc->nr_symbols = n;
	for (i = 0; i < n; i++)
		kc->symbols[i]->index = i;
	kc->nr_definitions = p->nr_defs;

	/* A choice takes the type of its first typed member, and gives it to untyped ones. */
	for (i = 0; i < kc->nr_choices; i++) {
		struct kconfig_choice *c = kc->choices[i];

		for (j = 0; j < c->nr_members && c->type == KCONFIG_UNKNOWN; j++)
			c->type = c->members[j]->type;
		for (j = 0; j < c->nr_members; j++)
			if (c->members[j]->type == KCONFIG_UNKNOWN)
				c->members[j]->type = c->type;
	}
}

struct kconfig_file_defs {
	struct kconfig_definition **v;
	size_t nr, alloc;
};

static void free_file_defs(void *p)
{
	struct kconfig_file_defs *fd = p;

	free(fd->v);
	free(fd);
}

size_t kconfig_file_definitions(struct kconfig *kc, const char *path,
				struct kconfig_definition *const **out)
{
	struct kconfig_private *p = kc->priv;
	struct kconfig_file_defs *fd;

	if (!p->by_path_built) {
		for (size_t i = 0; i < p->nr_defs; i++) {
			struct kconfig_definition *d = p->defs[i];

			fd = strmap_get(&p->by_path, d->loc.path);
			if (!fd) {
				fd = xcalloc(1, sizeof(*fd));
				strmap_put(&p->by_path, d->loc.path, fd);
			}
			ALLOC_GROW(fd->v, fd->nr + 1, fd->alloc);
			fd->v[fd->nr++] = d;
		}
		p->by_path_built = 1;
	}
	fd = strmap_get(&p->by_path, path);
	*out = fd ? fd->v : NULL;
	return fd ? fd->nr : 0;
}

void kconfig_free(struct kconfig *kc)
{
	struct kconfig_private *p;
	size_t i;

	if (!kc)
		return;
	p = kc->priv;
	strbuf_release(&kc->inputs);
	for (i = 0; i < kc->nr_choices; i++) {
		free(kc->choices[i]->defs);
		free(kc->choices[i]->members);
	}
	free(kc->choices);
	free(kc->symbols);
	free(p->created);
	free(p->defs);
	strmap_clear(&p->symbols, NULL);
	strmap_clear(&p->paths, NULL);
	strmap_clear(&p->choices, NULL);
	strmap_clear(&p->by_path, free_file_defs);
	arena_release(&p->arena);
	free(p);
	free(kc);
}

void kconfig_definition_each_expr(const struct kconfig_definition *d,
				  void (*fn)(void *data, const struct kconfig_expr *e), void *data)
{
	fn(data, d->dep);
	for (size_t j = 0; j < d->nr_prompts; j++)
		fn(data, d->prompts[j].cond);
	for (size_t j = 0; j < d->nr_defaults; j++) {
		fn(data, d->defaults[j].value);
		fn(data, d->defaults[j].cond);
	}
}

/* ---- printing ---- */

static int precedence(const struct kconfig_expr *e)
{
	switch (e->type) {
	case KEXPR_OR:
		return 1;
	case KEXPR_AND:
		return 2;
	case KEXPR_EQUAL:
	case KEXPR_UNEQUAL:
		return 3;
	case KEXPR_LESS:
	case KEXPR_LESS_EQUAL:
	case KEXPR_GREATER:
	case KEXPR_GREATER_EQUAL:
		return 4;
	case KEXPR_NOT:
		return 5;
	default:
		return 6;
	}
}

static void print_sub(const struct kconfig_expr *e, int min_prec, struct strbuf *out)
{
	if (precedence(e) < min_prec) {
		strbuf_addch(out, '(');
		kconfig_expr_print(e, out);
		strbuf_addch(out, ')');
	} else {
		kconfig_expr_print(e, out);
	}
}

void kconfig_expr_print(const struct kconfig_expr *e, struct strbuf *out)
{
	static const char *const ops[] = {
		[KEXPR_AND] = " && ", [KEXPR_OR] = " || ", [KEXPR_EQUAL] = " = ",
		[KEXPR_UNEQUAL] = " != ", [KEXPR_LESS] = " < ", [KEXPR_LESS_EQUAL] = " <= ",
		[KEXPR_GREATER] = " > ", [KEXPR_GREATER_EQUAL] = " >= ",
	};
	const char *s;

	if (!e) {
		strbuf_addch(out, 'y');
		return;
	}
	switch (e->type) {
	case KEXPR_SYMBOL:
		strbuf_addstr(out, e->sym->name);
		break;
	case KEXPR_CONST:
		if (kconfig_tree_is_number(e->value)) {
			strbuf_addstr(out, e->value);
			break;
		}
		strbuf_addch(out, '"');
		for (s = e->value; *s; s++) {
			if (*s == '"' || *s == '\\')
				strbuf_addch(out, '\\');
			strbuf_addch(out, *s);
		}
		strbuf_addch(out, '"');
		break;
	case KEXPR_NOT:
		strbuf_addch(out, '!');
		/* `!A = B` means !(A = B): keep the parentheses for the reader. */
		print_sub(e->left, 5, out);
		break;
	default:
		print_sub(e->left, precedence(e), out);
		strbuf_addstr(out, ops[e->type]);
		/* Comparisons do not chain; AND and OR are associative. */
		print_sub(e->right, precedence(e) + (precedence(e) > 2), out);
		break;
	}
}

void kconfig_dump_symbols(const struct kconfig *kc, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, j;

	for (i = 0; i < kc->nr_defined; i++) {
		const struct kconfig_symbol *sym = kc->symbols[i];

		strbuf_reset(&sb);
		strbuf_addf(&sb, "CONFIG_%s %s", sym->name, kconfig_type_name(sym->type));
		for (j = 0; j < sym->nr_defs; j++)
			strbuf_addf(&sb, " %s:%d", sym->defs[j]->loc.path, sym->defs[j]->loc.line);
		strbuf_addch(&sb, '\n');
		fputs(sb.buf, out);
	}
	strbuf_release(&sb);
}

static void dump_cond(struct strbuf *sb, const struct kconfig_expr *cond)
{
	if (cond) {
		strbuf_addstr(sb, " if ");
		kconfig_expr_print(cond, sb);
	}
}

static void dump_quoted(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		if (*s == '\n')
			strbuf_addstr(sb, "\\n");
		else if (*s == '"' || *s == '\\')
			strbuf_addch(sb, '\\'), strbuf_addch(sb, *s);
		else
			strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '"');
}

static void dump_definition(const struct kconfig_definition *def, struct strbuf *sb)
{
	size_t i;

	if (def->kind == KDEF_CHOICE)
		strbuf_addf(sb, "choice %s", def->choice->name ? def->choice->name : "<anonymous>");
	else
		strbuf_addf(sb, "%s %s", def->kind == KDEF_MENUCONFIG ? "menuconfig" : "config",
			    def->symbol->name);
	strbuf_addf(sb, " %s %s:%d\n", kconfig_type_name(def->type), def->loc.path, def->loc.line);
	if (def->kind != KDEF_CHOICE && def->choice)
		strbuf_addf(sb, "\tin choice %s\n",
			    def->choice->name ? def->choice->name : "<anonymous>");
	if (def->dep) {
		strbuf_addstr(sb, "\tdepends on ");
		kconfig_expr_print(def->dep, sb);
		strbuf_addch(sb, '\n');
	}
	for (i = 0; i < def->nr_prompts; i++) {
		strbuf_addstr(sb, "\tprompt ");
		dump_quoted(sb, def->prompts[i].text);
		dump_cond(sb, def->prompts[i].cond);
		strbuf_addch(sb, '\n');
	}
	for (i = 0; i < def->nr_defaults; i++) {
		strbuf_addstr(sb, "\tdefault ");
		kconfig_expr_print(def->defaults[i].value, sb);
		dump_cond(sb, def->defaults[i].cond);
		strbuf_addch(sb, '\n');
	}
	for (i = 0; i < def->nr_selects; i++) {
		strbuf_addf(sb, "\tselect %s", def->selects[i].target->name);
		dump_cond(sb, def->selects[i].cond);
		strbuf_addch(sb, '\n');
	}
	for (i = 0; i < def->nr_implies; i++) {
		strbuf_addf(sb, "\timply %s", def->implies[i].target->name);
		dump_cond(sb, def->implies[i].cond);
		strbuf_addch(sb, '\n');
	}
	for (i = 0; i < def->nr_ranges; i++) {
		strbuf_addstr(sb, "\trange ");
		kconfig_expr_print(def->ranges[i].low, sb);
		strbuf_addch(sb, ' ');
		kconfig_expr_print(def->ranges[i].high, sb);
		dump_cond(sb, def->ranges[i].cond);
		strbuf_addch(sb, '\n');
	}
	if (def->help) {
		strbuf_addstr(sb, "\thelp ");
		dump_quoted(sb, def->help);
		strbuf_addch(sb, '\n');
	}
}

static void dump_flags(struct strbuf *sb, unsigned flags)
{
	static const char *const names[] = {
		"const", "modules", "transitional", "probe", "env", "defconfig_list",
		"allnoconfig_y", "choice_member",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (flags & (1u << i))
			strbuf_addf(sb, " %s", names[i]);
}

void kconfig_dump_details(const struct kconfig *kc, FILE *out)
{
	const struct kconfig_private *p = kc->priv;
	struct strbuf sb = STRBUF_INIT;
	size_t i, j;

	if (kc->mainmenu) {
		strbuf_addstr(&sb, "mainmenu ");
		dump_quoted(&sb, kc->mainmenu);
		strbuf_addch(&sb, '\n');
	}
	for (i = 0; i < p->nr_defs; i++)
		dump_definition(p->defs[i], &sb);
	for (i = 0; i < kc->nr_choices; i++) {
		const struct kconfig_choice *c = kc->choices[i];

		strbuf_addf(&sb, "choice %s %s%s members:", c->name ? c->name : "<anonymous>",
			    kconfig_type_name(c->type), c->optional ? " optional" : "");
		for (j = 0; j < c->nr_members; j++)
			strbuf_addf(&sb, " %s", c->members[j]->name);
		strbuf_addch(&sb, '\n');
	}
	for (i = 0; i < kc->nr_symbols; i++) {
		const struct kconfig_symbol *sym = kc->symbols[i];

		strbuf_addf(&sb, "symbol %s %s", sym->name, kconfig_type_name(sym->type));
		if (!sym->nr_defs && !(sym->flags & KSYM_PROBE))
			strbuf_addstr(&sb, " undefined");
		dump_flags(&sb, sym->flags);
		if (sym->env)
			strbuf_addf(&sb, " env=%s", sym->env);
		strbuf_addch(&sb, '\n');
		for (j = 0; j < sym->nr_selected_by; j++) {
			strbuf_addf(&sb, "\tselected by %s", sym->selected_by[j].from->symbol->name);
			dump_cond(&sb, sym->selected_by[j].cond);
			strbuf_addch(&sb, '\n');
		}
		for (j = 0; j < sym->nr_implied_by; j++) {
			strbuf_addf(&sb, "\timplied by %s", sym->implied_by[j].from->symbol->name);
			dump_cond(&sb, sym->implied_by[j].cond);
			strbuf_addch(&sb, '\n');
		}
	}
	if (kc->modules)
		strbuf_addf(&sb, "modules %s\n", kc->modules->name);
	fputs(strbuf_str(&sb), out);
	strbuf_release(&sb);
}
