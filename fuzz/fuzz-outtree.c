// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: writing a tree's files out (outtree.h). Each input line
 * is one entry of a tree listing as repo_for_each_file hands it over: a mode
 * letter and a path of any bytes but NUL and newline, so components "..",
 * ".", "", ".git" and the names of a tree made with `hash-object
 * --literally` all occur. 'l' makes a symlink, to a target that the harness
 * points at the scratch directory's "outside" (absolute or by enough "../"),
 * at "." or at ".."; 'x' an executable; 'r' removes; anything else a file.
 * Then "out" is copied into "copy" (outtree_copy, as vampyr gives each
 * kconfig run its own tree): its links are copied, never followed.
 * After each input, nothing but "out", "copy" and "outside" is in the scratch
 * directory, and "outside" holds its one file unchanged: no write escaped.
 */
#include "outtree.h"
#include "util.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *root, *out_dir, *copy_dir, *outside, *sentinel;

static void cleanup(void)
{
	remove_tree(root);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = access("/dev/shm", W_OK) ? getenv("TMPDIR") : "/dev/shm";
	char *templ = xstrfmt("%s/fuzz-outtree.XXXXXX", tmp && *tmp ? tmp : "/tmp");

	set_program_name("fuzz-outtree");
	quiet = 1;
	root = mkdtemp(templ);
	if (!root)
		die("cannot make a scratch directory");
	out_dir = xstrfmt("%s/out", root);
	copy_dir = xstrfmt("%s/copy", root);
	outside = xstrfmt("%s/outside", root);
	sentinel = xstrfmt("%s/outside/sentinel", root);
	if (mkdir(outside, 0700) || write_file_atomic(sentinel, "keep\n", 5))
		die("cannot set up %s", root);
	atexit(cleanup);
	return 0;
}

/* Where a symlink at `path` points: selector picks one of five targets. */
static char *link_target(const char *path, unsigned char selector)
{
	struct strbuf sb = STRBUF_INIT;

	switch (selector % 5) {
	case 0:
		return xstrdup(outside);
	case 1:
		for (const char *p = path; *p; p++)
			if (*p == '/')
				strbuf_addstr(&sb, "../");
		strbuf_addstr(&sb, "../outside");
		return strbuf_detach(&sb, NULL);
	case 2:
		return xstrdup(".");
	case 3:
		return xstrdup("..");
	default:
		return xstrdup(root);
	}
}

static void check_contained(void)
{
	DIR *d = opendir(root);
	struct dirent *e;
	char *data;
	size_t size;

	if (!d)
		abort();
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    strcmp(e->d_name, "out") && strcmp(e->d_name, "copy") &&
		    strcmp(e->d_name, "outside")) {
			fprintf(stderr, "escaped: %s/%s\n", root, e->d_name);
			abort();
		}
	closedir(d);
	d = opendir(outside);
	if (!d)
		abort();
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "sentinel")) {
			fprintf(stderr, "escaped: %s/%s\n", outside, e->d_name);
			abort();
		}
	closedir(d);
	if (read_file(sentinel, &data, &size) || size != 5 || memcmp(data, "keep\n", 5))
		abort();
	free(data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xstrndup((const char *)data, size), *line, *save = NULL;
	struct outtree *t;
	unsigned n = 0;

	remove_tree(out_dir);
	if (mkdir(out_dir, 0700) || !(t = outtree_open(out_dir)))
		abort();
	for (line = strtok_r(text, "\n", &save); line && n < 256; line = strtok_r(NULL, "\n", &save), n++) {
		char mode = *line, *path = line + 1, *target;

		if (!*line)
			continue;
		switch (mode) {
		case 'l':
			target = link_target(path, (unsigned char)(path[0] + n));
			outtree_write(t, path, 0120000, target, strlen(target));
			free(target);
			break;
		case 'x':
			outtree_write(t, path, 0100755, path, strlen(path));
			break;
		case 'r':
			outtree_remove(t, path);
			break;
		default:
			outtree_write(t, path, 0100644, path, strlen(path));
		}
	}
	outtree_close(t);
	remove_tree(copy_dir);
	if (mkdir(copy_dir, 0700) || !(t = outtree_open(copy_dir)))
		abort();
	outtree_copy(t, out_dir, NULL);
	outtree_close(t);
	check_contained();
	free(text);
	return 0;
}
