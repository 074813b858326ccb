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
#include "kbuild.h"
#include "buildfiles.h"
#include "notes.h"
#include "options.h"
#include "project.h"
#include "report.h"
#include "trees.h"
#include "vampyr.h"

static const char *const usage_lines[] = {
	"git vampyr [<options>] [--commit=<commit>] [-- <pathspec>...]",
	NULL,
};


static int is_source_file(const char *path)
{
	return ends_with(path, ".c") || ends_with(path, ".h") || ends_with(path, ".S");
}

struct file_list {
	struct strvec paths;
	struct change_list changes;
	int use_hunks;
	const struct strvec *pathspec;
};

static int collect_file(const struct tree_file *f, void *data)
{
	struct file_list *fl = data;

	if (is_source_file(f->path) && pathspec_match(fl->pathspec, f->path))
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
static formula module_tie(struct vampyr *v, const struct kbuild_file *kf, size_t first_block)
{
	int var = logic_var_find(v->logic, "cpp:MODULE"), *vars = NULL, used = 0;
	size_t nr = 0, alloc = 0;
	formula mod;

	if (!var)
		return LOGIC_TRUE;
	for (size_t i = first_block; i < v->nr_blocks && !used; i++) {
		nr = 0;
		logic_vars_of(v->logic, v->blocks[i].pc, &vars, &nr, &alloc);
		for (size_t k = 0; k < nr && !used; k++)
			used = vars[k] == var;
	}
	free(vars);
	if (!used)
		return LOGIC_TRUE;
	mod = logic_atom(v->logic, var);
	return logic_and(v->logic,
			 logic_implies(v->logic, mod, pc_kbuild_formula(&v->pcx, kf->module)),
			 logic_implies(v->logic, logic_not(mod), pc_kbuild_formula(&v->pcx, kf->builtin)));
}

static void add_file_blocks(struct vampyr *v, const char *path, const struct cpp_macros *macros,
			    const struct file_change *fc, struct kbuild_map *kb)
{
	const struct kbuild_file *kf = kb ? kbuild_map_lookup(kb, path) : NULL;
	/* Unlisted files may be #included by a listed one: no condition of their own. */
	formula file_pc = kf && kf->kind == KBUILD_OBJECT ? pc_kbuild_formula(&v->pcx, kf->cond) : LOGIC_TRUE;
	struct blob *blob;
	struct cpp_options opt = { .path = path, .macros = macros, .print_errors = 1 };
	struct cpp_file *f;
	size_t base = v->nr_blocks;

	if (repo_read_path(v->repo, &v->commit, path, &blob)) {
		error("%s: cannot read it at %s", path, oid_short(v->repo, &v->commit));
		return;
	}
	opt.asm_file = ends_with(path, ".S");
	f = cpp_scan(blob->data, blob->size, &opt);
	for (size_t i = 0; i < f->nr_blocks; i++) {
		const struct cpp_block *cb = &f->blocks[i];
		struct vblock *b;

		ALLOC_GROW(v->blocks, v->nr_blocks + 1, v->alloc_blocks);
		b = &v->blocks[v->nr_blocks++];
		memset(b, 0, sizeof(*b));
		b->path = xstrdup(path);
		b->shown = xquote_path(path);
		b->line = cb->line;
		b->end_line = cb->end_line;
		b->number = cb->number;
		b->parent = cb->parent < 0 ? -1 : (long)(base + (size_t)cb->parent);
		b->chain = (long)(base + (size_t)cb->first);
		b->pc = pc_formula(&v->pcx, cb->pc);
		b->target = !fc || hunks_touch(fc, cb->line, cb->end_line);
		b->config = -1;
	}
	if (kf && kf->kind == KBUILD_OBJECT)
		file_pc = logic_and(v->logic, file_pc, module_tie(v, kf, base));
	for (size_t i = base; i < v->nr_blocks; i++)
		v->blocks[i].pc = logic_and(v->logic, file_pc, v->blocks[i].pc);
	pc_context_forget_exprs(&v->pcx);
	cpp_file_free(f);
	blob_release(v->repo, blob);
}

/*
 * The commit's trees as git undertaker sees them (common/trees): the project
 * and where its Kconfig tree starts, its variables, the names the build
 * defines, the model of one architecture (--arch, else the host's, else the
 * first) and its Kbuild map.
 */
static void load_model(struct vampyr *v, const char *want_arch, int use_kbuild)
{
	struct trees_env env = {
		.repo = v->repo,
		.project_config = &v->project_config,
		.host_arch = project_host_srcarch(),
		.only_arch = want_arch,
		.no_kbuild = !use_kbuild,
		.quiet = 1,
	};
	const struct buildfiles_info *bf;
	struct arch_model *am;
	struct trees *t;

	v->buildfiles = buildfiles_new(v->repo);
	if (buildfiles_get(v->buildfiles, &v->commit, &bf) < 0)
		die("cannot read the build files of %s", oid_short(v->repo, &v->commit));
	t = v->trees = trees_new(&env, &v->commit, bf);
	if (t->project.kind == PROJECT_NONE)
		die("no Kconfig tree at %s (no top Kconfig file, no <dir>/Kconfig with a mainmenu)",
		    oid_short(v->repo, &v->commit));
	am = trees_model(t, t->tm.primary);
	if (!am)
		die("cannot read the Kconfig files of %s", oid_short(v->repo, &v->commit));
	v->arch = am->arch;
	v->arch_dir = t->arches.nr ? t->arch_dirs.v[t->tm.primary] : NULL;
	v->srctree = t->project.srctree;
	v->kconfig = am->kconfig;
	v->model = am->model;
	v->logic = am->logic;
	v->sat = am->sat;
	pc_context_init(&v->pcx, v->logic, v->kconfig, t->tm.kconfig_defined, t->tm.cmdline_defined);
	v->pcx.facts = v->sat;
}

/*
 * The fragments, and the manifest naming them. The manifest first names
 * the earlier run's files too, so a run that dies half-way leaves none of
 * them unlisted; once all are written, those not written again go.
 */
static void write_fragments(struct vampyr *v, const char *dir, int expand)
{
	struct strvec old = STRVEC_INIT, now = STRVEC_INIT, both = STRVEC_INIT;

	if (mkdir(dir, 0777) && errno != EEXIST)
		die("cannot create %s: %s", dir, strerror(errno));
	manifest_read(dir, &old);
	for (size_t i = 0; i < v->nr_configs; i++) {
		strvec_pushf(&now, "%s.config", v->configs[i].name);
		/* kconfig writes <name>.expanded beside the fragment. */
		if (expand)
			strvec_pushf(&now, "%s.expanded", v->configs[i].name);
	}
	for (size_t i = 0; i < old.nr; i++)
		strvec_push(&both, old.v[i]);
	for (size_t i = 0; i < now.nr; i++)
		strvec_push(&both, now.v[i]);
	if (manifest_write(dir, &both))
		die("cannot write the fragments");
	for (size_t i = 0; i < v->nr_configs; i++) {
		struct vconfig *c = &v->configs[i];

		c->path = xstrfmt("%s/%s.config", dir, c->name);
		fragment_assignments(v, c);
		if (fragment_write(c))
			die("cannot write the fragments");
	}
	manifest_remove_stale(dir, &old, &now);
	if (manifest_write(dir, &now))
		die("cannot write the fragments");
	strvec_clear(&old);
	strvec_clear(&now);
	strvec_clear(&both);
}

/*
 * What a run covered, as its section's key: the architecture, the blocks and
 * the paths. Expanded configurations never go into the note (14,554 lines
 * each on Linux), only the fragments.
 */
static void write_note(struct vampyr *v, const struct common_options *common, int hunks,
		       const struct strvec *paths)
{
	char *ref = common_notes_ref(common, "vampyr");
	struct notes_batch *nb = notes_batch_begin(v->repo, ref);
	struct strbuf text = STRBUF_INIT, key = STRBUF_INIT;
	char *old = notes_read(v->repo, ref, &v->commit);

	strbuf_addf(&key, "arch %s", v->arch ? v->arch : "-");
	if (hunks)
		strbuf_addstr(&key, " hunks");
	if (paths->nr)
		strbuf_addstr(&key, " --");
	for (size_t i = 0; i < paths->nr; i++)
		strbuf_addf(&key, " %s", paths->v[i]);
	vampyr_note(v, old, key.buf, &text);
	notes_batch_add(nb, &v->commit, text.buf);
	if (notes_batch_commit(nb, "git vampyr"))
		error("could not write the note in %s", ref);
	strbuf_release(&text);
	strbuf_release(&key);
	free(old);
	free(ref);
}

static void vampyr_release(struct vampyr *v)
{
	for (size_t i = 0; i < v->nr_blocks; i++) {
		free(v->blocks[i].path);
		free(v->blocks[i].shown);
	}
	free(v->blocks);
	free(v->clique);
	for (size_t i = 0; i < v->nr_configs; i++)
		vconfig_release(&v->configs[i]);
	free(v->configs);
	for (size_t i = 0; i < v->nr_warnings; i++) {
		free(v->warnings[i].text);
		strvec_clear(&v->warnings[i].configs);
	}
	free(v->warnings);
	strvec_clear(&v->toolchain_facts);
	pc_context_release(&v->pcx);
	trees_free(v->trees);
	buildfiles_free(v->buildfiles);
	project_config_release(&v->project_config);
}

int main(int argc, const char **argv)
{
	struct common_options common;
	struct parsed_args pa;
	const char *commit = NULL, *scope = NULL, *arch = NULL, *outdir = NULL;
	const char *build = NULL, *kconfig_cmd = NULL;
	int expand = 0, keep_tree = 0, bound_queries = 2000, use_kbuild = 1;
	struct option opts[] = {
		OPT_STRING(0, "commit", &commit, "commit", "the commit to cover (default HEAD)"),
		OPT_STRING(0, "blocks", &scope, "files|hunks", "every block of the changed files, or those the hunks touch"),
		/* The spelling of 0.1.0, hidden: "scope" is the undertaker's global/local. */
		OPT_STRING(0, "scope", &scope, "files|hunks", NULL),
		OPT_STRING(0, "arch", &arch, "arch", "the architecture (default: the host's)"),
		OPT_STRING('o', "output", &outdir, "dir", "where to write the fragments (default vampyr-<abbrev>)"),
		OPT_BOOL(0, "expand", &expand, "expand each fragment with the tree's kconfig and check it"),
		OPT_STRING(0, "kconfig", &kconfig_cmd, "command", "the kconfig command for --expand (default: make alldefconfig)"),
		OPT_STRING(0, "build", &build, "command", "build each expanded configuration at the commit and its parent"),
		OPT_BOOL(0, "kbuild", &use_kbuild, "AND the file's kbuild condition into its blocks' (default; --no-kbuild)"),
		OPT_BOOL(0, "keep-tree", &keep_tree, "keep the temporary tree of --expand (debugging)"),
		OPT_INT(0, "bound-queries", &bound_queries, "n", "solver queries the lower bound may ask (default 2000)"),
		OPT_COMMON(&common),
		OPT_END(),
	};
	struct vampyr v = { 0 };
	struct file_list fl = { STRVEC_INIT };
	struct strvec macro_defs = STRVEC_INIT;
	struct cpp_macros *macros;
	struct kbuild_map *kb = NULL;
	struct strbuf json = STRBUF_INIT;
	char *default_outdir = NULL, *config_kconfig = NULL;
	int hunks = 0, ret = EXIT_CLEAN;
	struct expand_options eo = { NULL, 0 };

	set_program_name("git vampyr");
	process_catch_interrupts();
	common_options_init(&common);
	parse_options(argc, argv, opts, usage_lines, "vampyr", &pa);
	common_options_finish(&common, "vampyr");
	if (scope && !strcmp(scope, "hunks"))
		hunks = 1;
	else if (scope && strcmp(scope, "files"))
		usage_error(usage_lines, "--blocks must be 'files' or 'hunks', not '%s'", scope);
	if (pa.args.nr > 1 || (pa.args.nr == 1 && commit))
		usage_error(usage_lines, "one commit at most (--commit=<commit>)");
	if (pa.args.nr == 1)
		commit = pa.args.v[0];
	if (build)
		expand = 1;
	eo.keep_tree = keep_tree;
	eo.jobs = common.jobs;
	v.keep_build_tree = keep_tree;

	v.repo = repo_open();
	project_config_init(&v.project_config, v.repo);
	if (repo_pathspec_from_cwd(v.repo, &pa.paths) < 0 ||
	    repo_resolve_commit(v.repo, commit ? commit : "HEAD", &v.commit))
		exit(EXIT_FATAL);
	trees_check_arch(v.repo, &v.commit, arch);
	{
		const git_oid *at = &v.commit;

		repo_pathspec_warn_unmatched(v.repo, &at, 1, &pa.paths);
	}
	if (!kconfig_cmd)
		kconfig_cmd = config_kconfig = repo_config_get(v.repo, "vampyr.kconfig");
	eo.kconfig_cmd = kconfig_cmd;

	/* The files: those the commit changes, or every file the pathspec names. */
	fl.pathspec = &pa.paths;
	if (pa.paths.nr && !hunks) {
		if (repo_for_each_file(v.repo, &v.commit, "", collect_file, &fl))
			die("cannot list the files of %s", oid_short(v.repo, &v.commit));
	} else {
		if (repo_diff_first_parent(v.repo, &v.commit, &pa.paths, hunks, &fl.changes))
			die("cannot diff %s against its parent", oid_short(v.repo, &v.commit));
	}

	load_model(&v, arch, use_kbuild);
	/* The project's macro presets (U-Boot's CONFIG_IS_ENABLED), then undertaker.macro. */
	macros = cpp_macros_new();
	project_macros(v.trees->project.kind, &v.project_config, &macro_defs);
	for (size_t i = 0; i < macro_defs.nr; i++)
		if (cpp_macros_add(macros, macro_defs.v[i]) < 0)
			error("bad undertaker.macro '%s' ignored", macro_defs.v[i]);
	if (use_kbuild && (fl.paths.nr || fl.changes.nr))
		kb = trees_kbuild(v.trees, v.trees->tm.primary);
	for (size_t i = 0; i < fl.paths.nr; i++)
		add_file_blocks(&v, fl.paths.v[i], macros, NULL, kb);
	for (size_t i = 0; i < fl.changes.nr; i++) {
		const struct file_change *fc = &fl.changes.files[i];

		if (fc->status != 'D' && is_source_file(fc->new_path))
			add_file_blocks(&v, fc->new_path, macros, hunks ? fc : NULL, kb);
	}
	cpp_macros_free(macros);
	/* A symbol no Kconfig of this architecture defines is never set in its builds. */
	{
		struct strmap_entry *e;

		strmap_for_each(&v.pcx.missing, e) {
			int lit = -(int)(intptr_t)e->value;

			sat_add_clause(v.sat, &lit, 1);
		}
	}

	/* The toolchain's kconfig run goes on while the solver looks for dead blocks. */
	if (expand && vampyr_toolchain_start(&v, &eo))
		ret = EXIT_FATAL;
	vampyr_find_dead(&v);
	if (expand && ret == EXIT_CLEAN && vampyr_toolchain(&v, &eo))
		ret = EXIT_FATAL;
	vampyr_cover(&v);
	vampyr_lower_bound(&v, bound_queries > 0 ? (size_t)bound_queries : 0);
	vampyr_recover(&v);
	vampyr_merge(&v);
	if (!outdir)
		outdir = default_outdir = xstrfmt("vampyr-%s", oid_short(v.repo, &v.commit));
	write_fragments(&v, outdir, expand);
	if (expand && ret == EXIT_CLEAN && v.nr_configs && vampyr_expand(&v, &eo))
		ret = EXIT_FATAL;
	vampyr_tree_done(&v, &eo);
	if (build && ret == EXIT_CLEAN && v.nr_configs)
		vampyr_build(&v, build);

	/* Nothing of an interrupted run is printed or noted. */
	process_exit_if_interrupted();
	color_init(v.repo, "vampyr", 1);
	if (common.json) {
		vampyr_print_json(&v, &json);
		printf("%s\n", json.buf);
	} else {
		vampyr_print_text(&v, stdout);
	}
	if (common.notes)
		write_note(&v, &common, hunks, &pa.paths);

	strbuf_release(&json);
	free(default_outdir);
	free(config_kconfig);
	strvec_clear(&macro_defs);
	strvec_clear(&fl.paths);
	change_list_clear(&fl.changes);
	vampyr_release(&v);
	repo_close(v.repo);
	parsed_args_clear(&pa);
	return ret;
}
