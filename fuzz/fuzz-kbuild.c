// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the bytes are the top Makefile of a small tree (a few .c
 * files in the root and in foo/, whose Kbuild file is empty) through the
 * Kbuild parser and evaluator; every file's condition is printed. They are
 * also the root's Makefile.mk (coreboot's model, when they define
 * includemakefiles and evaluate_subdirs) and, when they start with
 * "# cmake", the root's CMakeLists.txt of a tree without a Makefile
 * (Zephyr's model).
 */
#include "kbuild.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct mem_tree {
	const uint8_t *data;
	size_t size;
};

static const char *const files[] = {
	"Makefile", "Makefile.mk", "CMakeLists.txt", "a.c", "b.c", "c.S", "foo/Kbuild", "foo/x.c",
	"foo/y.c", "lib/z.c",
};

static int mem_read(void *ctx, const char *path, struct kbuild_text *out)
{
	struct mem_tree *t = ctx;
	char *copy;

	int cmake = t->size >= 7 && !memcmp(t->data, "# cmake", 7);

	memset(out, 0, sizeof(*out));
	if ((!strcmp(path, "Makefile") && !cmake) || !strcmp(path, "Makefile.mk") ||
	    (!strcmp(path, "CMakeLists.txt") && cmake)) {
		copy = malloc(t->size + 1);
		memcpy(copy, t->data, t->size);
		copy[t->size] = '\0';
		out->data = copy;
		out->len = t->size;
		out->handle = copy;
		return 0;
	}
	if (!strcmp(path, "foo/Kbuild")) {
		out->data = "obj-$(CONFIG_X) += x.o\n";
		out->len = strlen(out->data);
		return 0;
	}
	return 1;
}

static void mem_release(void *ctx, struct kbuild_text *t)
{
	free(t->handle);
}

static int mem_for_each(void *ctx, int (*fn)(const char *path, void *data), void *data)
{
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++)
		if (fn(files[i], data))
			return -1;
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	set_program_name("fuzz-kbuild");
	quiet = 1;
#ifdef UT_LIBFUZZER
	/*
	 * An input that reaches the budget costs in proportion to it: 1 MiB
	 * keeps each run short under libFuzzer (16 MiB took 2 s under ASan, and
	 * a corpus of such inputs fell from 200 runs a second to 1). The replay
	 * of t0030 keeps the 16 MiB of real use, on fuzz/regress/kbuild/ too.
	 */
	kbuild_set_expansion_limit((size_t)1 << 20);
#endif
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mem_tree t = { data, size };
	struct kbuild_reader rd = { mem_read, mem_release, mem_for_each, NULL, &t };
	struct kbuild_map *m = kbuild_map_build(&rd, NULL, NULL);
	struct strbuf sb = STRBUF_INIT;

	if (m) {
		kbuild_map_dump(m, &sb);
		kbuild_map_free(m);
	}
	strbuf_release(&sb);
	return 0;
}
