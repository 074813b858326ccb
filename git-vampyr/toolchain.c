// SPDX-License-Identifier: GPL-2.0
/*
 * What the toolchain decides. The model leaves every $(cc-option,...),
 * $(success,...) and $(shell,...) free, so it happily claims blocks that only
 * another compiler can configure (Linux 6.1 on gcc: KMSAN needs clang, and
 * `select DCACHE_WORD_ACCESS if !KMSAN` makes "#ifndef
 * CONFIG_DCACHE_WORD_ACCESS" one of them). No fragment can keep such a block,
 * so --expand runs the tree's own kconfig once, with every symbol a user can
 * set asked to be y, and learns from the .config: the symbols whose value
 * only probes decide (CC_IS_CLANG, HAVE_KMSAN_COMPILER) are pinned to what it
 * found (so is one whose defaults only probes decide, when it is n while
 * its dependencies hold), and a probe in the dependencies of a symbol a user
 * can set is true when that symbol came out on, false when it stayed n while
 * the rest of its dependencies held (GCC_PLUGINS without the plugin
 * headers). The blocks this
 * rules out are named apart and the cover spends no configuration on them.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vampyr.h"

/*
 * Does e depend on nothing but probes, constants and symbols already known
 * to be toolchain symbols (tc)? *probe is set when it names a probe or one
 * of those.
 */
static int toolchain_expr(const struct kconfig_expr *e, const unsigned char *tc, int *probe)
{
	if (!e)
		return 1;
	switch (e->type) {
	case KEXPR_CONST:
		return 1;
	case KEXPR_SYMBOL:
		/* Undefined names are constants too: the 119 of `PAHOLE_VERSION >= 119`. */
		if ((e->sym->flags & KSYM_CONST) || (!e->sym->nr_defs && !(e->sym->flags & KSYM_PROBE)))
			return 1;
		if ((e->sym->flags & KSYM_PROBE) || tc[e->sym->index]) {
			*probe = 1;
			return 1;
		}
		return 0;
	case KEXPR_NOT:
		return toolchain_expr(e->left, tc, probe);
	default:
		return toolchain_expr(e->left, tc, probe) && toolchain_expr(e->right, tc, probe);
	}
}

/*
 * No prompt, no select or imply onto it, every property decided by the
 * toolchain; with `defaults_only`, the dependencies may be anything.
 */
static int toolchain_symbol(const struct kconfig_symbol *sym, const unsigned char *tc,
			    int defaults_only)
{
	int probe = 0;

	if (!sym->nr_defs || sym->nr_selected_by || sym->nr_implied_by ||
	    (sym->flags & (KSYM_CHOICE_MEMBER | KSYM_ENV)))
		return 0;
	for (size_t d = 0; d < sym->nr_defs; d++) {
		const struct kconfig_definition *def = sym->defs[d];

		if (def->nr_prompts || (!defaults_only && !toolchain_expr(def->dep, tc, &probe)))
			return 0;
		for (size_t i = 0; i < def->nr_defaults; i++)
			if (!toolchain_expr(def->defaults[i].value, tc, &probe) ||
			    !toolchain_expr(def->defaults[i].cond, tc, &probe))
				return 0;
	}
	return probe;
}

/* Pushes the unit literals that pin sym to its value in `values`. */
static void pin(const struct vampyr_source *src, struct vampyr_toolchain *tc,
		const struct kconfig_symbol *sym, const int8_t *values,
		int **lits, size_t *nr, size_t *alloc)
{
	int y = model_var_y(src->model, sym->name), m = model_var_m(src->model, sym->name);
	int val;

	if (y <= 0)
		return;
	ALLOC_GROW(*lits, *nr + 2, *alloc);
	(*lits)[(*nr)++] = values[y] > 0 ? y : -y;
	if (m > 0)
		(*lits)[(*nr)++] = values[m] > 0 ? m : -m;
	val = symbol_value(src, values, sym);
	if (sym->type == KCONFIG_BOOL || sym->type == KCONFIG_TRISTATE)
		strvec_pushf(&tc->facts, "%s=%c", sym->name, val);
	else
		strvec_pushf(&tc->facts, "%s=%s", sym->name, val == 'y' ? "set" : "unset");
}

static int user_settable_nonchoice(const struct kconfig_symbol *sym)
{
	if ((sym->type != KCONFIG_BOOL && sym->type != KCONFIG_TRISTATE) ||
	    (sym->flags & KSYM_CHOICE_MEMBER))
		return 0;
	for (size_t d = 0; d < sym->nr_defs; d++)
		if (sym->defs[d]->nr_prompts)
			return 1;
	return 0;
}

