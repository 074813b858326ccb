// SPDX-License-Identifier: GPL-2.0
/*
 * A file's blocks, dead, undead or alive on each architecture of its
 * scope, in steps (analyze_begin, analyze_step, analyze_finish); their
 * names (analyze-names.c) and --explain (analyze-explain.c) are beside.
 */
#include "analyze-internal.h"

#include <stdlib.h>
#include <string.h>

/* The directive's text in a defect's line, at most (bytes). */
#define MAX_DIRECTIVE_SHOWN 512
/* A longer condition in normal form is named by a hash of its directives instead. */
#define MAX_CONDITION_TEXT 1024

int arch_model_satisfiable(struct arch_model *am, formula f)
{
	if (f == LOGIC_TRUE || f == LOGIC_FALSE) {
		/* Decided as the formula was built (constants folded): no question. */
		am->constant++;
		return f == LOGIC_TRUE;
	}
	return sat_satisfiable(am->sat, f) == SAT_SAT;
}

void arch_model_satisfiable_each(struct arch_model *am, const formula *f, size_t n, char *yes)
{
	formula *ask = xcalloc(n + 1, sizeof(*ask));
	size_t *at = xcalloc(n + 1, sizeof(*at)), nr = 0;
	char *got = xcalloc(n + 1, 1);

	for (size_t i = 0; i < n; i++) {
		if (f[i] == LOGIC_TRUE || f[i] == LOGIC_FALSE) {
			am->constant++;
			yes[i] = f[i] == LOGIC_TRUE;
			continue;
		}
		at[nr] = i;
		ask[nr++] = f[i];
	}
	sat_satisfiable_each(am->sat, ask, nr, got);
	for (size_t k = 0; k < nr; k++)
		yes[at[k]] = got[k];
	free(ask);
	free(at);
	free(got);
}

/* Models shared between threads (tree_models.hold): see analyze-internal.h. */
void analyze_hold_model(struct file_state *fs, size_t i)
{
	if (fs->tm->hold)
		fs->tm->hold(fs->tm->data, i);
}

void analyze_release_model(struct file_state *fs, size_t i)
{
	if (fs->tm->release)
		fs->tm->release(fs->tm->data, i);
}

/* Under analyze_hold_model(i). */
struct file_arch *analyze_file_arch(struct file_state *fs, size_t i)
{
	struct file_arch *fa = &fs->arches[i];

	if (fa->ready)
		return fa->am ? fa : NULL;
	fa->ready = 1;
	fa->am = fs->tm->get(fs->tm->data, i);
	if (!fa->am)
		return NULL;
	fa->conditions = blocks_new(fs->tm, fa->am);
	fa->file = LOGIC_TRUE;
	fa->file_alive = -1;
	fa->pc = xcalloc(fs->f->nr_blocks + 1, sizeof(formula));
	fa->local = xcalloc(fs->f->nr_blocks + 1, sizeof(formula));
	fa->alive = xmalloc(fs->f->nr_blocks + 1);
	memset(fa->alive, -1, fs->f->nr_blocks + 1);
	for (size_t i2 = 0; i2 < fs->f->nr_blocks; i2++) {
		fa->pc[i2] = blocks_formula(fa->conditions, fs->f->blocks[i2].pc);
		fa->local[i2] = blocks_formula(fa->conditions, fs->f->blocks[i2].local);
	}
	return fa;
}

/* Forgets the file's formulas on one architecture: its model may be freed. */
static void file_arch_free(struct file_arch *fa)
{
	if (fa->am) {
		blocks_free(fa->conditions);
		free(fa->pc);
		free(fa->local);
		free(fa->alive);
	}
	memset(fa, 0, sizeof(*fa));
}

/*
 * Adds kbuild's condition for the file on architecture i. Built for the
 * first architecture tried; for the others only when a defect's cause is
 * kbuild, since a Kbuild map per architecture costs as much as its model.
 */
