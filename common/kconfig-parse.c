// SPDX-License-Identifier: GPL-2.0
/*
 * The Kconfig parser: statements and expressions over the lexed lines of a
 * file, after macro expansion. Dependencies of enclosing if/menu/choice blocks
 * are ANDed into each definition as kconfig does; prompts also get the
 * `visible if` of every enclosing menu.
 */
#include "kconfig-internal.h"

#include <stdlib.h>
#include <string.h>

/* An entry whose first line was wrong: its properties are skipped quietly. */
#define DROPPED_ENTRY (-1)

/* ---- blocks and entries ---- */

static struct kconfig_expr *parent_dep(struct parse_state *ps, size_t below)
{
	return ps->nr_blocks > below ? ps->blocks[ps->nr_blocks - 1 - below].dep : NULL;
}

/*
 * a && b for dependencies that add up (nested blocks, several `depends on`):
 * beyond KCONFIG_MAX_EXPR_DEPTH, b is left out with an error (fewer
 * constraints: the model still admits every configuration kconfig does).
 */
static struct kconfig_expr *dep_and(struct parse_state *ps, struct kconfig_expr *a,
				    struct kconfig_expr *b)
{
	struct kconfig_expr *r = kconfig_tree_and(ps->kc, a, b);

	if (r && r->depth > KCONFIG_MAX_EXPR_DEPTH) {
		if (!ps->deps_too_deep++)
			kconfig_ps_error(ps, ps->path, ps->line,
					 "dependencies nested deeper than %d levels; this condition, "
					 "and any other beyond the limit, is left out", KCONFIG_MAX_EXPR_DEPTH);
		return a;
	}
	return r;
}

static int depends_on_symbol(const struct kconfig_expr *e, const struct kconfig_symbol *sym)
{
	if (!e)
		return 0;
	switch (e->type) {
	case KEXPR_AND:
	case KEXPR_OR:
		return depends_on_symbol(e->left, sym) || depends_on_symbol(e->right, sym);
	case KEXPR_SYMBOL:
		return e->sym == sym;
	case KEXPR_EQUAL:
		return e->left->type == KEXPR_SYMBOL && e->left->sym == sym &&
		       e->right->type == KEXPR_SYMBOL && (e->right->sym->flags & KSYM_CONST) &&
		       e->right->sym->name[0] != 'n';
	case KEXPR_UNEQUAL:
		return e->left->type == KEXPR_SYMBOL && e->left->sym == sym &&
		       e->right->type == KEXPR_SYMBOL && e->right->sym->name[0] == 'n' &&
		       (e->right->sym->flags & KSYM_CONST);
	default:
		return 0;
	}
}

static void append_unique(struct kconfig_symbol ***list, size_t *nr, struct kconfig_symbol *sym)
{
	size_t i;

	for (i = 0; i < *nr; i++)
		if ((*list)[i] == sym)
			return;
	*list = xrealloc(*list, (*nr + 1) * sizeof(**list));
	(*list)[(*nr)++] = sym;
}

/*
 * A config directly in a choice (if-blocks aside) is a member, unless it
 * depends on the member before it: kconfig then nests it under that member.
 */
static void choice_membership(struct parse_state *ps, struct kconfig_definition *def,
			      struct kconfig_expr *own)
{
	struct block *b = NULL;
	size_t i = ps->nr_blocks;
	int in_if = 0;

	while (i-- > 0) {
		b = &ps->blocks[i];
		if (b->kind != K_IF)
			break;
		in_if = 1;
		if (own && own->depth >= KCONFIG_MAX_EXPR_DEPTH)
			break;
		own = kconfig_tree_and(ps->kc, b->dep, own);	/* conservative: if deps include outer ones */
	}
	if (!b || b->kind != K_CHOICE)
		return;
	def->in_choice = b->choice_def->choice;
	def->in_choice_dep = in_if ? def->dep : ps->cur.own_dep;
	for (i = 0; i < b->nr_chain; i++) {
		if (depends_on_symbol(own, b->chain[i])) {
			ALLOC_GROW(b->chain, b->nr_chain + 1, b->alloc_chain);
			b->chain[b->nr_chain++] = def->symbol;
			return;
		}
	}
	b->nr_chain = 0;
	ALLOC_GROW(b->chain, b->nr_chain + 1, b->alloc_chain);
	b->chain[b->nr_chain++] = def->symbol;
	def->choice = b->choice_def->choice;
	def->symbol->flags |= KSYM_CHOICE_MEMBER;
	append_unique(&def->choice->members, &def->choice->nr_members, def->symbol);
}

