// SPDX-License-Identifier: GPL-2.0
/*
 * --expand: each fragment goes through the tree's own kconfig (alldefconfig
 * with KCONFIG_ALLCONFIG, as vampyr did) in a private copy of a tree written
 * from the object store (never the user's work tree; one copy per run, so that
 * runs at once never see each other's files), and the expanded .config must
 * still compile every block the configuration claims. When one is lost, its
 * trace (trace.c) names the symbols a user can set that kconfig set
 * otherwise; the fragment pins those and kconfig runs again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "options.h"
#include "parallel.h"
#include "vampyr.h"

/* Kconfig runs per configuration after the first, each pinning what the lost blocks' traces name. */
#define MAX_PIN_ROUNDS 4

/* Blobs written into trees by this process, for VAMPYR_TEST_BLOB_WRITES. */
static size_t blob_writes;

struct checkout {
	struct repo *repo;
	struct outtree *out;
	const struct config_files *cf;	/* NULL: every file */
};

/*
 * What configuring needs: Kconfig files, scripts/ (conf itself and what the
 * $(shell,...) probes run; Xen keeps conf in tools/kconfig/), at the top or
 * in the Kconfig tree's directory (xen/), the Makefiles and the *.mk files
 * they include (make alldefconfig reads the top one, the architecture's,
 * scripts/kconfig's; Xen's Config.mk reads config/<arch>.mk), the
 * architecture's directory, the top-level files and the defconfigs (U-Boot's
 * configs/, for a --kconfig of `make <board>_defconfig`). On Linux that is about
 * 50 MB of 1.2 GB.
 */
static int is_config_tool(const char *path)
{
	return starts_with(path, "scripts/") || starts_with(path, "tools/kconfig/");
}

static int wanted_for_config(const char *path, const struct config_files *cf)
{
	const char *slash = strchr(path, '/'), *base = strrchr(path, '/');
	const char *arch_dir = cf->arch_dir;
	size_t alen = strlen(arch_dir);

	if (!slash)
		return 1;
	for (size_t i = 0; i < cf->includes.nr; i++)
		if (!strcmp(path, cf->includes.v[i]))
			return 1;
	for (size_t i = 0; i < cf->kconfig_dirs.nr; i++)
		if (starts_with(path, cf->kconfig_dirs.v[i]))
			return 1;
	/* A Kconfig tree one level down builds its helpers from its tools/ (Xen's fixdep). */
	if (*cf->srctree && starts_with(path, cf->srctree) && path[strlen(cf->srctree)] == '/' &&
	    starts_with(path + strlen(cf->srctree) + 1, "tools/"))
		return 1;
	base++;
	return starts_with(base, "Kconfig") || starts_with(base, "Makefile") ||
	       starts_with(base, "Kbuild") || ends_with(base, ".mk") || is_config_tool(path) ||
	       is_config_tool(slash + 1) || trees_is_defconfig(path) ||
	       (alen && !strncmp(path, arch_dir, alen) && path[alen] == '/');
}

/*
 * The files the top Makefile includes by a fixed path (U-Boot's
 * `include $(srctree)/include/host_arch.h`): make reads them before any
 * target, alldefconfig's too.
 */
static void makefile_includes(const struct vampyr_source *src, struct strvec *out)
{
	char *path = xstrfmt("%s%sMakefile", src->srctree, *src->srctree ? "/" : "");
	struct blob *b;

	if (repo_read_path(src->repo, &src->commit, path, &b)) {
		free(path);
		return;
	}
	for (const char *p = b->data, *end = b->data + b->size; p < end; ) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t len;

		eol = eol ? eol : end;
		len = (size_t)(eol - p);
		if (len > 8 && !strncmp(p, "include ", 8)) {
			char *name = xstrndup(p + 8, len - 8);
			char *file = name + strspn(name, " \t");

			file[strcspn(file, " \t\r")] = '\0';
			if (starts_with(file, "$(srctree)/"))
				file += strlen("$(srctree)/");
			if (*file && !strchr(file, '$'))
				strvec_pushf(out, "%s%s%s", src->srctree, *src->srctree ? "/" : "", file);
			free(name);
		}
		p = eol + 1;
	}
	blob_release(src->repo, b);
	free(path);
}

/*
 * Where the tree keeps its kconfig: wherever a kconfig/conf.c is (Linux's
 * and U-Boot's scripts/kconfig/, Xen's tools/kconfig/, coreboot's
 * util/kconfig/, which its top Makefile includes as $(srck)/Makefile.mk).
 */
static int kconfig_dir_of(const struct tree_file *f, void *data)
{
	struct strvec *dirs = data;

	if (!strcmp(f->path, "kconfig/conf.c") || ends_with(f->path, "/kconfig/conf.c"))
		strvec_pushf(dirs, "%.*s", (int)(strlen(f->path) - strlen("conf.c")), f->path);
	return 0;
}

