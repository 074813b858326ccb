// SPDX-License-Identifier: GPL-2.0
/*
 * git vampyr: the fewest valid configurations that compile every #if block
 * that a commit touches, as Kconfig fragments; optionally expanded with the
 * tree's own kconfig and built.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cpp.h"
#include "diskcache.h"
#include "mbox.h"
#include "notes.h"
#include "options.h"
#include "report.h"
#include "trees.h"
#include "vampyr.h"

static const char *const usage_lines[] = {
	"git vampyr [<options>] [--commit=<commit>] [-- <pathspec>...]",
	"git vampyr [<options>] --mbox=<file>|<dir>|- [--base=<rev>] [<file>...] [-- <pathspec>...]",
	NULL,
};

struct file_list {
	struct strvec paths;
	struct change_list changes;
	int use_hunks;
	const struct strvec *pathspec;
	const struct trees *trees;	/* which files are sources */
};

static int collect_file(const struct tree_file *f, void *data)
{
	struct file_list *fl = data;

	if (trees_is_source(fl->trees, f->path) && pathspec_match(fl->pathspec, f->path))
		strvec_push(&fl->paths, f->path);
	return 0;
}

/* Does the commit's diff touch lines first..last of path? */
static int hunks_touch(const struct file_change *fc, int first, int last)
{
	for (size_t i = 0; i < fc->nr_hunks; i++) {
		const struct hunk *h = &fc->hunks[i];

		if (h->new_lines == 0) {
			/* Lines removed after new_start: inside the block when it spans that gap. */
			if (first <= h->new_start && h->new_start < last)
				return 1;
		} else if (h->new_start <= last && h->new_start + h->new_lines - 1 >= first) {
			return 1;
		}
	}
	return 0;
}

/*
 * kbuild defines MODULE for the objects of a module: when the file's blocks
 * test it, MODULE is tied to the file's module condition, and !MODULE to its
 * built-in one (one MODULE variable serves all files of a run, which can only
 * make configurations fewer blocks wide, never wrong).
 */
static formula module_tie(const struct vampyr_source *src, const struct vampyr_cover *cv,
			  const struct kbuild_file *kf, size_t first_block)
{
	int var = logic_var_find(src->logic, "cpp:MODULE"), *vars = NULL, used = 0;
	size_t nr = 0, alloc = 0;
	formula mod;

	if (!var)
		return LOGIC_TRUE;
	for (size_t i = first_block; i < cv->nr_blocks && !used; i++) {
		nr = 0;
		logic_vars_of(src->logic, cv->blocks[i].pc, &vars, &nr, &alloc);
		for (size_t k = 0; k < nr && !used; k++)
			used = vars[k] == var;
	}
	free(vars);
	if (!used)
		return LOGIC_TRUE;
	mod = logic_atom(src->logic, var);
	return logic_and(src->logic,
			 logic_implies(src->logic, mod, blocks_build_formula(src->conditions, kf, BLOCKS_MODULE)),
			 logic_implies(src->logic, logic_not(mod),
				       blocks_build_formula(src->conditions, kf, BLOCKS_BUILTIN)));
}

/* Is there only blank space and comments on lines [from, to] (1-based) of the text? */
static int only_comments(const char *p, const char *end, int from, int to)
{
	int line = 1, in_comment = 0;

	for (; p < end && line <= to; p++) {
		if (*p == '\n') {
			line++;
			continue;
		}
		if (in_comment) {
			if (*p == '*' && p + 1 < end && p[1] == '/')
				in_comment = 0, p++;
			continue;
		}
		if (*p == '/' && p + 1 < end && p[1] == '*') {
			in_comment = 1;
			p++;
		} else if (*p == '/' && p + 1 < end && p[1] == '/') {
			while (p + 1 < end && p[1] != '\n')
				p++;
		} else if (line >= from && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\f' &&
			   *p != '\v' && !(*p == '\\' && p + 1 < end && p[1] == '\n')) {
			return 0;
		}
	}
	return 1;
}