/*
 * Properties of the entry being parsed grow in buffers of the parse; the
 * entry's end moves them into the arena (no allocation per definition).
 */
static void *entry_slot(struct parse_state *ps, int which, size_t size, size_t nr)
{
	struct scratch_array *t = &ps->tmp[which];

	if ((nr + 1) * size > t->alloc) {
		t->alloc = (nr + 8) * size * 2;
		t->buf = xrealloc(t->buf, t->alloc);
	}
	return t->buf;
}

#define FREEZE(ps, array, nr) do { \
	if (nr) { \
		void *frozen_ = arena_alloc(&(ps)->kc->priv->arena, (nr) * sizeof(*(array))); \
		memcpy(frozen_, (array), (nr) * sizeof(*(array))); \
		(array) = frozen_; \
	} \
} while (0)

static void freeze_definition(struct parse_state *ps, struct kconfig_definition *def)
{
	FREEZE(ps, def->prompts, def->nr_prompts);
	FREEZE(ps, def->defaults, def->nr_defaults);
	FREEZE(ps, def->selects, def->nr_selects);
	FREEZE(ps, def->implies, def->nr_implies);
	FREEZE(ps, def->ranges, def->nr_ranges);
}

static void end_entry(struct parse_state *ps)
{
	struct entry *e = &ps->cur;

	if (e->def)
		freeze_definition(ps, e->def);

	switch (e->kind) {
	case K_CONFIG:
	case K_MENUCONFIG:
		e->def->dep = dep_and(ps, parent_dep(ps, 0), e->own_dep);
		/* kconfig asks it of the prompt's condition when there is one (`bool "B" if A`). */
		choice_membership(ps, e->def, e->def->nr_prompts && e->def->prompts[0].cond ?
				  kconfig_tree_and(ps->kc, e->def->prompts[0].cond, e->own_dep) :
				  e->own_dep);
		break;
	case K_CHOICE:
		e->def->dep = dep_and(ps, parent_dep(ps, 1), e->own_dep);
		ps->blocks[ps->nr_blocks - 1].dep = e->def->dep;
		break;
	case K_MENU:
		ps->blocks[ps->nr_blocks - 1].dep = dep_and(ps, parent_dep(ps, 1), e->own_dep);
		break;
	}
	memset(e, 0, sizeof(*e));
}

static struct block *push_block(struct parse_state *ps, int kind)
{
	struct block *b;

	ALLOC_GROW(ps->blocks, ps->nr_blocks + 1, ps->alloc_blocks);
	b = &ps->blocks[ps->nr_blocks++];
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->path = ps->path;
	b->line = ps->line;
	b->dep = parent_dep(ps, 1);
	return b;
}

static void pop_block(struct parse_state *ps)
{
	free(ps->blocks[ps->nr_blocks - 1].chain);
	ps->nr_blocks--;
}

void kconfig_parse_end_file(struct parse_state *ps, size_t depth)
{
	end_entry(ps);
	while (ps->nr_blocks > depth) {
		struct block *b = &ps->blocks[ps->nr_blocks - 1];

		kconfig_ps_error(ps, b->path, b->line, "'%s' without '%s' in the same file",
			 kconfig_token_name(b->kind),
			 b->kind == K_IF ? "endif" : b->kind == K_MENU ? "endmenu" : "endchoice");
		pop_block(ps);
	}
}

