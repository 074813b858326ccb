// SPDX-License-Identifier: GPL-2.0
/*
 * What a change of a commit's build files touches: the CONFIG_ names whose
 * Kconfig definitions differ between the trees of two commits, and the C
 * files that name one of them though the commit left them alone.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "trees.h"

#include <pcre2.h>
#include <string.h>

#include "diskcache.h"
#include "process.h"

int trees_is_c_file(const char *path)
{
	return ends_with(path, ".c") || ends_with(path, ".h") || ends_with(path, ".S");
}

int trees_is_kconfig_path(const char *path)
{
	const char *slash = strrchr(path, '/');

	return buildfiles_is_kconfig_file(slash ? slash + 1 : path);
}

int trees_is_defconfig(const char *path)
{
	return buildfiles_is_defconfig(path);
}

int trees_is_source(const struct trees *t, const char *path)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');

	if (trees_is_c_file(path))
		return 1;
	if (!t || !t->bf || !t->bf->cpp_suffixes || !dot || (slash && dot < slash))
		return 0;
	/* scripts/Makefile.dts is a Makefile, not a device tree */
	if (buildfiles_is_makefile(slash ? slash + 1 : path) ||
	    buildfiles_is_kconfig_file(slash ? slash + 1 : path))
		return 0;
	return strmap_contains(t->bf->cpp_suffixes, dot + 1);
}

/* Does the expression name `s` (as a symbol)? */
static int names_symbol(const struct kconfig_expr *e, const struct kconfig_symbol *s)
{
	if (!e)
		return 0;
	if (e->type == KEXPR_SYMBOL)
		return e->sym == s;
	if (e->type == KEXPR_CONST)
		return 0;
	return names_symbol(e->left, s) || (e->type != KEXPR_NOT && names_symbol(e->right, s));
}

/*
 * A symbol new in this commit that every configuration of the parent can
 * keep, extended with it n: nothing selects or implies it, no default can
 * make it anything but n, and a choice it joins has other members and does
 * not default to it. It only adds configurations, so what hangs on it
 * (its own selects, a `default ... if` on it) makes no new defect in lines
 * that do not name it: those lines need no second look.
 */
static int is_inert_new(const struct kconfig *old, const struct kconfig_symbol *s)
{
	if (!s || !old || kconfig_lookup(old, s->name) || s->nr_selected_by || s->nr_implied_by ||
	    (s->flags & (KSYM_PROBE | KSYM_ENV | KSYM_ALLNOCONFIG_Y)) ||
	    (s->type != KCONFIG_BOOL && s->type != KCONFIG_TRISTATE))
		return 0;
	for (size_t k = 0; k < s->nr_defs; k++) {
		const struct kconfig_definition *d = s->defs[k];
		const struct kconfig_choice *c = d->choice;

		for (size_t j = 0; j < d->nr_defaults; j++) {
			const struct kconfig_expr *v = d->defaults[j].value;

			if (!v || v->type != KEXPR_SYMBOL || strcmp(v->sym->name, "n"))
				return 0;
		}
		if (c && c->nr_members < 2)
			return 0;
		for (size_t i = 0; c && i < c->nr_defs; i++)
			for (size_t j = 0; j < c->defs[i]->nr_defaults; j++)
				if (names_symbol(c->defs[i]->defaults[j].value, s))
					return 0;
	}
	return 1;
}

/* Is a conjunct of e an inert new symbol (e can hold only with it on)? */
static int needs_inert_new(const struct kconfig *old, const struct kconfig_expr *e)
{
	if (!e)
		return 0;
	if (e->type == KEXPR_AND)
		return needs_inert_new(old, e->left) || needs_inert_new(old, e->right);
	return e->type == KEXPR_SYMBOL && is_inert_new(old, e->sym);
}

/*
 * A one-line summary of what a symbol's definitions say in a model, to tell
 * which symbols a Kconfig change touched. With `old` (the parent's model),
 * what only an inert new symbol switches on is left out: a `select` or an
 * `imply` from one or from a definition that needs one, a `default ... if`
 * that needs one, another definition of the symbol that needs one.
 */