/* The X of "#ifndef X", "#if !defined(X)", "#if !defined X" (to be freed), or NULL. */
static char *guard_name(const struct cpp_block *cb)
{
	const char *d = cb->directive, *name;
	size_t len;

	if (cb->kind == CPP_IFNDEF)
		d += strcspn(d, " \t");
	else if (cb->kind == CPP_IF && (d = strstr(d, "!")) && starts_with(d + 1 + strspn(d + 1, " \t"), "defined"))
		d += 1 + strspn(d + 1, " \t") + strlen("defined");
	else
		return NULL;
	d += strspn(d, " \t(");
	name = d;
	len = strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
	d = name + len;
	d += strspn(d, " \t)");
	return len && !*d ? xstrndup(name, len) : NULL;
}

/*
 * The include guard of a file, "#ifndef X_H" / "#define X_H" around all of
 * it (only comments outside, no #else): the index of its block, or -1. It
 * is no block: it holds whenever the file is read at all.
 */
static long include_guard(const struct cpp_file *f, const char *data, size_t size)
{
	const struct cpp_block *cb = f->nr_blocks ? &f->blocks[0] : NULL;
	char *name;
	int define_line = 0;

	if (!cb || cb->parent >= 0 || cb->unterminated || !(name = guard_name(cb)))
		return -1;
	for (size_t i = 0; i < f->nr_defines && !define_line; i++)
		if (f->defines[i].line > cb->line_last)
			define_line = !f->defines[i].undef && !strcmp(f->defines[i].name, name) &&
				      f->defines[i].line < cb->end_line ? f->defines[i].line : -1;
	free(name);
	if (define_line <= 0)
		return -1;
	for (size_t i = 1; i < f->nr_blocks; i++)
		if (f->blocks[i].first == 0 || f->blocks[i].parent < 0 || f->blocks[i].line < define_line)
			return -1;
	return only_comments(data, data + size, 1, cb->line - 1) &&
	       only_comments(data, data + size, cb->end_line_last + 1, f->nr_lines + 1) ? 0 : -1;
}

/* The block of a whole file: line 0, its Kbuild condition, B00 as cpp numbers the file. */
static void add_file_block(struct vampyr_cover *cv, const char *path, formula file_pc, int nr_lines)
{
	struct vblock *b;

	ALLOC_GROW(cv->blocks, cv->nr_blocks + 1, cv->alloc_blocks);
	b = &cv->blocks[cv->nr_blocks];
	memset(b, 0, sizeof(*b));
	b->path = xstrdup(path);
	b->shown = xquote_path(path);
	b->line = 0;
	b->end_line = nr_lines + 1;
	b->number = -1;
	b->parent = -1;
	b->chain = (long)cv->nr_blocks;
	b->pc = file_pc;
	b->target = 1;
	b->config = -1;
	cv->nr_blocks++;
}

