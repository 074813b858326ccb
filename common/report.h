/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output helpers: progress on stderr, a JSON writer, colours. Knows nothing of
 * the analysis: callers say what to print.
 */
#ifndef UT_REPORT_H
#define UT_REPORT_H

#include "util.h"

struct repo;

/*
 * Progress, as git shows it: "Checking commits:  45% (9/20)\r", and
 * "Checking commits: 100% (20/20), done.\n" at the end. progress_start
 * returns NULL (and the other calls do nothing) unless stderr is a terminal
 * and -q was not given (the global `quiet`). total 0 means unknown: then only
 * the count is shown. progress_update may be called from several threads.
 */
struct progress;
struct progress *progress_start(const char *title, uint64_t total);
void progress_update(struct progress *p, uint64_t done);
/* Adds n to the count (for workers that each finish some items). */
void progress_add(struct progress *p, uint64_t n);
/* Prints the final ", done." line and frees; *p becomes NULL. */
void progress_stop(struct progress **p);

/*
 * A JSON writer appending to a strbuf: objects and arrays nest, commas are
 * placed for you. `key` is the member name inside an object, NULL inside an
 * array or at the top. Nesting deeper than JSON_MAX_DEPTH dies (a bug).
 */
#define JSON_MAX_DEPTH 32
struct json_writer {
	struct strbuf *out;
	int depth;
	unsigned char has_items[JSON_MAX_DEPTH];
};
void json_init(struct json_writer *w, struct strbuf *out);
void json_object_begin(struct json_writer *w, const char *key);
void json_object_end(struct json_writer *w);
void json_array_begin(struct json_writer *w, const char *key);
void json_array_end(struct json_writer *w);
void json_add_str(struct json_writer *w, const char *key, const char *value); /* NULL: null */
void json_add_int(struct json_writer *w, const char *key, long long value);
void json_add_bool(struct json_writer *w, const char *key, int value);
void json_add_null(struct json_writer *w, const char *key);
/* A number with `decimals` digits after the point ("%.3f"). */
void json_add_fixed(struct json_writer *w, const char *key, double value, int decimals);
/* A value already in JSON (a document another writer made), as it is. */
void json_add_raw(struct json_writer *w, const char *key, const char *json);
/* An array of strings. */
void json_add_strvec(struct json_writer *w, const char *key, const struct strvec *sv);

/*
 * Reading back what the writer wrote: `json` (len bytes) must be one JSON
 * object, checked whole (strings, numbers, literals, arrays and objects
 * nested up to JSON_MAX_DEPTH). Returns 1 and its top-level member `key`,
 * a string, decoded into `value` (appended); 0 when the object has no such
 * member or its value is not a string; -1 when `json` is not one object.
 */
int json_object_get_str(const char *json, size_t len, const char *key, struct strbuf *value);

/*
 * Colours for terminal output. color_init decides once, for output on `fd`:
 * off when NO_COLOR is set (non-empty), else color.<tool> or color.ui from
 * the repository's config (r may be NULL): "always"/true, "never"/false, or
 * "auto" (the default): on when fd is a terminal and TERM is not "dumb".
 */
enum color_slot {
	COLOR_RESET,
	COLOR_BOLD,
	COLOR_RED,
	COLOR_GREEN,
	COLOR_YELLOW,
	COLOR_BLUE,
	COLOR_MAGENTA,
	COLOR_CYAN,
	COLOR_FAINT,
	COLOR_NR
};
void color_init(struct repo *r, const char *tool, int fd);
/*
 * --color[=<when>] and --no-color, which win over the config: 1 always, 0
 * never, -1 auto. color_option_parse takes the option's value ("" is
 * always, as in git); -1 when it is none of git's words.
 */
void color_option(int when);
int color_option_parse(const char *when);
int color_enabled(void);
/* The escape sequence for a slot, or "" when colours are off. */
const char *color(enum color_slot slot);
/* Appends text in a colour (and the reset), or plain text when colours are off. */
void strbuf_add_colored(struct strbuf *sb, enum color_slot slot, const char *text);

#endif