static void symbol_signature(const struct kconfig_symbol *sym, const struct kconfig *old,
			     struct strbuf *sb)
{
	strbuf_addf(sb, "%s %s", sym->name, kconfig_type_name(sym->type));
	for (size_t i = 0; i < sym->nr_defs; i++) {
		const struct kconfig_definition *d = sym->defs[i];

		/* U-Boot's `if TARGET_X` around a board's own `config SYS_BOARD`. */
		if (sym->nr_defs > 1 && needs_inert_new(old, d->dep))
			continue;
		strbuf_addstr(sb, " |dep ");
		if (d->dep)
			kconfig_expr_print(d->dep, sb);
		for (size_t j = 0; j < d->nr_prompts; j++) {
			strbuf_addstr(sb, " |prompt ");
			if (d->prompts[j].cond)
				kconfig_expr_print(d->prompts[j].cond, sb);
		}
		for (size_t j = 0; j < d->nr_defaults; j++) {
			if (needs_inert_new(old, d->defaults[j].cond))
				continue;
			strbuf_addstr(sb, " |default ");
			kconfig_expr_print(d->defaults[j].value, sb);
			strbuf_addstr(sb, " if ");
			if (d->defaults[j].cond)
				kconfig_expr_print(d->defaults[j].cond, sb);
		}
		if (d->choice)
			strbuf_addf(sb, " |choice %s", d->choice->name ? d->choice->name : "");
	}
	for (size_t i = 0; i < sym->nr_selected_by; i++) {
		const struct kconfig_reverse *r = &sym->selected_by[i];

		if ((r->from->symbol && is_inert_new(old, r->from->symbol)) ||
		    needs_inert_new(old, r->from->dep))
			continue;
		strbuf_addf(sb, " |selected %s", r->from->symbol ? r->from->symbol->name : "");
		if (r->cond)
			kconfig_expr_print(r->cond, sb);
	}
	for (size_t i = 0; i < sym->nr_implied_by; i++) {
		const struct kconfig_reverse *r = &sym->implied_by[i];

		if ((r->from->symbol && is_inert_new(old, r->from->symbol)) ||
		    needs_inert_new(old, r->from->dep))
			continue;
		strbuf_addf(sb, " |implied %s", r->from->symbol ? r->from->symbol->name : "");
	}
}

static void add_changed_symbols(const struct kconfig *old, const struct kconfig *new,
				struct strmap *changed)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	struct kconfig_symbol *sym;
	size_t i;

	for_each_kconfig_symbol(new, i, sym) {
		struct kconfig_symbol *o = old ? kconfig_lookup(old, sym->name) : NULL;

		if (sym->flags & KSYM_PROBE)
			continue;
		strbuf_reset(&a);
		strbuf_reset(&b);
		symbol_signature(sym, old, &a);
		if (o)
			symbol_signature(o, NULL, &b);
		if (!o || strcmp(a.buf, b.buf))
			strmap_put(changed, sym->name, (void *)1);
	}
	if (old)
		for_each_kconfig_symbol(old, i, sym)
			if (!(sym->flags & KSYM_PROBE) && !kconfig_lookup(new, sym->name))
				strmap_put(changed, sym->name, (void *)1);
	strbuf_release(&a);
	strbuf_release(&b);
}

void trees_changed_symbols(struct trees *old, struct trees *new, struct strmap *changed)
{
	struct strmap_entry *e;

	/* Names that appeared or disappeared in any Kconfig file of the tree. */
	strmap_for_each(new->bf->kconfig_defined, e)
		if (!old || !strmap_get(old->bf->kconfig_defined, e->key))
			strmap_put(changed, e->key, (void *)1);
	if (old)
		strmap_for_each(old->bf->kconfig_defined, e)
			if (!strmap_get(new->bf->kconfig_defined, e->key))
				strmap_put(changed, e->key, (void *)1);
	/* Changed definitions, on the architectures built so far. */
	for (size_t i = 0; i < trees_nr_models(new); i++) {
		struct arch_model *nm, *om = NULL;

		if (!trees_model_built(new, i) && i != new->tm.primary)
			continue;
		nm = trees_model(new, i);
		if (old && i < trees_nr_models(old))
			om = trees_model(old, i);
		if (nm)
			add_changed_symbols(om ? om->kconfig : NULL, nm->kconfig, changed);
	}
}

struct users {
	struct repo *repo;
	const struct trees *trees;	/* the commit's: which files are sources */
	pcre2_code *re;			/* every CONFIG_ name, captured */
	pcre2_match_data *md;
	const struct strmap *changed;	/* names (no CONFIG_) a Kconfig change touched */
	const struct strmap *influenced;	/* and those whose value they may change */
	const struct strmap *skip;	/* paths already checked */
	const struct strvec *pathspec;
	struct strvec *paths, *blobs;
};