/* The blocks of a file, each with its presence condition (common/blocks), to cover. */
static void add_file_blocks(const struct vampyr_source *src, struct vampyr_cover *cv,
			    const char *path, const struct file_change *fc,
			    int changed)
{
	struct blocks_file bf;
	formula file_pc;
	size_t base = cv->nr_blocks;
	long guard;
	const struct cpp_file *f;

	if (blocks_of_file(src->trees, src->trees->tm.primary, src->conditions, path, &bf) < 0) {
		blocks_file_release(&bf);
		return;
	}
	f = bf.f;
	file_pc = bf.compiled;
	guard = include_guard(f, bf.blob->data, bf.blob->size);
	for (size_t i = 0; i < f->nr_blocks; i++) {
		const struct cpp_block *cb = &f->blocks[i];
		struct vblock *b;

		ALLOC_GROW(cv->blocks, cv->nr_blocks + 1, cv->alloc_blocks);
		b = &cv->blocks[cv->nr_blocks++];
		memset(b, 0, sizeof(*b));
		b->path = xstrdup(path);
		b->shown = xquote_path(path);
		b->line = cb->line;
		b->end_line = cb->end_line;
		b->number = cb->number;
		b->parent = cb->parent < 0 ? -1 : (long)(base + (size_t)cb->parent);
		b->chain = (long)(base + (size_t)cb->first);
		/* Inside an include guard: PC(parent) && local, the guard true. */
		if (guard >= 0 && (long)i == guard)
			b->pc = LOGIC_TRUE;
		else if (guard >= 0 && cb->parent >= 0)
			b->pc = logic_and(src->logic, cv->blocks[b->parent].pc,
					  blocks_formula(src->conditions, cb->local));
		else
			b->pc = blocks_formula(src->conditions, cb->pc);
		b->target = (long)i != guard && (!fc || hunks_touch(fc, cb->line, cb->end_line));
		b->guard = (long)i == guard;
		b->config = -1;
	}
	if (blocks_build_known(bf.kf))
		file_pc = logic_and(src->logic, file_pc, module_tie(src, cv, bf.kf, base));
	for (size_t i = base; i < cv->nr_blocks; i++)
		cv->blocks[i].pc = logic_and(src->logic, file_pc, cv->blocks[i].pc);
	/*
	 * A file the commit adds or changes is itself to be compiled: its
	 * Kbuild condition is a block of its own (line 0), so that a new driver
	 * without any #if gets a configuration that builds it.
	 */
	if (changed && blocks_build_known(bf.kf))
		add_file_block(cv, path, file_pc, f->nr_lines);
	blocks_forget_exprs(src->conditions);
	blocks_file_release(&bf);
}

/*
 * The commit's trees as git undertaker sees them (common/trees): the project
 * and where its Kconfig tree starts, its variables, the names the build
 * defines, the model of one architecture (--arch, else the host's, else the
 * first) and its Kbuild map.
 */
static int load_model(struct vampyr_source *src, const char *want_arch, int use_kbuild,
		      const struct common_options *common)
{
	struct trees_env env = {
		.repo = src->repo,
		.project_config = src->project_config,
		.only_arch = want_arch,
		.no_kbuild = !use_kbuild,
		.quiet = 1,
		.stats = common->stats,
		.witnesses = common->pool,
	};
	const char *at = oid_short(src->repo, &src->commit);
	struct arch_model *am;
	struct trees *t;

	src->diskcache = trees_diskcache_open(src->repo, common->stats);
	env.diskcache = src->diskcache;
	t = src->trees = trees_open(&env, &src->commit);
	if (!t)
		return error("cannot read the build files of %s", at);
	if (trees_no_kconfig(t))
		return error("no Kconfig tree at %s (no top Kconfig file, no <dir>/Kconfig with a mainmenu)", at);
	am = trees_model(t, t->tm.primary);
	if (!am)
		return error("cannot read the Kconfig files of %s", at);
	src->arch = am->arch;
	src->arch_dir = t->arches.nr ? t->arch_dirs.v[t->tm.primary] : NULL;
	src->srctree = trees_srctree(t);
	src->kconfig = am->kconfig;
	src->model = am->model;
	src->logic = am->logic;
	src->sat = am->sat;
	src->conditions = blocks_new(&t->tm, am);
	return 0;
}

/*
 * The fragments, and the manifest naming them. The manifest first names
 * the earlier run's files too, so a run that dies half-way leaves none of
 * them unlisted; once all are written, those not written again go.
 */