int vampyr_config_tree(const struct vampyr_source *src, struct vampyr_expansion *ex)
{
	struct config_files cf = { NULL, src->srctree, STRVEC_INIT, STRVEC_INIT };
	char *arch_path;

	if (ex->tree)
		return 0;
	arch_path = src->arch_dir ? xstrfmt("%s%sarch/%s", src->srctree, *src->srctree ? "/" : "",
					  src->arch_dir) : xstrdup("");
	cf.arch_dir = arch_path;
	makefile_includes(src, &cf.includes);
	if (repo_for_each_file(src->repo, &src->commit, "", kconfig_dir_of, &cf.kconfig_dirs) < 0)
		strvec_clear(&cf.kconfig_dirs);
	ex->tree = config_tree(src->repo, &src->commit, &cf);
	strvec_clear(&cf.includes);
	strvec_clear(&cf.kconfig_dirs);
	free(arch_path);
	return ex->tree ? 0 : -1;
}

int tree_write_file(struct repo *r, struct outtree *out, const struct tree_file *f)
{
	struct blob *b;
	int ret;

	if (f->mode == 0160000)	/* a submodule: nothing to write */
		return 0;
	if (repo_read_blob(r, f->blob, &b))
		return -1;
	blob_writes++;
	ret = outtree_write(out, f->path, f->mode, b->data, b->size);
	blob_release(r, b);
	return ret;
}

int tree_file_absent(struct repo *r, const struct tree_file *f)
{
	char hex[GIT_OID_HEXSZ + 1];

	if (f->mode == 0160000 || repo_has_object(r, f->blob))
		return 0;
	warning("%s: blob %s is not in the repository (a partial clone?); "
		"the build tree goes without it", f->path, oid_hex(f->blob, hex));
	return 1;
}

size_t tree_blob_writes(void)
{
	return blob_writes;
}

static int write_one(const struct tree_file *f, void *data)
{
	struct checkout *co = data;

	if (process_interrupted())
		return -1;
	if (co->cf && !wanted_for_config(f->path, co->cf))
		return 0;
	if (!co->cf && tree_file_absent(co->repo, f))
		return 0;
	return tree_write_file(co->repo, co->out, f);
}

static int checkout_into(struct repo *r, const git_oid *commit, const struct config_files *cf,
			 const char *dir)
{
	struct checkout co = { r, outtree_open(dir), cf };
	int ret;

	if (!co.out)
		return -1;
	ret = repo_for_each_file(r, commit, "", write_one, &co);
	outtree_close(co.out);
	return ret;
}

char *tree_checkout(struct repo *r, const git_oid *commit, const struct config_files *cf)
{
	char *dir = process_tmpdir("vampyr");

	if (!dir)
		return NULL;
	if (checkout_into(r, commit, cf, dir)) {
		process_tmpdir_remove(dir);
		process_exit_if_interrupted();
		return NULL;
	}
	return dir;
}

struct digest {
	const struct config_files *cf;
	struct strbuf text;
};

static int digest_one(const struct tree_file *f, void *data)
{
	struct digest *d = data;
	char hex[GIT_OID_HEXSZ + 1];

	if (wanted_for_config(f->path, d->cf))
		strbuf_addf(&d->text, "%o %s %s\n", f->mode, oid_hex(f->blob, hex), f->path);
	return 0;
}

/*
 * How a configuring tree is laid out. Which files go in is already in the
 * digest (their list); raise this when the way they are written changes.
 * Not the suite's version: every build of it would write the tree again.
 */
#define TREE_FORMAT 1

/* Trees kept under $GIT_DIR/vampyr/trees/; the least recently used go first. */
#define KEPT_TREES 4

static void prune_trees(const char *top, const char *keep)
{
	for (;;) {
		DIR *d = opendir(top);
		struct dirent *e;
		char *oldest = NULL;
		time_t oldest_time = 0;
		size_t nr = 0;

		if (!d)
			return;
		while ((e = readdir(d))) {
			struct stat st;
			char *path;

			if (e->d_name[0] == '.' || strchr(e->d_name, '.') || !strcmp(e->d_name, keep))
				continue;
			path = xstrfmt("%s/%s", top, e->d_name);
			if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
				free(path);
				continue;
			}
			nr++;
			if (!oldest || st.st_mtime < oldest_time) {
				free(oldest);
				oldest = path;
				oldest_time = st.st_mtime;
			} else {
				free(path);
			}
		}
		closedir(d);
		if (nr < KEPT_TREES || !oldest) {
			free(oldest);
			return;
		}
		remove_tree(oldest);
		{
			char *slots = xstrfmt("%s.slots", oldest);

			remove_tree(slots);
			free(slots);
		}
		free(oldest);
	}
}

/*
 * The configuring tree of the commit, written once per set of build files
 * (their paths, modes and blob ids, hashed with TREE_FORMAT): a
 * later run, or another commit with the same Kconfig files, Makefiles,
 * scripts/ and architecture, finds it (and the kconfig programs built in it)
 * under $GIT_DIR/vampyr/trees/<digest>. Written beside under a temporary
 * name and renamed, so that a run never sees half a tree.
 */
