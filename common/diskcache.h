/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Results kept on disk between runs ($GIT_DIR/undertaker/cache/, the common
 * directory of a worktree): a fresh process (the next rebase stop, the next
 * CI job on a clone that keeps its .git) reads what the last one computed
 * from the same inputs instead of computing it again.
 *
 * An entry is named by its kind ("buildfiles", "defines") and a key that the
 * caller makes from everything the result depends on (the digest of the
 * build files, say); the suite's version and the entry format are checked
 * too. It is written whole to a temporary file and renamed into place, with
 * its length and a checksum in its header: a truncated, corrupt or foreign
 * entry is said in a warning, removed and computed again, never trusted. An
 * entry of another version of the suite is a quiet miss.
 *
 * The directory is kept under a size budget (undertaker.cacheSize): when a
 * run wrote to it and it holds more, the least recently used entries go
 * first. Knows nothing of what the entries hold; diskcache_put_* and
 * diskcache_get_* are the encoding every caller uses.
 */
#ifndef UT_DISKCACHE_H
#define UT_DISKCACHE_H

#include <stdint.h>

#include "util.h"

#define DISKCACHE_DEFAULT_BUDGET ((uint64_t)256 << 20)

struct diskcache;

/*
 * A cache in `dir` (created when first written) holding at most `budget`
 * bytes; 0: off. `stats`: its counters said on stderr (UNDERTAKER_STATS).
 */
struct diskcache *diskcache_open(const char *dir, uint64_t budget, int stats);
/*
 * Keeps the budget when entries were written since it was last kept, and
 * says the counters (when opened with `stats`): at the end of a run.
 */
void diskcache_keep_budget(struct diskcache *dc);
void diskcache_close(struct diskcache *dc);

/*
 * The entry of `kind` and `key` into `out`: 1 when found and sound, 0 when
 * there is none (or it is of another version), -1 when it was bad (said in a
 * warning, removed). dc may be NULL: 0.
 */
int diskcache_read(struct diskcache *dc, const char *kind, const char *key, struct strbuf *out);
/*
 * Writes it atomically. A cache that cannot be written only costs time: no
 * message (UNDERTAKER_STATS counts it). dc may be NULL.
 */
void diskcache_write(struct diskcache *dc, const char *kind, const char *key,
		     const void *data, size_t len);

struct diskcache_stats {
	size_t hits, misses, bad, written, unwritten;
};
void diskcache_get_stats(const struct diskcache *dc, struct diskcache_stats *st);

/*
 * git undertaker --gc-cache: removes the entries of other versions, bad ones
 * and leftover temporary files, then the least recently used entries until
 * the rest fits in `budget`. Says what it did on stdout. 0, or -1 after an
 * error was said.
 */
int diskcache_gc(const char *dir, uint64_t budget);

/*
 * "512m", "2g", "100k", "0": git's size syntax (undertaker.cacheSize).
 * 0, or -1 when it is not one.
 */
int diskcache_parse_size(const char *s, uint64_t *out);

/* ---- the encoding of an entry's contents ---- */

void diskcache_put_u64(struct strbuf *sb, uint64_t v);
void diskcache_put_str(struct strbuf *sb, const char *s);	/* NULL is kept as NULL */
/*
 * An array of `nr` 32-bit values, copied as they lie in memory (a cache is
 * read where it was written; an entry of a host of the other byte order is
 * a miss, said by its first value).
 */
void diskcache_put_u32s(struct strbuf *sb, const uint32_t *v, size_t nr);
/* A list of strings (none NULL); diskcache_get_strvec() appends it to `out`, -1 when bad. */
void diskcache_put_strvec(struct strbuf *sb, const struct strvec *sv);

/* A reader over an entry's contents; `bad` is set on the first read past its end. */
struct diskcache_reader {
	const char *p, *end;
	int bad;
};
void diskcache_reader_init(struct diskcache_reader *rd, const struct strbuf *sb);
uint64_t diskcache_get_u64(struct diskcache_reader *rd);
/* A new string (NULL when NULL was put, or when the reader went bad). */
char *diskcache_get_str(struct diskcache_reader *rd);
/*
 * diskcache_put_u32s()'s array into a new `*out` (NULL when empty): its
 * length, or 0 with `bad` set when the entry holds no such array or it is
 * longer than `max`.
 */
size_t diskcache_get_u32s(struct diskcache_reader *rd, uint32_t **out, size_t max);
/*
 * The same without a copy: *at is where the values lie in the entry (not
 * aligned: memcpy them out), valid while the entry's buffer is.
 */
size_t diskcache_get_u32s_at(struct diskcache_reader *rd, const void **at, size_t max);
int diskcache_get_strvec(struct diskcache_reader *rd, struct strvec *out);
/* Was everything read, and nothing past the end? */
int diskcache_reader_done(const struct diskcache_reader *rd);

#endif
