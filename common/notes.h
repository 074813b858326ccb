/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Notes under refs/notes/<tool>: read one, and write a run's notes as a single
 * notes commit, with git's fan-out. Knows nothing of what a note says.
 *
 * Threads: notes_read may be called from any thread (see repo.h); a batch
 * belongs to one thread (the one that opened the repository).
 */
#ifndef UT_NOTES_H
#define UT_NOTES_H

#include "repo.h"

/* Reads the note on `commit` in `ref` (full name); NULL when there is none. */
char *notes_read(struct repo *r, const char *ref, const git_oid *commit);
/* As notes_read, and the id of the note's blob in *blob (when not NULL). */
char *notes_read_blob(struct repo *r, const char *ref, const git_oid *commit, git_oid *blob);
/* The id of the blob a batch stores for `text` (with the newline notes_batch_add adds). */
void notes_text_id(const char *text, git_oid *out);

struct notes_batch;
/* Starts a batch against the current tip of `ref` (full name, e.g. refs/notes/undertaker). */
struct notes_batch *notes_batch_begin(struct repo *r, const char *ref);
/*
 * Queues a note (replacing any existing note on that commit, and an earlier
 * one of this batch); text is copied. A newline is added when the text does
 * not end with one, as git stores notes; an empty text removes the note.
 */
void notes_batch_add(struct notes_batch *b, const git_oid *commit, const char *text);
size_t notes_batch_count(const struct notes_batch *b);
/*
 * Writes every queued note as one commit on `ref` with `message` and frees the
 * batch; nothing is written when none was queued. The ref update is atomic:
 * the notes are all there or none are. Returns 0 or -1 (with an error printed).
 */
int notes_batch_commit(struct notes_batch *b, const char *message);
void notes_batch_abort(struct notes_batch *b);

#endif