char *config_tree(struct repo *r, const git_oid *commit, const struct config_files *cf)
{
	struct digest d = { cf, STRBUF_INIT };
	char *top = xstrfmt("%svampyr/trees", repo_gitdir(r)), *dir = NULL, *tmp = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	const char *hook = getenv("VAMPYR_TEST_BLOB_WRITES");
	size_t writes = blob_writes;
	git_oid id;
	struct stat st;

	strbuf_addf(&d.text, "vampyr tree %d arch %s\n", TREE_FORMAT, cf->arch_dir);
	if (repo_for_each_file(r, commit, "", digest_one, &d))
		goto fail;
	repo_hash_blob(d.text.buf, d.text.len, &id);
	dir = xstrfmt("%s/%s", top, oid_hex(&id, hex));
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		if (mkdir_p(top)) {
			error("cannot create %s: %m", top);
			goto fail;
		}
		tmp = xstrfmt("%s.tmp.%ld", dir, (long)getpid());
		remove_tree(tmp);
		if (mkdir(tmp, 0777) || checkout_into(r, commit, cf, tmp)) {
			remove_tree(tmp);
			process_exit_if_interrupted();
			error("cannot write the tree of %s into %s", oid_hex(commit, hex), tmp);
			remove_tree(tmp);
			goto fail;
		}
		/* Another run may have won the race: its tree is as good. */
		if (rename(tmp, dir))
			remove_tree(tmp);
	}
	utimes(dir, NULL);	/* recently used */
	prune_trees(top, strrchr(dir, '/') + 1);
	if (hook && *hook) {
		FILE *f = fopen(hook, "a");

		if (f) {
			fprintf(f, "%zu\n", blob_writes - writes);
			fclose(f);
		}
	}
	free(tmp);
	free(top);
	strbuf_release(&d.text);
	return dir;
fail:
	free(dir);
	free(tmp);
	free(top);
	strbuf_release(&d.text);
	return NULL;
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	size_t n;

	if (!f)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(f);
	strbuf_addstr(&sb, "");
	return strbuf_detach(&sb, NULL);
}

int8_t *config_values(const struct vampyr_source *src, const char *text, const int8_t *base, int nr)
{
	int8_t *values = xmalloc((size_t)nr + 1);
	struct strmap set = STRMAP_INIT;
	struct kconfig *kc = src->kconfig;

	memcpy(values, base, (size_t)nr + 1);
	for (const char *p = text; p && *p; ) {
		const char *eol = strchrnul(p, '\n'), *eq;

		if (starts_with(p, "CONFIG_") && (eq = memchr(p, '=', (size_t)(eol - p)))) {
			char *name = xstrndup(p + 7, (size_t)(eq - p - 7));
			char *val = xstrndup(eq + 1, (size_t)(eol - eq - 1));

			free(strmap_put(&set, name, val));
			free(name);
		}
		p = *eol ? eol + 1 : eol;
	}
	/* Every Kconfig symbol takes its value from the .config; absent means n. */
	for (size_t i = 0; i < kc->nr_defined; i++) {
		const struct kconfig_symbol *sym = kc->symbols[i];
		int y = model_var_y(src->model, sym->name), m = model_var_m(src->model, sym->name);
		const char *val = strmap_get(&set, sym->name);

		if (y > 0 && y <= nr) {
			if (sym->type == KCONFIG_BOOL || sym->type == KCONFIG_TRISTATE)
				values[y] = val && !strcmp(val, "y") ? 1 : -1;
			else
				values[y] = val ? 1 : -1;
		}
		if (m > 0 && m <= nr)
			values[m] = val && !strcmp(val, "m") ? 1 : -1;
	}
	strmap_clear(&set, free);
	return values;
}

struct assignment {
	const int8_t *values;
	int nr;
};

static int assigned(void *data, int var)
{
	const struct assignment *a = data;

	return var > 0 && var <= a->nr ? a->values[var] : -1;
}

int block_compiled(const struct vampyr_source *src, const int8_t *values, int nr,
		   const struct vblock *b)
{
	struct assignment a = { values, nr };

	/* A presence condition is a few nodes: no memo over the whole model. */
	return logic_eval_with(src->logic, b->pc, assigned, &a) > 0;
}

static void print_log_tail(const char *log)
{
	char *text = read_text(log);
	size_t len = text ? strlen(text) : 0, lines = 0, i = len;

	while (i > 0 && lines < 15)
		if (text[--i] == '\n' && i + 1 < len)
			lines++;
	if (text)
		fprintf(stderr, "%s", text + (i ? i + 1 : 0));
	free(text);
}

static char *absolute(const char *path)
{
	char *dir;
	char *abs;

	if (path[0] == '/')
		return xstrdup(path);
	dir = realpath(".", NULL);
	abs = xstrfmt("%s/%s", dir ? dir : ".", path);
	free(dir);
	return abs;
}

/*
 * Kept expansions. A kconfig run's .config follows from the tree (its cache
 * directory names the digest of its build files), the command, the
 * environment, the fragment and the toolchain. The toolchain is vouched for
 * by this invocation's own toolchain run (toolchain.c: every symbol a user
 * can set asked y, run afresh each time while the solver works): its
 * .config holds the versions and the probe answers kconfig writes. A
 * fragment expanded before under the same tree, command, environment and
 * toolchain .config is read from <tree>/.vampyr-expanded/<digest of the
 * key> (the whole key kept and compared: a collision is a miss) instead of
 * running kconfig again, and its claims are checked exactly as on a fresh
 * .config. VAMPYR_NO_EXPAND_CACHE=1 runs kconfig every time.
 */