static int write_fragments(const struct vampyr_source *src, const struct vampyr_cover *cv,
			   const char *dir, int expand)
{
	struct strvec old = STRVEC_INIT, now = STRVEC_INIT, both = STRVEC_INIT;
	int ret = 0;

	if (mkdir(dir, 0777) && errno != EEXIST)
		return error("cannot create %s: %s", dir, strerror(errno));
	manifest_read(dir, &old);
	for (size_t i = 0; i < cv->nr_configs; i++) {
		strvec_pushf(&now, "%s.config", cv->configs[i].name);
		/* kconfig writes <name>.expanded beside the fragment. */
		if (expand)
			strvec_pushf(&now, "%s.expanded", cv->configs[i].name);
	}
	for (size_t i = 0; i < old.nr; i++)
		strvec_push(&both, old.v[i]);
	for (size_t i = 0; i < now.nr; i++)
		strvec_push(&both, now.v[i]);
	ret = manifest_write(dir, &both);
	for (size_t i = 0; !ret && i < cv->nr_configs; i++) {
		struct vconfig *c = &cv->configs[i];

		c->path = xstrfmt("%s/%s.config", dir, c->name);
		fragment_assignments(src, cv, c);
		ret = fragment_write(c);
	}
	if (!ret) {
		manifest_remove_stale(dir, &old, &now);
		ret = manifest_write(dir, &now);
	}
	if (ret)
		error("cannot write the fragments in %s", dir);
	strvec_clear(&old);
	strvec_clear(&now);
	strvec_clear(&both);
	return ret ? -1 : 0;
}

/*
 * What a run covered, as its section's key: the architecture, the blocks and
 * the paths. Expanded configurations never go into the note (14,554 lines
 * each on Linux), only the fragments.
 */
static void write_note(const struct vampyr *v, const struct common_options *common, int hunks,
		       const struct strvec *paths)
{
	char *ref = common_notes_ref(common, "vampyr");
	struct notes_batch *nb = notes_batch_begin(v->src.repo, ref);
	struct strbuf text = STRBUF_INIT, key = STRBUF_INIT;
	char *old = notes_read(v->src.repo, ref, &v->src.commit);

	strbuf_addf(&key, "arch %s", v->src.arch ? v->src.arch : "-");
	if (hunks)
		strbuf_addstr(&key, " hunks");
	if (paths->nr)
		strbuf_addstr(&key, " --");
	for (size_t i = 0; i < paths->nr; i++)
		strbuf_addf(&key, " %s", paths->v[i]);
	vampyr_note(&v->cover, &v->expansion, &v->build, old, key.buf, &text);
	notes_batch_add(nb, &v->src.commit, text.buf);
	if (notes_batch_commit(nb, "git vampyr"))
		error("could not write the note in %s", ref);
	strbuf_release(&text);
	strbuf_release(&key);
	free(old);
	free(ref);
}

static void vampyr_release(struct vampyr *v)
{
	for (size_t i = 0; i < v->cover.nr_blocks; i++) {
		free(v->cover.blocks[i].path);
		free(v->cover.blocks[i].shown);
	}
	free(v->cover.blocks);
	free(v->cover.clique);
	for (size_t i = 0; i < v->cover.nr_configs; i++)
		vconfig_release(&v->cover.configs[i]);
	free(v->cover.configs);
	for (size_t i = 0; i < v->build.nr_warnings; i++) {
		free(v->build.warnings[i].text);
		strvec_clear(&v->build.warnings[i].configs);
	}
	free(v->build.warnings);
	strvec_clear(&v->toolchain.facts);
	blocks_free(v->src.conditions);
	trees_free(v->src.trees);
	diskcache_keep_budget(v->src.diskcache);
	diskcache_close(v->src.diskcache);
	trees_config_free(v->src.project_config);
}

/* One run: its options, then what it found. */
struct invocation {
	struct common_options common;
	struct parsed_args pa;
	const char *commit, *scope, *arch, *outdir, *build, *kconfig_cmd, *base;
	struct strvec mbox;	/* --mbox and the files after it */
	int expand, keep_tree, bound_queries, use_kbuild, hunks;
	struct vampyr v;
	struct file_list fl;
	struct expand_options eo;
	char *default_outdir, *config_kconfig;
	char *chosen_arch;	/* without --arch: the one choose_arch() found best */
};

