// SPDX-License-Identifier: GPL-2.0
/* Finding spatch, and the small file helpers the driver needs. */
#define _GNU_SOURCE
#include "backport.h"
#include "process.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs argv and returns the first line of its standard output (NULL on failure). */
static char *first_line_of(const char *const *argv)
{
	struct strbuf sb = STRBUF_INIT;
	char *data, *nl;

	if (process_run_capture(argv, &sb, 0) != 0 || !sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	data = strbuf_detach(&sb, NULL);
	nl = strchr(data, '\n');
	if (nl)
		*nl = '\0';
	return data;
}

/*
 * The version is part of every cache key, but asking spatch costs a process:
 * it is remembered beside the cache with the executable's size and mtime, so
 * that a warm run starts no spatch at all.
 */
int spatch_find(struct repo *r, struct spatch_info *out)
{
	char *memo;
	struct stat st;
	char *stamp, *data = NULL;
	size_t size;

	memset(out, 0, sizeof(*out));
	out->path = find_program("spatch", getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin", NULL);
	if (!out->path)
		return error("spatch not found on PATH: install Coccinelle (Debian package 'coccinelle')");
	if (stat(out->path, &st) < 0)
		return error("cannot stat %s: %s", out->path, strerror(errno));
	memo = xstrfmt("%sbackport/spatch-version", repo_gitdir(r));
	stamp = xstrfmt("%s\n%lld %lld.%09ld\n", out->path, (long long)st.st_size,
			(long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	if (read_file(memo, &data, &size) == 0 && starts_with(data, stamp)) {
		char *v = data + strlen(stamp), *nl = strchr(v, '\n');

		if (nl)
			*nl = '\0';
		if (*v)
			out->version = xstrdup(v);
	}
	free(data);
	if (!out->version) {
		const char *argv[] = { out->path, "--version", NULL };
		char *value;

		out->version = first_line_of(argv);
		if (!out->version) {
			free(stamp);
			free(memo);
			return error("%s --version failed: is Coccinelle (Debian package 'coccinelle') installed correctly?",
				     out->path);
		}
		value = xstrfmt("%s%s\n", stamp, out->version);
		/* Only a cost when it cannot be remembered. */
		if (mkdir_leading(memo) < 0 || write_file_atomic(memo, value, strlen(value)) < 0)
			warning("cannot write %s: %s", memo, strerror(errno));
		free(value);
	}
	free(stamp);
	free(memo);
	return 0;
}

void spatch_info_clear(struct spatch_info *sp)
{
	free(sp->path);
	free(sp->version);
	memset(sp, 0, sizeof(*sp));
}

const char *spatch_path_refusal(const char *path)
{
	/* What /bin/sh takes as part of a plain word, anywhere in it. */
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789_-./+,:=@%";

	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		if (*p < 0x80 && !strchr(safe, *p))
			return "spatch passes file names to the shell unquoted, and this "
			       "name holds a blank, a quote or a shell character";
	return NULL;
}