#define KEPT_FORMAT 1

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Variables that change from shell to shell but reach no kconfig result. */
static int env_in_key(const char *var)
{
	return !starts_with(var, "PWD=") && !starts_with(var, "OLDPWD=") &&
	       !starts_with(var, "_=") && !starts_with(var, "SHLVL=") && !starts_with(var, "VAMPYR_");
}

void vampyr_add_environment(struct strbuf *key)
{
	extern char **environ;
	struct strvec env = STRVEC_INIT;

	for (char **e = environ; e && *e; e++)
		if (env_in_key(*e))
			strvec_push(&env, *e);
	if (env.nr)
		qsort(env.v, env.nr, sizeof(*env.v), cmp_str);
	for (size_t i = 0; i < env.nr; i++)
		strbuf_addf(key, "env %zu %s\n", strlen(env.v[i]), env.v[i]);
	strvec_clear(&env);
}

/* The key of expanding the fragment at `path` with cmd, or NULL when nothing is kept. */
static char *kept_key(const struct vampyr_source *src, const struct vampyr_toolchain *tc,
		      const struct vampyr_expansion *ex, const char *cmd, const char *path)
{
	const char *off = getenv("VAMPYR_NO_EXPAND_CACHE");
	struct strbuf key = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1], *fragment;

	if ((off && *off && strcmp(off, "0")) || !tc->has_id || !ex->tree ||
	    !(fragment = read_text(path)))
		return NULL;
	strbuf_addf(&key, "vampyr expanded %d\ntree %s\nsrctree %s\narch %s %s\ncmd %zu %s\n"
		    "toolchain %s\n", KEPT_FORMAT, ex->tree, src->srctree, src->arch ? src->arch : "-",
		    src->arch_dir ? src->arch_dir : "-", strlen(cmd), cmd, oid_hex(&tc->id, hex));
	for (size_t i = 0; src->trees && i < trees_variables(src->trees)->nr; i++)
		strbuf_addf(&key, "project %s\n", trees_variables(src->trees)->v[i]);
	vampyr_add_environment(&key);
	strbuf_addf(&key, "fragment %zu\n%s", strlen(fragment), fragment);
	free(fragment);
	return strbuf_detach(&key, NULL);
}

static char *kept_path(const struct vampyr_expansion *ex, const char *key)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_oid id;

	repo_hash_blob(key, strlen(key), &id);
	return xstrfmt("%s/.vampyr-expanded/%s", ex->tree, oid_hex(&id, hex));
}

/* The .config kept under `key` at path, or NULL. */
static char *kept_read(const char *path, const char *key)
{
	char *text = read_text(path);
	size_t len = strlen(key);

	if (!text || strncmp(text, key, len)) {
		free(text);
		return NULL;
	}
	memmove(text, text + len, strlen(text + len) + 1);
	return text;
}

/* Keeps a successful run's .config (a failure to keep it only costs a run later). */
static void kept_write(const struct vampyr_kconfig_run *r)
{
	char *dir = xstrdup(r->kept_path), *slash = strrchr(dir, '/');
	struct strbuf b = STRBUF_INIT;

	*slash = '\0';
	strbuf_addstr(&b, r->kept_key);
	strbuf_addstr(&b, r->text);
	if (!mkdir_p(dir))
		write_file_atomic(r->kept_path, b.buf, b.len);
	strbuf_release(&b);
	free(dir);
}

/*
 * A command whose output passes this much is stopped: a kconfig that asks
 * for a value from /dev/null asks again forever (the tree's own conf in a
 * build's syncconfig), and would fill the disk.
 */
#define COMMAND_LOG_LIMIT ((off_t)64 << 20)