/*
 * Asks for every symbol a user can set (choice members aside) to be y: a
 * symbol that stays n is invisible, which tells about the probes in its
 * dependencies (infer_probes).
 */
static int write_all_yes(const struct vampyr_source *src, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return error("cannot write %s: %m", path);
	for (size_t i = 0; i < src->kconfig->nr_defined; i++)
		if (user_settable_nonchoice(src->kconfig->symbols[i]))
			fprintf(f, "CONFIG_%s=y\n", src->kconfig->symbols[i]->name);
	if (fclose(f))
		return error("cannot write %s: %m", path);
	return 0;
}

static int parse_number(const char *text, long long *out)
{
	char *end;

	if (!text || !*text)
		return -1;
	errno = 0;
	*out = strtoll(text, &end, 0);
	return errno || *end ? -1 : 0;
}

/* The number an operand of a comparison stands for on a .config: 0, or -1 when none. */
static int number(const struct kconfig_expr *e, struct strmap *cfg, long long *out)
{
	if (e->type == KEXPR_CONST)
		return parse_number(e->value, out);
	if (e->type != KEXPR_SYMBOL)
		return -1;
	if (!e->sym->nr_defs && !(e->sym->flags & KSYM_PROBE))
		return parse_number(e->sym->name, out);	/* an undefined name: its text */
	if (e->sym->type != KCONFIG_INT && e->sym->type != KCONFIG_HEX)
		return -1;
	return parse_number(strmap_get(cfg, e->sym->name), out);
}

int config_eval(const struct kconfig *kc, const struct kconfig_expr *e, struct strmap *cfg)
{
	int l, r;

	if (!e)
		return 2;
	switch (e->type) {
	case KEXPR_SYMBOL: {
		const char *val;

		if (e->sym == kc->sym_y)
			return 2;
		if (e->sym == kc->sym_m)
			return 1;
		if (e->sym == kc->sym_n)
			return 0;
		if (e->sym->type != KCONFIG_BOOL && e->sym->type != KCONFIG_TRISTATE)
			return -1;
		val = strmap_get(cfg, e->sym->name);
		return val && !strcmp(val, "y") ? 2 : val && !strcmp(val, "m") ? 1 : 0;
	}
	case KEXPR_CONST:
		return -1;	/* a string or a number: no truth value */
	case KEXPR_NOT:
		l = config_eval(kc, e->left, cfg);
		return l < 0 ? -1 : 2 - l;
	case KEXPR_AND:
	case KEXPR_OR:
		l = config_eval(kc, e->left, cfg);
		r = config_eval(kc, e->right, cfg);
		if (e->type == KEXPR_AND)
			return !l || !r ? 0 : l < 0 || r < 0 ? -1 : l < r ? l : r;
		return l == 2 || r == 2 ? 2 : l < 0 || r < 0 ? -1 : l > r ? l : r;
	default: {
		long long a, b;
		int cmp;

		if (e->type == KEXPR_EQUAL || e->type == KEXPR_UNEQUAL) {
			l = config_eval(kc, e->left, cfg);
			r = config_eval(kc, e->right, cfg);
			if (l >= 0 && r >= 0)
				return (l == r) == (e->type == KEXPR_EQUAL) ? 2 : 0;
		}
		if (number(e->left, cfg, &a) || number(e->right, cfg, &b))
			return -1;
		cmp = (a > b) - (a < b);
		switch (e->type) {
		case KEXPR_EQUAL:
			return cmp == 0 ? 2 : 0;
		case KEXPR_UNEQUAL:
			return cmp != 0 ? 2 : 0;
		case KEXPR_LESS:
			return cmp < 0 ? 2 : 0;
		case KEXPR_LESS_EQUAL:
			return cmp <= 0 ? 2 : 0;
		case KEXPR_GREATER:
			return cmp > 0 ? 2 : 0;
		case KEXPR_GREATER_EQUAL:
			return cmp >= 0 ? 2 : 0;
		default:
			return -1;
		}
	}
	}
}

void config_conjuncts(const struct kconfig_expr *e, const struct kconfig_expr ***out, size_t *nr,
		      size_t *alloc)
{
	if (!e)
		return;
	if (e->type == KEXPR_AND) {
		config_conjuncts(e->left, out, nr, alloc);
		config_conjuncts(e->right, out, nr, alloc);
		return;
	}
	ALLOC_GROW(*out, *nr + 1, *alloc);
	(*out)[(*nr)++] = e;
}

