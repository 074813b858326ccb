/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --format=sarif: one SARIF 2.1.0 log per run, as code scanning services
 * (GitHub, GitLab and others) read it: a rule per kind and cause met, a
 * result per defect with a fingerprint computed from what the defect is,
 * never from its line.
 */
#ifndef UT_SARIF_H
#define UT_SARIF_H

#include "defect.h"

struct sarif_log;

struct sarif_log *sarif_new(void);
/*
 * A result for defect d of commit `commit` (full hex), or of the patch
 * `patch` (its subject, or NULL) that became that commit.
 */
void sarif_add(struct sarif_log *s, const struct defect *d, const char *commit, const char *patch);
/* The whole log, one line of JSON; `ok`: the run ended without an error. */
void sarif_write(struct sarif_log *s, struct strbuf *out, int ok);
void sarif_free(struct sarif_log *s);

/*
 * The fingerprint of d: a hash of its path, kind, cause, its directive with
 * blanks collapsed and its sorted CONFIG names, in hex.
 */
void sarif_fingerprint(const struct defect *d, struct strbuf *out);

#endif
