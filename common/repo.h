/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The repository: opening it, revision ranges with git's syntax, blobs by path
 * at a commit, first-parent diffs, what a commit says and a new commit made
 * in the object store. Knows nothing of Kconfig or C.
 *
 * Threads: libgit2 documents a git_repository as unsafe to share between
 * threads, so every reading function below (repo_read_path, repo_read_blob,
 * repo_path_oid, repo_for_each_file, repo_list_dir, repo_diff_first_parent,
 * repo_diff_first_parent_files, repo_commit_parents, repo_commit_summary,
 * repo_commit_trailers, oid_short, commit_title, notes_read) works on a
 * handle of the calling thread's own (opened on first use, freed by
 * repo_close) and may be called from several threads at once. The blob
 * cache is shared and locked. repo_open, repo_close, repo_parse_revisions,
 * the config functions, repo_resolve_object, the writers of repo-commit.c
 * (repo_tree_update, repo_commit_write, repo_branch_*) and repo_git() belong
 * to the thread that opened the repository; repo_close must come after
 * every other thread is done with it.
 */
#ifndef UT_REPO_H
#define UT_REPO_H

#include <git2.h>
#include "util.h"

struct repo;

/*
 * Opens the repository of the current directory or $GIT_DIR. NULL when
 * there is none, or it cannot be opened, with why in `why` in git's words
 * ("not a git repository (or any of the parent directories): .git",
 * "detected dubious ownership in repository at ..."): the command says it
 * and exits 128, as git does.
 */
struct repo *repo_open(struct strbuf *why);
void repo_close(struct repo *r);
git_repository *repo_git(struct repo *r);
/* The calling thread's own handle on the same repository (see Threads above). */
git_repository *repo_git_local(struct repo *r);
/* The git directory, with a trailing slash (for caches under $GIT_DIR/undertaker/). */
const char *repo_gitdir(struct repo *r);
/* The common directory (a worktree's main git directory), with a trailing slash. */
const char *repo_commondir(struct repo *r);
/* Reads a config value (string, NULL when unset); all values of a multi-valued key. */
char *repo_config_get(struct repo *r, const char *key);
void repo_config_get_all(struct repo *r, const char *key, struct strvec *out);

/* Dies with libgit2's last error: "git <cmd>: <what>: <why>". */
_Noreturn void die_git(const char *what);

struct commit_list {
	git_oid *oid;
	size_t nr, alloc;
};
void commit_list_clear(struct commit_list *l);

/*
 * Resolves revision arguments as `git rev-list` does: A..B, ^A B, A...B, X^!,
 * X^@ and several at once; a single positive revision X alone means that one
 * commit (as `git show X`); no argument means HEAD. The result is oldest first,
 * in exactly the order of `git rev-list --reverse --topo-order` (merges
 * included: git's date walk and graph-order sort are reproduced). A bad
 * revision is an error ("git <cmd>: bad revision 'X'"), returns -1; the
 * caller exits 128.
 */
int repo_parse_revisions(struct repo *r, const struct strvec *args, struct commit_list *out);
/*
 * Shallow clones: git sees a commit named in $GIT_DIR/shallow as a root, its
 * parents being absent from the clone; so do the walks and diffs here.
 * repo_commit_parentcount is git_commit_parentcount with that boundary.
 */
int repo_is_shallow(struct repo *r);
unsigned repo_commit_parentcount(struct repo *r, const git_commit *c);
/*
 * git replace: the object git reads for `oid` (refs/replace/<oid>, followed
 * as git follows it), or oid itself. repo_lookup_commit is git_commit_lookup
 * (on g, or this thread's handle when NULL) of the replacement: its tree,
 * parents and message are what `git log` shows for oid; the id stays oid.
 */
const git_oid *repo_replaced(struct repo *r, const git_oid *oid);
int repo_lookup_commit(struct repo *r, git_repository *g, const git_oid *oid, git_commit **out);

/* Resolves one revision to a commit id; -1 with an error message when it is none. */
int repo_resolve_commit(struct repo *r, const char *rev, git_oid *out);

/* A blob's contents; shared through the cache, released with blob_release. */
struct blob {
	git_oid oid;
	const char *data;	/* NUL-terminated copy of the contents */
	size_t size;
	int refcount;		/* owned by the cache */
};

/*
 * Reads the blob at `path` in commit (or tree) `oid`. Returns 0, or
 * GIT_ENOTFOUND (without a message) when no such path exists there, or -1.
 */
int repo_read_path(struct repo *r, const git_oid *commit, const char *path, struct blob **out);
/* Reads a blob by id through the cache. */
int repo_read_blob(struct repo *r, const git_oid *blob_id, struct blob **out);
/*
 * Blobs that could not be read so far (a partial clone before its lazy
 * fetch, a corrupt object): a result computed while this grew depends on
 * something unread and must not be kept (no note).
 */
