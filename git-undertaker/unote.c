// SPDX-License-Identifier: GPL-2.0
/*
 * The undertaker note, readable and data (unote.h): written, and read back
 * by its trailers, its status suffixes and its JSON members.
 */
#include "unote.h"
#include "notes.h"

#include <stdlib.h>
#include <string.h>

#define NOTE_MODEL_PREFIX "Undertaker-Model: "
#define NOTE_SUMMARY_PREFIX "Undertaker: "
/* A defect's JSON in a note of the first form (before the data note). */
#define NOTE_DEFECT_PREFIX "Undertaker-Defect: "
/* The first line of a data note: the id of the readable note it goes with. */
#define NOTE_DATA_PREFIX "Undertaker-Note: "
/* A note of a --show=all run: it keeps the unchanged defects too. */
#define NOTE_SHOW_ALL "Undertaker-Show: all"

/*
 * The note of a checked commit, the one `git log --notes=undertaker` shows:
 * its new, accepted and fixed defects as text lines, then a trailer block
 * with the model key and a summary. Every line stands alone, so
 * `git notes merge -s cat_sort_uniq` still gives a readable note.
 * A --show=all run (whose analysis found the unchanged defects too) keeps
 * those as well, in the same order as it prints them, and says so with an
 * `Undertaker-Show: all` trailer: a later --show=all prints from that note.
 * Their JSON (what --format=json prints from notes) is in the data note.
 */
char *unote_format(const struct defect_list *l, const char *key, int show_all,
		   size_t *nr_new, size_t *nr_fixed)
{
	struct strbuf sb = STRBUF_INIT;
	size_t nr_accepted = 0;

	*nr_new = *nr_fixed = 0;
	for (size_t i = 0; i < l->nr; i++) {
		const struct defect *d = &l->v[i];

		if (d->status == STATUS_UNCHANGED && !show_all)
			continue;
		defect_format_text(&sb, d, 1);
		strbuf_addch(&sb, '\n');
		if (d->status == STATUS_NEW)
			(*nr_new)++;
		else if (d->status == STATUS_ACCEPTED)
			nr_accepted++;
		else if (d->status == STATUS_FIXED)
			(*nr_fixed)++;
	}
	if (sb.len)
		strbuf_addch(&sb, '\n');
	if (show_all)
		strbuf_addstr(&sb, NOTE_SHOW_ALL "\n");
	strbuf_addf(&sb, NOTE_MODEL_PREFIX "%s\n", key);
	strbuf_addf(&sb, NOTE_SUMMARY_PREFIX "%zu %s, %zu %s", *nr_new, defect_status_name(STATUS_NEW),
		    *nr_fixed, defect_status_name(STATUS_FIXED));
	if (nr_accepted)
		strbuf_addf(&sb, ", %zu %s", nr_accepted, defect_status_name(STATUS_ACCEPTED));
	strbuf_addch(&sb, '\n');
	return strbuf_detach(&sb, NULL);
}

/*
 * The data note that goes with the readable note `note`, in the data notes
 * ref: the readable note's blob id, then each defect of it as a JSON line.
 * The id pairs them: a data note whose readable note was replaced (a run
 * that died between the two ref updates, a merge of one ref and not of the
 * other) names another blob and counts as no data note.
 */
char *unote_format_data(const struct defect_list *l, const char *note, int show_all)
{
	struct strbuf sb = STRBUF_INIT;
	struct json_writer w;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid id;

	notes_text_id(note, &id);
	strbuf_addf(&sb, NOTE_DATA_PREFIX "%s\n", oid_hex(&id, hex));
	for (size_t i = 0; i < l->nr; i++) {
		struct defect d = l->v[i];

		if (d.status == STATUS_UNCHANGED && !show_all)
			continue;
		/* The reasons of --explain are not kept: --explain analyses again. */
		memset(&d.explanation, 0, sizeof(d.explanation));
		json_init(&w, &sb);
		defect_format_json(&w, NULL, &d);
		strbuf_addch(&sb, '\n');
	}
	return strbuf_detach(&sb, NULL);
}

