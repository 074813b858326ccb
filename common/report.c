// SPDX-License-Identifier: GPL-2.0
#include "report.h"
#include "parallel.h"
#include "repo.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* ---- progress ---- */

struct progress {
	char *title;
	uint64_t total, done;
	int last_percent;
	double last_shown;	/* parallel_clock() */
	pthread_mutex_t lock;
};

struct progress *progress_start(const char *title, uint64_t total)
{
	struct progress *p;

	if (quiet || !isatty(2))
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->title = xstrdup(title);
	p->total = total;
	p->last_percent = -1;
	pthread_mutex_init(&p->lock, NULL);
	return p;
}

static void show(struct progress *p, const char *end)
{
	struct strbuf sb = STRBUF_INIT;

	if (p->total)
		strbuf_addf(&sb, "%s: %3u%% (%llu/%llu)%s", p->title,
			    (unsigned)(p->done * 100 / p->total),
			    (unsigned long long)p->done, (unsigned long long)p->total, end);
	else
		strbuf_addf(&sb, "%s: %llu%s", p->title, (unsigned long long)p->done, end);
	fputs(sb.buf, stderr);
	fflush(stderr);
	strbuf_release(&sb);
}

/* Redraws when the percentage moves, at most ten times a second otherwise. */
static void maybe_show(struct progress *p)
{
	double now = parallel_clock();
	int percent = p->total ? (int)(p->done * 100 / p->total) : -1;

	if (percent == p->last_percent && now - p->last_shown < 0.1)
		return;
	if (p->total && percent == p->last_percent)
		return;
	p->last_percent = percent;
	p->last_shown = now;
	show(p, "\r");
}

void progress_update(struct progress *p, uint64_t done)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->done = done;
	maybe_show(p);
	pthread_mutex_unlock(&p->lock);
}

void progress_add(struct progress *p, uint64_t n)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->done += n;
	maybe_show(p);
	pthread_mutex_unlock(&p->lock);
}

void progress_stop(struct progress **pp)
{
	struct progress *p = *pp;

	if (!p)
		return;
	if (p->total)
		p->done = p->total;
	show(p, ", done.\n");
	pthread_mutex_destroy(&p->lock);
	free(p->title);
	free(p);
	*pp = NULL;
}

/* ---- JSON ---- */

void json_init(struct json_writer *w, struct strbuf *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
}

static void json_member(struct json_writer *w, const char *key)
{
	if (w->has_items[w->depth])
		strbuf_addch(w->out, ',');
	w->has_items[w->depth] = 1;
	if (key) {
		strbuf_add_json_str(w->out, key);
		strbuf_addch(w->out, ':');
	}
}

static void json_open(struct json_writer *w, const char *key, int c)
{
	json_member(w, key);
	if (w->depth + 1 >= JSON_MAX_DEPTH)
		die("BUG: JSON nested too deep");
	strbuf_addch(w->out, c);
	w->has_items[++w->depth] = 0;
}

static void json_close(struct json_writer *w, int c)
{
	if (!w->depth)
		die("BUG: JSON close without open");
	w->depth--;
	strbuf_addch(w->out, c);
}

void json_object_begin(struct json_writer *w, const char *key) { json_open(w, key, '{'); }
void json_object_end(struct json_writer *w) { json_close(w, '}'); }
void json_array_begin(struct json_writer *w, const char *key) { json_open(w, key, '['); }
void json_array_end(struct json_writer *w) { json_close(w, ']'); }

void json_add_str(struct json_writer *w, const char *key, const char *value)
{
	json_member(w, key);
	if (value)
		strbuf_add_json_str(w->out, value);
	else
		strbuf_addstr(w->out, "null");
}

void json_add_int(struct json_writer *w, const char *key, long long value)
{
	json_member(w, key);
	strbuf_addf(w->out, "%lld", value);
}

void json_add_bool(struct json_writer *w, const char *key, int value)
{
	json_member(w, key);
	strbuf_addstr(w->out, value ? "true" : "false");
}

void json_add_null(struct json_writer *w, const char *key)
{
	json_member(w, key);
	strbuf_addstr(w->out, "null");
}

void json_add_fixed(struct json_writer *w, const char *key, double value, int decimals)
{
	json_member(w, key);
	strbuf_addf(w->out, "%.*f", decimals, value);
}

void json_add_raw(struct json_writer *w, const char *key, const char *json)
{
	json_member(w, key);
	strbuf_addstr(w->out, json);
}

void json_add_strvec(struct json_writer *w, const char *key, const struct strvec *sv)
{
	json_array_begin(w, key);
	for (size_t i = 0; i < sv->nr; i++)
		json_add_str(w, NULL, sv->v[i]);
	json_array_end(w);
}

