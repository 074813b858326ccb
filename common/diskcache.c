// SPDX-License-Identifier: GPL-2.0
#include "diskcache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "options.h"

/* The layout of an entry; a new one makes every older entry a quiet miss. */
#define DISKCACHE_FORMAT "undertaker cache 2"
/* Nothing the suite keeps is near this: a larger file is not read into memory. */
#define DISKCACHE_MAX_ENTRY ((size_t)1 << 30)

struct diskcache {
	char *dir;
	uint64_t budget;
	pthread_mutex_t lock;	/* the counters: threads share one cache */
	struct diskcache_stats st;
	size_t trimmed_at;	/* st.written at the last diskcache_keep_budget */
	int stats;		/* say the counters */
};

static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

#define FNV_BASIS 0xcbf29ce484222325ULL

/*
 * An entry's checksum: four lanes of eight bytes at a time, each multiplied
 * and folded (FNV-1a's one byte at a time cost 30 ms for the 12 MB a rebase
 * stop reads), then the tail byte by byte. Catches truncation and stray
 * writes; it is no defence against a forger, who could write the entry anew.
 */
static uint64_t checksum(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t lane[4] = { FNV_BASIS, FNV_BASIS ^ 1, FNV_BASIS ^ 2, FNV_BASIS ^ 3 }, h;
	size_t i = 0;

	for (; i + 32 <= len; i += 32)
		for (int k = 0; k < 4; k++) {
			uint64_t w;

			memcpy(&w, p + i + 8 * k, 8);
			lane[k] = (lane[k] ^ w) * 0x9e3779b97f4a7c15ULL;
			lane[k] ^= lane[k] >> 29;
		}
	h = fnv1a(FNV_BASIS, lane, sizeof(lane));
	return fnv1a(h, p + i, len - i) ^ len;
}

struct diskcache *diskcache_open(const char *dir, uint64_t budget, int stats)
{
	struct diskcache *dc;

	if (!budget)
		return NULL;
	dc = xcalloc(1, sizeof(*dc));
	dc->dir = xstrdup(dir);
	dc->budget = budget;
	dc->stats = stats;
	pthread_mutex_init(&dc->lock, NULL);
	return dc;
}

/* <dir>/<kind>-<16 hex digits of the key's hash>: the header holds the key itself. */
static char *entry_path(const struct diskcache *dc, const char *kind, const char *key)
{
	uint64_t h = fnv1a(fnv1a(FNV_BASIS, kind, strlen(kind) + 1), key, strlen(key));

	return xstrfmt("%s/%s-%016" PRIx64, dc->dir, kind, h);
}

static void count(struct diskcache *dc, size_t *counter)
{
	pthread_mutex_lock(&dc->lock);
	(*counter)++;
	pthread_mutex_unlock(&dc->lock);
}

/* The next header line of [*p, end) as a string, or NULL at the end. */
static char *header_line(const char **p, const char *end)
{
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	char *line;

	if (!nl)
		return NULL;
	line = xstrndup(*p, (size_t)(nl - *p));
	*p = nl + 1;
	return line;
}

/*
 * Checks an entry read whole: 1 and where its contents are, 0 for another
 * version's, -1 with *why for a bad one.
 */
/*
 * The header of an entry of `size` bytes whose first `n` bytes are in `data`:
 * 1 with the contents' offset, length and checksum; 0 for an entry of
 * another version; -1 (and *why) for a bad one.
 */
static int parse_header(const char *data, size_t n, size_t size, const char *kind,
			const char *key, size_t *start, size_t *length, uint64_t *sum,
			const char **why)
{
	const char *p = data, *end = data + n;
	char *line[5] = { NULL };
	unsigned long long len = 0, s = 0;
	int ret = -1;
	size_t i;

	for (i = 0; i < 5 && (line[i] = header_line(&p, end)); i++)
		;
	*why = "truncated header";
	if (i < 5)
		goto out;
	*why = "not a cache entry";
	if (strcmp(line[0], DISKCACHE_FORMAT) && starts_with(line[0], "undertaker cache "))
		ret = 0;
	if (strcmp(line[0], DISKCACHE_FORMAT))
		goto out;
	if (strcmp(line[1], suite_version)) {
		ret = 0;
		goto out;
	}
	*why = "made for another key";
	if (strcmp(line[2], kind) || strcmp(line[3], key))
		goto out;
	*why = "bad length line";
	if (sscanf(line[4], "%llu %llx", &len, &s) != 2)
		goto out;
	*start = (size_t)(p - data);
	*why = len > (unsigned long long)(size - *start) ? "truncated" : "longer than its header says";
	if (len != (unsigned long long)(size - *start))
		goto out;
	*length = (size_t)len;
	*sum = (uint64_t)s;
	ret = 1;
out:
	for (i = 0; i < 5; i++)
		free(line[i]);
	return ret;
}

