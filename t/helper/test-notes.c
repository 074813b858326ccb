// SPDX-License-Identifier: GPL-2.0
/*
 * test-notes write <ref> [--abort | --race=<cmd>] [<message>]: one batch from stdin lines
 *	"<commit> <text>" ("\n" in text is a newline; 40 hex digits name any
 *	object, even a missing one); commits it (or aborts). --race runs <cmd>
 *	just before the commit, as another writer would.
 * test-notes read <ref> <commit>...: each note, or "(none)".
 */
#include "notes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *unescape(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] == 'n') {
			strbuf_addch(&sb, '\n');
			s++;
		} else {
			strbuf_addch(&sb, *s);
		}
	}
	return strbuf_detach(&sb, NULL);
}

static int write_notes(struct repo *r, const char *ref, int abort_batch, const char *race,
		       const char *message)
{
	struct notes_batch *b = notes_batch_begin(r, ref);
	char line[4096];

	while (fgets(line, sizeof(line), stdin)) {
		char *sp, *text;
		git_oid commit;

		line[strcspn(line, "\n")] = '\0';
		sp = strchr(line, ' ');
		if (!sp) {
			notes_batch_abort(b);
			return error("bad input line '%s'", line);
		}
		*sp = '\0';
		/* 40 hex digits are taken as they are: notes may name any object. */
		if ((strlen(line) != GIT_OID_HEXSZ || git_oid_fromstr(&commit, line) < 0) &&
		    repo_resolve_commit(r, line, &commit) < 0) {
			notes_batch_abort(b);
			return -1;
		}
		text = unescape(sp + 1);
		notes_batch_add(b, &commit, text);
		free(text);
	}
	printf("%zu\n", notes_batch_count(b));
	if (abort_batch) {
		notes_batch_abort(b);
		return 0;
	}
	if (race && system(race))
		warning("'%s' failed", race);
	return notes_batch_commit(b, message);
}

int main(int argc, const char **argv)
{
	struct repo *r;
	int ret = 0;

	set_program_name("git undertaker");
	if (argc < 3)
		die("usage: test-notes (write <ref> [--abort] [<message>] | read <ref> <commit>...)");
	{
		struct strbuf why = STRBUF_INIT;

		r = repo_open(&why);
		if (!r)
			die("%s", why.buf);
	}
	if (!strcmp(argv[1], "write")) {
		int abort_batch = argc > 3 && !strcmp(argv[3], "--abort");
		const char *race = argc > 3 && starts_with(argv[3], "--race=") ? argv[3] + 7 : NULL;
		int skip = abort_batch || race;
		const char *msg = argc > 3 + skip ? argv[3 + skip] : "Notes added by test-notes";

		ret = write_notes(r, argv[2], abort_batch, race, msg);
	} else if (!strcmp(argv[1], "read")) {
		for (int i = 3; i < argc && !ret; i++) {
			git_oid commit;
			char *text;

			if (strlen(argv[i]) != GIT_OID_HEXSZ || git_oid_fromstr(&commit, argv[i]) < 0)
				ret = repo_resolve_commit(r, argv[i], &commit);
			if (ret)
				break;
			text = notes_read(r, argv[2], &commit);
			fputs(text ? text : "(none)\n", stdout);
			free(text);
		}
	} else {
		die("unknown subcommand '%s'", argv[1]);
	}
	repo_close(r);
	return ret ? EXIT_FATAL : 0;
}
