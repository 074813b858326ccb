/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a Kconfig symbol went: the commit that removed its last definition,
 * found by walking first parents and diffing only the Kconfig files, as
 * `git log -S` would, for --explain of a missing symbol.
 */
#ifndef UT_HISTORY_H
#define UT_HISTORY_H

#include "repo.h"

/* How many first-parent commits are looked at before giving up. */
#define HISTORY_DEPTH 1000

/*
 * Walks back from `commit` (whose Kconfig files do not define `name`, with or
 * without its CONFIG_ prefix) to the commit that removed its last
 * definition: whether each first parent defines it is asked of `bf`
 * (buildfiles_kconfig_defines: each changed subtree read once in the walk),
 * and only the diff of the commit that removed it is read. Returns 1 and appends "<path>:<line> until <commit> (<title>)"
 * to `out`, with ", which renamed it CONFIG_NEW" when that commit put a new
 * `config` line in its place; 0 when none of HISTORY_DEPTH commits did; -1
 * on a read error.
 */
struct buildfiles;
int history_symbol_removal(struct repo *r, struct buildfiles *bf, const git_oid *commit,
			   const char *name, struct strbuf *out);

#endif