/* ---- colours ---- */

static int use_color;

static const char *const color_codes[COLOR_NR] = {
	[COLOR_RESET] = "\033[m",
	[COLOR_BOLD] = "\033[1m",
	[COLOR_RED] = "\033[31m",
	[COLOR_GREEN] = "\033[32m",
	[COLOR_YELLOW] = "\033[33m",
	[COLOR_BLUE] = "\033[34m",
	[COLOR_MAGENTA] = "\033[35m",
	[COLOR_CYAN] = "\033[36m",
	[COLOR_FAINT] = "\033[2m",
};

/* 1 always, 0 never, -1 auto (also for values we do not know). */
static int parse_color_value(const char *v)
{
	if (!strcasecmp(v, "always") || !strcasecmp(v, "true") || !strcasecmp(v, "yes") ||
	    !strcasecmp(v, "on") || !strcmp(v, "1"))
		return 1;
	if (!strcasecmp(v, "never") || !strcasecmp(v, "false") || !strcasecmp(v, "no") ||
	    !strcasecmp(v, "off") || !strcmp(v, "0"))
		return 0;
	return -1;
}

/* --color/--no-color: 2 when not given. */
static int color_opt = 2;

void color_option(int when)
{
	color_opt = when;
}

int color_option_parse(const char *when)
{
	int v = *when ? parse_color_value(when) : 1;

	if (v < 0 && strcasecmp(when, "auto"))
		return -1;
	color_option(v);
	return 0;
}

void color_init(struct repo *r, const char *tool, int fd)
{
	const char *no_color = getenv("NO_COLOR");
	const char *term = getenv("TERM");
	int want = color_opt == 2 ? -1 : color_opt;

	use_color = 0;
	/* As in git: NO_COLOR only changes the default, --color=always wins. */
	if (color_opt != 1 && no_color && *no_color)
		return;
	if (r && color_opt == 2) {
		char *key = tool ? xstrfmt("color.%s", tool) : NULL;
		char *v = key ? repo_config_get(r, key) : NULL;

		if (!v)
			v = repo_config_get(r, "color.ui");
		if (v)
			want = parse_color_value(v);
		free(v);
		free(key);
	}
	if (want < 0)
		want = isatty(fd) && !(term && !strcmp(term, "dumb"));
	use_color = want;
}

int color_enabled(void)
{
	return use_color;
}

const char *color(enum color_slot slot)
{
	return use_color && slot < COLOR_NR ? color_codes[slot] : "";
}

void strbuf_add_colored(struct strbuf *sb, enum color_slot slot, const char *text)
{
	if (!use_color) {
		strbuf_addstr(sb, text);
		return;
	}
	strbuf_addf(sb, "%s%s%s", color_codes[slot], text, color_codes[COLOR_RESET]);
}

/* Reading JSON: a cursor over the text, each value checked as it is passed. */
struct json_reader {
	const char *p, *end;
};

static void json_skip_space(struct json_reader *rd)
{
	while (rd->p < rd->end && (*rd->p == ' ' || *rd->p == '\t' || *rd->p == '\n' || *rd->p == '\r'))
		rd->p++;
}

static int json_hex4(const char *p, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		int c = (unsigned char)p[i], d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (c | 0x20) - 'a' + 10;
		else
			return -1;
		*v = *v * 16 + (unsigned)d;
	}
	return 0;
}

static void json_add_utf8(struct strbuf *out, unsigned v)
{
	if (v < 0x80) {
		strbuf_addch(out, (int)v);
	} else if (v < 0x800) {
		strbuf_addch(out, (int)(0xc0 | v >> 6));
		strbuf_addch(out, (int)(0x80 | (v & 0x3f)));
	} else if (v < 0x10000) {
		strbuf_addch(out, (int)(0xe0 | v >> 12));
		strbuf_addch(out, (int)(0x80 | ((v >> 6) & 0x3f)));
		strbuf_addch(out, (int)(0x80 | (v & 0x3f)));
	} else {
		strbuf_addch(out, (int)(0xf0 | v >> 18));
		strbuf_addch(out, (int)(0x80 | ((v >> 12) & 0x3f)));
		strbuf_addch(out, (int)(0x80 | ((v >> 6) & 0x3f)));
		strbuf_addch(out, (int)(0x80 | (v & 0x3f)));
	}
}