/* The options, checked; usage errors exit 129 before any work. */
static void parse_command_line(struct invocation *in, int argc, const char **argv)
{
	struct option opts[] = {
		OPT_STRING(0, "commit", &in->commit, "commit", "the commit to cover (default HEAD)"),
		OPT_STRING(0, "blocks", &in->scope, "files|hunks", "every block of the changed files, or those the hunks touch"),
		/* The spelling of 0.1.0, hidden: "scope" is the undertaker's global/local. */
		OPT_STRING(0, "scope", &in->scope, "files|hunks", NULL),
		OPT_STRING(0, "arch", &in->arch, "arch", "the architecture (default: the host's)"),
		OPT_STRING('o', "output", &in->outdir, "dir", "where to write the fragments (default vampyr-<abbrev>)"),
		OPT_BOOL(0, "expand", &in->expand, "expand each fragment with the tree's kconfig and check it"),
		OPT_STRING(0, "kconfig", &in->kconfig_cmd, "command", "the kconfig command for --expand (default: make alldefconfig)"),
		OPT_STRING(0, "build", &in->build, "command", "build each expanded configuration at the commit and its parent"),
		OPT_BOOL(0, "kbuild", &in->use_kbuild, "AND the file's kbuild condition into its blocks' (default; --no-kbuild)"),
		OPT_BOOL(0, "keep-tree", &in->keep_tree, "keep the temporary tree of --expand (debugging)"),
		OPT_INT(0, "bound-queries", &in->bound_queries, "n", "solver queries the lower bound may ask (default 2000)"),
		OPT_LIST(0, "mbox", &in->mbox, "file", "cover each patch of a series (mbox, patch files, their directory; - for stdin) without applying it"),
		OPT_STRING(0, "base", &in->base, "rev", "where the series applies (default: its base-commit: line, else HEAD)"),
		OPT_COMMON(&in->common),
		OPT_END(),
	};

	common_options_init(&in->common);
	parse_options(argc, argv, opts, usage_lines, "vampyr", &in->pa);
	common_options_finish(&in->common, "vampyr");
	if (in->scope && !strcmp(in->scope, "hunks"))
		in->hunks = 1;
	else if (in->scope && strcmp(in->scope, "files"))
		usage_error(usage_lines, "--blocks must be 'files' or 'hunks', not '%s'", in->scope);
	if (in->mbox.nr) {
		if (in->commit)
			usage_error(usage_lines, "--mbox covers a series: not with --commit");
		/* After --mbox, the other arguments are more patch files. */
		for (size_t i = 0; i < in->pa.args.nr; i++)
			strvec_push(&in->mbox, in->pa.args.v[i]);
	} else if (in->base) {
		usage_error(usage_lines, "--base is the base of an --mbox series");
	} else if (in->pa.args.nr > 1 || (in->pa.args.nr == 1 && in->commit)) {
		usage_error(usage_lines, "one commit at most (--commit=<commit>)");
	} else if (in->pa.args.nr == 1) {
		in->commit = in->pa.args.v[0];
	}
	if (in->build)
		in->expand = 1;
	in->eo.keep_tree = in->keep_tree;
	in->eo.jobs = in->common.jobs;
	in->v.build.keep_tree = in->keep_tree;
}