static int end_block(struct parse_state *ps, int kind, size_t depth)
{
	const char *name = kconfig_token_name(kind);

	if (kconfig_expect_end(ps))
		return -1;
	if (ps->nr_blocks <= depth) {
		kconfig_ps_error(ps, ps->path, ps->line, "'end%s' without '%s'", name, name);
		return -1;
	}
	if (ps->blocks[ps->nr_blocks - 1].kind != kind) {
		const struct block *b = &ps->blocks[ps->nr_blocks - 1];

		kconfig_ps_error(ps, ps->path, ps->line, "'end%s' in the '%s' block of %s:%d", name,
			 kconfig_token_name(b->kind), b->path, b->line);
		return -1;
	}
	pop_block(ps);
	return 0;
}

/* ---- statements ---- */

static struct kconfig_definition *new_config(struct parse_state *ps, int kind)
{
	const struct xtok *t = kconfig_peek(ps);
	struct kconfig *kc = ps->kc;
	struct kconfig_symbol *sym;
	struct kconfig_definition *def;

	if (!t || t->kind != T_WORD || kconfig_constant_symbol(kc, t->text)) {
		kconfig_syntax_error(ps, "expected a symbol name");
		return NULL;
	}
	ps->pos++;
	if (kconfig_expect_end(ps))
		return NULL;
	sym = kconfig_tree_symbol(kc, t->text, strlen(t->text));
	def = kconfig_tree_new_definition(kc, kind == K_CONFIG ? KDEF_CONFIG : KDEF_MENUCONFIG, ps->path, ps->line);
	def->symbol = sym;
	/* sym->defs is filled at the end, when the numbers are known. */
	return def;
}

static void new_choice(struct parse_state *ps)
{
	const struct xtok *t = kconfig_peek(ps);
	const char *name = NULL;
	struct kconfig_choice *c;
	struct kconfig_definition *def;
	struct block *b;

	if (t && t->kind == T_WORD) {
		name = t->text;
		ps->pos++;
	}
	if (kconfig_expect_end(ps)) {
		ps->cur.kind = DROPPED_ENTRY;	/* its endchoice will be an error */
		return;
	}
	c = kconfig_tree_choice(ps->kc, name);
	def = kconfig_tree_new_definition(ps->kc, KDEF_CHOICE, ps->path, ps->line);
	def->choice = c;
	c->defs = xrealloc(c->defs, (c->nr_defs + 1) * sizeof(*c->defs));
	c->defs[c->nr_defs++] = def;
	b = push_block(ps, K_CHOICE);
	b->choice_def = def;
	ps->cur.kind = K_CHOICE;
	ps->cur.def = def;
}

/* A string argument; its probes (if any) become their text. */
static const char *parse_text(struct parse_state *ps)
{
	const struct xtok *t = kconfig_peek(ps);
	char *text;

	if (!t || (t->kind != T_STRING && t->kind != T_WORD && t->kind != T_PROBE)) {
		kconfig_syntax_error(ps, "expected a string");
		return NULL;
	}
	ps->pos++;
	if (!strchr(t->text, PROBE_MARK))
		return t->text;
	text = kconfig_preproc_unmark(ps->pp, t->text);
	strvec_push(&ps->scratch, text);
	free(text);
	return ps->scratch.v[ps->scratch.nr - 1];
}

static int need_entry(struct parse_state *ps, int kw, int symbol_or_choice)
{
	int k = ps->cur.kind;

	if (k == K_CONFIG || k == K_MENUCONFIG || (symbol_or_choice && k == K_CHOICE))
		return 0;
	kconfig_ps_error(ps, ps->path, ps->line, "'%s' outside of a %s", kconfig_token_name(kw),
		 symbol_or_choice ? "config or choice entry" : "config entry");
	return -1;
}

