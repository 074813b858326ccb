// SPDX-License-Identifier: GPL-2.0
/*
 * --build: each expanded configuration is built at X and at X's parent (trees
 * written from the object store), and the compiler diagnostics that appear
 * at X only are what X adds. Diagnostics are compared without their line and
 * column: a commit moves lines, and a warning that moved is not new.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vampyr.h"

/* A file's text; "" when there is none (a build that wrote no log). */
static char *read_file_text(const char *path)
{
	char *text;
	size_t size;

	return read_file(path, &text, &size) < 0 ? xstrdup("") : text;
}

static int write_text(const char *text, const char *to)
{
	FILE *f = fopen(to, "w");
	int ret = 0;

	if (!f || fputs(text, f) < 0)
		ret = error("cannot write %s: %m", to);
	if (f && fclose(f))
		ret = error("cannot write %s: %m", to);
	return ret;
}

/*
 * The .config a build of c gets: its expanded configuration, where an int
 * or hex symbol that no default gave a value (`CONFIG_SYS_LOAD_ADDR=`, left
 * so by alldefconfig where a board's defconfig would set it) gets 0 (0x0):
 * the build's own kconfig would otherwise ask for it, and from /dev/null ask
 * forever. (Where a range applies, kconfig itself gives its low end.) Each
 * such value is said once.
 */
static char *build_config_text(const struct vampyr_source *src, const struct vconfig *c)
{
	char *text = read_file_text(c->expanded_path);
	struct strbuf out = STRBUF_INIT, given = STRBUF_INIT;

	for (char *p = text, *eol; *p; p = eol) {
		const struct kconfig_symbol *sym = NULL;
		const char *value;
		size_t len;

		eol = strchrnul(p, '\n');
		len = (size_t)(eol - p);
		if (*eol)
			eol++;
		if (starts_with(p, "CONFIG_") && len > 8 && p[len - 1] == '=') {
			char *name = xstrndup(p + 7, len - 8);

			sym = kconfig_lookup(src->kconfig, name);
			free(name);
		}
		if (!sym || (sym->type != KCONFIG_INT && sym->type != KCONFIG_HEX)) {
			strbuf_add(&out, p, (size_t)(eol - p));
			continue;
		}
		value = sym->type == KCONFIG_HEX ? "0x0" : "0";
		strbuf_addf(&out, "CONFIG_%s=%s\n", sym->name, value);
		strbuf_addf(&given, "%s CONFIG_%s=%s", given.len ? "," : "", sym->name, value);
	}
	if (given.len)
		warning("%s: no default gives a value to%s; the builds take it (a board's "
			"defconfig sets such values)", c->name, given.buf);
	strbuf_release(&given);
	free(text);
	return strbuf_detach(&out, NULL);
}

/* Skips digits; returns NULL when there are none. */
static const char *digits(const char *p)
{
	const char *s = p;

	while (isdigit((unsigned char)*p))
		p++;
	return p == s ? NULL : p;
}

/*
 * "path:line[:col]: warning|error: message" with the tree's prefix removed:
 * *shown is the line as printed, *key the same without line and column.
 */
static int parse_diagnostic(const char *line, const char *tree, char **shown, char **key)
{
	size_t tlen = strlen(tree);
	const char *p, *colon, *kind;

	if (!strncmp(line, tree, tlen) && line[tlen] == '/')
		line += tlen + 1;
	while (starts_with(line, "./"))
		line += 2;
	for (colon = strchr(line, ':'); colon; colon = strchr(colon + 1, ':')) {
		if (colon == line)
			continue;
		p = digits(colon + 1);
		if (!p || *p != ':')
			continue;
		kind = p + 1;
		if ((p = digits(kind)) && *p == ':')
			kind = p + 1;
		if (*kind != ' ')
			continue;
		kind++;
		if (!starts_with(kind, "warning:") && !starts_with(kind, "error:") &&
		    !starts_with(kind, "fatal error:"))
			continue;
		*shown = xstrdup(line);
		*key = xstrfmt("%.*s: %s", (int)(colon - line), line, kind);
		return 1;
	}
	return 0;
}