size_t repo_read_failures(struct repo *r);
void blob_release(struct repo *r, struct blob *b);
/* The id git gives these bytes as a blob (git hash-object), nothing written. */
void repo_hash_blob(const void *data, size_t size, git_oid *out);
/* Writes the bytes as a blob (git hash-object -w); -1 with a message when it cannot. */
int repo_write_blob(struct repo *r, const void *data, size_t size, git_oid *out);
/*
 * From now on, objects written (repo_write_blob, repo_apply_patch...) go to a
 * temporary object directory outside the repository, removed at exit, and
 * every handle and child git process reads them there: nothing is written
 * into the repository. -1 with a message when it cannot be made.
 */
int repo_scratch_objects(struct repo *r);
/* Is the object in the repository? (Its size and contents are not read.) */
int repo_has_object(struct repo *r, const git_oid *id);
/*
 * Released blobs stay cached (oldest dropped first) while the cache holds
 * less than this many bytes; 256 MiB by default.
 */
void repo_set_cache_limit(struct repo *r, size_t bytes);
/* The blob id at path, without reading it; GIT_ENOTFOUND when absent. */
int repo_path_oid(struct repo *r, const git_oid *commit, const char *path, git_oid *out);
/* The same, and the entry's file mode (GIT_FILEMODE_*) in *mode when mode is not NULL. */
int repo_path_entry(struct repo *r, const git_oid *commit, const char *path, git_oid *out,
		    unsigned *mode);

/* One file of a tree listing. */
struct tree_file {
	const char *path;	/* full path from the repository root */
	const git_oid *blob;
	unsigned mode;
};
/*
 * Calls fn for every file (blob, recursively; symlinks included, submodules
 * not) under `dir` ("" for the root) at commit `oid`; stops and returns fn's
 * value when it is non-zero. GIT_ENOTFOUND (no message) when `dir` is not a
 * directory at that commit, -1 with a message on other errors. f->path is
 * valid during the call only.
 */
int repo_for_each_file(struct repo *r, const git_oid *commit, const char *dir,
		       int (*fn)(const struct tree_file *f, void *data), void *data);
/*
 * Lists the names (not full paths) of entries directly in `dir`, sorted by
 * strcmp; GIT_ENOTFOUND (no message) when `dir` is not a directory there.
 */
int repo_list_dir(struct repo *r, const git_oid *commit, const char *dir, struct strvec *names);

/*
 * Matches git pathspecs as `git log -- <pathspec>` does: an exact path, a
 * leading directory, or a glob over the whole path ('*' crosses '/'); magic
 * ":!x" ":^x" ":(exclude)x" excludes, ":(icase)", ":(literal)", ":/" (every
 * pathspec is taken from the top anyway). An empty list matches all.
 */
int pathspec_match(const struct strvec *pathspec, const char *path);
/*
 * Roots each pathspec at the top of the repository as git does: relative to
 * the current directory inside the work tree ("scmi/" in drivers/firmware is
 * drivers/firmware/scmi/), "." and ".." resolved, ":/" and ":(top)" from the
 * top. -1 (with a message) for one that leaves the repository.
 */
int repo_pathspec_from_cwd(struct repo *r, struct strvec *pathspec);
/*
 * Warns, as git add does, of each plain pathspec (no glob, no exclusion) that
 * names no file or directory in any of the commits.
 */
void repo_pathspec_warn_unmatched(struct repo *r, const git_oid *const *commits, size_t nr,
				  const struct strvec *pathspec);

struct hunk {
	int old_start, old_lines;
	int new_start, new_lines;
};

struct file_change {
	char status;		/* 'A', 'D', 'M', 'R', 'T', as git diff --name-status */
	char *old_path, *new_path;
	git_oid old_blob, new_blob;	/* zero when absent */
	struct hunk *hunks;
	size_t nr_hunks, alloc_hunks;
};

struct change_list {
	struct file_change *files;
	size_t nr, alloc;
};
/*
 * What changed between `commit` and its first parent (against the empty tree
 * for a root commit), limited to `pathspec` (may be NULL). Renames detected.
 * With hunks=0 the hunk lists are left empty (cheaper). Hunks are those of
 * `git diff -U0` (for a pure insertion old_start is the line before it, and
 * old_lines 0); binary files and type changes ('T') have none. Added and
 * deleted files carry their one path in both old_path and new_path. Order is
 * git's (by path, a rename at its new path).
 */
int repo_diff_first_parent(struct repo *r, const git_oid *commit,
			   const struct strvec *pathspec, int hunks, struct change_list *out);