/* The commit, the files to cover (those it changes, or the pathspec's) and its model. */
static int find_files(struct invocation *in)
{
	struct vampyr *v = &in->v;
	const git_oid *at = &v->src.commit;
	struct strbuf why = STRBUF_INIT;
	struct strvec bad = STRVEC_INIT;

	if (!v->src.repo && !(v->src.repo = repo_open(&why))) {
		die_message("%s", why.buf);
		strbuf_release(&why);
		return -1;
	}
	v->src.project_config = trees_config_new(v->src.repo, &bad);
	for (size_t i = 0; i < bad.nr; i++)
		error("bad undertaker.macro '%s' ignored", bad.v[i]);
	strvec_clear(&bad);
	if (repo_pathspec_from_cwd(v->src.repo, &in->pa.paths) < 0 ||
	    repo_resolve_commit(v->src.repo, in->commit ? in->commit : "HEAD", &v->src.commit))
		return -1;
	if (trees_check_arch(v->src.repo, &v->src.commit, in->arch, &why)) {
		fprintf(stderr, "error: %s\n", why.buf);
		exit(EXIT_USAGE);
	}
	repo_pathspec_warn_unmatched(v->src.repo, &at, 1, &in->pa.paths);
	if (!in->kconfig_cmd)
		in->kconfig_cmd = in->config_kconfig = repo_config_get(v->src.repo, "vampyr.kconfig");
	in->eo.kconfig_cmd = in->kconfig_cmd;

	in->fl.pathspec = &in->pa.paths;
	/* The model first: its build files say which files are sources. */
	if (load_model(&v->src, in->arch, in->use_kbuild, &in->common) < 0)
		return -1;
	in->fl.trees = v->src.trees;
	if (in->pa.paths.nr && !in->hunks) {
		if (repo_for_each_file(v->src.repo, &v->src.commit, "", collect_file, &in->fl))
			return error("cannot list the files of %s", oid_short(v->src.repo, &v->src.commit));
	} else if (repo_diff_first_parent(v->src.repo, &v->src.commit, &in->pa.paths, in->hunks, &in->fl.changes)) {
		return error("cannot diff %s against its parent", oid_short(v->src.repo, &v->src.commit));
	}
	return 0;
}

/* The blocks of those files, each with its presence condition. */
static void find_blocks(struct invocation *in)
{
	struct vampyr *v = &in->v;

	/* The macros (U-Boot's CONFIG_IS_ENABLED, undertaker.macro) are the commit's trees'. */
	for (size_t i = 0; i < in->fl.paths.nr; i++)
		add_file_blocks(&v->src, &v->cover, in->fl.paths.v[i], NULL, 0);
	for (size_t i = 0; i < in->fl.changes.nr; i++) {
		const struct file_change *fc = &in->fl.changes.files[i];

		if (fc->status != 'D' && trees_is_source(v->src.trees, fc->new_path))
			add_file_blocks(&v->src, &v->cover, fc->new_path, in->hunks ? fc : NULL, 1);
	}
	/* A symbol no Kconfig of this architecture defines is never set in its builds. */
	blocks_rule_out_missing(v->src.conditions);
}

/* The configurations: dead blocks out, the greedy cover, its bound, merged. */
static int find_configs(struct invocation *in)
{
	struct vampyr *v = &in->v;
	int ret = 0;

	/* The toolchain's kconfig run goes on while the solver looks for dead blocks. */
	if (in->expand && vampyr_toolchain_start(&v->src, &v->toolchain, &v->expansion, &in->eo))
		ret = -1;
	vampyr_find_dead(&v->src, &v->cover);
	if (in->expand && !ret && vampyr_toolchain(v, &in->eo))
		ret = -1;
	vampyr_cover(&v->src, &v->cover);
	vampyr_lower_bound(&v->src, &v->cover, in->bound_queries > 0 ? (size_t)in->bound_queries : 0);
	vampyr_recover(&v->src, &v->cover);
	vampyr_merge(&v->src, &v->cover);
	return ret;
}

/* The fragments' directory name, by default after the commit. */
static const char *output_dir(struct invocation *in)
{
	if (!in->outdir)
		in->outdir = in->default_outdir = xstrfmt("vampyr-%s", oid_short(in->v.src.repo, &in->v.src.commit));
	return in->outdir;
}

/* Asked to: each fragment expanded with the tree's kconfig, then built. */
static int expand_and_build(struct invocation *in, int ret)
{
	struct vampyr *v = &in->v;

	if (in->expand && !ret && v->cover.nr_configs && vampyr_expand(v, &in->eo))
		ret = -1;
	vampyr_tree_done(&v->expansion, &in->eo);
	if (in->build && !ret && v->cover.nr_configs && vampyr_build(&v->src, &v->cover, &v->build, in->build) < 0)
		ret = -1;
	return ret;
}