/*
 * Does the text name a changed symbol (CONFIG_X or CONFIG_X_MODULE)? One
 * pattern for every CONFIG_ name and a hash lookup per match: an alternation
 * of the changed names outgrows pcre2's limits when a release changes
 * thousands of them (Linux 6.1 -> 6.12).
 */
static int names_changed(struct users *u, const char *data, size_t size)
{
	PCRE2_SIZE start = 0;

	while (start < size &&
	       pcre2_match(u->re, (PCRE2_SPTR)data, size, start, 0, u->md, NULL) > 1) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(u->md);
		const char *name = data + ov[2];
		size_t len = ov[3] - ov[2];

		if (strmap_getn(u->changed, name, len) ||
		    (len > 7 && !memcmp(name + len - 7, "_MODULE", 7) &&
		     strmap_getn(u->changed, name, len - 7)))
			return 1;
		start = ov[1] > start ? ov[1] : start + 1;
	}
	return 0;
}

struct kconfig_users {
	const struct strmap *changed;
	int found;
};

static void kconfig_reference_changed(const struct kconfig_text_ref *ref, void *arg)
{
	struct kconfig_users *ku = arg;

	ku->found |= strmap_getn(ku->changed, ref->name, ref->len) != NULL;
}

static void kconfig_definition_changed(const char *name, size_t len, int line, void *arg)
{
	struct kconfig_users *ku = arg;

	ku->found |= strmap_getn(ku->changed, name, len) != NULL;
}

/*
 * Does a Kconfig text name or define a changed symbol? Its own defects
 * (a name no longer defined, a select whose target's dependencies changed,
 * an option whose enclosing `if` changed elsewhere) may change with it.
 */
static int kconfig_names_changed(struct users *u, const char *data, size_t size)
{
	struct kconfig_users ku = { .changed = u->changed };

	kconfig_text_for_each_reference(data, size, kconfig_reference_changed, &ku);
	if (!ku.found)
		kconfig_text_for_each_definition(data, size, kconfig_definition_changed, &ku);
	return ku.found;
}

/* Does a defconfig set a symbol whose value the change may alter (what conf keeps of it)? */
static int defconfig_names_influenced(struct users *u, const char *data, size_t size)
{
	struct users v = *u;

	v.changed = u->influenced;
	return names_changed(&v, data, size);
}

static int is_kconfig_path(const char *path)
{
	const char *base = strrchr(path, '/');

	return buildfiles_is_kconfig_file(base ? base + 1 : path);
}

static int find_users(const struct tree_file *f, void *data)
{
	struct users *u = data;
	struct blob *blob;
	char hex[GIT_OID_HEXSZ + 1];
	int kconfig;

	if (process_interrupted())
		return 1;
	kconfig = is_kconfig_path(f->path);
	if ((!kconfig && !trees_is_source(u->trees, f->path) && !buildfiles_is_defconfig(f->path)) ||
	    strmap_get(u->skip, f->path) ||
	    !pathspec_match(u->pathspec, f->path))
		return 0;
	if (repo_read_blob(u->repo, f->blob, &blob) < 0)
		return 0;
	if (kconfig ? kconfig_names_changed(u, blob->data, blob->size) :
	    buildfiles_is_defconfig(f->path) ? defconfig_names_influenced(u, blob->data, blob->size) :
	    names_changed(u, blob->data, blob->size)) {
		strvec_push(u->paths, f->path);
		strvec_push(u->blobs, git_oid_tostr(hex, sizeof(hex), f->blob));
	}
	blob_release(u->repo, blob);
	return 0;
}

/*
 * The key of a search for the files that name changed symbols: everything it
 * depends on (the tree, the names, the files skipped, the pathspec and which
 * suffixes are sources), hashed.
 */