/* Prepares the engine's child c to run `sh -c cmd->cmd` in dir, its output into cmd->log: 0, or -1 (said). */
static int command_prepare(struct vampyr_command *cmd, struct parallel_child *c, const char *dir,
			   const struct strvec *env)
{
	cmd->argv[0] = "/bin/sh";
	cmd->argv[1] = "-c";
	cmd->argv[2] = cmd->cmd;
	cmd->argv[3] = NULL;
	cmd->logged = 0;
	cmd->fd = open(cmd->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (cmd->fd < 0)
		return error("cannot write %s: %m", cmd->log);
	fflush(stdout);
	fflush(stderr);
	c->p.argv = cmd->argv;
	c->p.dir = dir;
	c->p.env = env;
	c->p.out = c->p.err = PROCESS_PIPE;
	c->task = cmd;
	return 0;
}

/* The engine's output(): into the log, the command stopped past the limit (said once). */
static int command_output(struct parallel_child *c, size_t slot, int fd, const char *buf,
			  size_t len, void *data)
{
	struct vampyr_command *cmd = c->task;

	if (cmd->logged > COMMAND_LOG_LIMIT)
		return -1;
	if (write_all(cmd->fd, buf, len) < 0)
		return 0;	/* the log is what is lost; the command goes on */
	cmd->logged += (off_t)len;
	if (cmd->logged <= COMMAND_LOG_LIMIT)
		return 0;
	error("%s: stopped after %lld MiB of output in %s (a prompt answered from "
	      "/dev/null again and again?)", cmd->what, (long long)(COMMAND_LOG_LIMIT >> 20),
	      cmd->log);
	return -1;
}

static void command_close(struct vampyr_command *cmd)
{
	if (cmd->fd >= 0)
		close(cmd->fd);
	cmd->fd = -1;
}

/* One command on the engine: its state between the callbacks. */
struct one_command {
	struct vampyr_command *cmd;
	const char *dir;
	const struct strvec *env;
	int asked, status;
};

static int one_next(struct parallel_child *c, size_t slot, void *data)
{
	struct one_command *oc = data;

	if (oc->asked++)
		return 0;
	return command_prepare(oc->cmd, c, oc->dir, oc->env) ? 0 : 1;
}

static int one_finished(struct parallel_child *c, size_t slot, int status, void *data)
{
	struct one_command *oc = data;

	oc->status = status;
	return 0;
}

/* Runs cmd to its end: its wait status, or -1 when it did not run (said). */
static int command_run(struct vampyr_command *cmd, const char *dir, const struct strvec *env)
{
	struct one_command oc = { cmd, dir, env, 0, -1 };
	struct parallel_processes pp = { 1, one_next, command_output, one_finished, &oc };

	parallel_processes(&pp);
	command_close(cmd);
	return oc.status;
}

int run_command(const char *cmd, const char *dir, const struct strvec *env, const char *log)
{
	struct vampyr_command c = { .cmd = cmd, .what = cmd, .log = log, .fd = -1 };
	int status = command_run(&c, dir, env);

	/* The interrupt ended the command's process group: keep nothing of the run. */
	process_exit_if_interrupted();
	if (status < 0)
		return 127;
	return process_status_code(status);
}

void vampyr_kconfig_run_init(struct vampyr_kconfig_run *r, const char *what,
			     const char *fragment, const char *config)
{
	memset(r, 0, sizeof(*r));
	r->what = what;
	r->fragment = absolute(fragment);
	r->config = absolute(config);
}

/*
 * A private copy of the configuring tree for one run (vampyr->tree stays as
 * it is): a tree's build may write fixed paths (Xen's Makefile writes the
 * fragment to xen/.allconfig.tmp), so runs at once in one tree would read
 * each other's files, and a run's leftovers would reach the runs after it in
 * whatever order -j gave. Each file is a copy, not a hard link: a make rule
 * that rewrites a file in place (cp onto it, >>) would write through a link
 * into the cache. The kconfig programs built in the cache come along; the
 * probe cache is shared (probe_cache_env, written by rename).
 *
 * The copies are kept beside the cache, <tree>.slots/<n>, each taken by one
 * run at a time (flock on <n>.lock), and made equal to the cache again
 * before each run (outtree_sync): what the last run wrote, changed or
 * removed is undone, the rest stays. A first copy of Linux's configuring
 * tree (20,000 files) costs about 2 s; making it equal again a tenth of that.
 */
static char *private_tree(const char *cache, int *lock_fd)
{
	char *slots = xstrfmt("%s.slots", cache), *dir = NULL, *path;
	struct timespec since = { 0, 0 };
	struct outtree *out;
	struct stat st;
	int fd = -1, ret;

	if (mkdir_p(slots)) {
		error("cannot create %s: %m", slots);
		free(slots);
		return NULL;
	}
	for (int n = 0; n < 256 && fd < 0; n++) {
		path = xstrfmt("%s/%d.lock", slots, n);
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
		if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB)) {
			close(fd);
			fd = -1;
		}
		free(path);
		if (fd >= 0)
			dir = xstrfmt("%s/%d", slots, n);
	}
	free(slots);
	if (fd < 0)
		return NULL;
	/* The stamp, written after the last sync: what changed since is the last run's doing. */
	path = xstrfmt("%s.stamp", dir);
	if (!lstat(path, &st) && S_ISREG(st.st_mode))
		since = st.st_ctim;
	out = mkdir(dir, 0777) && errno != EEXIST ? NULL : outtree_open(dir);
	ret = out ? outtree_sync(out, cache, ".vampyr-", &since) : -1;
	outtree_close(out);
	unlink(path);
	if (!ret && write_file_atomic(path, "", 0) < 0)
		ret = -1;
	free(path);
	if (ret) {
		close(fd);
		free(dir);
		process_exit_if_interrupted();
		return NULL;
	}
	*lock_fd = fd;
	return dir;
}

static void kconfig_end(struct vampyr_kconfig_run *r, int status);

/* Prepares r to run cmd in its own copy of v->expansion.tree: 0, or -1 (said; r has ended, without text). */
static int kconfig_prepare(const struct vampyr_source *src, const struct vampyr_expansion *ex,
			   struct vampyr_kconfig_run *r, const char *cmd)
{
	static unsigned long serial;
	const char *top;
	char *dir;