void analyze_ensure_kbuild(struct file_state *fs, struct file_arch *fa, size_t i)
{
	const struct kbuild_file *kf;

	if (fa->kbuild_done)
		return;
	fa->kbuild_done = 1;
	if (!fs->tm->file_condition)
		return;
	kf = fs->tm->file_condition(fs->tm->data, i, fs->path);
	if (!blocks_build_known(kf))
		return;
	fa->file = blocks_build_formula(fa->conditions, kf, BLOCKS_COMPILED);
	fa->file_alive = -1;
	memset(fa->alive, -1, fs->f->nr_blocks + 1);
}

static int block_alive(struct file_arch *fa, size_t i)
{
	if (fa->alive[i] < 0)
		fa->alive[i] = (signed char)arch_model_satisfiable(fa->am,
					logic_and(fa->am->logic, fa->pc[i], fa->file));
	return fa->alive[i];
}

/* Can kbuild compile the file at all on this architecture? */
static int file_alive(struct file_arch *fa)
{
	if (fa->file_alive < 0)
		fa->file_alive = arch_model_satisfiable(fa->am, fa->file);
	return fa->file_alive;
}

formula analyze_parent_pc(struct file_arch *fa, const struct cpp_block *b)
{
	return b->parent < 0 ? LOGIC_TRUE : fa->pc[b->parent];
}

static int missing_value(void *data, int var)
{
	const char *name = logic_var_name(data, var);

	return name && starts_with(name, "missing:") ? -1 : 0;
}

/*
 * f with every missing symbol off: rewritten, not a conjunction with their
 * negations, so that the conditions of a chain or a nesting, which share
 * their earlier arms and parents, cost time linear in the file (an #elif
 * chain of 6,000 arms each naming a missing symbol, encoded a conjunction
 * as long as the chain so far per arm).
 */
static formula without_missing(struct file_arch *fa, formula f)
{
	struct arch_model *am = fa->am;

	if (!am->missing_off)
		am->missing_off = logic_restrict_new(am->logic, missing_value, am->logic);
	return logic_restrict(am->missing_off, f);
}

/*
 * Is `f` unsatisfiable, and why: returns -1 when satisfiable, else the cause.
 * The strongest question first (with kbuild's condition and missing names
 * off): satisfiable, it answers the weaker ones, and most are. A solve that
 * finds a model costs tens of milliseconds on Linux, one that refutes next
 * to nothing, and the model found is kept to answer later questions.
 */
static int unsat_cause(struct file_arch *fa, formula f)
{
	formula with_file = logic_and(fa->am->logic, f, fa->file);
	formula strongest = without_missing(fa, with_file);

	if (arch_model_satisfiable(fa->am, strongest))
		return -1;
	if (!arch_model_satisfiable(fa->am, f))
		return sat_satisfiable(fa->am->code_sat, f) ? CAUSE_KCONFIG : CAUSE_CODE;
	if (!arch_model_satisfiable(fa->am, with_file))
		return CAUSE_KBUILD;
	return CAUSE_MISSING;
}

static enum verdict block_verdict(struct file_state *fs, struct file_arch *fa, size_t i,
				  enum defect_cause *cause)
{
	const struct cpp_block *b = &fs->f->blocks[i];
	int c;

	/* A block inside a dead one is dead because of it: not a defect of its own. */
	if (!file_alive(fa))
		return PARENT_DEAD;
	if (b->parent >= 0 && !block_alive(fa, (size_t)b->parent))
		return PARENT_DEAD;
	c = unsat_cause(fa, fa->pc[i]);
	if (c >= 0) {
		*cause = (enum defect_cause)c;
		return DEAD;
	}
	c = unsat_cause(fa, logic_and(fa->am->logic, analyze_parent_pc(fa, b), logic_not(fa->local[i])));
	if (c >= 0) {
		*cause = (enum defect_cause)c;
		return UNDEAD;
	}
	return ALIVE;
}

/*
 * A block's identity across versions of its file: its directive (blanks
 * collapsed), those of the earlier arms of its chain and its parent's
 * identity (ctx); and whether the file #defines each CONFIG name of those
 * chains (bits). Both are hashed step by step from the parent and the
 * previous arm, so a file's ids cost time linear in it however deep its
 * nesting or long its #elif chains. `config`: the chain up to the block
 * (its #if, earlier #elifs and itself) names a CONFIG symbol.
 */