/*
 * The objects of sources that c compiles: a file whose Kbuild condition
 * (its line-0 block) the expanded configuration does not meet is left out,
 * so that one object the configuration never builds does not stop make
 * before the others. A file with no such block is built.
 */
static void config_targets(const struct vampyr_source *src, const struct vampyr_cover *cv,
			   const struct vconfig *c, const char *text,
			   const struct strvec *sources, struct strbuf *out)
{
	int8_t *values = config_values(src, text, c->values, c->nr_values);

	strbuf_reset(out);
	for (size_t i = 0; i < sources->nr; i++) {
		const char *path = sources->v[i];
		const struct vblock *file = NULL;

		for (size_t b = 0; b < cv->nr_blocks && !file; b++)
			if (cv->blocks[b].line == 0 && !strcmp(cv->blocks[b].path, path))
				file = &cv->blocks[b];
		if (file && !block_compiled(src, values, c->nr_values, file))
			continue;
		strbuf_addf(out, "%s%.*s.o", out->len ? " " : "", (int)strlen(path) - 2, path);
	}
	free(values);
}

/* Runs the build in tree with config c; fills keys -> shown line. Returns the exit status. */
static int build_in(const struct vampyr_source *src, const struct vconfig *c,
		    const char *config_text,
		    const char *tree, const char *cmd, const char *targets, struct strmap *diags)
{
	struct strvec env = STRVEC_INIT;
	char *config = xstrfmt("%s/.config", tree);
	char *log = xstrfmt("%s/.vampyr-build.log", tree), *text, *full;
	int status;

	if (write_text(config_text, config)) {
		free(config);
		free(log);
		return -1;
	}
	strvec_pushf(&env, "KCONFIG_CONFIG=%s", config);
	strvec_pushf(&env, "VAMPYR_CONFIG=%s", c->name);
	strvec_pushf(&env, "VAMPYR_TARGETS=%s", targets);
	if (src->arch)
		strvec_pushf(&env, "ARCH=%s", src->arch);
	/* The objects go after the command, unless it places $VAMPYR_TARGETS itself. */
	full = strstr(cmd, "VAMPYR_TARGETS") || !*targets ? xstrdup(cmd) : xstrfmt("%s %s", cmd, targets);
	status = run_command(full, tree, &env, log);
	text = read_file_text(log);
	if (status) {
		/* A build that stops early adds no diagnostic: say so, with how it ended. */
		size_t len = strlen(text), i = len, lines = 0;

		while (i > 0 && lines < 10)
			if (text[--i] == '\n' && i + 1 < len)
				lines++;
		error("%s: the build failed (exit %d): %s\n%s", c->name, status, full,
		      text + (i ? i + 1 : 0));
	}
	for (char *p = text, *eol; *p; p = eol) {
		char *shown, *key;

		eol = strchrnul(p, '\n');
		if (*eol)
			*eol++ = '\0';
		if (parse_diagnostic(p, tree, &shown, &key)) {
			free(strmap_put(diags, key, shown));
			free(key);
		}
	}
	free(text);
	unlink(log);
	free(log);
	free(full);
	free(config);
	strvec_clear(&env);
	return status;
}

/* Writes blob `id` (the zero id: removes the file) at path in tree. */
static int put_file(const struct vampyr_source *src, const char *tree, const char *path,
		    const git_oid *id)
{
	struct tree_file f = { path, id, 0100644 };
	struct outtree *out = outtree_open(tree);
	int ret;

	if (!out)
		return -1;
	if (!git_oid_is_zero(id))
		ret = tree_write_file(src->repo, out, &f);
	else
		ret = outtree_remove(out, path);
	outtree_close(out);
	return ret;
}

/*
 * The full tree of --build is kept in $GIT_DIR/vampyr/build/ with the list
 * of what it holds (.vampyr-files: mode, blob id and path of each file), so
 * that the next --build, at any commit, writes only the files that differ
 * and removes those that went away; make then rebuilds only what they touch,
 * and finds its tools (fixdep, objtool) built. One run at a time holds it
 * (build.lock, with its pid); another one meanwhile builds in a temporary
 * tree. The list is removed while the tree changes: a run that dies leaves
 * none, and the next one writes the tree anew.
 */