	r->lock_fd = -1;
	r->rundir = r->in_cache ? NULL : private_tree(ex->tree, &r->lock_fd);
	if (!r->in_cache && !r->rundir) {
		error("%s: cannot copy the tree %s", r->what, ex->tree);
		kconfig_end(r, -1);
		return -1;
	}
	top = r->rundir ? r->rundir : ex->tree;
	dir = xstrfmt("%s%s%s", top, *src->srctree ? "/" : "", src->srctree);
	r->log = xstrfmt("%s/.vampyr-kconfig.%ld.%lu.log", top, (long)getpid(), serial++);
	r->cmd = cmd;
	unlink(r->config);
	r->env = (struct strvec)STRVEC_INIT;
	/* In the Kconfig tree's directory (Xen's xen/), with the variables its source lines use. */
	strvec_pushf(&r->env, "srctree=%s", dir);
	strvec_pushf(&r->env, "KCONFIG_ALLCONFIG=%s", r->fragment);
	strvec_pushf(&r->env, "KCONFIG_CONFIG=%s", r->config);
	if (src->arch) {
		strvec_pushf(&r->env, "ARCH=%s", src->arch);
		strvec_pushf(&r->env, "SRCARCH=%s", src->arch_dir ? src->arch_dir : src->arch);
	}
	for (size_t i = 0; src->trees && i < trees_variables(src->trees)->nr; i++)
		strvec_push(&r->env, trees_variables(src->trees)->v[i]);
	probe_cache_env(ex->tree, r->rundir, &r->env);
	r->dir = dir;
	r->command = (struct vampyr_command){ .cmd = cmd, .what = r->what, .log = r->log, .fd = -1 };
	return 0;
}

/* The thread beside the caller that runs r's command (vampyr_kconfig_start). */
static void kconfig_thread(size_t j, void *data)
{
	struct vampyr_kconfig_run *r = data;

	r->status = command_run(&r->command, r->dir, &r->env);
}

int vampyr_kconfig_start(const struct vampyr_source *src, const struct vampyr_expansion *ex,
			 struct vampyr_kconfig_run *r, const char *cmd)
{
	if (kconfig_prepare(src, ex, r, cmd))
		return -1;
	r->running = 1;
	r->task = parallel_start(kconfig_thread, r);
	return 0;
}

/* The run has ended with wait status `status` (-1: it did not run): its .config, or the error. */
static void kconfig_end(struct vampyr_kconfig_run *r, int status)
{
	int code = status < 0 ? 127 : process_status_code(status);

	r->running = 0;
	r->done = 1;
	/* The interrupt ended the command's process group: keep nothing of the run. */
	process_exit_if_interrupted();
	r->text = code ? NULL : read_text(r->config);
	if (!r->text && !code) {
		error("%s: the kconfig command exited 0 but wrote no configuration (%s): %s\n"
		      "(it must write the file KCONFIG_CONFIG names; see --kconfig in git-vampyr(1))",
		      r->what, r->config, r->cmd);
		if (r->log)
			print_log_tail(r->log);
	} else if (!r->text) {
		error("%s: the kconfig command failed (exit %d): %s", r->what, code, r->cmd);
		if (r->log)
			print_log_tail(r->log);
	}
	if (r->text && r->kept_path)
		kept_write(r);
	if (r->log)
		unlink(r->log);
	free(r->log);
	r->log = NULL;
	free(r->dir);
	r->dir = NULL;
	strvec_clear(&r->env);
	/* The copy stays for the next run, which makes it equal to the cache again. */
	free(r->rundir);
	r->rundir = NULL;
	if (r->lock_fd >= 0)
		close(r->lock_fd);
	r->lock_fd = -1;
}

void vampyr_kconfig_wait(struct vampyr_kconfig_run *r)
{
	if (!r->running)
		return;
	parallel_join(r->task);
	r->task = NULL;
	kconfig_end(r, r->status);
}

char *vampyr_kconfig_run_release(struct vampyr_kconfig_run *r)
{
	char *text = r->text;

	free(r->fragment);
	free(r->config);
	free(r->kept_key);
	free(r->kept_path);
	memset(r, 0, sizeof(*r));
	return text;
}

char *run_kconfig(const struct vampyr_source *src, const struct vampyr_expansion *ex,
		  const char *what,
		  const char *cmd, const char *fragment,
		  const char *config)
{
	struct vampyr_kconfig_run r;

	vampyr_kconfig_run_init(&r, what, fragment, config);
	/* Here, on this thread: nothing else to do meanwhile. */
	if (!kconfig_prepare(src, ex, &r, cmd))
		kconfig_end(&r, command_run(&r.command, r.dir, &r.env));
	return vampyr_kconfig_run_release(&r);
}

static void clear_lost(struct vconfig *c)
{
	for (size_t i = 0; i < c->nr_lost; i++)
		vlost_release(&c->lost[i]);
	c->nr_lost = 0;
}

