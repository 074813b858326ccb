// SPDX-License-Identifier: GPL-2.0
/*
 * test-report json: a fixed document through the JSON writer.
 * test-report progress <total> [-q]: counts 1..total under "Checking commits".
 * test-report color [--no-repo]: "on" or "off", then a coloured word.
 * test-report json-get <key>: each line of stdin read as one JSON object:
 *   "1 <value>" (bytes outside ASCII as =XX), "0" (no string member `key`) or "-1".
 */
#include "report.h"
#include "repo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void json(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct strvec sv = STRVEC_INIT;
	struct json_writer w;

	json_init(&w, &sb);
	json_object_begin(&w, NULL);
	json_add_str(&w, "file", "drivers/a \"b\".c");
	json_add_int(&w, "line", 42);
	json_add_bool(&w, "dead", 1);
	json_add_null(&w, "arch");
	json_add_fixed(&w, "seconds", 1.23456, 3);
	json_add_raw(&w, "inner", "{\"a\":[1,2]}");
	json_array_begin(&w, "blocks");
	json_add_str(&w, NULL, "B0");
	json_object_begin(&w, NULL);
	json_add_str(&w, "tab", "a\tb\n");
	json_add_str(&w, "none", NULL);
	json_object_end(&w);
	json_array_begin(&w, NULL);
	json_array_end(&w);
	json_array_end(&w);
	strvec_push(&sv, "x86");
	strvec_push(&sv, "q\"");
	json_add_strvec(&w, "arches", &sv);
	strvec_clear(&sv);
	json_add_strvec(&w, "empty", &sv);
	json_object_end(&w);
	puts(sb.buf);
	strbuf_release(&sb);
}

static void json_get(const char *key)
{
	struct strbuf line = STRBUF_INIT, value = STRBUF_INIT;

	if (strbuf_read_fd(&line, 0) < 0)
		die("cannot read stdin");
	for (const char *p = strbuf_str(&line); *p; ) {
		size_t len = strcspn(p, "\n");
		int ret;

		strbuf_reset(&value);
		ret = json_object_get_str(p, len, key, &value);
		if (ret == 1) {
			printf("1 ");
			for (size_t i = 0; i < value.len; i++) {
				unsigned char c = (unsigned char)value.buf[i];

				if (c < 0x20 || c >= 0x7f || c == '=')
					printf("=%02X", c);
				else
					putchar(c);
			}
			putchar('\n');
		} else {
			printf("%d\n", ret);
		}
		p += len + (p[len] == '\n');
	}
	strbuf_release(&line);
	strbuf_release(&value);
}

int main(int argc, const char **argv)
{
	set_program_name("git undertaker");
	if (argc < 2)
		die("usage: test-report (json | json-get <key> | progress <total> [-q] | color [--no-repo])");
	if (!strcmp(argv[1], "json")) {
		json();
	} else if (!strcmp(argv[1], "progress") && argc > 2) {
		long total;
		struct progress *p;

		if (parse_int(argv[2], &total) < 0)
			die("bad total '%s'", argv[2]);
		quiet = argc > 3 && !strcmp(argv[3], "-q");
		p = progress_start("Checking commits", (uint64_t)total);
		for (long i = 1; i <= total; i++)
			progress_update(p, (uint64_t)i);
		progress_stop(&p);
	} else if (!strcmp(argv[1], "json-get") && argc > 2) {
		json_get(argv[2]);
	} else if (!strcmp(argv[1], "color")) {
		struct strbuf sb = STRBUF_INIT;
		struct repo *r = argc > 2 && !strcmp(argv[2], "--no-repo") ? NULL : repo_open(&sb);

		if (!r && sb.len)
			die("%s", sb.buf);

		color_init(r, "undertaker", 1);
		strbuf_add_colored(&sb, COLOR_RED, "dead");
		printf("%s\n%s\n", color_enabled() ? "on" : "off", sb.buf);
		strbuf_release(&sb);
		repo_close(r);
	} else {
		die("unknown subcommand '%s'", argv[1]);
	}
	return 0;
}
