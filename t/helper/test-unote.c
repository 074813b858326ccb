// SPDX-License-Identifier: GPL-2.0
/*
 * test-unote: the undertaker note written and read back (git-undertaker/unote.h).
 * One defect of each status is written into a --show=all note and its data
 * note, both printed; then every line is read back, text and JSON, and
 * "<line kind> <status written> <status read>" printed for each. Exits 1 when
 * a status read is not the one written, or the note is not current for its key.
 */
#include "../../git-undertaker/unote.h"

#include <stdio.h>
#include <string.h>

static const enum defect_status statuses[] = {
	STATUS_NEW, STATUS_FIXED, STATUS_UNCHANGED, STATUS_ACCEPTED,
};

static void add_defect(struct defect_list *l, enum defect_status s, int line)
{
	struct defect *d = defect_list_add(l);

	d->path = xstrdup("dir/a [b].c");
	d->line = d->end_line = line;
	d->block = line;
	d->kind = DEFECT_DEAD;
	d->cause = CAUSE_KCONFIG;
	d->global = 1;
	d->directive = xstrfmt("#ifdef CONFIG_S%d /* \"[new]\" */", line);
	strvec_push(&d->symbols, "CONFIG_S");
	d->status = s;
}

/* Reads each defect line of `text` back (JSON when `json`), in order, against `l`. */
static int read_back(const struct defect_list *l, const char *text, int json)
{
	size_t i = 0;
	int bad = 0;

	for (const char *p = text; *p; ) {
		size_t len = strcspn(p, "\n");
		enum defect_status s;
		int is_defect = json ? unote_json_line(p, len, &s) : unote_text_line(p, len, &s);

		if (is_defect) {
			enum defect_status want = i < l->nr ? l->v[i].status : STATUS_NEW;

			printf("%s %s %s\n", json ? "json" : "text", defect_status_name(want),
			       defect_status_name(s));
			bad |= i >= l->nr || s != want;
			i++;
		}
		p += len + (p[len] == '\n');
	}
	return bad || i != l->nr;
}

int main(int argc, const char **argv)
{
	struct defect_list l = { 0 };
	size_t nr_new, nr_fixed, current_new = 0;
	char *note, *data;
	int bad;

	set_program_name("test-unote");
	for (size_t i = 0; i < ARRAY_SIZE(statuses); i++)
		add_defect(&l, statuses[i], (int)i + 1);
	note = unote_format(&l, "model-key", 1, &nr_new, &nr_fixed);
	data = unote_format_data(&l, note, 1);
	printf("%s--\n%s--\n", note, data);
	bad = read_back(&l, note, 0);
	/* The data note's first line is the readable note's id, no defect. */
	bad |= read_back(&l, strchr(data, '\n') + 1, 1);
	bad |= !unote_is_current(note, "model-key", 1, &current_new) || current_new != nr_new;
	bad |= unote_is_current(note, "model-key2", 1, &current_new);
	printf("current: %zu new\n", current_new);
	free(note);
	free(data);
	defect_list_clear(&l);
	return bad;
}
