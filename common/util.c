// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE /* nftw */
#include "util.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

int quiet;
static const char *prog = "git undertaker";

void set_program_name(const char *name) { prog = name; }
const char *program_name(void) { return prog; }

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s: %s", prog, prefix);
	strbuf_vaddf(&sb, fmt, ap);
	strbuf_addch(&sb, '\n');
	/* One write so that lines of parallel workers do not interleave. */
	fputs(sb.buf, stderr);
	fflush(stderr);
	strbuf_release(&sb);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	exit(EXIT_FATAL);
}

int die_message(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return EXIT_FATAL;
}

/* Lines printed with "error: ", by any thread: a run that printed one exits at least 1. */
static atomic_size_t errors_printed;

size_t error_count(void)
{
	return atomic_load(&errors_printed);
}

int error(const char *fmt, ...)
{
	va_list ap;

	atomic_fetch_add(&errors_printed, 1);
	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

/* What --quiet silences: warnings and notes, never errors. */
static void vreport_unless_quiet(const char *prefix, const char *fmt, va_list ap)
{
	if (!quiet)
		vreport(prefix, fmt, ap);
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport_unless_quiet("warning: ", fmt, ap);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport_unless_quiet("note: ", fmt, ap);
	va_end(ap);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory allocating %zu bytes", n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die("out of memory allocating %zu bytes", nmemb * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		die("out of memory allocating %zu bytes", n);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xstrconcat(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *r = xmalloc(la + lb + 1);

	memcpy(r, a, la);
	memcpy(r + la, b, lb + 1);
	return r;
}

char *xvstrfmt(const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_vaddf(&sb, fmt, ap);
	return strbuf_detach(&sb, NULL);
}

char *xstrfmt(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvstrfmt(fmt, ap);
	va_end(ap);
	return s;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	ALLOC_GROW(sb->buf, sb->len + extra + 1, sb->alloc);
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		die("vsnprintf failed");
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_add_json_str(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '"': strbuf_addstr(sb, "\\\""); break;
		case '\\': strbuf_addstr(sb, "\\\\"); break;
		case '\n': strbuf_addstr(sb, "\\n"); break;
		case '\t': strbuf_addstr(sb, "\\t"); break;
		case '\r': strbuf_addstr(sb, "\\r"); break;
		default:
			if (c < 0x20)
				strbuf_addf(sb, "\\u%04x", c);
			else
				strbuf_addch(sb, c);
		}
	}
	strbuf_addch(sb, '"');
}

char *xquote_path(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_path(&sb, path);
	return strbuf_detach(&sb, NULL);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *r;

	if (!sb->buf)
		strbuf_grow(sb, 0), sb->buf[0] = '\0';
	r = sb->buf;
	if (len)
		*len = sb->len;
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return r;
}

const char *strbuf_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

void strvec_push(struct strvec *sv, const char *s)
{
	ALLOC_GROW(sv->v, sv->nr + 2, sv->alloc);
	sv->v[sv->nr++] = xstrdup(s);
	sv->v[sv->nr] = NULL;
}

void strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvstrfmt(fmt, ap);
	va_end(ap);
	ALLOC_GROW(sv->v, sv->nr + 2, sv->alloc);
	sv->v[sv->nr++] = s;
	sv->v[sv->nr] = NULL;
}

