/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Defects: what the analysis finds in one file, how two versions of a file's
 * defects are matched (new, fixed, unchanged), and how they are printed as
 * text lines, JSON and notes.
 */
#ifndef UT_DEFECT_H
#define UT_DEFECT_H

#include "report.h"
#include "util.h"

/*
 * unmet: a `select` whose target's own dependencies may be false while it selects.
 * dropped: a defconfig line whose value the tree's kconfig would not keep.
 */
enum defect_kind { DEFECT_DEAD, DEFECT_UNDEAD, DEFECT_UNDEFINED, DEFECT_UNMET, DEFECT_DROPPED };
enum defect_cause { CAUSE_CODE, CAUSE_KCONFIG, CAUSE_KBUILD, CAUSE_MISSING };
/* accepted: new, but named by an Undertaker-Accept trailer or undertaker.accept. */
enum defect_status { STATUS_NEW, STATUS_FIXED, STATUS_UNCHANGED, STATUS_ACCEPTED };

/* A defect of a Kconfig or defconfig line, not of a C block. */
#define DEFECT_NO_BLOCK (-2)

struct defect {
	char *path;
	int line, end_line;
	int block;		/* B<n>; -1 for the file itself; DEFECT_NO_BLOCK for a Kconfig line */
	enum defect_kind kind;
	enum defect_cause cause;
	int global;		/* 1: on every architecture in scope */
	struct strvec arches;	/* the architectures where it holds (local scope) */
	char *directive;	/* as written */
	struct strvec symbols;	/* CONFIG names involved (undefined: the undefined ones) */
	/*
	 * The names of the block's own directive that nothing defines: said on
	 * the block's dead or undead line, `(missing CONFIG_X, global)`, and
	 * on an undefined line only where the block is neither.
	 */
	struct strvec missing;
	/*
	 * Identity across versions of a file, with kind, cause and the missing
	 * names: the block's presence condition (its directive and those
	 * enclosing and before it) in a normal form, so a block is matched by
	 * what it means, not by its line nor how its #if is written.
	 */
	char *condition;
	enum defect_status status;
	struct strvec explanation;	/* --explain: lines of reasons */
};

struct defect_list {
	struct defect *v;
	size_t nr, alloc;
};

struct defect *defect_list_add(struct defect_list *l);
void defect_list_clear(struct defect_list *l);
/* Moves every defect of src to the end of dst (src is left empty). */
void defect_list_take(struct defect_list *dst, struct defect_list *src);
/* A deep copy of one defect appended to dst; the path may be replaced (renames). */
void defect_list_copy(struct defect_list *dst, const struct defect *d, const char *path);
/* Stable order: path, line, kind. */
void defect_list_sort(struct defect_list *l);

/*
 * Compares the defects of a file before and after a commit: items of `after`
 * found in `before` become unchanged, the others new; items of `before` with
 * no match are appended to `after` as fixed. Two defects are the same when
 * kind and cause agree and either their missing names or their conditions do.
 */
void defect_match(const struct defect_list *before, struct defect_list *after);
/* Is d (of any status) one of the defects in l? (the identity defect_match uses) */
int defect_list_has(const struct defect_list *l, const struct defect *d);

const char *defect_kind_name(enum defect_kind k);
const char *defect_cause_name(enum defect_cause c);
const char *defect_status_name(enum defect_status s);
/* The status a word of defect_status_name's names (len bytes): 0, or -1 for another word. */
int defect_status_parse(const char *word, size_t len, enum defect_status *s);
/* A sentence for people (SARIF rules' help); NULL for a kind or cause without one. */
const char *defect_kind_help(enum defect_kind k);
const char *defect_cause_help(enum defect_cause c);

/*
 * `path:line: dead block B3 (kconfig, global): #ifdef CONFIG_FOO` (+ " [fixed]" if
 * not new); the missing names after the cause: `(missing CONFIG_FOOO, global)`.
 */
void defect_format_text(struct strbuf *sb, const struct defect *d, int with_status);
/* The defect as a JSON object (member `key` of an object, or NULL in an array or alone). */
void defect_format_json(struct json_writer *w, const char *key, const struct defect *d);

#endif
