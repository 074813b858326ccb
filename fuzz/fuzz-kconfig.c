// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the bytes are a Kconfig file (the tree's top Kconfig),
 * through the lexer, the preprocessor (macros, $(...)) and the parser; the
 * result is printed (every expression walked) and freed. `source` of any
 * other path finds nothing. No input may crash, hang or grow without bound.
 */
#include "kconfig.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct mem_tree {
	const uint8_t *data;
	size_t size;
};

static int mem_read(void *d, const char *path, struct kconfig_file *out)
{
	struct mem_tree *t = d;

	if (strcmp(path, "Kconfig"))
		return 1;
	memset(out, 0, sizeof(*out));
	out->data = (const char *)t->data;
	out->size = t->size;
	return 0;
}

static int mem_list_dir(void *d, const char *dir, struct strvec *names)
{
	if (*dir)
		return 1;
	strvec_push(names, "Kconfig");
	return 0;
}

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	set_program_name("fuzz-kconfig");
	quiet = 1;
	devnull = fopen("/dev/null", "w");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mem_tree t = { data, size };
	struct kconfig_reader r = { 0 };
	struct kconfig_options o = { .quiet = 1, .keep_help = 1 };
	struct kconfig *kc;

	r.data = &t;
	r.read_file = mem_read;
	r.list_dir = mem_list_dir;
	kc = kconfig_parse(&r, "x86", &o);
	if (kc) {
		kconfig_dump_details(kc, devnull);
		kconfig_free(kc);
	}
	return 0;
}