void strvec_clear(struct strvec *sv)
{
	for (size_t i = 0; i < sv->nr; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->nr = sv->alloc = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void strvec_sort(struct strvec *sv)
{
	if (sv->nr)
		qsort(sv->v, sv->nr, sizeof(*sv->v), cmp_str);
}

int strvec_has(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return 1;
	return 0;
}

/* FNV-1a: short keys (symbol names, paths), good spread, no dependencies. */
uint32_t strhash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

static struct strmap_entry *strmap_find(const struct strmap *m, const char *key,
					size_t len, uint32_t h)
{
	size_t mask = m->cap - 1, i = h & mask;

	for (;; i = (i + 1) & mask) {
		struct strmap_entry *e = &m->slots[i];

		if (!e->key)
			return e;
		if (e->hash == h && !strncmp(e->key, key, len) && !e->key[len])
			return e;
	}
}

void *strmap_getn(const struct strmap *m, const char *key, size_t len)
{
	struct strmap_entry *e;

	if (!m->cap)
		return NULL;
	e = strmap_find(m, key, len, strhash(key, len));
	return e->key ? e->value : NULL;
}

void *strmap_get(const struct strmap *m, const char *key)
{
	return strmap_getn(m, key, strlen(key));
}

int strmap_contains(const struct strmap *m, const char *key)
{
	size_t len = strlen(key);

	return m->cap && strmap_find(m, key, len, strhash(key, len))->key;
}

static void strmap_rehash(struct strmap *m)
{
	struct strmap old = *m;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->slots = xcalloc(m->cap, sizeof(*m->slots));
	for (size_t i = 0; i < old.cap; i++) {
		struct strmap_entry *e = &old.slots[i];

		if (e->key)
			*strmap_find(m, e->key, strlen(e->key), e->hash) = *e;
	}
	free(old.slots);
}

void *strmap_put(struct strmap *m, const char *key, void *value)
{
	size_t len = strlen(key);
	uint32_t h = strhash(key, len);
	struct strmap_entry *e;
	void *old;

	if ((m->nr + 1) * 4 > m->cap * 3)
		strmap_rehash(m);
	e = strmap_find(m, key, len, h);
	if (e->key) {
		old = e->value;
		e->value = value;
		return old;
	}
	e->key = xstrndup(key, len);
	e->hash = h;
	e->value = value;
	m->nr++;
	return NULL;
}

void strmap_clear(struct strmap *m, void (*free_value)(void *))
{
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->slots[i].key)
			continue;
		if (free_value && m->slots[i].value)
			free_value(m->slots[i].value);
		free(m->slots[i].key);
	}
	free(m->slots);
	m->slots = NULL;
	m->nr = m->cap = 0;
}

int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

int mkdir_p(const char *path)
{
	char *p = xstrdup(path);
	int ret = 0;

	for (char *q = p + 1; *q; q++) {
		if (*q != '/')
			continue;
		*q = '\0';
		if (mkdir(p, 0777) < 0 && errno != EEXIST)
			ret = -1;
		*q = '/';
	}
	if (mkdir(p, 0777) < 0 && errno != EEXIST)
		ret = -1;
	free(p);
	return ret;
}

