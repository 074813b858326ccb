// SPDX-License-Identifier: GPL-2.0
/*
 * A job's private directory, kept from one batch to the next: a file is
 * written only when the directory does not already hold its content, and
 * what spatch changed is found with one stat per file. Rule after rule, most
 * files stay as they were: writing the whole tree out again and reading it
 * all back cost more system time than spatch itself on the rules that touch
 * few files.
 */
#include "jobs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * What the directory holds at a path. A file we write gets this modification
 * time, which spatch cannot leave on a file it rewrites (it copies its output
 * over the input), on any file system, however coarse its clock.
 */
#define WRITTEN_MTIME 946684800	/* 2000-01-01 */

struct workdir_file {
	git_oid oid;
	off_t size;
	struct timespec mtime;
	int known;
	unsigned seen;		/* job->runs when last written or read back */
};

static int same_time(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

/*
 * A file read back after the last spatch of the directory is as recorded;
 * another is checked with a stat: spatch may have rewritten a file that it
 * was not given and that we did not read back (a header it found where we
 * did not look).
 */
int workdir_holds(struct job *job, const char *path, const git_oid *oid)
{
	struct workdir_file *f = strmap_get(&job->files, path);
	struct stat st;
	char *full;
	int ret;

	if (!f || !f->known || !git_oid_equal(&f->oid, oid))
		return 0;
	if (f->seen == job->runs)
		return 1;
	full = xstrfmt("%s/%s", job->dir, path);
	ret = stat(full, &st) == 0 && st.st_size == f->size && same_time(&st.st_mtim, &f->mtime);
	free(full);
	if (ret)
		f->seen = job->runs;
	else
		f->known = 0;
	return ret;
}

int workdir_put(struct job *job, const char *path, const git_oid *oid,
		const void *data, size_t size)
{
	struct timespec times[2] = { { 0, UTIME_OMIT }, { WRITTEN_MTIME, 0 } };
	struct workdir_file *f = strmap_get(&job->files, path);
	int fd, ok, e;

	if (workdir_holds(job, path, oid))
		return 0;
	if (!job->tree && !(job->tree = outtree_open(job->dir)))
		return -1;
	fd = outtree_create(job->tree, path, 0100644);
	ok = fd >= 0 && write_all(fd, data, size) == 0 && futimens(fd, times) == 0;
	e = errno;
	if (fd >= 0 && close(fd) < 0 && ok) {
		ok = 0;
		e = errno;
	}
	if (!ok) {
		/* No half-written file for spatch to read. */
		if (fd >= 0)
			outtree_remove(job->tree, path);
		if (f)
			f->known = 0;
		errno = e;
		return -1;
	}
	if (!f) {
		f = xcalloc(1, sizeof(*f));
		strmap_put(&job->files, path, f);
	}
	f->oid = *oid;
	f->size = (off_t)size;
	f->mtime = times[1];
	f->known = 1;
	f->seen = job->runs;
	return 0;
}

int workdir_read_back(struct job *job, const char *path, git_oid *oid, char **data, size_t *size)
{
	struct workdir_file *f = strmap_get(&job->files, path);
	char *full = xstrfmt("%s/%s", job->dir, path);
	struct stat st;
	int ret = -1;

	*data = NULL;
	*size = 0;
	if (stat(full, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (f)
			f->known = 0;
		goto out;
	}
	if (f && f->known && st.st_size == f->size && same_time(&st.st_mtim, &f->mtime)) {
		*oid = f->oid;
		f->seen = job->runs;
		ret = 0;
		goto out;
	}
	if (read_file(full, data, size) < 0) {
		if (f)
			f->known = 0;
		goto out;
	}
	repo_hash_blob(*data, *size, oid);
	if (!f) {
		f = xcalloc(1, sizeof(*f));
		strmap_put(&job->files, path, f);
	}
	/* As it is now: the next batch writes it again only if it must. */
	f->oid = *oid;
	f->size = st.st_size;
	f->mtime = st.st_mtim;
	f->known = st.st_size == (off_t)*size;
	f->seen = job->runs;
	ret = 1;
out:
	free(full);
	return ret;
}

int workdir_forget(struct job *job)
{
	strmap_clear(&job->files, free);
	outtree_close(job->tree);
	job->tree = NULL;
	if (job->dir) {
		remove_tree(job->dir);
		if (mkdir(job->dir, 0700) < 0)
			return error("cannot create %s: %s", job->dir, strerror(errno));
	}
	return 0;
}