static char *affected_key(struct trees *new, const git_oid *commit, const struct strmap *changed,
			  const struct strvec *pathspec, const struct strmap *skip)
{
	struct strbuf all = STRBUF_INIT;
	struct strvec names = STRVEC_INIT;
	const struct strmap_entry *e;
	char hex[GIT_OID_HEXSZ + 1];
	git_commit *c;
	git_oid id;

	if (repo_lookup_commit(new->env.repo, repo_git(new->env.repo), commit, &c) < 0)
		return NULL;
	strbuf_addf(&all, "tree %s\n", git_oid_tostr(hex, sizeof(hex), git_commit_tree_id(c)));
	/* Defconfigs are affected through what the changed names influence (issue 27). */
	strbuf_addstr(&all, "defconfigs influenced\n");
	git_commit_free(c);
	strmap_for_each(changed, e)
		strvec_pushf(&names, "changed %s", e->key);
	strmap_for_each(skip, e)
		strvec_pushf(&names, "skip %s", e->key);
	if (new->bf && new->bf->cpp_suffixes)
		strmap_for_each(new->bf->cpp_suffixes, e)
			strvec_pushf(&names, "suffix %s", e->key);
	strvec_sort(&names);
	for (size_t i = 0; i < names.nr; i++)
		strbuf_addf(&all, "%s\n", names.v[i]);
	for (size_t i = 0; pathspec && i < pathspec->nr; i++)
		strbuf_addf(&all, "pathspec %s\n", pathspec->v[i]);
	repo_hash_blob(all.buf, all.len, &id);
	strvec_clear(&names);
	strbuf_release(&all);
	return xstrdup(git_oid_tostr(hex, sizeof(hex), &id));
}

/* What an earlier run found for the same key: 1 and paths and blobs filled, or 0. */
static int affected_from_cache(struct diskcache *dc, const char *key, struct strvec *paths,
			       struct strvec *blobs)
{
	struct strbuf sb = STRBUF_INIT;
	struct diskcache_reader rd;
	struct strvec p = STRVEC_INIT, b = STRVEC_INIT;
	uint64_t nr;

	if (diskcache_read(dc, "affected", key, &sb) <= 0) {
		strbuf_release(&sb);
		return 0;
	}
	diskcache_reader_init(&rd, &sb);
	nr = diskcache_get_u64(&rd);
	for (uint64_t i = 0; i < nr && !rd.bad; i++) {
		char *path = diskcache_get_str(&rd), *blob = diskcache_get_str(&rd);

		if (!path || !blob || strlen(blob) != GIT_OID_HEXSZ) {
			rd.bad = 1;
		} else {
			strvec_push(&p, path);
			strvec_push(&b, blob);
		}
		free(path);
		free(blob);
	}
	strbuf_release(&sb);
	if (!diskcache_reader_done(&rd)) {
		warning("the cache entry of affected files %s does not decode: computing it again",
			key);
		strvec_clear(&p);
		strvec_clear(&b);
		return 0;
	}
	for (size_t i = 0; i < p.nr; i++) {
		strvec_push(paths, p.v[i]);
		strvec_push(blobs, b.v[i]);
	}
	strvec_clear(&p);
	strvec_clear(&b);
	return 1;
}

static void affected_to_cache(struct diskcache *dc, const char *key, const struct strvec *paths,
			      const struct strvec *blobs, size_t from)
{
	struct strbuf sb = STRBUF_INIT;

	diskcache_put_u64(&sb, paths->nr - from);
	for (size_t i = from; i < paths->nr; i++) {
		diskcache_put_str(&sb, paths->v[i]);
		diskcache_put_str(&sb, blobs->v[i]);
	}
	diskcache_write(dc, "affected", key, sb.buf, sb.len);
	strbuf_release(&sb);
}

struct influence {
	struct strmap users;	/* name -> struct strvec of the names whose value it feeds */
};

static struct strvec *users_of(struct influence *in, const char *name)
{
	struct strvec *sv = strmap_get(&in->users, name);

	if (!sv) {
		sv = xcalloc(1, sizeof(*sv));
		strmap_put(&in->users, name, sv);
	}
	return sv;
}

static void feeds(struct influence *in, const struct kconfig_expr *e, const struct kconfig_symbol *to)
{
	if (!e || e->type == KEXPR_CONST)
		return;
	if (e->type != KEXPR_SYMBOL) {
		feeds(in, e->left, to);
		if (e->type != KEXPR_NOT)
			feeds(in, e->right, to);
		return;
	}
	if (!(e->sym->flags & KSYM_CONST))
		strvec_push(users_of(in, e->sym->name), to->name);
}

static void symbol_inputs(struct influence *in, const struct kconfig_symbol *s)
{
	for (size_t k = 0; k < s->nr_defs; k++) {
		const struct kconfig_definition *d = s->defs[k];

		feeds(in, d->dep, s);
		for (size_t j = 0; j < d->nr_prompts; j++)
			feeds(in, d->prompts[j].cond, s);
		for (size_t j = 0; j < d->nr_defaults; j++) {
			feeds(in, d->defaults[j].value, s);
			feeds(in, d->defaults[j].cond, s);
		}
		for (size_t j = 0; d->choice && j < d->choice->nr_members; j++)
			if (d->choice->members[j] != s)
				strvec_push(users_of(in, s->name), d->choice->members[j]->name);
	}
	for (size_t i = 0; i < s->nr_selected_by; i++)
		if (s->selected_by[i].from->symbol) {
			strvec_push(users_of(in, s->selected_by[i].from->symbol->name), s->name);
			feeds(in, s->selected_by[i].cond, s);
		}
	for (size_t i = 0; i < s->nr_implied_by; i++)
		if (s->implied_by[i].from->symbol)
			strvec_push(users_of(in, s->implied_by[i].from->symbol->name), s->name);
}

