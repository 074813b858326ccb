// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the notes tree reader and writer. Each line of the input
 * is a path in a tree (fan-out directories, notes named by hex digits, or
 * anything else git accepts); the tree is committed on refs/notes/fuzz in a
 * scratch repository, then read back (notes_read) and rewritten by a batch
 * that adds one note and removes another. Non-notes must survive the batch.
 */
#include "notes.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *root;
static struct repo *repo;
static unsigned runs;

static void new_repo(void)
{
	char *cmd;

	if (repo)
		repo_close(repo);
	cmd = xstrfmt("rm -rf '%s/r' && git init -q --bare '%s/r'", root, root);
	if (system(cmd))
		die("cannot create a scratch repository in %s", root);
	free(cmd);
	cmd = xstrfmt("%s/r", root);
	setenv("GIT_DIR", cmd, 1);
	free(cmd);
	{
		struct strbuf why = STRBUF_INIT;

		repo = repo_open(&why);
		if (!repo)
			die("%s", why.buf);
	}
}

static void cleanup(void)
{
	char *cmd = xstrfmt("rm -rf '%s'", root);

	if (repo)
		repo_close(repo);
	if (system(cmd))
		warning("cannot remove %s", root);
	free(cmd);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = access("/dev/shm", W_OK) ? getenv("TMPDIR") : "/dev/shm";
	char *templ = xstrfmt("%s/fuzz-notes.XXXXXX", tmp && *tmp ? tmp : "/tmp");

	set_program_name("fuzz-notes");
	quiet = 1;
	root = mkdtemp(templ);
	if (!root)
		die("cannot make a scratch directory");
	setenv("GIT_COMMITTER_NAME", "fuzz", 1);
	setenv("GIT_COMMITTER_EMAIL", "fuzz@example.org", 1);
	setenv("GIT_COMMITTER_DATE", "1700000000 +0000", 1);
	unsetenv("GIT_WORK_TREE");
	new_repo();
	atexit(cleanup);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Writes paths [lo, hi) (sorted, sharing `plen` leading bytes) as one tree. */
static int write_tree(git_repository *g, char **paths, size_t lo, size_t hi, size_t plen,
		      git_oid *out)
{
	git_treebuilder *tb;
	int ret = 0;

	if (git_treebuilder_new(&tb, g, NULL) < 0)
		return -1;
	for (size_t i = lo; i < hi;) {
		const char *rest = paths[i] + plen, *slash = strchr(rest, '/');
		git_oid id;

		if (!slash) {
			if (!git_blob_create_from_buffer(&id, g, paths[i], strlen(paths[i])))
				git_treebuilder_insert(NULL, tb, rest, &id, GIT_FILEMODE_BLOB);
			i++;
		} else {
			size_t n = (size_t)(slash - rest) + 1, j = i + 1;
			char *name = xstrndup(rest, n - 1);

			while (j < hi && !strncmp(paths[j] + plen, rest, n))
				j++;
			if (!write_tree(g, paths, i, j, plen + n, &id))
				git_treebuilder_insert(NULL, tb, name, &id, GIT_FILEMODE_TREE);
			free(name);
			i = j;
		}
	}
	ret = git_treebuilder_write(out, tb);
	git_treebuilder_free(tb);
	return ret < 0 ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char ref[] = "refs/notes/fuzz";
	git_repository *g;
	struct strvec paths = STRVEC_INIT;
	char *text = xstrndup((const char *)data, size), *line, *save = NULL;
	git_oid tree_id, commit_id, a, b;
	git_signature *sig = NULL;
	git_tree *tree = NULL;
	struct notes_batch *batch;

	if (++runs % 500 == 0)
		new_repo();
	g = repo_git(repo);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (paths.nr < 4096)
			strvec_push(&paths, line);
	if (paths.nr)
		qsort(paths.v, paths.nr, sizeof(*paths.v), cmp_str);
	git_oid_fromstr(&a, "0123456789abcdef0123456789abcdef01234567");
	git_oid_fromstr(&b, "fedcba9876543210fedcba9876543210fedcba98");
	if (!write_tree(g, paths.v, 0, paths.nr, 0, &tree_id) &&
	    !git_tree_lookup(&tree, g, &tree_id) &&
	    !git_signature_new(&sig, "fuzz", "fuzz@example.org", 1700000000, 0) &&
	    !git_commit_create(&commit_id, g, NULL, sig, sig, NULL, "fuzz\n", tree, 0, NULL)) {
		git_reference *r = NULL;

		if (!git_reference_create(&r, g, ref, &commit_id, 1, "fuzz")) {
			for (size_t i = 0; i < paths.nr; i++) {
				char hex[GIT_OID_HEXSZ + 1];
				size_t n = 0;
				git_oid id;

				for (const char *p = paths.v[i]; *p && n < GIT_OID_HEXSZ; p++)
					if (*p != '/')
						hex[n++] = *p;
				hex[n] = '\0';
				if (n == GIT_OID_HEXSZ && !git_oid_fromstr(&id, hex))
					free(notes_read(repo, ref, &id));
			}
			batch = notes_batch_begin(repo, ref);
			notes_batch_add(batch, &a, "added");
			notes_batch_add(batch, &b, "");
			notes_batch_commit(batch, "fuzz");
		}
		git_reference_free(r);
	}
	git_signature_free(sig);
	git_tree_free(tree);
	strvec_clear(&paths);
	free(text);
	return 0;
}
