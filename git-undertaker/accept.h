/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Accepted defects: those a commit's `Undertaker-Accept:` trailers name, and
 * those `git config undertaker.accept` names in every commit. An accepted
 * defect is kept (status accepted) but is not new.
 */
#ifndef UT_ACCEPT_H
#define UT_ACCEPT_H

#include "defect.h"
#include "repo.h"

#define ACCEPT_TRAILER "Undertaker-Accept"

/*
 * Does `pattern` name defect d? A pattern is a CONFIG name (with or without
 * its CONFIG_ prefix; a glob as fnmatch(3) takes it) that the block's
 * condition names, or `path:line` (path a glob too) of the block's #if line.
 */
int accept_matches(const char *pattern, const struct defect *d);

/*
 * Turns the new defects of `l` that a pattern of `config` (undertaker.accept)
 * or a trailer of `commit`'s message names into accepted ones. Returns -1
 * when the commit cannot be read.
 */
int accept_defects(struct repo *r, const git_oid *commit, const struct strvec *config,
		   struct defect_list *l);

#endif
