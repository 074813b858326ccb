/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OUTTREE_H
#define OUTTREE_H

/*
 * Writing the files of a commit's tree under a directory that this run
 * created, and never anywhere else. Every writer of tree files (git vampyr's
 * expansion and build trees, git backport's job directories and rule trees)
 * goes through here.
 *
 * A tree comes from an object store that anybody may have filled: git
 * fetch accepts trees with entries named "..", "." or "" and trees that
 * hold a symlink `scripts -> /elsewhere` beside a directory `scripts/`. So:
 * - a path is refused when one of its components is empty, ".", ".." or
 *   ".git" (any case), as git's checkout refuses it;
 * - directories are walked from the top's descriptor with openat() and
 *   O_NOFOLLOW, so no write passes through a symlink, whoever made it;
 * - a file is created anew (unlink, then O_CREAT | O_EXCL | O_NOFOLLOW):
 *   never written through an old symlink or into an inode that a hard link
 *   (a make rule's) shares;
 * - a symlink entry is made with symlinkat(); it is never followed here.
 *
 * Each function returns 0 on success, -1 after printing an error that names
 * the path (errno kept). One outtree belongs to one thread.
 */

#include <stddef.h>

struct outtree;

/* Opens `dir`, which must be a directory and not a symlink (NULL and an error otherwise). */
struct outtree *outtree_open(const char *dir);
void outtree_close(struct outtree *t);
const char *outtree_dir(const struct outtree *t);

/* 0 when every component of `path` may be written, -1 (no message) otherwise. */
int outtree_path_ok(const char *path);

/*
 * Writes `path` (relative to the top) with git's file mode `mode`: 0100644,
 * 0100755 (executable) or 0120000 (a symlink whose target is `data`).
 * Missing directories are created.
 */
int outtree_write(struct outtree *t, const char *path, unsigned mode,
		  const void *data, size_t size);

/*
 * Creates `path` anew for writing and returns its descriptor (O_CLOEXEC),
 * for a caller that writes it itself; -1 after an error message.
 */
int outtree_create(struct outtree *t, const char *path, unsigned mode);

/* Removes the file or symlink `path`; a missing one is no error. */
int outtree_remove(struct outtree *t, const char *path);

/*
 * Copies the tree under the directory `from` into t: directories, symlinks
 * (as symlinks, never followed) and regular files, each written anew (a
 * copy of its bytes, never a hard link: a build that rewrites a file in
 * place changes its own copy only), with its permission bits and times.
 * `from` is walked with O_NOFOLLOW too; entries whose name starts with
 * `skip` (when not NULL), other file types and paths outtree_path_ok
 * refuses are left out.
 */
int outtree_copy(struct outtree *t, const char *from, const char *skip);

/*
 * Makes t, an earlier outtree_copy of `from`, a copy of it again, doing only
 * what differs: entries `from` lacks are removed (a directory with all it
 * holds, links never followed), files whose type, size, times or
 * permissions differ, or whose inode changed at or after `since` (its
 * ctime: a write in place that kept the times still counts), are copied
 * anew, and what is missing is copied, as outtree_copy does.
 */
struct timespec;
int outtree_sync(struct outtree *t, const char *from, const char *skip, const struct timespec *since);

#endif
