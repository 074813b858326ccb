// SPDX-License-Identifier: GPL-2.0
/* A kconfig_reader over a plain directory (tests, and trees outside git). */
#include "kconfig.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct fs_reader {
	char *root;
	/* path -> "1" (a file) or "" (none): architectures stat the same paths again and again. */
	struct strmap exists;
};

static char *full_path(struct fs_reader *fr, const char *path)
{
	return *path ? xstrfmt("%s/%s", fr->root, path) : xstrdup(fr->root);
}

/* Two independent 64-bit hashes of the path: the contents do not change during a run. */
static void path_id(const char *path, char id[KCONFIG_ID_MAX])
{
	uint64_t a = 1469598103934665603ull, b = 5381;
	const unsigned char *p;

	for (p = (const unsigned char *)path; *p; p++) {
		a = (a ^ *p) * 1099511628211ull;
		b = b * 33 + *p;
	}
	snprintf(id, KCONFIG_ID_MAX, "fs:%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
}

static int fs_file_id(void *data, const char *path, char id[KCONFIG_ID_MAX])
{
	struct fs_reader *fr = data;
	const char *known = strmap_get(&fr->exists, path);
	int ret;

	if (known) {
		ret = *known ? 0 : 1;
	} else {
		char *full = full_path(fr, path);
		struct stat st;

		ret = stat(full, &st) ? 1 : S_ISREG(st.st_mode) ? 0 : 1;
		free(full);
		strmap_put(&fr->exists, path, ret ? "" : "1");
	}
	if (!ret)
		path_id(path, id);
	return ret;
}

static int fs_read_file(void *data, const char *path, struct kconfig_file *out)
{
	char *full = full_path(data, path), *text;
	size_t size;

	if (read_file(full, &text, &size) < 0) {
		int missing = errno == ENOENT || errno == ENOTDIR;

		if (!missing)
			error("cannot open %s: %s", full, strerror(errno));
		free(full);
		return missing ? 1 : -1;
	}
	free(full);
	out->size = size;
	out->data = out->handle = text;
	path_id(path, out->id);
	return 0;
}

static void fs_release_file(void *data, struct kconfig_file *f)
{
	free(f->handle);
	f->handle = NULL;
}

static int fs_list_dir(void *data, const char *dir, struct strvec *names)
{
	char *full = full_path(data, dir);
	DIR *d = opendir(full);
	struct dirent *de;
	struct strvec found = STRVEC_INIT;
	size_t i;

	free(full);
	if (!d)
		return 1;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			strvec_push(&found, de->d_name);
	closedir(d);
	strvec_sort(&found);
	for (i = 0; i < found.nr; i++)
		strvec_push(names, found.v[i]);
	strvec_clear(&found);
	return 0;
}

static const struct kconfig_reader fs_reader_ops = {
	.read_file = fs_read_file,
	.release_file = fs_release_file,
	.file_id = fs_file_id,
	.list_dir = fs_list_dir,
};

void kconfig_fs_reader_init(struct kconfig_reader *r, const char *root)
{
	struct fs_reader *fr = xcalloc(1, sizeof(*fr));

	fr->root = xstrdup(root);
	*r = fs_reader_ops;
	r->data = fr;
}

void kconfig_fs_reader_release(struct kconfig_reader *r)
{
	struct fs_reader *fr = r->data;

	if (fr) {
		strmap_clear(&fr->exists, NULL);
		free(fr->root);
		free(fr);
	}
	r->data = NULL;
}