int mkdir_leading(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int ret;

	if (!slash || slash == path)
		return 0;
	dir = xstrndup(path, (size_t)(slash - path));
	ret = mkdir_p(dir);
	free(dir);
	return ret;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

int remove_tree(const char *dir)
{
	return nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int parse_int(const char *s, long *out)
{
	char *end;
	long v;

	if (!*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	/* Three rows: i - 2 (for a swap), i - 1 and i. */
	size_t *rows = xmalloc(3 * (lb + 1) * sizeof(*rows)), best;
	size_t *prev2 = rows, *prev = rows + lb + 1, *cur = rows + 2 * (lb + 1), *t;

	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t v = prev[j - 1] + (a[i - 1] != b[j - 1]);

			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			/* Two neighbours swapped (x68 for x86) is one typo, not two. */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	best = prev[lb];
	free(rows);
	return best;
}

/* write() or pread() (at >= 0) until `size` bytes went; `short_errno` for a call that moved none. */
static int io_all(int fd, char *p, size_t size, off_t at, int short_errno)
{
	while (size) {
		ssize_t n = at >= 0 ? pread(fd, p, size, at) : write(fd, p, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = short_errno;
			return -1;
		}
		p += n;
		size -= (size_t)n;
		if (at >= 0)
			at += n;
	}
	return 0;
}

int write_all(int fd, const void *data, size_t size)
{
	return io_all(fd, (char *)data, size, -1, ENOSPC);
}

int pread_all(int fd, void *buf, size_t size, off_t at)
{
	return io_all(fd, buf, size, at, EIO);
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	/* A temporary name of its own: threads of one process write too (the caches). */
	static atomic_uint serial;
	char *tmp = xstrfmt("%s.tmp-%ld-%u", path, (long)getpid(), atomic_fetch_add(&serial, 1));
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666), saved;

	if (fd < 0) {
		saved = errno;
		free(tmp);
		errno = saved;
		return -1;
	}
	saved = write_all(fd, data, len) < 0 ? errno : 0;
	if (close(fd) < 0 && !saved)
		saved = errno;
	if (!saved && rename(tmp, path) < 0)
		saved = errno;
	if (saved)
		unlink(tmp);
	free(tmp);
	errno = saved;
	return saved ? -1 : 0;
}

/* The length of the valid UTF-8 sequence at s (n bytes left), 0 when none. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	size_t len;
	unsigned char lo = 0x80, hi = 0xbf;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	/* No overlong forms, no surrogates, nothing past U+10FFFF. */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

void strbuf_add_printable(struct strbuf *sb, const char *s, size_t len, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, cut = len > max ? max : len;

	while (i < cut) {
		size_t n = utf8_seq(p + i, len - i);

		if (!n || (p[i] < 0x20 && p[i] != '\t') || p[i] == 0x7f) {
			strbuf_addf(sb, "\\x%02x", p[i]);
			i++;
		} else {
			strbuf_add(sb, p + i, n);
			i += n;
		}
	}
	if (len > max)
		strbuf_addstr(sb, "...");
}

int quote_path_high = 1;

static int path_needs_quote(unsigned char c)
{
	return c < 0x20 || c == '"' || c == '\\' || c == 0x7f || (c >= 0x80 && quote_path_high);
}

void strbuf_add_path(struct strbuf *sb, const char *path)
{
	const unsigned char *p = (const unsigned char *)path;
	static const char esc[] = "abtnvfr";
	size_t i;

	for (i = 0; p[i] && !path_needs_quote(p[i]); i++)
		;
	if (!p[i]) {
		strbuf_addstr(sb, path);
		return;
	}
	strbuf_addch(sb, '"');
	for (i = 0; p[i]; i++) {
		if (!path_needs_quote(p[i]))
			strbuf_addch(sb, p[i]);
		else if (p[i] == '"' || p[i] == '\\')
			strbuf_addf(sb, "\\%c", p[i]);
		else if (p[i] >= '\a' && p[i] <= '\r')
			strbuf_addf(sb, "\\%c", esc[p[i] - '\a']);
		else
			strbuf_addf(sb, "\\%03o", p[i]);
	}
	strbuf_addch(sb, '"');
}

int strbuf_read_fd(struct strbuf *sb, int fd)
{
	for (;;) {
		ssize_t n;

		strbuf_grow(sb, 65536);
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n)
			return 0;
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
	}
}

int read_file(const char *path, char **data, size_t *size)
{
	return read_file_max(path, SIZE_MAX, data, size);
}

int open_regular_max(const char *path, size_t max, size_t *size)
{
	/* Non-blocking: a FIFO given as a file must not hang the open. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), e;
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		e = errno;
	else if (!S_ISREG(st.st_mode))
		e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
	else if ((uintmax_t)st.st_size > max)
		e = EFBIG;
	else
		e = 0;
	if (e) {
		close(fd);
		errno = e;
		return -1;
	}
	*size = (size_t)st.st_size;
	return fd;
}

int read_file_max(const char *path, size_t max, char **data, size_t *size)
{
	struct strbuf sb = STRBUF_INIT;
	size_t now;
	int fd = open_regular_max(path, max, &now), e;

	if (fd < 0)
		return -1;
	/* One allocation for the size it has now (it may still grow as it is read). */
	strbuf_grow(&sb, now + 1);
	if (strbuf_read_fd(&sb, fd) < 0) {
		e = errno;
		close(fd);
		strbuf_release(&sb);
		errno = e;
		return -1;
	}
	close(fd);
	*data = strbuf_detach(&sb, size);
	return 0;
}

char *find_program(const char *name, const char *path, const char *skip)
{
	while (path) {
		const char *colon = strchr(path, ':');
		size_t len = colon ? (size_t)(colon - path) : strlen(path);
		char *cand = len ? xstrfmt("%.*s/%s", (int)len, path, name) : xstrfmt("./%s", name);
		char *real = realpath(cand, NULL);
		struct stat st;

		if (real && !stat(real, &st) && S_ISREG(st.st_mode) && !access(real, X_OK) &&
		    (!skip || strcmp(real, skip))) {
			free(real);
			return cand;
		}
		free(real);
		free(cand);
		path = colon ? colon + 1 : NULL;
	}
	return NULL;
}

void strbuf_add_file_id(struct strbuf *sb, const char *path)
{
	struct stat st;

	if (path && !stat(path, &st))
		strbuf_addf(sb, "%llu %lld %lld.%09ld %lld.%09ld", (unsigned long long)st.st_ino,
			    (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
			    (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
	else
		strbuf_addstr(sb, "none");
}

int file_ids_hold(const char *text, size_t len)
{
	struct strbuf now = STRBUF_INIT;
	const char *p = text, *end = text + len;
	int ok = 1;

	while (ok && p < end) {
		const char *tab = memchr(p, '\t', (size_t)(end - p));
		const char *eol = tab ? memchr(tab, '\n', (size_t)(end - tab)) : NULL;
		char *path;

		if (!eol) {
			ok = 0;
			break;
		}
		path = xstrndup(p, (size_t)(tab - p));
		strbuf_reset(&now);
		strbuf_add_file_id(&now, path);
		ok = now.len == (size_t)(eol - tab - 1) && !memcmp(now.buf, tab + 1, now.len);
		free(path);
		p = eol + 1;
	}
	strbuf_release(&now);
	return ok;
}