struct block_id {
	uint64_t ctx, bits, arm_ctx, arm_bits;
	int config;
};

#define FNV_SEED 0xcbf29ce484222325ULL

static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

static uint64_t fnv_u64(uint64_t h, uint64_t v)
{
	unsigned char b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	return fnv(h, b, sizeof(b));
}

static struct block_id *block_ids(const struct cpp_file *f)
{
	struct block_id *id = xcalloc(f->nr_blocks + 1, sizeof(*id));

	for (size_t i = 0; i < f->nr_blocks; i++) {
		const struct cpp_block *b = &f->blocks[i];
		const struct block_id *prev = b->prev_sibling >= 0 ? &id[b->prev_sibling] : NULL;
		const struct block_id *up = b->parent >= 0 ? &id[b->parent] : NULL;
		uint64_t h = prev ? prev->arm_ctx : FNV_SEED, bits = prev ? prev->arm_bits : FNV_SEED;
		int blank = 0;

		h = fnv(h, "|", 1);
		for (const char *p = b->directive; *p; p++) {
			if (*p == ' ' || *p == '\t') {
				blank = 1;
				continue;
			}
			if (blank)
				h = fnv(h, " ", 1);
			blank = 0;
			h = fnv(h, p, 1);
		}
		bits = fnv(bits, "|", 1);
		for (size_t k = 0; k < b->nr_symbols; k++)
			bits = fnv(bits, b->symbols[k].file_defined ? "1" : "0", 1);
		id[i].arm_ctx = h;
		id[i].arm_bits = bits;
		id[i].ctx = fnv_u64(fnv_u64(FNV_SEED, up ? up->ctx : 0), h);
		id[i].bits = fnv_u64(fnv_u64(FNV_SEED, up ? up->bits : 0), bits);
		id[i].config = b->nr_symbols || (prev && prev->config);
	}
	return id;
}

static void block_key(const struct block_id *id, size_t i, struct strbuf *sb)
{
	strbuf_addf(sb, "%016llx.%016llx", (unsigned long long)id[i].ctx,
		    (unsigned long long)id[i].bits);
}

/* Is block i one that opt->skip says the other version holds alike? */
static int skipped(const struct block_id *id, size_t i, const struct analyze_options *opt,
		   struct strbuf *key)
{
	if (!opt->skip)
		return 0;
	strbuf_reset(key);
	block_key(id, i, key);
	return strmap_get(opt->skip, key->buf) != NULL;
}

struct cpp_file *analyze_scan(const struct tree_models *tm, const char *path, const char *data,
			      size_t size)
{
	return blocks_scan(tm, path, data, size, 0);
}

void analyze_block_keys(const struct cpp_file *f, struct strmap *counts)
{
	struct block_id *id = block_ids(f);
	struct strbuf key = STRBUF_INIT;

	for (size_t i = 0; i < f->nr_blocks; i++) {
		strbuf_reset(&key);
		block_key(id, i, &key);
		strmap_put(counts, key.buf, (void *)((uintptr_t)strmap_get(counts, key.buf) + 1));
	}
	strbuf_release(&key);
	free(id);
}

struct defect *analyze_add_defect(struct defect_list *out, const char *path,
				 const struct cpp_file *f, const struct block_id *id, size_t i,
				 enum defect_kind kind)
{
	const struct cpp_block *b = &f->blocks[i];
	struct defect *d = defect_list_add(out);
	struct strbuf cond = STRBUF_INIT;

	d->path = xstrdup(path);
	d->line = b->line;
	d->end_line = b->end_line;
	d->block = b->number;
	d->kind = kind;
	/* Shown in reports and notes, never compared: a line of 1 MB is cut. */
	if (strlen(b->directive) > MAX_DIRECTIVE_SHOWN)
		d->directive = xstrfmt("%.*s...", MAX_DIRECTIVE_SHOWN, b->directive);
	else
		d->directive = xstrdup(b->directive);
	/*
	 * Line and spelling of the #if are gone from the condition, so a defect
	 * survives a rewrite of its #if line, and a rewrite that changes the
	 * condition is a new defect.
	 */
	if (cpp_expr_format_normal(&cond, b->pc, MAX_CONDITION_TEXT) < 0) {
		/* 10k nested #ifs: a text per block would be quadratic in the file. */
		strbuf_reset(&cond);
		strbuf_addf(&cond, "#%016llx", (unsigned long long)id[i].ctx);
	}
	d->condition = strbuf_detach(&cond, NULL);
	return d;
}