struct build_cache {
	char *dir, *list, *lock;
	struct strbuf files;	/* the list of the commit written */
};

struct tree_sync {
	struct repo *repo;
	struct strmap had;	/* path -> "mode blob" of the list found */
	struct strbuf *files;
	struct tree_file *todo;
	size_t nr, alloc;
};

static int sync_one(const struct tree_file *f, void *data)
{
	struct tree_sync *ts = data;
	char hex[GIT_OID_HEXSZ + 1];
	char *entry;
	const char *old;

	if (f->mode == 0160000 || tree_file_absent(ts->repo, f))
		return 0;
	entry = xstrfmt("%o %s", f->mode, oid_hex(f->blob, hex));
	strbuf_addf(ts->files, "%s %s\n", entry, f->path);
	old = strmap_get(&ts->had, f->path);
	if (!old || strcmp(old, entry)) {
		git_oid *id = xmalloc(sizeof(*id));

		git_oid_cpy(id, f->blob);
		ALLOC_GROW(ts->todo, ts->nr + 1, ts->alloc);
		ts->todo[ts->nr].path = xstrdup(f->path);
		ts->todo[ts->nr].blob = id;
		ts->todo[ts->nr++].mode = f->mode;
	}
	/* What keeps a value in `had` afterwards went away. */
	if (old)
		free(strmap_put(&ts->had, f->path, NULL));
	free(entry);
	return 0;
}

static void build_cache_free(struct build_cache *bc)
{
	free(bc->dir);
	free(bc->list);
	free(bc->lock);
	strbuf_release(&bc->files);
	memset(bc, 0, sizeof(*bc));
}

/* Takes the lock: 0, or -1 when a live run holds it. */
static int take_lock(const char *lock)
{
	for (int tries = 0; tries < 2; tries++) {
		int fd = open(lock, O_WRONLY | O_CREAT | O_EXCL, 0666);
		char buf[32];
		FILE *f;
		long pid = 0;

		if (fd >= 0) {
			int len = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());

			if (write(fd, buf, (size_t)len) != len)
				warning("cannot write %s: %m", lock);
			close(fd);
			return 0;
		}
		if (errno != EEXIST)
			return -1;
		f = fopen(lock, "r");
		if (f && fscanf(f, "%ld", &pid) != 1)
			pid = 0;
		if (f)
			fclose(f);
		if (pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM))
			return -1;
		/* Its run is gone. */
		unlink(lock);
	}
	return -1;
}

/* The kept tree, brought to commit: its path, or NULL (busy, or it could not be written). */
static char *build_cache_get(const struct vampyr_source *src, const git_oid *commit,
			     struct build_cache *bc)
{
	char *top = xstrfmt("%svampyr", repo_gitdir(src->repo));
	struct tree_sync ts = { src->repo, STRMAP_INIT, &bc->files };
	struct outtree *out = NULL;
	const char *hook = getenv("VAMPYR_TEST_BLOB_WRITES");
	size_t writes = tree_blob_writes();
	struct strmap_entry *e;
	char *text;
	int ret = 0;