/*
 * What changed between `commit` and its first parent in the files `want`
 * accepts (by the old or the new path; the contents of no other file are
 * read), as `git diff --no-renames` lists them: a rename is a deletion and
 * an addition, a type change too. No hunks.
 */
int repo_diff_first_parent_files(struct repo *r, const git_oid *commit,
				 int (*want)(const char *path), struct change_list *out);
void change_list_clear(struct change_list *l);
/*
 * Two texts of the file `path` compared as `git diff` would (a/ and b/
 * prefixes, never "Binary files differ"): the patch appended to `patch`
 * (when not NULL) and the number of hunks in *hunks (when not NULL).
 * Returns -1 with a message when it cannot.
 */
int repo_diff_text(const char *path, const char *a, size_t alen, const char *b, size_t blen,
		   struct strbuf *patch, int *hunks);

/* Abbreviated hex of an id, as `git rev-parse --short` (7+ chars), static buffer per call slot. */
const char *oid_short(struct repo *r, const git_oid *oid);
/* Full hex in a caller buffer of GIT_OID_HEXSZ + 1. */
char *oid_hex(const git_oid *oid, char *buf);
/* "<abbrev> <subject>" of a commit, for headings. */
char *commit_title(struct repo *r, const git_oid *commit);

/* ---- repo-commit.c ---- */

/*
 * The parents of `commit` as git sees them (none at the shallow boundary of
 * a shallow clone), in the commit's order, appended to `out`. Returns how
 * many parents the commit object names (more than were appended at the
 * shallow boundary), or -1 with an error naming the commit.
 */
int repo_commit_parents(struct repo *r, const git_oid *commit, struct commit_list *out);
/* The subject line of a commit (git log --format=%s), to free; NULL with an error. */
char *repo_commit_summary(struct repo *r, const git_oid *commit);
/* The author of a commit as "Name <email>" (git log --format='%an <%ae>'); NULL with an error. */
char *repo_commit_author(struct repo *r, const git_oid *commit);
/*
 * The non-empty values of the commit message's trailers named `key`
 * (case-insensitive), in order, appended to `out`; -1 with an error.
 */
int repo_commit_trailers(struct repo *r, const git_oid *commit, const char *key,
			 struct strvec *out);
/*
 * `git rev-parse <spec>^{<type>}` (GIT_OBJECT_TREE, GIT_OBJECT_BLOB...):
 * 0 with the id in *out, -1 when `spec` names no object, -2 when it names
 * one that is no `type`. No message either way.
 */
int repo_resolve_object(struct repo *r, const char *spec, git_object_t type, git_oid *out);

/* A path of a tree set to a blob (mode 0: a plain file). */
struct tree_update {
	const char *path;
	git_oid blob;
	unsigned mode;
};
/*
 * The tree of commit `base` with each path set to its blob (added or
 * replaced), written to the object store, its id in *out: `git update-index
 * --cacheinfo` and `git write-tree` without an index. -1 with a message.
 */
int repo_tree_update(struct repo *r, const git_oid *base, const struct tree_update *v, size_t nr,
		     git_oid *out);
/*
 * Writes a commit of tree `tree` on top of `parent`, author and committer
 * from the configuration (user.name, user.email), else `fallback_name`
 * <`fallback_email`>, now; its id in *out. -1 with a message.
 */
int repo_commit_write(struct repo *r, const git_oid *tree, const git_oid *parent,
		      const char *message, const char *fallback_name, const char *fallback_email,
		      git_oid *out);
/* What a patch from a mail says: its diff, the commit message and author. */
struct patch_commit {
	const char *diff;	/* `git diff` output, as git format-patch writes it */
	size_t diff_len;
	const char *message;
	const char *author_name, *author_email;	/* NULL or "": "unknown" */
	long long when;		/* seconds since the epoch */
	int tz_offset;		/* minutes east of UTC */
};
/*
 * Applies the patch to the tree of commit `parent` in memory, as libgit2
 * can (`git apply` without a work tree or an index), and writes the tree
 * and a commit of it on top of `parent` (author and committer the patch's
 * author): its id in *out. No ref moves; call repo_scratch_objects first to
 * keep the objects out of the repository. -1 with why it does not apply in
 * `why` (nothing printed).
 */
int repo_apply_patch(struct repo *r, const git_oid *parent, const struct patch_commit *p,
		     git_oid *out, struct strbuf *why);
/* Is refs/heads/<branch> a valid branch name (git check-ref-format --branch)? */
int repo_branch_name_ok(const char *branch);
/* Is <branch> checked out in the work tree (never in a bare repository)? */
int repo_branch_checked_out(struct repo *r, const char *branch);
/* Points refs/heads/<branch> at `commit`, made or moved, with `reflog`; -1 with a message. */
int repo_branch_set(struct repo *r, const char *branch, const git_oid *commit, const char *reflog);

#endif