/* The architectures whose models decide for this file. */
static void scope_of(struct file_state *fs, const char *path, size_t **idx, size_t *nr)
{
	struct tree_models *tm = fs->tm;
	const char *prefix;
	int own = 0;

	*idx = xcalloc(tm->nr_arches + 1, sizeof(**idx));
	*nr = 0;
	if (!tm->nr_arches) {
		(*idx)[(*nr)++] = 0;
		return;
	}
	prefix = tm->arch_prefix ? tm->arch_prefix : "arch/";
	if (starts_with(path, prefix)) {
		const char *a = path + strlen(prefix), *slash = strchr(a, '/');

		/* Xen's arm32 and arm64 share arch/arm/: every architecture of the directory. */
		for (size_t i = 0; slash && i < tm->nr_arches; i++) {
			const char *dir = tm->arch_dirs ? tm->arch_dirs[i] : tm->arch_names[i];

			if (strlen(dir) != (size_t)(slash - a) || strncmp(dir, a, (size_t)(slash - a)))
				continue;
			/* Another architecture's file says nothing about --arch's. */
			if (!tm->only_arch || !strcmp(tm->only_arch, tm->arch_names[i]))
				(*idx)[(*nr)++] = i;
			own = 1;
		}
		if (own)
			return;
	}
	if (tm->only_arch) {
		for (size_t i = 0; i < tm->nr_arches; i++)
			if (!strcmp(tm->arch_names[i], tm->only_arch))
				(*idx)[(*nr)++] = i;
		return;
	}
	(*idx)[(*nr)++] = tm->primary;
	for (size_t i = 0; i < tm->nr_arches; i++)
		if (i != tm->primary)
			(*idx)[(*nr)++] = i;
}

/* The defect of a file that kbuild compiles on no architecture in scope (B00). */
static void add_file_defect(struct file_state *fs, const char *path, const size_t *scope,
			    size_t nr_scope, struct defect_list *out)
{
	struct defect *d = defect_list_add(out);

	d->path = xstrdup(path);
	d->line = 1;
	d->end_line = fs->f->nr_lines;
	d->block = -1;
	d->kind = DEFECT_DEAD;
	d->cause = CAUSE_KBUILD;
	d->directive = xstrfmt("(the whole file: %s never compiles it)",
			       fs->tm->build_name ? fs->tm->build_name : "kbuild");
	d->condition = xstrdup("(the whole file)");
	d->global = !fs->tm->nr_arches || (nr_scope == fs->tm->nr_arches && !fs->tm->only_arch);
	if (!d->global)
		for (size_t k = 0; k < nr_scope; k++)
			strvec_push(&d->arches, fs->tm->arch_names[scope[k]]);
}

void analyze_file(struct tree_models *tm, const char *path, const char *data, size_t size,
		  const struct analyze_options *opt, struct defect_list *out, size_t *input_errors)
{
	struct cpp_file *f = analyze_scan(tm, path, data, size);

	analyze_scanned(tm, path, f, opt, out, input_errors);
	cpp_file_free(f);
}

/* A file no configuration builds: its defect, and the typos its blocks still name. */
static void file_defect(struct file_state *fs, const size_t *scope, const struct analyze_options *opt,
			struct defect_list *out)
{
	struct strbuf key = STRBUF_INIT;
	struct strvec names = STRVEC_INIT;

	if (opt->explain)
		analyze_explain_file(&out->v[out->nr - 1], fs, scope[0]);
	/* Never compiled, yet a name no Kconfig defines is still a typo. */
	for (size_t i = 0; i < fs->f->nr_blocks; i++) {
		if (skipped(fs->ids, i, opt, &key))
			continue;
		strvec_clear(&names);
		analyze_undefined_names(fs, i, opt, &names);
		analyze_add_undefined(fs, fs->path, i, opt, &names, out);
	}
	strbuf_release(&key);
	strvec_clear(&names);
}

