// SPDX-License-Identifier: GPL-2.0
/* Writing a tree's files under one directory, never outside it: see outtree.h. */
#define _GNU_SOURCE
#include "outtree.h"
#include "util.h"

#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

struct outtree {
	char *dir;
	int top;		/* the top, O_DIRECTORY */
	struct strbuf cached;	/* the directory (relative) that cached_fd is open on */
	int cached_fd;		/* -1: none */
};

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

struct outtree *outtree_open(const char *dir)
{
	struct outtree *t;
	int fd = open(dir, DIR_FLAGS);

	if (fd < 0) {
		error("cannot open the directory %s: %m", dir);
		return NULL;
	}
	t = xcalloc(1, sizeof(*t));
	t->dir = xstrdup(dir);
	t->top = fd;
	t->cached = (struct strbuf)STRBUF_INIT;
	t->cached_fd = -1;
	return t;
}

static void drop_cache(struct outtree *t)
{
	if (t->cached_fd >= 0)
		close(t->cached_fd);
	t->cached_fd = -1;
	strbuf_reset(&t->cached);
}

void outtree_close(struct outtree *t)
{
	if (!t)
		return;
	drop_cache(t);
	strbuf_release(&t->cached);
	close(t->top);
	free(t->dir);
	free(t);
}

const char *outtree_dir(const struct outtree *t)
{
	return t->dir;
}

static int bad_component(const char *c, size_t len)
{
	return !len || (len == 1 && c[0] == '.') || (len == 2 && !memcmp(c, "..", 2)) ||
	       (len == 4 && !strncasecmp(c, ".git", 4));
}