static void set_type(struct parse_state *ps, enum kconfig_type type)
{
	struct kconfig_definition *def = ps->cur.def;
	enum kconfig_type *have;
	const char *name;

	def->type = type;
	if (def->kind == KDEF_CHOICE) {
		have = &def->choice->type;
		name = def->choice->name ? def->choice->name : "<choice>";
	} else {
		have = &def->symbol->type;
		name = def->symbol->name;
	}
	if (*have == KCONFIG_UNKNOWN)
		*have = type;
	else if (*have != type)
		kconfig_ps_warning(ps, ps->path, ps->line, "ignoring type redefinition of '%s' from '%s' to '%s'",
			   name, kconfig_type_name(*have), kconfig_type_name(type));
}

static void add_prompt(struct parse_state *ps, const char *text, struct kconfig_expr *cond)
{
	struct kconfig_definition *def = ps->cur.def;
	struct kconfig *kc = ps->kc;
	size_t i = ps->nr_blocks;

	if (!def)
		return;	/* a menu's or comment's text: no symbol to show */
	while (i-- > 0)
		if (ps->blocks[i].visible)
			cond = dep_and(ps, cond, ps->blocks[i].visible);
	def->prompts = entry_slot(ps, TMP_PROMPTS, sizeof(*def->prompts), def->nr_prompts);
	def->prompts[def->nr_prompts].text = arena_strndup(&kc->priv->arena, text, strlen(text));
	def->prompts[def->nr_prompts].cond = cond;
	def->nr_prompts++;
}

static void add_default(struct parse_state *ps, struct kconfig_expr *value, struct kconfig_expr *cond)
{
	struct kconfig_definition *def = ps->cur.def;

	def->defaults = entry_slot(ps, TMP_DEFAULTS, sizeof(*def->defaults), def->nr_defaults);
	def->defaults[def->nr_defaults].value = value;
	def->defaults[def->nr_defaults].cond = cond;
	def->nr_defaults++;
}

static enum kconfig_type type_of(int kw)
{
	switch (kw) {
	case K_BOOL: case K_DEF_BOOL: return KCONFIG_BOOL;
	case K_TRISTATE: case K_DEF_TRISTATE: return KCONFIG_TRISTATE;
	case K_STRING: return KCONFIG_STRING;
	case K_INT: return KCONFIG_INT;
	case K_HEX: return KCONFIG_HEX;
	}
	return KCONFIG_UNKNOWN;
}

static void parse_type(struct parse_state *ps, int kw)
{
	const char *text = NULL;
	struct kconfig_expr *cond;

	if (need_entry(ps, kw, 1))
		return;
	if (ps->pos < ps->nr_xt && kconfig_peek_kind(ps) != K_IF && !(text = parse_text(ps)))
		return;
	if (kconfig_parse_if(ps, &cond))
		return;
	set_type(ps, type_of(kw));
	if (text)
		add_prompt(ps, text, cond);
}

static void parse_select(struct parse_state *ps, int kw)
{
	struct kconfig_definition *def = ps->cur.def;
	const struct xtok *t = kconfig_peek(ps);
	struct kconfig_symbol *target;
	struct kconfig_expr *cond;
	struct kconfig_select **list = kw == K_SELECT ? &def->selects : &def->implies;
	size_t *nr = kw == K_SELECT ? &def->nr_selects : &def->nr_implies;

	if (!t || t->kind != T_WORD || kconfig_constant_symbol(ps->kc, t->text)) {
		kconfig_syntax_error(ps, "expected a symbol name");
		return;
	}
	ps->pos++;
	if (kconfig_parse_if(ps, &cond))
		return;
	target = kconfig_tree_symbol(ps->kc, t->text, strlen(t->text));
	*list = entry_slot(ps, kw == K_SELECT ? TMP_SELECTS : TMP_IMPLIES, sizeof(**list), *nr);
	(*list)[*nr].target = target;
	(*list)[*nr].cond = cond;
	(*list)[*nr].line = ps->line;
	(*nr)++;
}