/*
 * A symbol asked to be y (write_all_yes) whose dependencies and prompt
 * condition are one probe and otherwise true on the .config: y or m there
 * means the probe holds (unless something selects the symbol), n that it
 * does not (GCC_PLUGINS and its `$(success,test -e .../plugin-version.h)`).
 * Sets known[probe index] to 1 (false), 2 (true) or 3 (contradictory).
 */
static void infer_probes(const struct vampyr_source *src, struct strmap *cfg, unsigned char *known)
{
	const struct kconfig *kc = src->kconfig;
	const struct kconfig_expr **parts = NULL;
	size_t alloc = 0;

	for (size_t i = 0; i < kc->nr_defined; i++) {
		const struct kconfig_symbol *sym = kc->symbols[i];
		const struct kconfig_definition *def;
		const struct kconfig_symbol *probe = NULL;
		const char *val;
		size_t nr = 0;
		int negated = 0, other = 2, on;

		if (!user_settable_nonchoice(sym) || sym->nr_defs != 1 || sym->defs[0]->nr_prompts != 1)
			continue;
		def = sym->defs[0];
		config_conjuncts(def->dep, &parts, &nr, &alloc);
		config_conjuncts(def->prompts[0].cond, &parts, &nr, &alloc);
		for (size_t k = 0; k < nr && other > 0; k++) {
			const struct kconfig_expr *e = parts[k];
			int neg = e->type == KEXPR_NOT;

			if (neg)
				e = e->left;
			if (e->type == KEXPR_SYMBOL && (e->sym->flags & KSYM_PROBE)) {
				if (probe)
					other = 0;	/* two probes: nothing to tell */
				probe = e->sym;
				negated = neg;
			} else {
				int val_k = config_eval(kc, parts[k], cfg);

				if (val_k <= 0)
					other = 0;
			}
		}
		if (!probe || other <= 0)
			continue;
		val = strmap_get(cfg, sym->name);
		on = val && (!strcmp(val, "y") || !strcmp(val, "m"));
		if (on && sym->nr_selected_by)
			continue;
		known[probe->index] |= (on != negated) ? 2 : 1;
	}
	free(parts);
}

/*
 * The value the defaults of a symbol give on a .config (the first active
 * one, n when none is), whatever its dependencies: 0, 1, 2, or -1 unknown.
 */
static int defaults_value(const struct kconfig *kc, const struct kconfig_symbol *sym,
			  struct strmap *cfg)
{
	if (sym->nr_defs != 1)
		return -1;
	for (size_t i = 0; i < sym->defs[0]->nr_defaults; i++) {
		const struct kconfig_default *d = &sym->defs[0]->defaults[i];
		int cond = config_eval(kc, d->cond, cfg);

		if (cond < 0)
			return -1;
		if (cond)
			return config_eval(kc, d->value, cfg);
	}
	return 0;
}

void config_parse(const char *text, struct strmap *cfg)
{
	for (const char *p = text; *p; ) {
		const char *eol = strchrnul(p, '\n'), *eq;

		if (starts_with(p, "CONFIG_") && (eq = memchr(p, '=', (size_t)(eol - p)))) {
			char *name = xstrndup(p + 7, (size_t)(eq - p - 7));

			free(strmap_put(cfg, name, xstrndup(eq + 1, (size_t)(eol - eq - 1))));
			free(name);
		}
		p = *eol ? eol + 1 : eol;
	}
}

/*
 * The toolchain's run kept whole. Its .config follows from the tree, the
 * command, the environment, the fragment (every symbol =y: the tree's) and
 * the toolchain: the programs on PATH (each file's identity, symbolic links
 * followed, and each directory's) and what vampyr-cc noted that the
 * compiler's answers depend on (headers, libraries, the compiler's own
 * programs, git-vampyr/cc/vampyr-cc.c). It is kept in
 * <tree>/.vampyr-toolchain/<digest of the key> with those notes, and taken
 * while every noted file is as it was. Not kept when vampyr-cc was not in
 * the run (not installed) or noted a call it could not follow;
 * VAMPYR_NO_EXPAND_CACHE=1 or VAMPYR_NO_PROBE_CACHE=1 runs it every time. Not seen: a
 * program whose behaviour changes while no file on PATH does (a rustup or
 * pyenv shim that its own settings point at another toolchain), and files
 * that programs other than the compiler read.
 */