/*
 * Why kbuild never compiles this file in this run, or NULL: no Makefile
 * lists this .c or .S (a .h, or anything #included, is read through its
 * includer), or the build gives this other source no condition (a .txt or
 * .sh of a suffix some rule runs through cpp, that no list names), or it
 * is another architecture's than --arch.
 */
static const char *never_compiled(struct file_state *fs, const char *path, const size_t *scope,
				  size_t nr_scope)
{
	const struct kbuild_file *kf;
	int c_or_asm = ends_with(path, ".c") || ends_with(path, ".S"), unbuilt;

	if (!fs->tm->file_condition || ends_with(path, ".h"))
		return NULL;
	if (!nr_scope)
		return fs->tm->only_arch ? "another architecture's file" : NULL;
	analyze_hold_model(fs, scope[0]);
	kf = fs->tm->file_condition(fs->tm->data, scope[0], path);
	unbuilt = c_or_asm ? blocks_build_unlisted(kf) : !kf;
	analyze_release_model(fs, scope[0]);
	if (!unbuilt)
		return NULL;
	return c_or_asm ? "no Makefile builds this file" : "the build gives this file no condition";
}

/* Where a block's walk over the architectures in scope is. */
enum walk_state { WALK_NONE, WALK_ON, WALK_DONE };

struct block_walk {
	unsigned char state;	/* enum walk_state; WALK_NONE: not walked (skipped, no CONFIG name) */
	unsigned char verdict;	/* enum verdict so far */
	unsigned char cause;	/* enum defect_cause, of the first architecture that decided */
};

/* check_file's walk: whether kbuild compiles the file on some architecture in scope. */
enum file_check { CHECK_ON, CHECK_ALIVE, CHECK_DEAD };

struct analysis {
	struct file_state fs;
	char *path;
	struct analyze_options opt;
	struct defect_list *out;
	size_t *input_errors;
	size_t *scope, nr_scope;
	size_t k;			/* the next step's position in scope */
	enum file_check check;
	size_t known;			/* architectures whose kbuild says never (check) */
	struct block_walk *walk;	/* f->nr_blocks entries */
	size_t walking;			/* blocks in WALK_ON */
};

/* The cpp errors of the file: errors, or warnings where kbuild never compiles it. */
static void report_errors(struct analysis *an)
{
	const struct cpp_file *f = an->fs.f;
	const char *unbuilt;

	if (f->errors.nr &&
	    (unbuilt = never_compiled(&an->fs, an->path, an->scope, an->nr_scope)) != NULL) {
		for (size_t i = 0; i < f->errors.nr && !an->opt.quiet_unbuilt; i++)
			warning("%s (%s)", f->errors.v[i], unbuilt);
	} else {
		for (size_t i = 0; i < f->errors.nr; i++)
			error("%s", f->errors.v[i]);
		*an->input_errors += f->errors.nr;
	}
}

/*
 * The file check on scope[k]: a file kbuild compiles on no architecture in
 * scope is one defect (B00) instead of one per block. No condition there
 * (a header, a file no list names): alive, no model built.
 */
static void check_step(struct analysis *an, size_t a)
{
	struct file_state *fs = &an->fs;
	const struct kbuild_file *kf;
	struct file_arch *fa;
	int alive;

	if (!fs->tm->file_condition) {
		an->check = CHECK_ALIVE;
		return;
	}
	analyze_hold_model(fs, a);
	kf = fs->tm->file_condition(fs->tm->data, a, fs->path);
	if (!blocks_build_known(kf)) {
		analyze_release_model(fs, a);
		an->check = CHECK_ALIVE;
		return;
	}
	fa = analyze_file_arch(fs, a);
	if (fa)
		analyze_ensure_kbuild(fs, fa, a);
	alive = fa && (fa->file == LOGIC_TRUE || file_alive(fa));
	analyze_release_model(fs, a);
	if (!fa)
		return;
	if (alive)
		an->check = CHECK_ALIVE;
	else
		an->known++;
}

