// SPDX-License-Identifier: GPL-2.0
/* test-revisions <rev>...: the commits repo_parse_revisions gives, one per line. */
#include "repo.h"

#include <stdio.h>

int main(int argc, const char **argv)
{
	struct strvec args = STRVEC_INIT;
	struct commit_list list = { 0 };
	struct repo *r;
	int ret;

	set_program_name("git undertaker");
	for (int i = 1; i < argc; i++)
		strvec_push(&args, argv[i]);
	{
		struct strbuf why = STRBUF_INIT;

		r = repo_open(&why);
		if (!r)
			die("%s", why.buf);
	}
	ret = repo_parse_revisions(r, &args, &list);
	for (size_t i = 0; !ret && i < list.nr; i++) {
		char hex[GIT_OID_HEXSZ + 1];

		puts(oid_hex(&list.oid[i], hex));
	}
	commit_list_clear(&list);
	strvec_clear(&args);
	repo_close(r);
	return ret ? EXIT_FATAL : 0;
}