/*
 * The JSON lines of the defects of a readable note (blob `id`): its own
 * `Undertaker-Defect:` trailers in a note of the first form, else the lines
 * of its data note in `data_ref` when that note names `id`. NULL when there
 * is no such data note: the commit is checked again.
 */
char *unote_json_lines(struct repo *r, const char *data_ref, const git_oid *commit,
		       const char *note, const git_oid *id)
{
	struct strbuf sb = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	char *data, *body;

	if (starts_with(note, NOTE_DEFECT_PREFIX) || strstr(note, "\n" NOTE_DEFECT_PREFIX)) {
		for (const char *p = note; *p; ) {
			const char *eol = p + strcspn(p, "\n");

			if (starts_with(p, NOTE_DEFECT_PREFIX)) {
				p += strlen(NOTE_DEFECT_PREFIX);
				strbuf_add(&sb, p, (size_t)(eol - p));
				strbuf_addch(&sb, '\n');
			}
			p = *eol ? eol + 1 : eol;
		}
		return strbuf_detach(&sb, NULL);
	}
	data = data_ref ? notes_read(r, data_ref, commit) : NULL;
	strbuf_addf(&sb, NOTE_DATA_PREFIX "%s\n", oid_hex(id, hex));
	body = data && starts_with(data, sb.buf) ? xstrdup(data + sb.len) : NULL;
	/* Two notes merged with cat_sort_uniq: two ids, no pair. */
	if (body && strstr(body, NOTE_DATA_PREFIX)) {
		free(body);
		body = NULL;
	}
	strbuf_release(&sb);
	free(data);
	return body;
}

/*
 * A note written by an earlier run with the same model key: returns 1 and the
 * number of new defects it records, so that the commit need not be checked
 * again. For --show=all, only a note that keeps the unchanged defects is.
 */
int unote_is_current(const char *note, const char *key, int show_all, size_t *nr_new)
{
	const char *m = strstr(note, NOTE_MODEL_PREFIX);
	const char *s = strstr(note, "\n" NOTE_SUMMARY_PREFIX);
	size_t klen = strlen(key);

	if (!m || !s || (m != note && m[-1] != '\n'))
		return 0;
	/* The trailer opens the note when the commit has no defect at all. */
	if (show_all && !starts_with(note, NOTE_SHOW_ALL "\n") &&
	    !strstr(note, "\n" NOTE_SHOW_ALL "\n"))
		return 0;
	m += strlen(NOTE_MODEL_PREFIX);
	if (strncmp(m, key, klen) || m[klen] != '\n')
		return 0;
	*nr_new = strtoul(s + 1 + strlen(NOTE_SUMMARY_PREFIX), NULL, 10);
	return 1;
}

/* Is this line of a note one of its trailers (Undertaker-Model:, Undertaker:, ...)? */
static int is_note_trailer(const char *line)
{
	return starts_with(line, "Undertaker-") || starts_with(line, NOTE_SUMMARY_PREFIX);
}

int unote_text_line(const char *line, size_t len, enum defect_status *status)
{
	const char *open;

	if (!len || is_note_trailer(line))
		return 0;
	*status = STATUS_NEW;
	/* " [<status>]" at the end: defect_format_text's for a status but new. */
	if (line[len - 1] != ']')
		return 1;
	for (open = line + len - 1; open > line && *open != '['; open--)
		;
	if (open > line && open[-1] == ' ' &&
	    !defect_status_parse(open + 1, (size_t)(line + len - 1 - (open + 1)), status))
		return 1;
	*status = STATUS_NEW;
	return 1;
}

int unote_json_line(const char *line, size_t len, enum defect_status *status)
{
	struct strbuf word = STRBUF_INIT;
	int ok = json_object_get_str(line, len, "status", &word) == 1 &&
		 !defect_status_parse(strbuf_str(&word), word.len, status);

	strbuf_release(&word);
	return ok;
}