/*
 * Block i's walk on scope[k]: a defect must hold on every architecture in
 * scope, so the walk ends at the first where it does not. Kbuild's
 * condition is added on the first architecture, and on the others only
 * once the cause is kbuild (a Kbuild map costs as much as a model); a
 * later block of the file finds it added.
 */
static void walk_step(struct analysis *an, size_t i, size_t k)
{
	struct file_state *fs = &an->fs;
	struct block_walk *w = &an->walk[i];
	enum defect_cause ck = CAUSE_CODE;
	enum verdict vk = PARENT_DEAD, v = w->verdict;
	struct file_arch *fa;

	analyze_hold_model(fs, an->scope[k]);
	fa = analyze_file_arch(fs, an->scope[k]);
	if (fa) {
		if (k == 0 || w->cause == CAUSE_KBUILD)
			analyze_ensure_kbuild(fs, fa, an->scope[k]);
		vk = block_verdict(fs, fa, i, &ck);
	}
	analyze_release_model(fs, an->scope[k]);
	/* No model here (it could not be built), or the parent is dead. */
	if (vk == PARENT_DEAD)
		return;
	if (vk == ALIVE || (v != NONE && vk != v)) {
		w->verdict = ALIVE;
	} else if (v == NONE) {
		w->verdict = vk;
		w->cause = ck;
		/*
		 * Impossible in C whatever Kconfig says, or only possible with a
		 * symbol that no Kconfig of any architecture defines: so on every
		 * architecture, no model needed.
		 */
		if (ck != CAUSE_CODE && ck != CAUSE_MISSING)
			return;
	} else {
		return;
	}
	w->state = WALK_DONE;
	an->walking--;
}

struct analysis *analyze_begin(struct tree_models *tm, const char *path, const struct cpp_file *f,
			       const struct analyze_options *opt, struct defect_list *out,
			       size_t *input_errors)
{
	struct analysis *an = xcalloc(1, sizeof(*an));
	struct strbuf key = STRBUF_INIT;

	an->path = xstrdup(path);
	an->fs.path = an->path;
	an->fs.f = f;
	an->fs.tm = tm;
	an->opt = *opt;
	an->out = out;
	an->input_errors = input_errors;
	an->fs.nr_models = tm->nr_arches ? tm->nr_arches : 1;
	an->fs.arches = xcalloc(an->fs.nr_models, sizeof(*an->fs.arches));
	an->fs.ids = block_ids(f);
	scope_of(&an->fs, path, &an->scope, &an->nr_scope);
	an->walk = xcalloc(f->nr_blocks + 1, sizeof(*an->walk));
	for (size_t i = 0; i < f->nr_blocks; i++) {
		if (skipped(an->fs.ids, i, opt, &key) || f->blocks[i].constant ||
		    !an->fs.ids[i].config)
			continue;
		an->walk[i].state = WALK_ON;
		an->walk[i].verdict = NONE;
		an->walk[i].cause = CAUSE_CODE;
		an->walking++;
	}
	strbuf_release(&key);
	if (!an->nr_scope) {
		/* --arch and another architecture's file: no model to ask. */
		report_errors(an);
		an->check = CHECK_ALIVE;
	}
	return an;
}

size_t analyze_next(const struct analysis *an)
{
	if (an->k >= an->nr_scope || (an->check == CHECK_ALIVE && !an->walking))
		return ANALYZE_DONE;
	return an->scope[an->k];
}