static void parse_depends(struct parse_state *ps)
{
	struct kconfig *kc = ps->kc;
	struct kconfig_expr *e, *cond;
	int k = ps->cur.kind;

	if (k != K_CONFIG && k != K_MENUCONFIG && k != K_CHOICE && k != K_MENU && k != K_COMMENT) {
		kconfig_ps_error(ps, ps->path, ps->line, "'depends on' outside of an entry");
		return;
	}
	kconfig_accept(ps, K_ON);	/* `depends EXPR` in very old trees */
	if (!(e = kconfig_parse_or(ps)) || kconfig_parse_if(ps, &cond))
		return;
	if (cond)	/* `depends on A if B` is `depends on !B || A`; !!x is x in tristate logic */
		e = kconfig_tree_expr(kc, KEXPR_OR, cond->type == KEXPR_NOT ? cond->left :
			    kconfig_tree_expr(kc, KEXPR_NOT, cond, NULL), e);
	ps->cur.own_dep = dep_and(ps, ps->cur.own_dep, e);
}

static void parse_range(struct parse_state *ps)
{
	struct kconfig_definition *def = ps->cur.def;
	struct kconfig_expr *low, *high, *cond;

	if (!(low = kconfig_parse_term(ps)) || !(high = kconfig_parse_term(ps)) || kconfig_parse_if(ps, &cond))
		return;
	def->ranges = entry_slot(ps, TMP_RANGES, sizeof(*def->ranges), def->nr_ranges);
	def->ranges[def->nr_ranges].low = low;
	def->ranges[def->nr_ranges].high = high;
	def->ranges[def->nr_ranges].cond = cond;
	def->nr_ranges++;
}

static void set_modules(struct parse_state *ps)
{
	struct kconfig *kc = ps->kc;
	struct kconfig_symbol *sym = ps->cur.def->symbol;

	if (kc->modules && kc->modules != sym)
		kconfig_ps_warning(ps, ps->path, ps->line, "'%s' redefines 'modules', already set by '%s'",
			   sym->name, kc->modules->name);
	kc->modules = sym;
	sym->flags |= KSYM_MODULES;
}

static void parse_option(struct parse_state *ps)
{
	const struct xtok *t = kconfig_peek(ps);
	struct kconfig_symbol *sym = ps->cur.def->symbol;

	if (t && t->kind == K_MODULES) {	/* `option modules`: "modules" lexes as a keyword */
		ps->pos++;
		if (!kconfig_expect_end(ps))
			set_modules(ps);
		return;
	}
	if (!t || t->kind != T_WORD) {
		kconfig_syntax_error(ps, "expected an option");
		return;
	}
	ps->pos++;
	if (!strcmp(t->text, "env")) {
		const struct xtok *v;
		struct kconfig *kc = ps->kc;
		const char *value;

		if (!kconfig_accept(ps, T_EQUAL) || !(v = kconfig_peek(ps)) || v->kind != T_STRING) {
			kconfig_syntax_error(ps, "expected env=\"NAME\"");
			return;
		}
		ps->pos++;
		if (kconfig_expect_end(ps))
			return;
		sym->flags |= KSYM_ENV;
		sym->env = arena_strndup(&kc->priv->arena, v->text, strlen(v->text));
		/* Its value comes from the environment: known, or free. */
		value = kconfig_preproc_get_env(ps->pp, v->text);
		if (value) {
			add_default(ps, kconfig_tree_expr_const(kc, value, strlen(value)), NULL);
		} else {
			char *text = xstrfmt("$(%s)", v->text);
			add_default(ps, kconfig_tree_expr_symbol(kc, kconfig_tree_new_probe(kc, text)), NULL);
			free(text);
		}
		return;
	}
	if (kconfig_expect_end(ps))
		return;
	if (!strcmp(t->text, "defconfig_list"))
		sym->flags |= KSYM_DEFCONFIG_LIST;
	else if (!strcmp(t->text, "allnoconfig_y"))
		sym->flags |= KSYM_ALLNOCONFIG_Y;
	else
		kconfig_ps_warning(ps, ps->path, ps->line, "ignoring unknown option '%s'", t->text);
}