/* A \uXXXX escape at rd->p (after the backslash and 'u'), a surrogate pair taken whole. */
static int json_read_unicode(struct json_reader *rd, struct strbuf *out)
{
	unsigned v, lo;

	if (rd->end - rd->p < 4 || json_hex4(rd->p, &v))
		return -1;
	rd->p += 4;
	if (v >= 0xd800 && v < 0xdc00 && rd->end - rd->p >= 6 && rd->p[0] == '\\' &&
	    rd->p[1] == 'u' && !json_hex4(rd->p + 2, &lo) && lo >= 0xdc00 && lo < 0xe000) {
		v = 0x10000 + ((v - 0xd800) << 10) + (lo - 0xdc00);
		rd->p += 6;
	}
	if (out)
		json_add_utf8(out, v);
	return 0;
}

/* A string at rd->p: decoded into `out`, or only passed when out is NULL. */
static int json_read_string(struct json_reader *rd, struct strbuf *out)
{
	static const char escapes[] = "\"\"\\\\//b\bf\fn\nr\rt\t";

	if (rd->p >= rd->end || *rd->p != '"')
		return -1;
	for (rd->p++; rd->p < rd->end; ) {
		unsigned char c = (unsigned char)*rd->p++;
		const char *e;

		if (c == '"')
			return 0;
		if (c < 0x20)
			return -1;
		if (c != '\\') {
			if (out)
				strbuf_addch(out, c);
			continue;
		}
		if (rd->p >= rd->end)
			return -1;
		c = (unsigned char)*rd->p++;
		if (c == 'u') {
			if (json_read_unicode(rd, out))
				return -1;
			continue;
		}
		for (e = escapes; *e && *e != (char)c; e += 2)
			;
		if (!*e)
			return -1;
		if (out)
			strbuf_addch(out, e[1]);
	}
	return -1;
}

static int json_skip_value(struct json_reader *rd, int depth);

/* The members of an object or the items of an array, after its opening bracket. */
static int json_skip_items(struct json_reader *rd, int depth, char close)
{
	json_skip_space(rd);
	if (rd->p < rd->end && *rd->p == close) {
		rd->p++;
		return 0;
	}
	for (;;) {
		if (close == '}') {
			if (json_read_string(rd, NULL))
				return -1;
			json_skip_space(rd);
			if (rd->p >= rd->end || *rd->p++ != ':')
				return -1;
		}
		if (json_skip_value(rd, depth))
			return -1;
		json_skip_space(rd);
		if (rd->p >= rd->end)
			return -1;
		if (*rd->p == close) {
			rd->p++;
			return 0;
		}
		if (*rd->p++ != ',')
			return -1;
		json_skip_space(rd);
	}
}

static int json_skip_value(struct json_reader *rd, int depth)
{
	static const char *const literals[] = { "true", "false", "null" };
	const char *start;

	json_skip_space(rd);
	if (rd->p >= rd->end || depth >= JSON_MAX_DEPTH)
		return -1;
	if (*rd->p == '"')
		return json_read_string(rd, NULL);
	if (*rd->p == '{' || *rd->p == '[') {
		char close = *rd->p == '{' ? '}' : ']';

		rd->p++;
		return json_skip_items(rd, depth + 1, close);
	}
	for (size_t i = 0; i < ARRAY_SIZE(literals); i++) {
		size_t n = strlen(literals[i]);

		if ((size_t)(rd->end - rd->p) >= n && !memcmp(rd->p, literals[i], n)) {
			rd->p += n;
			return 0;
		}
	}
	start = rd->p;
	while (rd->p < rd->end && *rd->p && strchr("+-.0123456789eE", *rd->p))
		rd->p++;
	return rd->p > start ? 0 : -1;
}

int json_object_get_str(const char *json, size_t len, const char *key, struct strbuf *value)
{
	struct json_reader rd = { json, json + len };
	struct strbuf name = STRBUF_INIT;
	int found = 0;

	json_skip_space(&rd);
	if (rd.p >= rd.end || *rd.p++ != '{')
		return -1;
	json_skip_space(&rd);
	if (rd.p < rd.end && *rd.p == '}')
		rd.p++;
	else
		for (;;) {
			strbuf_reset(&name);
			if (json_read_string(&rd, &name))
				goto bad;
			json_skip_space(&rd);
			if (rd.p >= rd.end || *rd.p++ != ':')
				goto bad;
			json_skip_space(&rd);
			if (!found && !strcmp(strbuf_str(&name), key) && rd.p < rd.end && *rd.p == '"') {
				if (json_read_string(&rd, value))
					goto bad;
				found = 1;
			} else if (json_skip_value(&rd, 1)) {
				goto bad;
			}
			json_skip_space(&rd);
			if (rd.p < rd.end && *rd.p == '}') {
				rd.p++;
				break;
			}
			if (rd.p >= rd.end || *rd.p++ != ',')
				goto bad;
			json_skip_space(&rd);
		}
	json_skip_space(&rd);
	strbuf_release(&name);
	return rd.p == rd.end ? found : -1;
bad:
	strbuf_release(&name);
	return -1;
}