/*
 * Reads the entry at `path` into `out` (its contents alone, read into place:
 * a model of 14 MB is not moved once read). As parse_header; -2 with errno
 * when the file cannot be read.
 */
static int read_entry(const char *path, const char *kind, const char *key, struct strbuf *out,
		      const char **why)
{
	size_t start = 0, length = 0, size, n;
	int fd = open_regular_max(path, DISKCACHE_MAX_ENTRY, &size), ret, e;
	uint64_t sum = 0;
	char *head;

	if (fd < 0)
		return -2;
	n = size < 4096 + strlen(kind) + strlen(key) ? size : 4096 + strlen(kind) + strlen(key);
	head = xmalloc(n + 1);
	if (pread_all(fd, head, n, 0) < 0) {
		e = errno;
		free(head);
		close(fd);
		errno = e;
		return -2;
	}
	ret = parse_header(head, n, size, kind, key, &start, &length, &sum, why);
	free(head);
	if (ret > 0) {
		strbuf_grow(out, length + 1);
		if (pread_all(fd, out->buf + out->len, length, (off_t)start) < 0) {
			*why = "truncated";
			ret = -1;
		} else if (checksum(out->buf + out->len, length) != sum) {
			*why = "checksum mismatch";
			ret = -1;
		} else {
			out->len += length;
		}
		out->buf[out->len] = '\0';
	}
	close(fd);
	return ret;
}

int diskcache_read(struct diskcache *dc, const char *kind, const char *key, struct strbuf *out)
{
	const char *why = NULL;
	char *path;
	int ret;

	if (!dc)
		return 0;
	path = entry_path(dc, kind, key);
	ret = read_entry(path, kind, key, out, &why);
	if (ret == -2) {
		/* No entry, or no cache directory to read: a miss, as a cache that cannot be written. */
		if (errno != ENOENT && errno != ENOTDIR && errno != EACCES)
			warning("cannot read the cache entry %s: %s; computing it again", path,
				strerror(errno));
		count(dc, &dc->st.misses);
		free(path);
		return 0;
	}
	if (ret > 0) {
		/* Least recently used goes first: a hit is a use. */
		utimensat(AT_FDCWD, path, NULL, 0);
		count(dc, &dc->st.hits);
	} else if (ret == 0) {
		count(dc, &dc->st.misses);
	} else {
		warning("the cache entry %s is bad (%s): removed, computing it again", path, why);
		unlink(path);
		count(dc, &dc->st.bad);
	}
	free(path);
	return ret;
}

void diskcache_write(struct diskcache *dc, const char *kind, const char *key,
		     const void *data, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	char *path;
	int failed;

	if (!dc)
		return;
	path = entry_path(dc, kind, key);
	strbuf_addf(&sb, "%s\n%s\n%s\n%s\n%zu %016" PRIx64 "\n", DISKCACHE_FORMAT, suite_version,
		    kind, key, len, checksum(data, len));
	if (len)
		strbuf_add(&sb, data, len);
	/* Its temporary file is named <entry>.tmp-*: diskcache_gc sweeps those left by a crash. */
	failed = mkdir_p(dc->dir) < 0 || write_file_atomic(path, sb.buf, sb.len) < 0;
	/* As for the solver's samples: a cache that cannot be written only costs time. */
	count(dc, failed ? &dc->st.unwritten : &dc->st.written);
	strbuf_release(&sb);
	free(path);
}

void diskcache_get_stats(const struct diskcache *dc, struct diskcache_stats *st)
{
	if (dc)
		*st = dc->st;
	else
		memset(st, 0, sizeof(*st));
}

struct entry {
	char *path;
	uint64_t size;
	struct timespec used;
};