static void parse_property(struct parse_state *ps, int kw)
{
	struct kconfig_expr *e, *cond;
	const char *text;

	switch (kw) {
	case K_BOOL: case K_TRISTATE: case K_STRING: case K_INT: case K_HEX:
		parse_type(ps, kw);
		return;
	case K_DEF_BOOL: case K_DEF_TRISTATE:
		if (need_entry(ps, kw, 1) || !(e = kconfig_parse_or(ps)) || kconfig_parse_if(ps, &cond))
			return;
		set_type(ps, type_of(kw));
		add_default(ps, e, cond);
		return;
	case K_PROMPT:
		if (need_entry(ps, kw, 1) || !(text = parse_text(ps)) || kconfig_parse_if(ps, &cond))
			return;
		add_prompt(ps, text, cond);
		return;
	case K_DEFAULT:
		if (need_entry(ps, kw, 1) || !(e = kconfig_parse_or(ps)) || kconfig_parse_if(ps, &cond))
			return;
		add_default(ps, e, cond);
		return;
	case K_DEPENDS:
		parse_depends(ps);
		return;
	case K_SELECT: case K_IMPLY:
		if (!need_entry(ps, kw, 0))
			parse_select(ps, kw);
		return;
	case K_RANGE:
		if (!need_entry(ps, kw, 0))
			parse_range(ps);
		return;
	case K_VISIBLE:
		if (ps->cur.kind != K_MENU) {
			kconfig_ps_error(ps, ps->path, ps->line, "'visible if' outside of a menu entry");
			return;
		}
		if (!kconfig_accept(ps, K_IF)) {
			kconfig_syntax_error(ps, "expected 'if'");
			return;
		}
		if (!(e = kconfig_parse_or(ps)) || kconfig_expect_end(ps))
			return;
		ps->blocks[ps->nr_blocks - 1].visible = dep_and(ps, ps->blocks[ps->nr_blocks - 1].visible, e);
		return;
	case K_MODULES:
		if (!need_entry(ps, kw, 0) && !kconfig_expect_end(ps))
			set_modules(ps);
		return;
	case K_TRANSITIONAL:
		if (!need_entry(ps, kw, 0) && !kconfig_expect_end(ps))
			ps->cur.def->symbol->flags |= KSYM_TRANSITIONAL;
		return;
	case K_OPTION:
		if (!need_entry(ps, kw, 0))
			parse_option(ps);
		return;
	case K_OPTIONAL:
		if (ps->cur.kind != K_CHOICE) {
			kconfig_ps_error(ps, ps->path, ps->line, "'optional' outside of a choice entry");
			return;
		}
		if (!kconfig_expect_end(ps))
			ps->cur.def->choice->optional = 1;
		return;
	}
}

static void parse_help(struct parse_state *ps)
{
	struct kconfig_definition *def = ps->cur.def;
	const char *text = ps->nr_xt > 1 ? ps->xt[1].text : "";

	/* kconfig takes help in menus and comments too, and ignores it. */
	if (def && ps->opts->keep_help && (ps->cur.kind == K_CONFIG || ps->cur.kind == K_MENUCONFIG || ps->cur.kind == K_CHOICE))
		def->help = arena_strndup(&ps->kc->priv->arena, text, strlen(text));
}

