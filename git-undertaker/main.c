// SPDX-License-Identifier: GPL-2.0
#include "options.h"
#include "repo.h"

static const char *const usage_lines[] = {
	"git undertaker [<options>] [<revision-range>] [-- <pathspec>...]", "git undertaker --all [<options>] [<commit>] [-- <pathspec>...]", "git undertaker --dump-model[=dimacs|symbols] [--arch=<arch>] [<commit>]",
	NULL,
};

int main(int argc, const char **argv)
{
	struct common_options common;
	struct parsed_args pa;
	struct option opts[] = {
		OPT_COMMON(&common),
		OPT_END(),
	};
	struct repo *r;

	set_program_name("git undertaker");
	common_options_init(&common);
	parse_options(argc, argv, opts, usage_lines, "undertaker", &pa);
	common_options_finish(&common, "undertaker");
	r = repo_open();
	repo_close(r);
	parsed_args_clear(&pa);
	return EXIT_CLEAN;
}