static int older_first(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->used.tv_sec != y->used.tv_sec)
		return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
	if (x->used.tv_nsec != y->used.tv_nsec)
		return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* Does the file begin with this version's header? */
static int current_entry(const char *path)
{
	char head[256];
	FILE *f = fopen(path, "r");
	size_t n;
	struct strbuf want = STRBUF_INIT;
	int ok;

	if (!f)
		return 0;
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	strbuf_addf(&want, "%s\n%s\n", DISKCACHE_FORMAT, suite_version);
	ok = n >= want.len && !memcmp(head, want.buf, want.len);
	strbuf_release(&want);
	return ok;
}

/*
 * The entries of dir, oldest use first, and their total size; with `sweep`,
 * those of other versions and temporary files older than an hour (another
 * run's that died) are removed first and counted in *removed.
 */
static size_t list_entries(const char *dir, int sweep, struct entry **out, uint64_t *total,
			   size_t *removed, uint64_t *removed_bytes)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct entry *v = NULL;
	size_t nr = 0, alloc = 0;
	time_t now = time(NULL);

	*total = 0;
	while (d && (de = readdir(d))) {
		struct stat st;
		char *path;

		if (de->d_name[0] == '.')
			continue;
		path = xstrfmt("%s/%s", dir, de->d_name);
		if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		if (sweep && (strstr(de->d_name, ".tmp-") ? now - st.st_mtime > 3600 :
			      !current_entry(path))) {
			if (!unlink(path)) {
				(*removed)++;
				*removed_bytes += (uint64_t)st.st_size;
			}
			free(path);
			continue;
		}
		if (strstr(de->d_name, ".tmp-")) {
			free(path);
			continue;
		}
		ALLOC_GROW(v, nr + 1, alloc);
		v[nr].path = path;
		v[nr].size = (uint64_t)st.st_size;
		v[nr].used = st.st_mtim;
		*total += v[nr].size;
		nr++;
	}
	if (d)
		closedir(d);
	if (nr)
		qsort(v, nr, sizeof(*v), older_first);
	*out = v;
	return nr;
}

/* Removes the oldest entries until the rest fits; returns how many went. */
static size_t trim(struct entry *v, size_t nr, uint64_t *total, uint64_t budget,
		   uint64_t *removed_bytes)
{
	size_t removed = 0;

	for (size_t i = 0; i < nr && *total > budget; i++) {
		if (unlink(v[i].path) < 0)
			continue;
		*total -= v[i].size;
		*removed_bytes += v[i].size;
		removed++;
	}
	return removed;
}

static void free_entries(struct entry *v, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(v[i].path);
	free(v);
}

void diskcache_keep_budget(struct diskcache *dc)
{
	if (!dc)
		return;
	if (dc->st.written > dc->trimmed_at) {
		struct entry *v;
		uint64_t total, gone = 0;
		size_t removed = 0, nr = list_entries(dc->dir, 0, &v, &total, &removed, &gone);

		trim(v, nr, &total, dc->budget, &gone);
		free_entries(v, nr);
		dc->trimmed_at = dc->st.written;
	}
	if (dc->stats)
		fprintf(stderr, "disk cache: %zu hits, %zu misses, %zu bad, %zu written%s\n",
			dc->st.hits, dc->st.misses, dc->st.bad, dc->st.written,
			dc->st.unwritten ? ", some could not be written" : "");
}

void diskcache_close(struct diskcache *dc)
{
	if (!dc)
		return;
	pthread_mutex_destroy(&dc->lock);
	free(dc->dir);
	free(dc);
}

int diskcache_gc(const char *dir, uint64_t budget)
{
	struct entry *v;
	uint64_t total, gone = 0;
	size_t removed = 0, nr;

	size_t trimmed;

	nr = list_entries(dir, 1, &v, &total, &removed, &gone);
	trimmed = trim(v, nr, &total, budget, &gone);
	free_entries(v, nr);
	printf("removed %zu cache entries (%" PRIu64 " KiB); %zu kept (%" PRIu64 " KiB) of a budget of %"
	       PRIu64 " KiB in %s\n", removed + trimmed, (gone + 1023) / 1024, nr - trimmed,
	       (total + 1023) / 1024, budget / 1024, dir);
	return 0;
}