/* The output, and the note. Nothing of an interrupted run is printed or noted. */
static void report(struct invocation *in)
{
	struct vampyr *v = &in->v;

	process_exit_if_interrupted();
	color_init(v->src.repo, "vampyr", 1);
	if (in->common.json) {
		struct strbuf json = STRBUF_INIT;

		vampyr_print_json(v, &json);
		printf("%s\n", json.buf);
		strbuf_release(&json);
	} else {
		vampyr_print_text(v, stdout);
	}
	if (in->common.notes)
		write_note(v, &in->common, in->hunks, &in->pa.paths);
}

static void invocation_clear(struct invocation *in)
{
	free(in->chosen_arch);
	free(in->default_outdir);
	free(in->config_kconfig);
	strvec_clear(&in->fl.paths);
	change_list_clear(&in->fl.changes);
	vampyr_release(&in->v);
}

/* The targets some configuration of the loaded model compiles. */
static size_t live_targets(const struct vampyr_source *src, const struct vampyr_cover *cv)
{
	size_t live = 0;

	for (size_t i = 0; i < cv->nr_blocks; i++)
		if (cv->blocks[i].target && cv->blocks[i].pc != LOGIC_FALSE &&
		    (cv->blocks[i].pc == LOGIC_TRUE || sat_satisfiable(src->sat, cv->blocks[i].pc) == SAT_SAT))
			live++;
	return live;
}

/* Forgets the files, blocks and model of `in`, keeping its repository and options. */
static void invocation_reset(struct invocation *in)
{
	struct repo *r = in->v.src.repo;
	const char *patch = in->v.src.patch;

	strvec_clear(&in->fl.paths);
	change_list_clear(&in->fl.changes);
	vampyr_release(&in->v);
	memset(&in->v, 0, sizeof(in->v));
	memset(&in->fl, 0, sizeof(in->fl));
	in->v.src.repo = r;
	in->v.src.patch = patch;
	in->v.build.keep_tree = in->keep_tree;
}

/*
 * Without --arch: the architecture where the most targets can be compiled,
 * the default (the host's) on a tie. Only when some target cannot be
 * compiled on the default are the others' models loaded. 0, or -1.
 */
static int choose_arch(struct invocation *in)
{
	struct strvec arches = STRVEC_INIT;
	size_t best, live, targets = 0;
	char *best_arch = NULL;
	int ret = 0;

	if (in->arch || !in->v.src.trees || in->v.src.trees->arches.nr < 2)
		return 0;
	best = live_targets(&in->v.src, &in->v.cover);
	for (size_t i = 0; i < in->v.cover.nr_blocks; i++)
		targets += in->v.cover.blocks[i].target;
	if (best == targets)
		return 0;
	for (size_t i = 0; i < in->v.src.trees->arches.nr; i++)
		if (strcmp(in->v.src.trees->arches.v[i], in->v.src.arch))
			strvec_push(&arches, in->v.src.trees->arches.v[i]);
	for (size_t i = 0; i < arches.nr && !ret; i++) {
		invocation_reset(in);
		in->arch = arches.v[i];
		if (find_files(in) < 0) {
			ret = -1;
			break;
		}
		find_blocks(in);
		live = live_targets(&in->v.src, &in->v.cover);
		if (live > best) {
			best = live;
			free(best_arch);
			best_arch = xstrdup(arches.v[i]);
		}
	}
	in->arch = NULL;
	if (!ret && (best_arch || arches.nr)) {
		/* Back to the best one (NULL: the default). */
		invocation_reset(in);
		in->arch = in->chosen_arch = best_arch;
		best_arch = NULL;
		ret = find_files(in) < 0 ? -1 : 0;
		if (!ret)
			find_blocks(in);
		if (!ret && in->arch && !quiet)
			fprintf(stderr, "vampyr: architecture %s: it compiles %zu of the targets, "
				"more than the default\n", in->arch, best);
	}
	free(best_arch);
	strvec_clear(&arches);
	return ret;
}