int outtree_path_ok(const char *path)
{
	const char *p = path;

	if (!*path)
		return -1;
	for (;;) {
		size_t len = strcspn(p, "/");

		if (bad_component(p, len))
			return -1;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

static int refuse(const struct outtree *t, const char *path, const char *why)
{
	errno = EINVAL;
	return error("refusing to write '%s' under %s: %s", path, t->dir, why);
}

/*
 * The descriptor of the directory holding `path` (the cached one: do not
 * close it), creating what is missing when `create`; -1 with errno, no
 * message. A component that is a symlink or a file fails (ELOOP, ENOTDIR).
 */
static int parent_fd(struct outtree *t, const char *path, int create)
{
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) : 0;
	int fd;

	if (!slash)
		return t->top;
	if (t->cached_fd >= 0 && t->cached.len == dlen && !memcmp(t->cached.buf, path, dlen))
		return t->cached_fd;
	drop_cache(t);
	fd = t->top;
	for (const char *p = path; p < slash; ) {
		size_t len = strcspn(p, "/");
		char *name = xstrndup(p, len);
		int next = openat(fd, name, DIR_FLAGS);

		if (next < 0 && errno == ENOENT && create &&
		    (!mkdirat(fd, name, 0777) || errno == EEXIST))
			next = openat(fd, name, DIR_FLAGS);
		free(name);
		if (fd != t->top) {
			int e = errno;

			close(fd);
			errno = e;
		}
		if (next < 0)
			return -1;
		fd = next;
		p += len + 1;
	}
	strbuf_add(&t->cached, path, dlen);
	t->cached_fd = fd;
	return fd;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Removes the entry `name` under dir; ENOENT is no failure, a directory is. */
static int unlink_entry(int dir, const char *name)
{
	if (!unlinkat(dir, name, 0) || errno == ENOENT)
		return 0;
	return -1;
}

int outtree_create(struct outtree *t, const char *path, unsigned mode)
{
	int dir, fd;

	if (outtree_path_ok(path))
		return refuse(t, path, "a component is empty, '.', '..' or '.git'");
	dir = parent_fd(t, path, 1);
	if (dir < 0)
		return error("cannot create the directories of %s under %s: %m%s", path, t->dir,
			     errno == ELOOP || errno == ENOTDIR ? " (a symlink or a file in the way)" : "");
	if (unlink_entry(dir, base_name(path)))
		return error("cannot replace %s under %s: %m", path, t->dir);
	fd = openat(dir, base_name(path), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    (mode & 0111) ? 0777 : 0666);
	if (fd < 0)
		return error("cannot create %s under %s: %m", path, t->dir);
	return fd;
}

int outtree_write(struct outtree *t, const char *path, unsigned mode,
		  const void *data, size_t size)
{
	int fd, ret = 0;

	if ((mode & 0170000) == 0120000) {
		char *target;
		int dir;

		if (outtree_path_ok(path))
			return refuse(t, path, "a component is empty, '.', '..' or '.git'");
		if (memchr(data, '\0', size))
			return refuse(t, path, "a symlink target with a NUL");
		dir = parent_fd(t, path, 1);
		if (dir < 0)
			return error("cannot create the directories of %s under %s: %m", path, t->dir);
		if (unlink_entry(dir, base_name(path)))
			return error("cannot replace %s under %s: %m", path, t->dir);
		target = xstrndup(data, size);
		if (symlinkat(target, dir, base_name(path)))
			ret = error("cannot create the symlink %s under %s: %m", path, t->dir);
		free(target);
		return ret;
	}
	fd = outtree_create(t, path, mode);
	if (fd < 0)
		return -1;
	if (write_all(fd, data, size) < 0)
		ret = error("cannot write %s under %s: %m", path, t->dir);
	if (close(fd) && !ret)
		ret = error("cannot write %s under %s: %m", path, t->dir);
	return ret;
}

int outtree_remove(struct outtree *t, const char *path)
{
	int dir;

	if (outtree_path_ok(path))
		return refuse(t, path, "a component is empty, '.', '..' or '.git'");
	dir = parent_fd(t, path, 0);
	if (dir < 0)
		return errno == ENOENT ? 0 :
			error("cannot remove %s under %s: %m", path, t->dir);
	if (unlink_entry(dir, base_name(path)))
		return error("cannot remove %s under %s: %m", path, t->dir);
	return 0;
}

#define COPY_BUFFER 65536

/*
 * The bytes of `in` into `out`: in the kernel when it can, else through a
 * buffer on the heap. Not on the stack: inlined into copy_entry(), 64 KiB
 * a level of a tree 120 directories deep overflowed it (fuzz-outtree).
 */
static int copy_bytes(int in, int out)
{
	char *buf = NULL;
	ssize_t n;
	int ret;

	for (;;) {
		n = copy_file_range(in, NULL, out, NULL, 1 << 30, 0);
		if (n > 0)
			continue;
		if (!n)
			return 0;
		if (errno != EXDEV && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
			return -1;
		break;
	}
	buf = xmalloc(COPY_BUFFER);
	while ((n = read(in, buf, COPY_BUFFER)) > 0)
		if (write_all(out, buf, (size_t)n) < 0)
			break;
	ret = n != 0 ? -1 : 0;
	free(buf);
	return ret;
}

static int copy_regular(struct outtree *t, int dir, const char *name, const char *path,
			const struct stat *st)
{
	int in = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), out, ret = 0;
	struct timespec times[2];

	if (in < 0)
		return error("cannot read %s: %m", path);
	out = outtree_create(t, path, st->st_mode & 0111 ? 0100755 : 0100644);
	if (out < 0) {
		close(in);
		return -1;
	}
	times[0] = st->st_atim;
	times[1] = st->st_mtim;
	if (copy_bytes(in, out) || fchmod(out, st->st_mode & 07777) || futimens(out, times))
		ret = error("cannot copy %s under %s: %m", path, t->dir);
	close(in);
	if (close(out) && !ret)
		ret = error("cannot copy %s under %s: %m", path, t->dir);
	return ret;
}

static int copy_link(struct outtree *t, int dir, const char *name, const char *path)
{
	char *target = xmalloc(PATH_MAX);
	ssize_t n = readlinkat(dir, name, target, PATH_MAX);
	int ret;

	if (n < 0 || n >= PATH_MAX)
		ret = error("cannot read the symlink %s: %m", path);
	else
		ret = outtree_write(t, path, 0120000, target, (size_t)n);
	free(target);
	return ret;
}

static int copy_dir(struct outtree *t, int fd, struct strbuf *rel, const char *skip);

/* One entry `name` of the directory fd, at rel/name in t. */
static int copy_entry(struct outtree *t, int fd, struct strbuf *rel, const char *name,
		      const char *skip)
{
	size_t len = rel->len;
	struct stat st;
	int ret = 0, sub;

	if ((skip && starts_with(name, skip)) || bad_component(name, strlen(name)))
		return 0;
	strbuf_addf(rel, "%s%s", len ? "/" : "", name);
	if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		ret = error("cannot read %s: %m", rel->buf);
	} else if (S_ISREG(st.st_mode)) {
		ret = copy_regular(t, fd, name, rel->buf, &st);
	} else if (S_ISLNK(st.st_mode)) {
		ret = copy_link(t, fd, name, rel->buf);
	} else if (S_ISDIR(st.st_mode)) {
		sub = openat(fd, name, DIR_FLAGS);
		ret = sub < 0 ? error("cannot read %s: %m", rel->buf) : copy_dir(t, sub, rel, skip);
	}
	rel->len = len;
	rel->buf[len] = '\0';
	return ret;
}

/* Copies the directory fd (closed here) to rel in t, creating rel even when empty. */
static int copy_dir(struct outtree *t, int fd, struct strbuf *rel, const char *skip)
{
	DIR *d;
	struct dirent *e;
	int ret = 0;

	if (rel->len) {
		char *probe = xstrfmt("%s/x", rel->buf);

		if (parent_fd(t, probe, 1) < 0)
			ret = error("cannot create %s under %s: %m", rel->buf, t->dir);
		free(probe);
	}
	d = ret ? NULL : fdopendir(fd);
	if (!d) {
		close(fd);
		return ret ? ret : error("cannot read %s: %m", rel->len ? rel->buf : ".");
	}
	while (!ret && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			ret = copy_entry(t, dirfd(d), rel, e->d_name, skip);
	closedir(d);
	return ret;
}

int outtree_copy(struct outtree *t, const char *from, const char *skip)
{
	struct strbuf rel = STRBUF_INIT;
	int fd = open(from, DIR_FLAGS), ret;

	if (fd < 0)
		return error("cannot open the directory %s: %m", from);
	ret = copy_dir(t, fd, &rel, skip);
	strbuf_release(&rel);
	return ret;
}

/* Removes the entry `name` of the directory fd, a directory with all it holds, never following a link. */
static int remove_at(int fd, const char *name)
{
	int sub, ret = 0;
	DIR *d;
	struct dirent *e;

	if (!unlinkat(fd, name, 0) || errno == ENOENT)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -1;
	sub = openat(fd, name, DIR_FLAGS);
	if (sub < 0 || !(d = fdopendir(sub))) {
		if (sub >= 0)
			close(sub);
		return -1;
	}
	while (!ret && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			ret = remove_at(dirfd(d), e->d_name);
	closedir(d);
	return ret ? ret : unlinkat(fd, name, AT_REMOVEDIR);
}

/* Is the copy `to` of `from` still as it was made, and untouched since `since`? */
static int same_entry(int from_fd, int to_fd, const char *name, const struct stat *fs,
		      const struct stat *ts, const struct timespec *since)
{
	char a[4096], b[4096];
	ssize_t na, nb;

	if ((fs->st_mode & S_IFMT) != (ts->st_mode & S_IFMT))
		return 0;
	if (S_ISDIR(fs->st_mode))
		return 1;
	if (ts->st_ctim.tv_sec > since->tv_sec ||
	    (ts->st_ctim.tv_sec == since->tv_sec && ts->st_ctim.tv_nsec >= since->tv_nsec))
		return 0;
	if (S_ISLNK(fs->st_mode)) {
		na = readlinkat(from_fd, name, a, sizeof(a));
		nb = readlinkat(to_fd, name, b, sizeof(b));
		return na >= 0 && na == nb && !memcmp(a, b, (size_t)na);
	}
	return fs->st_size == ts->st_size && fs->st_mtim.tv_sec == ts->st_mtim.tv_sec &&
	       fs->st_mtim.tv_nsec == ts->st_mtim.tv_nsec && (fs->st_mode & 07777) == (ts->st_mode & 07777);
}

struct sync {
	struct outtree *t;
	const char *skip;
	const struct timespec *since;
	struct strbuf rel;
};

static int sync_dir(struct sync *s, int from_fd, int to_fd);

/* Step 1: what `to` has that `from` has not, or has otherwise, goes. */
static int sync_prune(struct sync *s, int from_fd, int to_fd)
{
	DIR *d;
	struct dirent *e;
	int dup_fd = dup(to_fd), ret = 0;

	if (dup_fd < 0 || !(d = fdopendir(dup_fd))) {
		if (dup_fd >= 0)
			close(dup_fd);
		return error("cannot read %s under %s: %m", s->rel.len ? s->rel.buf : ".", s->t->dir);
	}
	while (!ret && (e = readdir(d))) {
		struct stat fs, ts;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(to_fd, e->d_name, &ts, AT_SYMLINK_NOFOLLOW))
			continue;
		if ((s->skip && starts_with(e->d_name, s->skip)) || bad_component(e->d_name, strlen(e->d_name)) ||
		    fstatat(from_fd, e->d_name, &fs, AT_SYMLINK_NOFOLLOW) ||
		    !same_entry(from_fd, to_fd, e->d_name, &fs, &ts, s->since))
			if (drop_cache(s->t), remove_at(to_fd, e->d_name))
				ret = error("cannot remove %s/%s under %s: %m", s->rel.len ? s->rel.buf : ".",
					    e->d_name, s->t->dir);
	}
	closedir(d);
	return ret;
}

/* Step 2: what `from` has and `to` lacks is copied; directories on both sides are synced. */
static int sync_fill(struct sync *s, int from_fd, int to_fd)
{
	DIR *d;
	struct dirent *e;
	int dup_fd = dup(from_fd), ret = 0;

	if (dup_fd < 0 || !(d = fdopendir(dup_fd))) {
		if (dup_fd >= 0)
			close(dup_fd);
		return error("cannot read %s: %m", s->rel.len ? s->rel.buf : ".");
	}
	while (!ret && (e = readdir(d))) {
		struct stat ts;
		size_t len = s->rel.len;
		int sub_from, sub_to;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    (s->skip && starts_with(e->d_name, s->skip)) || bad_component(e->d_name, strlen(e->d_name)))
			continue;
		if (fstatat(to_fd, e->d_name, &ts, AT_SYMLINK_NOFOLLOW)) {
			ret = copy_entry(s->t, from_fd, &s->rel, e->d_name, s->skip);
			continue;
		}
		if (!S_ISDIR(ts.st_mode))
			continue;
		sub_from = openat(from_fd, e->d_name, DIR_FLAGS);
		sub_to = openat(to_fd, e->d_name, DIR_FLAGS);
		strbuf_addf(&s->rel, "%s%s", len ? "/" : "", e->d_name);
		ret = sub_from < 0 || sub_to < 0 ? error("cannot read %s: %m", s->rel.buf) :
		      sync_dir(s, sub_from, sub_to);
		if (sub_from >= 0)
			close(sub_from);
		if (sub_to >= 0)
			close(sub_to);
		s->rel.len = len;
		s->rel.buf[len] = '\0';
	}
	closedir(d);
	return ret;
}

static int sync_dir(struct sync *s, int from_fd, int to_fd)
{
	return sync_prune(s, from_fd, to_fd) || sync_fill(s, from_fd, to_fd) ? -1 : 0;
}

int outtree_sync(struct outtree *t, const char *from, const char *skip, const struct timespec *since)
{
	struct sync s = { t, skip, since, STRBUF_INIT };
	int fd = open(from, DIR_FLAGS), ret;

	if (fd < 0)
		return error("cannot open the directory %s: %m", from);
	ret = sync_dir(&s, fd, t->top);
	drop_cache(t);
	close(fd);
	strbuf_release(&s.rel);
	return ret;
}
