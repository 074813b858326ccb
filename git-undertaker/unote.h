/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The undertaker note: what a run keeps of each commit it checked, written
 * and read back here alone. Two notes go together:
 *
 * - the readable note, in the notes ref (refs/notes/undertaker), the one
 *   `git log --notes=undertaker` shows: the commit's new, accepted and fixed
 *   defects as defect_format_text lines (a status other than new said by
 *   " [<status>]" at the end), the unchanged ones too for a --show=all run,
 *   then a blank line and the trailers:
 *
 *	Undertaker-Show: all		(a --show=all run only)
 *	Undertaker-Model: <model key>
 *	Undertaker: <n> new, <n> fixed[, <n> accepted]
 *
 *   Every line stands alone, so `git notes merge -s cat_sort_uniq` still
 *   gives a readable note.
 * - the data note, in the data notes ref (refs/notes/undertaker-data): the
 *   line "Undertaker-Note: <blob id of the readable note>", then the same
 *   defects as defect_format_json lines (without --explain's reasons).
 *
 * A readable note of the first form (older runs) carries each defect's JSON
 * in an "Undertaker-Defect: " trailer and has no data note; it is read, not
 * written. The status words are defect_status_name's, read back with
 * defect_status_parse: the JSON's "status" member is read as JSON.
 */
#ifndef UT_UNOTE_H
#define UT_UNOTE_H

#include "defect.h"
#include "repo.h"

/*
 * The readable note of a commit whose defects are `l`, checked with the model
 * `key`; the unchanged defects are kept when `show_all`. Counts the new and
 * fixed defects it records into *nr_new, *nr_fixed.
 */
char *unote_format(const struct defect_list *l, const char *key, int show_all,
		   size_t *nr_new, size_t *nr_fixed);
/* The data note that goes with the readable note `note` (unote_format's). */
char *unote_format_data(const struct defect_list *l, const char *note, int show_all);

/*
 * Is `note` a readable note of the model `key` (for --show=all, one that
 * keeps the unchanged defects)? Returns 1 and the number of new defects its
 * summary counts in *nr_new, else 0: the commit is checked again.
 */
int unote_is_current(const char *note, const char *key, int show_all, size_t *nr_new);

/*
 * The JSON lines of the defects of the readable note `note` (blob `id` of the
 * commit `commit`): its own Undertaker-Defect: trailers in a note of the first
 * form, else the lines of its data note in `data_ref` when that note names
 * `id`. NULL when there is no such data note.
 */
char *unote_json_lines(struct repo *r, const char *data_ref, const git_oid *commit,
		       const char *note, const git_oid *id);

/*
 * One line (len bytes, no newline) of a readable note: returns 1 and its
 * defect's status when it is a defect's line, 0 for a blank line or a trailer.
 */
int unote_text_line(const char *line, size_t len, enum defect_status *status);
/*
 * One line of unote_json_lines: returns 1 and the defect's status when the
 * line is a JSON object whose "status" is a status word, else 0.
 */
int unote_json_line(const char *line, size_t len, enum defect_status *status);

#endif
