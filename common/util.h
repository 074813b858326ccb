/* SPDX-License-Identifier: GPL-2.0 */
/* Small utilities shared by every module: allocation, messages, growable buffers. */
#ifndef UT_UTIL_H
#define UT_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <stdbool.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Exit codes, as git uses them. */
enum {
	EXIT_CLEAN = 0,
	EXIT_FINDINGS = 1,
	EXIT_FATAL = 128,
	EXIT_USAGE = 129,
};

/* "git undertaker", "git vampyr", ...: prefixes every message. */
void set_program_name(const char *name);
const char *program_name(void);

_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* What die() says, without exiting (git's die_message): returns EXIT_FATAL. */
int die_message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * How many errors were printed so far (error(), from any thread): each
 * command's main exits at least 1 when there was one (exit-status.adoc).
 */
size_t error_count(void);
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Something to know that is no fault ("note: "); silenced by -q too. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Set by -q: silences warning() (errors still print). */
extern int quiet;

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* a followed by b, in a new string (no printf: kbuild builds millions). */
char *xstrconcat(const char *a, const char *b);
char *xstrfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvstrfmt(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* Grow an array `x` holding `nr` items with capacity `alloc` to hold at least `want`. */
#define ALLOC_GROW(x, want, alloc) do { \
	if ((size_t)(want) > (size_t)(alloc)) { \
		size_t new_alloc_ = ((size_t)(alloc) + 16) * 3 / 2; \
		if (new_alloc_ < (size_t)(want)) new_alloc_ = (want); \
		(alloc) = new_alloc_; \
		(x) = xrealloc((x), sizeof(*(x)) * (alloc)); \
	} \
} while (0)

/* A growable, always NUL-terminated byte buffer. */
struct strbuf {
	char *buf;
	size_t len, alloc;
};
#define STRBUF_INIT { NULL, 0, 0 }
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Append `s` as a JSON string literal, quotes included. */
void strbuf_add_json_str(struct strbuf *sb, const char *s);
void strbuf_reset(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
char *strbuf_detach(struct strbuf *sb, size_t *len);
/*
 * Appends `len` bytes of text from another program or an input file for
 * people to read: valid UTF-8 as it is, any other byte and control
 * characters but tab as \xNN; at most `max` bytes of the text, with "..."
 * where it was cut.
 */
void strbuf_add_printable(struct strbuf *sb, const char *s, size_t len, size_t max);
/*
 * Appends a path as git prints it: as it is unless it holds a control
 * character, '"' or '\\' (or, while quote_path_high is set, as by git's
 * core.quotePath, a byte of 0x80 or more); then in double quotes with C
 * escapes (\n, \t, \", \\\\) and octal \ooo for the other bytes.
 */
void strbuf_add_path(struct strbuf *sb, const char *path);
/* strbuf_add_path() into a new string. */
char *xquote_path(const char *path);
extern int quote_path_high;
/* Returns sb->buf, or "" when nothing was ever added. */
const char *strbuf_str(const struct strbuf *sb);

/* A growable list of owned strings. */
struct strvec {
	char **v;
	size_t nr, alloc;
};
#define STRVEC_INIT { NULL, 0, 0 }
void strvec_push(struct strvec *sv, const char *s);
void strvec_pushf(struct strvec *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strvec_clear(struct strvec *sv);
void strvec_sort(struct strvec *sv);
/* Does sv hold s (compared as strings)? */
int strvec_has(const struct strvec *sv, const char *s);

/* A string-keyed hash map to void *; keys are copied and owned by the map. */
struct strmap_entry {
	char *key;
	void *value;
	uint32_t hash;
};
struct strmap {
	struct strmap_entry *slots;
	size_t nr, cap;	/* open addressing, cap is a power of two */
};
#define STRMAP_INIT { NULL, 0, 0 }
uint32_t strhash(const char *s, size_t len);
void *strmap_get(const struct strmap *m, const char *key);
void *strmap_getn(const struct strmap *m, const char *key, size_t len);
/* Sets key to value; returns the previous value or NULL. */
void *strmap_put(struct strmap *m, const char *key, void *value);
int strmap_contains(const struct strmap *m, const char *key);
/* Calls free_value on each value (when not NULL), then frees the map. */
void strmap_clear(struct strmap *m, void (*free_value)(void *));
#define strmap_for_each(m, e) \
	for ((e) = (m)->slots; (m)->slots && (e) < (m)->slots + (m)->cap; (e)++) \
		if ((e)->key)

int starts_with(const char *s, const char *prefix);
int ends_with(const char *s, const char *suffix);
/*
 * Edits from a to b, a swap of two neighbours counting as one (optimal
 * string alignment): "did you mean" for symbols and architectures.
 */
size_t edit_distance(const char *a, const char *b);
/* Creates a directory and its missing parents; -1 (errno set) when one cannot be made. */
int mkdir_p(const char *path);
/* Creates the missing directories that lead to the file `path`, not the file's own name. */
int mkdir_leading(const char *path);
/* Writes all `size` bytes to fd, through short writes and EINTR; -1 with errno set. */
int write_all(int fd, const void *data, size_t size);
/* pread() of exactly `size` bytes at `at`: 0, or -1 with errno (EIO when the file ends first). */
int pread_all(int fd, void *buf, size_t size, off_t at);
/*
 * Writes `len` bytes to `path` through a temporary file beside it
 * (`<path>.tmp-<pid>-<n>`, its own even among threads), renamed over `path`:
 * a reader, a crash or a full disk never leave a partial file there.
 * Returns 0, or -1 with errno set and `path` as it was.
 */
int write_file_atomic(const char *path, const void *data, size_t len);
/*
 * Reads the whole file into *data (NUL-terminated, *size bytes before the
 * NUL). Returns -1 with errno set when it cannot.
 */
int read_file(const char *path, char **data, size_t *size);
/*
 * The same for a regular file of max bytes at most: a directory is EISDIR,
 * anything else (a FIFO, a device) EINVAL, a larger file EFBIG. read_file() is
 * this without the size limit: neither ever blocks on opening a FIFO.
 */
int read_file_max(const char *path, size_t max, char **data, size_t *size);
/*
 * Opens a regular file of at most `max` bytes for reading (not blocking on a
 * FIFO): its descriptor and *size, or -1 with errno (EISDIR, EINVAL for
 * another kind of file, EFBIG).
 */
int open_regular_max(const char *path, size_t max, size_t *size);
/* Appends what fd gives until its end; -1 with errno set on a read error. */
int strbuf_read_fd(struct strbuf *sb, int fd);
/*
 * The executable `name` in the colon-separated `path` (an empty entry is the
 * current directory), as "<dir>/<name>", skipping one whose real path is
 * `skip`; NULL when there is none.
 */
char *find_program(const char *name, const char *path, const char *skip);
/* Removes a directory and everything under it (symbolic links not followed). */
int remove_tree(const char *dir);
/*
 * A file's identity as of now, "<inode> <size> <mtime> <ctime>" (symbolic
 * links followed; times to the nanosecond), or "none" when it does not exist:
 * what a kept answer that read it depends on.
 */
void strbuf_add_file_id(struct strbuf *sb, const char *path);
/* Does every "<path>\t<identity>\n" line of text[0..len) still hold? */
int file_ids_hold(const char *text, size_t len);
/* Parses a base-10 integer; 0 on success, -1 when s is not one. */
int parse_int(const char *s, long *out);

#endif