/* Where c's expanded .config goes: config-N.expanded beside its fragment. */
static void set_expanded_path(struct vconfig *c)
{
	size_t len = strlen(c->path);

	if (c->expanded_path)
		return;
	c->expanded_path = ends_with(c->path, ".config")
		? xstrfmt("%.*s.expanded", (int)(len - 7), c->path)
		: xstrfmt("%s.expanded", c->path);
}

/*
 * c's expanded .config (text, NULL when kconfig failed): fills c->lost with
 * the claims it does not compile and why, and pins with the symbols to pin
 * for them. 0, or -1 when the command failed.
 */
static int expand_check(const struct vampyr_source *src, const struct vampyr_cover *cv,
			struct vconfig *c,
			char *text, struct strvec *pins)
{
	struct strmap cfg = STRMAP_INIT;
	int8_t *values;

	if (!text) {
		c->expanded = -1;
		return -1;
	}
	c->expanded = 1;
	values = config_values(src, text, c->values, c->nr_values);
	config_parse(text, &cfg);
	clear_lost(c);
	strvec_clear(&c->changed);
	vampyr_trace_changed(src, c, &cfg, &c->changed);
	for (size_t i = 0; i < c->nr_claims; i++)
		if (!block_compiled(src, values, c->nr_values, &cv->blocks[c->claims[i]])) {
			ALLOC_GROW(c->lost, c->nr_lost + 1, c->alloc_lost);
			vampyr_trace_lost(src, cv, c, &cfg, c->claims[i], pins, &c->lost[c->nr_lost++]);
		}
	strmap_clear(&cfg, free);
	free(values);
	free(text);
	return 0;
}

const char *vampyr_kconfig_command(const struct expand_options *o)
{
	if (o->kconfig_cmd)
		return o->kconfig_cmd;
	return "make -s alldefconfig KCONFIG_ALLCONFIG=\"$KCONFIG_ALLCONFIG\" "
	       "KCONFIG_CONFIG=\"$KCONFIG_CONFIG\"";
}

void vampyr_tree_done(struct vampyr_expansion *ex, const struct expand_options *o)
{
	if (!ex->tree)
		return;
	/* The tree stays in the cache for the next run (config_tree). */
	if (o->keep_tree)
		fprintf(stderr, "vampyr: the tree is in %s\n", ex->tree);
	free(ex->tree);
	ex->tree = NULL;
}

/* Adds to c->pins those of `pins` it does not have: how many. */
static size_t add_pins(struct vconfig *c, const struct strvec *pins)
{
	size_t added = 0;

	for (size_t k = 0; k < pins->nr; k++) {
		size_t j;

		for (j = 0; j < c->pins.nr; j++)
			if (!strcmp(c->pins.v[j], pins->v[k]))
				break;
		if (j == c->pins.nr) {
			strvec_push(&c->pins, pins->v[k]);
			added++;
		}
	}
	return added;
}

/*
 * Prepares kconfig on c's fragment: 1. Or takes the .config kept for it:
 * 0, done at once with it; 0 too when it cannot be prepared (done at once,
 * without text).
 */
static int expand_start(const struct vampyr_source *src, const struct vampyr_toolchain *tc,
			const struct vampyr_expansion *ex, struct vconfig *c,
			struct vampyr_kconfig_run *r,
			 const char *cmd)
{
	char *key = kept_key(src, tc, ex, cmd, c->path), *path = key ? kept_path(ex, key) : NULL;
	char *text = path ? kept_read(path, key) : NULL;

	set_expanded_path(c);
	vampyr_kconfig_run_init(r, c->name, c->path, c->expanded_path);
	if (text && !write_file_atomic(c->expanded_path, text, strlen(text))) {
		if (!quiet)
			fprintf(stderr, "vampyr: %s expanded as before (%zu assignments, %zu pinned "
				"for lost blocks; kept in %s)\n", c->name, c->assignments.nr,
				c->pins.nr, path);
		r->done = 1;
		r->text = text;
		free(key);
		free(path);
		return 0;
	}
	free(text);
	if (!quiet)
		fprintf(stderr, "vampyr: expanding %s (%zu assignments, %zu pinned for lost blocks)\n",
			c->name, c->assignments.nr, c->pins.nr);
	r->kept_key = key;
	r->kept_path = path;
	return kconfig_prepare(src, ex, r, cmd) ? 0 : 1;
}

/*
 * c's kconfig run r has ended: checks its .config. 1 when c runs again,
 * pinning what the traces of its lost blocks name (written into its
 * fragment); 0 when it is done; -1 after an error.
 */
static int expand_ended(const struct vampyr_source *src, const struct vampyr_cover *cv,
			struct vconfig *c,
			struct vampyr_kconfig_run *r, int round)
{
	struct strvec pins = STRVEC_INIT;
	size_t added;

	if (expand_check(src, cv, c, vampyr_kconfig_run_release(r), &pins)) {
		strvec_clear(&pins);
		return -1;
	}
	added = add_pins(c, &pins);
	strvec_clear(&pins);
	if (!c->nr_lost || !added || round >= MAX_PIN_ROUNDS)
		return 0;
	fragment_assignments(src, cv, c);
	return fragment_write(c) ? -1 : 1;
}