#define TOOLCHAIN_KEPT_FORMAT 1

/* The identities of PATH's directories and of every file in them, as a digest. */
static void path_programs(struct strbuf *key)
{
	const char *path = getenv("PATH");
	struct strbuf snap = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid id;

	for (const char *p = path ? path : ""; ; ) {
		const char *colon = strchrnul(p, ':');
		char *dir = colon > p ? xstrndup(p, (size_t)(colon - p)) : xstrdup(".");
		struct strvec names = STRVEC_INIT;
		DIR *d = opendir(dir);
		struct dirent *e;

		strbuf_addf(&snap, "dir %s ", dir);
		strbuf_add_file_id(&snap, dir);
		strbuf_addch(&snap, '\n');
		while (d && (e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				strvec_push(&names, e->d_name);
		if (d)
			closedir(d);
		strvec_sort(&names);
		for (size_t i = 0; i < names.nr; i++) {
			char *file = xstrfmt("%s/%s", dir, names.v[i]);

			strbuf_addf(&snap, "%s ", names.v[i]);
			strbuf_add_file_id(&snap, file);
			strbuf_addch(&snap, '\n');
			free(file);
		}
		strvec_clear(&names);
		free(dir);
		if (!*colon)
			break;
		p = colon + 1;
	}
	repo_hash_blob(snap.buf, snap.len, &id);
	strbuf_addf(key, "programs %s\n", oid_hex(&id, hex));
	strbuf_release(&snap);
}

/* The key of the toolchain's run of cmd on the fragment at path, or NULL when none is kept. */
static char *toolchain_key(const struct vampyr_source *src, const struct vampyr_expansion *ex,
			   const char *cmd, const char *path)
{
	const char *off = getenv("VAMPYR_NO_EXPAND_CACHE"), *no_probes = getenv("VAMPYR_NO_PROBE_CACHE");
	struct strbuf key = STRBUF_INIT;
	char *fragment, *cc;
	size_t len;

	/* The compiler's answers kept are what VAMPYR_NO_PROBE_CACHE=1 turns off too. */
	if ((off && *off && strcmp(off, "0")) || (no_probes && *no_probes && strcmp(no_probes, "0")) ||
	    read_file(path, &fragment, &len))
		return NULL;
	strbuf_addf(&key, "vampyr toolchain %d\ntree %s\nsrctree %s\narch %s %s\ncmd %zu %s\n",
		    TOOLCHAIN_KEPT_FORMAT, ex->tree, src->srctree, src->arch ? src->arch : "-",
		    src->arch_dir ? src->arch_dir : "-", strlen(cmd), cmd);
	for (size_t i = 0; src->trees && i < trees_variables(src->trees)->nr; i++)
		strbuf_addf(&key, "project %s\n", trees_variables(src->trees)->v[i]);
	vampyr_add_environment(&key);
	path_programs(&key);
	/* What vampyr-cc notes is its own doing. */
	cc = probe_cc_program();
	strbuf_addf(&key, "vampyr-cc %s ", cc ? cc : "");
	strbuf_add_file_id(&key, cc);
	strbuf_addch(&key, '\n');
	free(cc);
	strbuf_addf(&key, "fragment %zu\n", len);
	strbuf_add(&key, fragment, len);
	free(fragment);
	return strbuf_detach(&key, NULL);
}

/* The .config kept at path under key, while what it depends on holds; or NULL. */
static char *toolchain_kept_read(const char *path, const char *key)
{
	size_t klen = strlen(key), size, dlen;
	char *data, *text = NULL;
	int n = 0;

	if (read_file(path, &data, &size))
		return NULL;
	if (size > klen && !memcmp(data, key, klen) &&
	    sscanf(data + klen, "deps %zu\n%n", &dlen, &n) == 1 && n &&
	    dlen <= size - klen - (size_t)n && file_ids_hold(data + klen + n, dlen))
		text = xstrndup(data + klen + n + dlen, size - klen - (size_t)n - dlen);
	free(data);
	return text;
}

/* Keeps the run's .config with what vampyr-cc noted, unless it noted a call it could not follow. */
static void toolchain_keep(const struct vampyr_toolchain *tc, const struct vampyr_expansion *ex,
			   const char *text)
{
	char *deps_path = probe_deps_path(ex->tree), *notes;
	struct strvec lines = STRVEC_INIT;
	struct strbuf b = STRBUF_INIT, deps = STRBUF_INIT;
	size_t len;

	if (read_file(deps_path, &notes, &len)) {
		free(deps_path);
		return;
	}
	for (char *p = notes, *eol; p < notes + len; p = eol + 1) {
		eol = memchr(p, '\n', (size_t)(notes + len - p));
		if (!eol)
			break;
		*eol = '\0';
		strvec_push(&lines, p);
	}
	strvec_sort(&lines);
	for (size_t i = 0; i < lines.nr; i++)
		if (!i || strcmp(lines.v[i], lines.v[i - 1]))
			strbuf_addf(&deps, "%s\n", lines.v[i]);
	if (deps.len && !strstr(deps.buf, "unkept\n") && !mkdir_leading(tc->key_path)) {
		strbuf_addf(&b, "%sdeps %zu\n", tc->key, deps.len);
		strbuf_add(&b, deps.buf, deps.len);
		strbuf_addstr(&b, text);
		write_file_atomic(tc->key_path, b.buf, b.len);
	}
	strbuf_release(&b);
	strbuf_release(&deps);
	strvec_clear(&lines);
	free(notes);
	free(deps_path);
}

int vampyr_toolchain_start(const struct vampyr_source *src, struct vampyr_toolchain *tc,
			   struct vampyr_expansion *ex, const struct expand_options *o)
{
	char *fragment, *config;
	int ret;

	if (vampyr_config_tree(src, ex))
		return -1;
	fragment = xstrfmt("%s/.vampyr-yes.%ld.config", ex->tree, (long)getpid());
	config = xstrfmt("%s/.vampyr-toolchain.%ld.config", ex->tree, (long)getpid());
	ret = write_all_yes(src, fragment);
	if (!ret) {
		const char *cmd = vampyr_kconfig_command(o);
		char *key = toolchain_key(src, ex, cmd, fragment), hex[GIT_OID_HEXSZ + 1];
		git_oid id;

		if (key) {
			repo_hash_blob(key, strlen(key), &id);
			tc->key_path = xstrfmt("%s/.vampyr-toolchain/%s", ex->tree,
							oid_hex(&id, hex));
			tc->kept = toolchain_kept_read(tc->key_path, key);
		}
		if (tc->kept) {
			if (!quiet)
				fprintf(stderr, "vampyr: the toolchain's kconfig run as before (kept in %s)\n",
					tc->key_path);
			free(key);
			unlink(fragment);
		} else {
			tc->key = key;
			tc->run = xmalloc(sizeof(*tc->run));
			vampyr_kconfig_run_init(tc->run, "a fragment of every symbol =y", fragment, config);
			/* The first run, alone: the kconfig programs it builds stay for the others. */
			tc->run->in_cache = 1;
			/* A command that cannot start is said, and vampyr_toolchain() fails. */
			vampyr_kconfig_start(src, ex, tc->run, cmd);
		}
	}
	free(fragment);
	free(config);
	return ret;
}

/*
 * The .config of the toolchain's run (started here if need be, or kept
 * from before), to be freed; its digest vouches for the expansions kept
 * (expand.c). NULL after an error.
 */
static char *toolchain_config(const struct vampyr_source *src, struct vampyr_toolchain *tc,
			      struct vampyr_expansion *ex, const struct expand_options *o)
{
	char *text;

	if (!tc->run && !tc->kept && vampyr_toolchain_start(src, tc, ex, o))
		return NULL;
	if (tc->kept) {
		text = tc->kept;
		tc->kept = NULL;
	} else {
		char *deps = probe_deps_path(ex->tree);

		vampyr_kconfig_wait(tc->run);
		unlink(tc->run->fragment);
		unlink(tc->run->config);
		text = vampyr_kconfig_run_release(tc->run);
		free(tc->run);
		tc->run = NULL;
		if (text && tc->key)
			toolchain_keep(tc, ex, text);
		unlink(deps);
		free(deps);
	}
	free(tc->key);
	free(tc->key_path);
	tc->key = tc->key_path = NULL;
	if (text) {
		repo_hash_blob(text, strlen(text), &tc->id);
		tc->has_id = 1;
	}
	return text;
}

int vampyr_toolchain(struct vampyr *v, const struct expand_options *o)
{
	struct kconfig *kc = v->src.kconfig;
	unsigned char *tc;
	int nr_vars = logic_nr_vars(v->src.logic), *lits = NULL, changed = 1;
	int8_t *zero, *values;
	size_t nr_lits = 0, alloc_lits = 0;
	char *text;
	struct strmap cfg = STRMAP_INIT;
	unsigned char *known;

	if (!(text = toolchain_config(&v->src, &v->toolchain, &v->expansion, o)))
		return -1;
	tc = xcalloc(kc->nr_symbols + 1, 1);
	/* Toolchain symbols build on each other (CC_IS_CLANG, then HAVE_KMSAN_COMPILER). */
	while (changed) {
		changed = 0;
		for (size_t i = 0; i < kc->nr_defined; i++) {
			const struct kconfig_symbol *sym = kc->symbols[i];

			if (!tc[sym->index] && toolchain_symbol(sym, tc, 0))
				changed = tc[sym->index] = 1;
		}
	}
	zero = xcalloc((size_t)nr_vars + 1, 1);
	values = config_values(&v->src, text, zero, nr_vars);
	for (size_t i = 0; i < kc->nr_defined; i++)
		if (tc[kc->symbols[i]->index])
			pin(&v->src, &v->toolchain, kc->symbols[i], values, &lits, &nr_lits, &alloc_lits);
	config_parse(text, &cfg);
	/*
	 * A symbol whose defaults only the toolchain decides, found n while its
	 * dependencies held, is n everywhere (PAHOLE_HAS_SPLIT_BTF, `def_bool
	 * PAHOLE_VERSION >= 119` inside `if DEBUG_INFO`, without pahole).
	 */
	for (size_t i = 0; i < kc->nr_defined; i++) {
		const struct kconfig_symbol *sym = kc->symbols[i];
		const char *val = strmap_get(&cfg, sym->name);
		int y = model_var_y(v->src.model, sym->name), m = model_var_m(v->src.model, sym->name);
		int deps_hold = 1;

		if (tc[sym->index] || (sym->type != KCONFIG_BOOL && sym->type != KCONFIG_TRISTATE) ||
		    y <= 0 || (val && strcmp(val, "n")) || !toolchain_symbol(sym, tc, 1))
			continue;
		for (size_t d = 0; d < sym->nr_defs && deps_hold; d++)
			deps_hold = config_eval(kc, sym->defs[d]->dep, &cfg) == 2;
		if (!deps_hold && defaults_value(kc, sym, &cfg) != 0)
			continue;
		ALLOC_GROW(lits, nr_lits + 2, alloc_lits);
		lits[nr_lits++] = -y;
		if (m > 0)
			lits[nr_lits++] = -m;
		strvec_pushf(&v->toolchain.facts, "%s=n", sym->name);
	}
	known = xcalloc(kc->nr_symbols + 1, 1);
	infer_probes(&v->src, &cfg, known);
	for (size_t i = kc->nr_defined; i < kc->nr_symbols; i++) {
		const struct kconfig_symbol *sym = kc->symbols[i];
		int y = model_var_y(v->src.model, sym->name);

		if (!(sym->flags & KSYM_PROBE) || y <= 0 || (known[i] != 1 && known[i] != 2))
			continue;
		ALLOC_GROW(lits, nr_lits + 1, alloc_lits);
		lits[nr_lits++] = known[i] == 2 ? y : -y;
		strvec_pushf(&v->toolchain.facts, "%s=%c", sym->name, known[i] == 2 ? 'y' : 'n');
	}
	free(known);
	strmap_clear(&cfg, free);
	/* A model that disagrees with the tree's kconfig is worth a warning, not a failure. */
	if (nr_lits && sat_solve(v->src.sat, lits, nr_lits) != SAT_SAT) {
		warning("the toolchain's values contradict the model: not pinned");
		strvec_clear(&v->toolchain.facts);
	} else {
		for (size_t i = 0; i < nr_lits; i++)
			sat_add_clause(v->src.sat, &lits[i], 1);
		for (size_t i = 0; i < v->cover.nr_blocks; i++) {
			struct vblock *b = &v->cover.blocks[i];

			/* The pins are base clauses: witnesses and answers from before are forgotten. */
			if (b->target && !b->dead && b->lit && sat_satisfiable(v->src.sat, b->pc) != SAT_SAT) {
				b->toolchain = 1;
				v->cover.nr_toolchain++;
			}
		}
	}
	v->toolchain.done = 1;
	free(lits);
	free(values);
	free(zero);
	free(text);
	free(tc);
	return 0;
}