static void parse_statement(struct parse_state *ps, size_t depth)
{
	int kw = ps->xt[0].kind;
	struct kconfig_expr *e;
	struct block *b;
	const char *text;

	ps->pos = 1;
	switch (kw) {
	case K_CONFIG:
	case K_MENUCONFIG: {
		struct kconfig_definition *def;

		end_entry(ps);
		if ((def = new_config(ps, kw))) {
			ps->cur.kind = kw;
			ps->cur.def = def;
		} else {
			ps->cur.kind = DROPPED_ENTRY;
		}
		return;
	}
	case K_CHOICE:
		end_entry(ps);
		new_choice(ps);
		return;
	case K_ENDCHOICE: case K_ENDMENU: case K_ENDIF:
		end_entry(ps);
		end_block(ps, kw == K_ENDCHOICE ? K_CHOICE : kw == K_ENDMENU ? K_MENU : K_IF, depth);
		return;
	case K_MENU:
		end_entry(ps);
		if (!parse_text(ps) || kconfig_expect_end(ps)) {
			ps->cur.kind = DROPPED_ENTRY;	/* its endmenu will be an error */
			return;
		}
		push_block(ps, K_MENU);
		ps->cur.kind = K_MENU;
		return;
	case K_COMMENT:
		end_entry(ps);
		if (!parse_text(ps) || kconfig_expect_end(ps)) {
			ps->cur.kind = DROPPED_ENTRY;
			return;
		}
		ps->cur.kind = K_COMMENT;
		return;
	case K_IF:
		end_entry(ps);
		if (!(e = kconfig_parse_or(ps)) || kconfig_expect_end(ps))
			return;
		/* push_block starts it with the enclosing dep (two statements: order matters). */
		b = push_block(ps, K_IF);
		b->dep = dep_and(ps, b->dep, e);
		return;
	case K_MAINMENU:
		end_entry(ps);
		if (!(text = parse_text(ps)) || kconfig_expect_end(ps))
			return;
		if (!ps->kc->mainmenu)
			ps->kc->mainmenu = arena_strndup(&ps->kc->priv->arena, text, strlen(text));
		return;
	case K_SOURCE: case K_RSOURCE: case K_OSOURCE: case K_ORSOURCE:
		end_entry(ps);
		if (!(text = parse_text(ps)) || kconfig_expect_end(ps))
			return;
		kconfig_parse_source(ps, kw, text);
		return;
	case K_HELP:
		parse_help(ps);
		return;
	case T_WORD:
		kconfig_ps_error(ps, ps->path, ps->line, "unknown statement '%s'", ps->xt[0].text);
		return;
	default:
		if (kw >= K_BOOL && kw <= K_TRANSITIONAL && kw != K_ON) {
			/* The entry was an error already: say nothing more of its lines. */
			if (ps->cur.kind != DROPPED_ENTRY)
				parse_property(ps, kw);
			return;
		}
		ps->pos = 0;
		kconfig_syntax_error(ps, "expected a statement");
	}
}

static void parse_assignment(struct parse_state *ps, const struct kconfig_lexed *lf, const struct kline *l)
{
	const struct ktoken *t = &lf->toks[l->first];
	const char *name = tok_text(lf, t);
	char *expanded = NULL;

	end_entry(ps);
	if (t->flags & TF_DOLLAR)
		name = expanded = kconfig_preproc_expand(ps->pp, name, t->len);
	/*
	 * kconfig takes the name as it expands, blanks and all (foo$(space)bar).
	 * A name made of what only the environment knows is no name we can
	 * look up later: the assignment is left out, as kconfig would accept it.
	 */
	if (!*name)
		kconfig_ps_error(ps, ps->path, ps->line, "invalid variable name '%s'", tok_text(lf, t));
	else if (!strchr(name, PROBE_MARK))
		kconfig_preproc_assign(ps->pp, name, lf->toks[l->first + 1].kind, tok_text(lf, t + 2));
	free(expanded);
}

void kconfig_parse_lines(struct parse_state *ps, const struct kconfig_lexed *lf)
{
	size_t i, depth = ps->nr_blocks;

	for (i = 0; i < lf->nr_lines; i++) {
		const struct kline *l = &lf->lines[i];

		ps->line = l->lineno;
		if (l->assignment) {
			parse_assignment(ps, lf, l);
			continue;
		}
		kconfig_expand_line(ps, lf, l);
		/*
		 * A line of one macro that expands to nothing known (an undefined
		 * variable, empty in kconfig unless the environment sets it) is an
		 * empty line to kconfig.
		 */
		if (ps->nr_xt == 1 && ps->xt[0].kind == T_PROBE)
			continue;
		if (ps->nr_xt)
			parse_statement(ps, depth);
	}
	kconfig_parse_end_file(ps, depth);
	strvec_clear(&ps->scratch);
}