/* The expansions of a run, on the engine (parallel.h): a queue of configurations. */
struct expansion {
	struct vampyr *v;
	const char *cmd;
	struct vampyr_kconfig_run *runs;	/* per configuration */
	int *rounds;
	size_t *queue, head, tail, nr;		/* a ring of nr + 1 */
	size_t *slot_config;			/* the configuration each slot runs */
	int ret;
};

/* Configuration i's run has ended: checked, and queued again when it pins more. */
static void expansion_ended(struct expansion *e, size_t i)
{
	int again = expand_ended(&e->v->src, &e->v->cover, &e->v->cover.configs[i], &e->runs[i],
				 e->rounds[i]++);

	if (again < 0)
		e->ret = -1;
	else if (again)
		e->queue[e->tail++ % (e->nr + 1)] = i;
}

static int expansion_next(struct parallel_child *c, size_t slot, void *data)
{
	struct expansion *e = data;

	/* After an error nothing more starts; the runs going on end. */
	while (!e->ret && e->head != e->tail) {
		size_t i = e->queue[e->head++ % (e->nr + 1)];
		struct vampyr_kconfig_run *r = &e->runs[i];

		if (expand_start(&e->v->src, &e->v->toolchain, &e->v->expansion,
				 &e->v->cover.configs[i], r, e->cmd)) {
			if (!command_prepare(&r->command, c, r->dir, &r->env)) {
				e->slot_config[slot] = i;
				r->running = 1;
				return 1;
			}
			kconfig_end(r, -1);
		}
		expansion_ended(e, i);
	}
	return 0;
}

static int expansion_finished(struct parallel_child *c, size_t slot, int status, void *data)
{
	struct expansion *e = data;
	size_t i = e->slot_config[slot];

	command_close(&e->runs[i].command);
	kconfig_end(&e->runs[i], status);
	expansion_ended(e, i);
	return 0;
}

/*
 * Runs kconfig on every configuration, -j at once (each in its own copy of
 * the tree, private_tree, writing its own .config); a configuration that
 * loses blocks runs again as soon as its own run has ended. 0, or -1 after
 * an error.
 */
static int expand_all(struct vampyr *v, const struct expand_options *o)
{
	size_t nr = v->cover.nr_configs, jobs = o->jobs > 0 ? (size_t)o->jobs : 1;
	struct expansion e = { v, vampyr_kconfig_command(o) };
	struct parallel_processes pp = { jobs, expansion_next, command_output, expansion_finished,
					 &e };

	e.nr = nr;
	e.queue = xcalloc(nr + 1, sizeof(*e.queue));
	e.runs = xcalloc(nr + 1, sizeof(*e.runs));
	e.rounds = xcalloc(nr + 1, sizeof(*e.rounds));
	e.slot_config = xcalloc(jobs, sizeof(*e.slot_config));
	for (size_t i = 0; i < nr; i++)
		e.queue[e.tail++] = i;
	parallel_processes(&pp);
	/* The interrupt ended the commands' process groups: keep nothing of the run. */
	process_exit_if_interrupted();
	free(e.slot_config);
	free(e.rounds);
	free(e.runs);
	free(e.queue);
	return e.ret;
}

int vampyr_expand(struct vampyr *v, const struct expand_options *o)
{
	size_t nr = v->cover.nr_configs;
	int ret;

	if (vampyr_config_tree(&v->src, &v->expansion))
		return -1;
	ret = expand_all(v, o);
	/* What no fragment can keep: the toolchain's, counted with the toolchain. */
	for (size_t i = 0; i < nr; i++) {
		struct vconfig *c = &v->cover.configs[i];

		for (size_t k = 0; k < c->nr_lost; k++)
			if (c->lost[k].kind == LOST_TOOLCHAIN && !v->cover.blocks[c->lost[k].block].toolchain) {
				v->cover.blocks[c->lost[k].block].toolchain = 1;
				v->cover.nr_toolchain++;
			}
	}
	if (!ret) {
		/* Coverage after expansion: the targets some expanded .config compiles. */
		unsigned char *hit = xcalloc(v->cover.nr_blocks + 1, 1);

		for (size_t i = 0; i < v->cover.nr_configs; i++) {
			struct vconfig *c = &v->cover.configs[i];
			char *text = read_text(c->expanded_path);
			int8_t *values;

			if (!text)
				continue;
			values = config_values(&v->src, text, c->values, c->nr_values);
			for (size_t b = 0; b < v->cover.nr_blocks; b++)
				if (!hit[b] && v->cover.blocks[b].target && !v->cover.blocks[b].dead &&
				    block_compiled(&v->src, values, c->nr_values, &v->cover.blocks[b]))
					hit[b] = 1;
			free(values);
			free(text);
		}
		v->expansion.nr_covered = 0;
		for (size_t b = 0; b < v->cover.nr_blocks; b++)
			v->expansion.nr_covered += hit[b];
		free(hit);
		v->expansion.done = 1;
	}
	return ret;
}
