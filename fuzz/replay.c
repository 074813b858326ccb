// SPDX-License-Identifier: GPL-2.0
/*
 * Runs a libFuzzer target's entry point over files, without libFuzzer: each
 * argument is an input file or a directory of them (not recursive). Built
 * with the ordinary compiler and flags (and under SANITIZE=1 with its
 * sanitizers), so t0030 replays every seed and every crash kept in
 * fuzz/corpus/ on each `make test`. Prints how many inputs ran.
 */
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t replayed;

static void replay_file(const char *path)
{
	char *data, *copy;
	size_t size;

	if (read_file(path, &data, &size) < 0)
		die("cannot read %s: %s", path, strerror(errno));
	/* An exact-size copy, so that ASan sees a read past the input's end. */
	copy = xmalloc(size ? size : 1);
	memcpy(copy, data, size);
	LLVMFuzzerTestOneInput((const uint8_t *)copy, size);
	free(copy);
	free(data);
	replayed++;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void replay_dir(const char *dir)
{
	struct strvec names = STRVEC_INIT;
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		die("cannot open %s: %s", dir, strerror(errno));
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			strvec_pushf(&names, "%s/%s", dir, e->d_name);
	closedir(d);
	if (names.nr)
		qsort(names.v, names.nr, sizeof(*names.v), cmp_str);
	for (size_t i = 0; i < names.nr; i++)
		replay_file(names.v[i]);
	strvec_clear(&names);
}

int main(int argc, char **argv)
{
	set_program_name("fuzz-replay");
	LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) < 0)
			die("cannot stat %s: %s", argv[i], strerror(errno));
		if (S_ISDIR(st.st_mode))
			replay_dir(argv[i]);
		else
			replay_file(argv[i]);
	}
	printf("replayed %zu inputs\n", replayed);
	return 0;
}