	bc->dir = xstrfmt("%s/build", top);
	bc->list = xstrfmt("%s/.vampyr-files", bc->dir);
	bc->lock = xstrfmt("%s/build.lock", top);
	bc->files = (struct strbuf)STRBUF_INIT;
	if (mkdir_p(top) || take_lock(bc->lock)) {
		free(top);
		build_cache_free(bc);
		return NULL;
	}
	free(top);
	text = read_file_text(bc->list);
	for (char *p = text, *eol; *p; p = eol) {
		char *sp;

		eol = strchrnul(p, '\n');
		if (*eol)
			*eol++ = '\0';
		/* "mode blob path": the path after the second space */
		if ((sp = strchr(p, ' ')) && (sp = strchr(sp + 1, ' '))) {
			*sp = '\0';
			strmap_put(&ts.had, sp + 1, xstrdup(p));
		}
	}
	free(text);
	if (unlink(bc->list) && errno == ENOENT) {
		/* No list: whatever is there is of a run that died. */
		remove_tree(bc->dir);
		strmap_clear(&ts.had, free);
	}
	if (mkdir_p(bc->dir) || !(out = outtree_open(bc->dir)) ||
	    repo_for_each_file(src->repo, commit, "", sync_one, &ts))
		ret = -1;
	/* Removed first: a file that became a directory makes way for it. */
	strmap_for_each(&ts.had, e) {
		if (e->value && out && outtree_remove(out, e->key))
			ret = -1;
	}
	for (size_t i = 0; i < ts.nr; i++) {
		if (!ret && !process_interrupted() && tree_write_file(src->repo, out, &ts.todo[i]))
			ret = -1;
		free((char *)ts.todo[i].path);
		free((git_oid *)ts.todo[i].blob);
	}
	free(ts.todo);
	strmap_clear(&ts.had, free);
	outtree_close(out);
	process_exit_if_interrupted();
	if (hook && *hook) {
		FILE *f = fopen(hook, "a");

		if (f) {
			fprintf(f, "build %zu\n", tree_blob_writes() - writes);
			fclose(f);
		}
	}
	if (ret) {
		remove_tree(bc->dir);
		unlink(bc->lock);
		build_cache_free(bc);
		return NULL;
	}
	return xstrdup(bc->dir);
}

/* Records what the kept tree holds (commit's files, swapped back) and lets it go. */
static void build_cache_put(struct build_cache *bc, int ok)
{
	FILE *f;

	if (ok && (f = fopen(bc->list, "w"))) {
		int bad = fputs(strbuf_str(&bc->files), f) < 0;

		if (fclose(f) || bad)
			unlink(bc->list);
	}
	unlink(bc->lock);
	build_cache_free(bc);
}

/* Puts the files the commit changes as they are at the parent (at_parent) or at X. */
static int swap_files(const struct vampyr_source *src, const char *tree,
		      const struct change_list *ch, int at_parent)
{
	for (size_t i = 0; i < ch->nr; i++) {
		const struct file_change *fc = &ch->files[i];

		/* Remove the side that goes away first: a rename has two paths. */
		if (put_file(src, tree, at_parent ? fc->new_path : fc->old_path,
		    &(git_oid){ { 0 } }) ||
		    put_file(src, tree, at_parent ? fc->old_path : fc->new_path,
			     at_parent ? &fc->old_blob : &fc->new_blob))
			return -1;
	}
	return 0;
}

static int is_build_file(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return starts_with(base, "Kconfig") || starts_with(base, "Makefile") ||
	       starts_with(base, "Kbuild") || starts_with(path, "scripts/") ||
	       starts_with(path, "include/") || strstr(path, "/include/") ||
	       !(ends_with(path, ".c") || ends_with(path, ".S"));
}

static struct vwarning *find_warning(struct vampyr_build *bd, const char *text)
{
	struct vwarning *w;

	for (size_t i = 0; i < bd->nr_warnings; i++)
		if (!strcmp(bd->warnings[i].text, text))
			return &bd->warnings[i];
	ALLOC_GROW(bd->warnings, bd->nr_warnings + 1, bd->alloc_warnings);
	w = &bd->warnings[bd->nr_warnings++];
	w->text = xstrdup(text);
	memset(&w->configs, 0, sizeof(w->configs));
	return w;
}

/*
 * Builds c at X (tree_x) and at its parent (tree_p, or tree_x with the
 * changed files of ch swapped; ch NULL: no parent); the diagnostics only X
 * shows go to v's warnings. -1 when the files could not be swapped back.
 */