/*
 * The changed names and every name whose value under conf they may alter
 * (through dependencies, prompts, defaults, selects, implies, choices), on
 * the primary architecture's tree: what a defconfig must set to be affected.
 * An inert new symbol (is_inert_new) alters nothing in a defconfig that
 * does not set it: it is there, and nothing through it.
 */
static void influenced_symbols(struct trees *old, struct trees *new, const struct strmap *changed,
			       struct strmap *out)
{
	struct influence in = { .users = STRMAP_INIT };
	struct arch_model *am = trees_model(new, new->tm.primary);
	struct arch_model *om = old ? trees_model(old, old->tm.primary) : NULL;
	const struct kconfig *okc = om ? om->kconfig : NULL;
	struct strvec queue = STRVEC_INIT;
	struct strmap_entry *e;
	struct kconfig_symbol *s;
	size_t i;

	if (!am || !am->kconfig) {
		strmap_for_each(changed, e)
			strmap_put(out, e->key, (void *)1);
		goto done;
	}
	strmap_for_each(changed, e) {
		strmap_put(out, e->key, (void *)1);
		if (!is_inert_new(okc, kconfig_lookup(am->kconfig, e->key)))
			strvec_push(&queue, e->key);
	}
	for_each_kconfig_symbol(am->kconfig, i, s)
		symbol_inputs(&in, s);
	for (i = 0; i < queue.nr; i++) {
		const struct strvec *sv = strmap_get(&in.users, queue.v[i]);

		for (size_t k = 0; sv && k < sv->nr; k++)
			if (!strmap_get(out, sv->v[k])) {
				strmap_put(out, sv->v[k], (void *)1);
				strvec_push(&queue, sv->v[k]);
			}
	}
done:
	strmap_for_each(&in.users, e) {
		strvec_clear(e->value);
		free(e->value);
	}
	strmap_clear(&in.users, NULL);
	strvec_clear(&queue);
}

void trees_affected_files(struct trees *old, struct trees *new, const git_oid *commit,
			  const struct strvec *pathspec, const struct strmap *skip,
			  struct strvec *paths, struct strvec *blobs)
{
	static const char pattern[] = "\\bCONFIG_(\\w+)";
	struct strmap changed = STRMAP_INIT, influenced = STRMAP_INIT;
	struct users u = { .repo = new->env.repo, .trees = new, .changed = &changed,
			   .influenced = &influenced, .skip = skip,
			   .pathspec = pathspec, .paths = paths, .blobs = blobs };
	int errcode;
	PCRE2_SIZE erroff;
	char *key = NULL;
	size_t from = paths->nr;

	trees_changed_symbols(old, new, &changed);
	if (!changed.nr) {
		strmap_clear(&changed, NULL);
		return;
	}
	/* Every C file of the tree read: kept for the next process that asks the same. */
	if (new->env.diskcache) {
		key = affected_key(new, commit, &changed, pathspec, skip);
		if (key && affected_from_cache(new->env.diskcache, key, paths, blobs)) {
			free(key);
			strmap_clear(&changed, NULL);
			return;
		}
	}
	influenced_symbols(old, new, &changed, &influenced);
	u.re = pcre2_compile((PCRE2_SPTR)pattern, sizeof(pattern) - 1, 0, &errcode, &erroff, NULL);
	if (!u.re)
		die("internal error: cannot compile the symbol pattern");
	pcre2_jit_compile(u.re, PCRE2_JIT_COMPLETE);
	u.md = pcre2_match_data_create_from_pattern(u.re, NULL);
	repo_for_each_file(u.repo, commit, "", find_users, &u);
	pcre2_match_data_free(u.md);
	pcre2_code_free(u.re);
	if (key && !process_interrupted())
		affected_to_cache(new->env.diskcache, key, paths, blobs, from);
	free(key);
	strmap_clear(&changed, NULL);
	strmap_clear(&influenced, NULL);
}