/* The cover of one commit: the files, their blocks, the fragments, the output. */
static int run_one(struct invocation *in)
{
	int ret;

	if (find_files(in) < 0)
		return EXIT_FATAL;
	find_blocks(in);
	if (choose_arch(in) < 0)
		return EXIT_FATAL;
	ret = find_configs(in);
	if (write_fragments(&in->v.src, &in->v.cover, output_dir(in), in->expand) < 0)
		return EXIT_FATAL;
	ret = expand_and_build(in, ret) < 0 ? EXIT_FATAL : EXIT_CLEAN;
	report(in);
	/*
	 * --build's findings, as the suite has them: diagnostics the commit
	 * adds, or blocks no configuration compiles (without --build, the
	 * configurations are the answer and dead blocks git undertaker's).
	 */
	if (ret == EXIT_CLEAN && in->build && (in->v.build.nr_warnings || in->v.cover.nr_dead))
		ret = EXIT_FINDINGS;
	return ret;
}

/*
 * --mbox: the series applied in memory, each patch covered as the commit it
 * would become, its fragments in <dir>/<n> (n from 1, dir -o or
 * vampyr-mbox), no note written. A patch that does not apply ends the
 * series there.
 */
static int run_mbox(struct invocation *tmpl)
{
	struct mbox_series s = { 0 };
	struct strbuf why = STRBUF_INIT;
	struct repo *r = repo_open(&why);
	const char *dir = tmpl->outdir ? tmpl->outdir : "vampyr-mbox";
	int ret = EXIT_CLEAN, applied = 0;

	if (!r) {
		ret = die_message("%s", why.buf);
		strbuf_release(&why);
		return ret;
	}

	for (size_t i = 0; i < tmpl->mbox.nr; i++)
		if (mbox_read(&s, tmpl->mbox.v[i]) < 0)
			ret = EXIT_FATAL;
	if (ret == EXIT_CLEAN && !s.nr) {
		error("no patch in the series");
		ret = EXIT_FATAL;
	}
	if (ret == EXIT_CLEAN) {
		applied = mbox_apply(r, &s, tmpl->base);
		if (s.applied && mkdir(dir, 0777) && errno != EEXIST) {
			error("cannot create %s: %s", dir, strerror(errno));
			ret = EXIT_FATAL;
		}
	}
	for (size_t i = 0; ret == EXIT_CLEAN && i < s.applied; i++) {
		struct invocation in = *tmpl;
		char *outdir = xstrfmt("%s/%zu", dir, i + 1);

		memset(&in.v, 0, sizeof(in.v));
		memset(&in.fl, 0, sizeof(in.fl));
		in.default_outdir = in.config_kconfig = NULL;
		in.v.src.repo = r;
		in.v.src.patch = s.v[i].subject;
		in.v.build.keep_tree = tmpl->keep_tree;
		in.common.notes = 0;
		in.commit = oid_hex(&s.v[i].commit, xmalloc(GIT_OID_HEXSZ + 1));
		in.outdir = outdir;
		if (!in.common.json)
			printf("%s%s\n", i ? "\n" : "", s.v[i].subject);
		ret = run_one(&in);
		free((char *)in.commit);
		free(outdir);
		invocation_clear(&in);
	}
	if (applied < 0 && ret == EXIT_CLEAN)
		ret = EXIT_FATAL;
	mbox_series_clear(&s);
	repo_close(r);
	return ret;
}

int main(int argc, const char **argv)
{
	struct invocation in = {
		.bound_queries = 2000,
		.use_kbuild = 1,
		.fl = { STRVEC_INIT },
		.mbox = STRVEC_INIT,
	};
	int ret = EXIT_CLEAN;

	set_program_name("git vampyr");
	process_catch_interrupts();
	parse_command_line(&in, argc, argv);
	if (in.mbox.nr) {
		ret = run_mbox(&in);
	} else {
		ret = run_one(&in);
		invocation_clear(&in);
		if (in.v.src.repo)
			repo_close(in.v.src.repo);
	}
	parsed_args_clear(&in.pa);
	strvec_clear(&in.mbox);
	if (ret == EXIT_CLEAN && error_count())
		ret = 1;
	return ret;
}