static int build_one(const struct vampyr_source *src, const struct vampyr_cover *cv,
		     struct vampyr_build *bd, const struct vconfig *c, const char *cmd,
		     const struct strvec *sources, const char *tree_x, const char *tree_p,
		     const struct change_list *ch)
{
	struct strmap at_x = STRMAP_INIT, at_p = STRMAP_INIT;
	struct strbuf targets = STRBUF_INIT;
	struct strmap_entry *e;
	char *text = build_config_text(src, c);
	int ret = 0;

	config_targets(src, cv, c, text, sources, &targets);
	if (!quiet)
		fprintf(stderr, "vampyr: building %s: %s\n", c->name,
			targets.len ? targets.buf : "(no object of its own)");
	build_in(src, c, text, tree_x, cmd, strbuf_str(&targets), &at_x);
	if (tree_p) {
		build_in(src, c, text, tree_p, cmd, strbuf_str(&targets), &at_p);
	} else if (ch) {
		if (swap_files(src, tree_x, ch, 1) == 0)
			build_in(src, c, text, tree_x, cmd, strbuf_str(&targets), &at_p);
		if (swap_files(src, tree_x, ch, 0))
			ret = -1;
	}
	strmap_for_each(&at_x, e) {
		if (strmap_get(&at_p, e->key))
			continue;
		strvec_push(&find_warning(bd, e->value)->configs, c->name);
	}
	strmap_clear(&at_x, free);
	strmap_clear(&at_p, free);
	strbuf_release(&targets);
	free(text);
	return ret;
}

int vampyr_build(const struct vampyr_source *src, const struct vampyr_cover *cv,
		 struct vampyr_build *bd,
		 const char *cmd)
{
	struct commit_list parents = { 0 };
	git_oid parent;
	int has_parent = 0, swap = 1;
	char *tree_x, *tree_p = NULL;
	struct change_list ch = { 0 };
	struct strvec sources = STRVEC_INIT;
	struct build_cache bc = { 0 };
	int cached = 0, swapped_back = 1;

	if (repo_commit_parents(src->repo, &src->commit, &parents) < 0)
		return error("cannot build %s: its parents cannot be read", oid_short(src->repo, &src->commit));
	if (parents.nr) {
		parent = parents.oid[0];
		has_parent = 1;
	}
	commit_list_clear(&parents);
	/* The objects of the C and assembler files the commit touches: all there is to build. */
	if (has_parent && repo_diff_first_parent(src->repo, &src->commit, NULL, 0, &ch)) {
		change_list_clear(&ch);
		return error("cannot diff %s against its parent", oid_short(src->repo, &src->commit));
	}
	for (size_t i = 0; i < ch.nr; i++) {
		const char *path = ch.files[i].new_path;

		if (ch.files[i].status != 'D' && (ends_with(path, ".c") || ends_with(path, ".S")))
			strvec_push(&sources, path);
		/*
		 * A commit that changes how things build gets a tree of its own at
		 * the parent; otherwise one tree serves both, the changed files
		 * swapped (make rebuilds what they touch, nothing else).
		 */
		if (is_build_file(ch.files[i].old_path) || is_build_file(path))
			swap = 0;
	}
	tree_x = build_cache_get(src, &src->commit, &bc);
	if (tree_x)
		cached = 1;
	else
		tree_x = tree_checkout(src->repo, &src->commit, NULL);
	if (!tree_x) {
		change_list_clear(&ch);
		strvec_clear(&sources);
		return -1;
	}
	if (has_parent && !swap && !(tree_p = tree_checkout(src->repo, &parent, NULL))) {
		if (cached) {
			build_cache_put(&bc, 1);
			free(tree_x);
		} else {
			process_tmpdir_remove(tree_x);
		}
		change_list_clear(&ch);
		strvec_clear(&sources);
		return -1;
	}
	for (size_t i = 0; i < cv->nr_configs; i++)
		if (cv->configs[i].expanded > 0 &&
		    build_one(src, cv, bd, &cv->configs[i], cmd, &sources, tree_x, tree_p,
			      has_parent ? &ch : NULL))
			swapped_back = 0;
	bd->done = 1;
	if (bd->keep_tree)
		fprintf(stderr, "vampyr: the build tree is in %s\n", tree_x);
	if (cached) {
		build_cache_put(&bc, swapped_back);
		free(tree_x);
	} else if (bd->keep_tree) {
		process_tmpdir_keep(tree_x);
	} else {
		process_tmpdir_remove(tree_x);
	}
	process_tmpdir_remove(tree_p);
	change_list_clear(&ch);
	strvec_clear(&sources);
	return 0;
}