void analyze_step(struct analysis *an)
{
	size_t k = an->k, a;
	const struct cpp_file *f = an->fs.f;

	if (analyze_next(an) == ANALYZE_DONE)
		return;
	a = an->scope[k];
	if (k == 0)
		report_errors(an);
	/*
	 * The file's check goes first, as it did when it ran alone before the
	 * blocks: where it adds kbuild's condition, the blocks find it.
	 */
	if (an->check == CHECK_ON)
		check_step(an, a);
	for (size_t i = 0; i < f->nr_blocks && an->walking; i++)
		if (an->walk[i].state == WALK_ON)
			walk_step(an, i, k);
	/* The next step is another architecture's: this one's model may go. */
	file_arch_free(&an->fs.arches[a]);
	an->k++;
	if (an->k < an->nr_scope)
		return;
	if (an->check == CHECK_ON)
		an->check = an->known ? CHECK_DEAD : CHECK_ALIVE;
	for (size_t i = 0; i < f->nr_blocks; i++)
		if (an->walk[i].state == WALK_ON)
			an->walk[i].state = WALK_DONE;
	an->walking = 0;
}

/* Block i's defect, or its undefined names' line, from its walk. */
static void finish_block(struct analysis *an, size_t i, struct strvec *names)
{
	struct file_state *fs = &an->fs;
	const struct cpp_block *b = &fs->f->blocks[i];
	const struct tree_models *tm = fs->tm;
	enum defect_cause cause = (enum defect_cause)an->walk[i].cause;
	enum verdict v = (enum verdict)an->walk[i].verdict;
	int macro_missing;
	struct defect *d;

	strvec_clear(names);
	macro_missing = analyze_undefined_names(fs, i, &an->opt, names);
	/*
	 * Not walked (no CONFIG name, constant), not a defect; nor is `#else
	 * #error "needs FOO"` that the configuration rules out: a build
	 * assertion that holds. One that a typo keeps from ever firing
	 * (missing) is still a defect.
	 */
	if (an->walk[i].state == WALK_NONE || (v != DEAD && v != UNDEAD) ||
	    (v == DEAD && b->has_error && !b->has_code &&
	     (cause == CAUSE_KCONFIG || cause == CAUSE_KBUILD))) {
		analyze_add_undefined(fs, an->path, i, &an->opt, names, an->out);
		return;
	}
	/* A macro's missing option is false in C: missing is why, not code. */
	if (cause == CAUSE_CODE && macro_missing)
		cause = CAUSE_MISSING;
	d = analyze_add_defect(an->out, an->path, fs->f, fs->ids, i, v == DEAD ? DEFECT_DEAD : DEFECT_UNDEAD);
	d->cause = cause;
	analyze_set_symbols(d, fs->f, i);
	for (size_t k = 0; k < names->nr; k++)
		strvec_push(&d->missing, names->v[k]);
	d->global = !tm->nr_arches || (an->nr_scope == tm->nr_arches && !tm->only_arch);
	if (!d->global)
		for (size_t k = 0; k < an->nr_scope; k++)
			strvec_push(&d->arches, tm->arch_names[an->scope[k]]);
	if (an->opt.explain)
		analyze_explain_block(d, fs, i, v, an->scope);
}

void analyze_finish(struct analysis *an)
{
	struct file_state *fs = &an->fs;
	struct strbuf key = STRBUF_INIT;
	struct strvec names = STRVEC_INIT;

	while (analyze_next(an) != ANALYZE_DONE)
		analyze_step(an);
	if (an->check == CHECK_DEAD) {
		add_file_defect(fs, an->path, an->scope, an->nr_scope, an->out);
		file_defect(fs, an->scope, &an->opt, an->out);
	} else {
		for (size_t i = 0; i < fs->f->nr_blocks; i++)
			if (an->walk[i].state != WALK_NONE || !skipped(fs->ids, i, &an->opt, &key))
				finish_block(an, i, &names);
	}
	strbuf_release(&key);
	strvec_clear(&names);
	analyze_abandon(an);
}

void analyze_abandon(struct analysis *an)
{
	struct file_state *fs = &an->fs;

	for (size_t k = 0; k < fs->nr_models; k++)
		file_arch_free(&fs->arches[k]);
	free(fs->arches);
	free(fs->ids);
	free(an->scope);
	free(an->walk);
	free(an->path);
	free(an);
}

void analyze_scanned(struct tree_models *tm, const char *path, const struct cpp_file *f,
		     const struct analyze_options *opt, struct defect_list *out,
		     size_t *input_errors)
{
	analyze_finish(analyze_begin(tm, path, f, opt, out, input_errors));
}