int diskcache_parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	uint64_t unit = 1;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'k': case 'K': unit = (uint64_t)1 << 10; end++; break;
	case 'm': case 'M': unit = (uint64_t)1 << 20; end++; break;
	case 'g': case 'G': unit = (uint64_t)1 << 30; end++; break;
	case '\0': break;
	default: return -1;
	}
	if (*end || (v && unit > UINT64_MAX / v))
		return -1;
	*out = (uint64_t)v * unit;
	return 0;
}

void diskcache_put_u64(struct strbuf *sb, uint64_t v)
{
	unsigned char b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	strbuf_add(sb, b, 8);
}

void diskcache_put_str(struct strbuf *sb, const char *s)
{
	if (!s) {
		diskcache_put_u64(sb, UINT64_MAX);
		return;
	}
	diskcache_put_u64(sb, strlen(s));
	strbuf_add(sb, s, strlen(s));
}

void diskcache_put_u32s(struct strbuf *sb, const uint32_t *v, size_t nr)
{
	uint32_t order = 0x01020304;

	diskcache_put_u64(sb, nr);
	strbuf_add(sb, &order, sizeof(order));
	if (nr)
		strbuf_add(sb, v, nr * sizeof(*v));
}

size_t diskcache_get_u32s_at(struct diskcache_reader *rd, const void **at, size_t max)
{
	uint64_t nr = diskcache_get_u64(rd);
	uint32_t order;

	*at = NULL;
	if (rd->bad || nr > max || (size_t)(rd->end - rd->p) < sizeof(order) ||
	    nr > ((size_t)(rd->end - rd->p) - sizeof(order)) / sizeof(uint32_t)) {
		rd->bad = 1;
		return 0;
	}
	memcpy(&order, rd->p, sizeof(order));
	if (order != 0x01020304) {
		rd->bad = 1;
		return 0;
	}
	rd->p += sizeof(order);
	*at = rd->p;
	rd->p += nr * sizeof(uint32_t);
	return (size_t)nr;
}

size_t diskcache_get_u32s(struct diskcache_reader *rd, uint32_t **out, size_t max)
{
	const void *at;
	size_t nr = diskcache_get_u32s_at(rd, &at, max);

	*out = nr ? xmalloc(nr * sizeof(**out)) : NULL;
	if (nr)
		memcpy(*out, at, nr * sizeof(**out));
	return nr;
}

void diskcache_put_strvec(struct strbuf *sb, const struct strvec *sv)
{
	diskcache_put_u64(sb, sv->nr);
	for (size_t i = 0; i < sv->nr; i++)
		diskcache_put_str(sb, sv->v[i]);
}

int diskcache_get_strvec(struct diskcache_reader *rd, struct strvec *out)
{
	uint64_t nr = diskcache_get_u64(rd);

	for (uint64_t i = 0; i < nr && !rd->bad; i++) {
		char *s = diskcache_get_str(rd);

		if (s)
			strvec_push(out, s);
		else
			rd->bad = 1;
		free(s);
	}
	return rd->bad ? -1 : 0;
}

void diskcache_reader_init(struct diskcache_reader *rd, const struct strbuf *sb)
{
	rd->p = sb->buf ? sb->buf : "";
	rd->end = rd->p + sb->len;
	rd->bad = 0;
}

uint64_t diskcache_get_u64(struct diskcache_reader *rd)
{
	uint64_t v = 0;

	if (rd->bad || rd->end - rd->p < 8) {
		rd->bad = 1;
		return 0;
	}
	for (int i = 0; i < 8; i++)
		v |= (uint64_t)(unsigned char)rd->p[i] << (8 * i);
	rd->p += 8;
	return v;
}

char *diskcache_get_str(struct diskcache_reader *rd)
{
	uint64_t len = diskcache_get_u64(rd);
	char *s;

	if (rd->bad || len == UINT64_MAX)
		return NULL;
	if (len > (uint64_t)(rd->end - rd->p) || memchr(rd->p, '\0', (size_t)len)) {
		rd->bad = 1;
		return NULL;
	}
	s = xstrndup(rd->p, (size_t)len);
	rd->p += len;
	return s;
}

int diskcache_reader_done(const struct diskcache_reader *rd)
{
	return !rd->bad && rd->p == rd->end;
}
