/* SPDX-License-Identifier: GPL-2.0 */
/* A kconfig_reader over one commit of a repository (blobs from the object store). */
#ifndef UT_KCONFIG_GIT_H
#define UT_KCONFIG_GIT_H

#include "kconfig.h"
#include "repo.h"

/*
 * Reads files of `commit` through repo_read_path; file ids are blob ids, so a
 * kconfig_cache shared between commits lexes each blob once. The reader keeps
 * pointers to repo and commit: both must outlive it.
 */
void kconfig_git_reader_init(struct kconfig_reader *r, struct repo *repo, const git_oid *commit);
/*
 * The same over the Kconfig tree that starts in directory `srctree` of the
 * commit (Xen's "xen"): paths asked for are relative to it. NULL or "" is
 * the root, as kconfig_git_reader_init.
 */
void kconfig_git_reader_init_prefix(struct kconfig_reader *r, struct repo *repo,
				    const git_oid *commit, const char *srctree);
void kconfig_git_reader_release(struct kconfig_reader *r);

#endif
