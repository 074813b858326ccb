// SPDX-License-Identifier: GPL-2.0
/* Patch series from mail, applied in memory; see mbox.h. */
#define _GNU_SOURCE /* timegm */
#include "mbox.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The header fields a patch needs, as read (unfolded, not yet decoded). */
struct mail_headers {
	char *subject, *from, *date, *message_id, *references, *encoding, *to, *cc;
};

static void mail_headers_clear(struct mail_headers *h)
{
	free(h->subject);
	free(h->from);
	free(h->date);
	free(h->message_id);
	free(h->references);
	free(h->encoding);
	free(h->to);
	free(h->cc);
	memset(h, 0, sizeof(*h));
}

static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl : end;
}

static const char *next_line(const char *p, const char *end)
{
	p = line_end(p, end);
	return p < end ? p + 1 : end;
}

/*
 * An mbox separator as git mailsplit knows one: "From <who> <date>", the
 * date with a time (hh:mm) and ending in a year; "From: " is a header.
 */
static int is_from_line(const char *p, const char *eol)
{
	const char *colon;

	if ((size_t)(eol - p) < 20 || memcmp(p, "From ", 5))
		return 0;
	colon = memchr(p + 5, ':', (size_t)(eol - p - 5));
	if (!colon || colon + 3 > eol || !isdigit((unsigned char)colon[1]) ||
	    !isdigit((unsigned char)colon[2]))
		return 0;
	for (int i = 1; i <= 4; i++)
		if (!isdigit((unsigned char)eol[-i]))
			return 0;
	return 1;
}

/* RFC 2047 encoded words (=?utf-8?q?...?= and ?b?), the bytes kept as they are. */
static int decode_b64_char(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

static void decode_base64(struct strbuf *out, const char *p, size_t len)
{
	unsigned acc = 0;
	int bits = 0;

	for (size_t i = 0; i < len; i++) {
		int v = decode_b64_char((unsigned char)p[i]);

		if (v < 0)
			continue;
		acc = (acc << 6) | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			strbuf_addch(out, (int)((acc >> bits) & 0xff));
		}
	}
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Quoted-printable; in a header word (`header`), '_' is a space. */
static void decode_qp(struct strbuf *out, const char *p, size_t len, int header)
{
	for (size_t i = 0; i < len; i++) {
		if (p[i] == '=' && i + 1 < len && p[i + 1] == '\n') {
			i++;	/* soft line break */
		} else if (p[i] == '=' && i + 2 < len && hexval((unsigned char)p[i + 1]) >= 0 &&
			   hexval((unsigned char)p[i + 2]) >= 0) {
			strbuf_addch(out, hexval((unsigned char)p[i + 1]) * 16 +
					  hexval((unsigned char)p[i + 2]));
			i += 2;
		} else {
			strbuf_addch(out, header && p[i] == '_' ? ' ' : p[i]);
		}
	}
}

static char *decode_header(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	int after_word = 0;

	while (*s) {
		const char *q1, *q2, *end;

		if (starts_with(s, "=?") && (q1 = strchr(s + 2, '?')) && q1[1] && q1[2] == '?' &&
		    (end = strstr(q1 + 3, "?="))) {
			q2 = q1 + 3;
			if (tolower((unsigned char)q1[1]) == 'b')
				decode_base64(&sb, q2, (size_t)(end - q2));
			else
				decode_qp(&sb, q2, (size_t)(end - q2), 1);
			s = end + 2;
			after_word = 1;
			continue;
		}
		/* Whitespace between two encoded words is not part of the text. */
		if (after_word && (*s == ' ' || *s == '\t')) {
			const char *t = s + strspn(s, " \t");

			if (starts_with(t, "=?")) {
				s = t;
				continue;
			}
		}
		after_word = 0;
		strbuf_addch(&sb, *s++);
	}
	return strbuf_detach(&sb, NULL);
}

static void set_header(char **field, const char *value, size_t len)
{
	free(*field);
	*field = xstrndup(value, len);
}

/*
 * The header lines from p on, unfolded; returns where the body starts (after
 * the blank line). `in_body`: the "From:", "Subject:", "Date:" lines git
 * format-patch puts at the top of a body, which stop at a blank line too.
 */
static const char *parse_headers(const char *p, const char *end, struct mail_headers *h)
{
	static const struct { const char *name; size_t off; } fields[] = {
		{ "subject", offsetof(struct mail_headers, subject) },
		{ "from", offsetof(struct mail_headers, from) },
		{ "date", offsetof(struct mail_headers, date) },
		{ "message-id", offsetof(struct mail_headers, message_id) },
		{ "references", offsetof(struct mail_headers, references) },
		{ "content-transfer-encoding", offsetof(struct mail_headers, encoding) },
		{ "to", offsetof(struct mail_headers, to) },
		{ "cc", offsetof(struct mail_headers, cc) },
	};
	struct strbuf line = STRBUF_INIT;

	while (p < end && *p != '\n') {
		const char *colon;

		strbuf_reset(&line);
		strbuf_add(&line, p, (size_t)(line_end(p, end) - p));
		p = next_line(p, end);
		while (p < end && (*p == ' ' || *p == '\t')) {
			strbuf_add(&line, p, (size_t)(line_end(p, end) - p));
			p = next_line(p, end);
		}
		colon = strchr(line.buf, ':');
		if (!colon)
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
			const char *v = colon + 1;

			if ((size_t)(colon - line.buf) != strlen(fields[i].name) ||
			    strncasecmp(line.buf, fields[i].name, strlen(fields[i].name)))
				continue;
			v += strspn(v, " \t");
			set_header((char **)((char *)h + fields[i].off), v, strlen(v));
		}
	}
	strbuf_release(&line);
	return p < end ? p + 1 : end;
}

/* git mailinfo's subject: "Re:", "[PATCH v2 1/3]" and the like stripped. */
static char *commit_subject(const char *subject)
{
	const char *s = subject;
	size_t len;

	for (;;) {
		s += strspn(s, " \t");
		if (!strncasecmp(s, "re:", 3)) {
			s += 3;
		} else if (*s == '[' && strchr(s, ']')) {
			s = strchr(s, ']') + 1;
		} else {
			break;
		}
	}
	len = strlen(s);
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return xstrndup(s, len);
}

static int month_number(const char *m)
{
	static const char months[] = "janfebmaraprmayjunjulaugsepoctnovdec";

	for (int i = 0; i < 12; i++)
		if (!strncasecmp(m, months + 3 * i, 3))
			return i;
	return -1;
}

/* An RFC 2822 date ("Thu, 4 Dec 2026 22:20:50 +0100"); 0 when it is none. */
static int parse_date(const char *s, long long *when, int *tz)
{
	struct tm tm = { 0 };
	char mon[4];
	int day, year, hh, mm, ss = 0, n = 0, zone = 0;
	const char *comma = strchr(s, ',');

	if (comma)
		s = comma + 1;
	if (sscanf(s, " %d %3s %d %d:%d%n", &day, mon, &year, &hh, &mm, &n) < 5)
		return -1;
	s += n;
	if (*s == ':')
		ss = (int)strtol(s + 1, (char **)&s, 10);
	s += strspn(s, " ");
	if ((*s == '+' || *s == '-') && isdigit((unsigned char)s[1])) {
		long z = strtol(s + 1, NULL, 10);

		zone = (int)(z / 100 * 60 + z % 100);
		if (*s == '-')
			zone = -zone;
	}
	if ((tm.tm_mon = month_number(mon)) < 0)
		return -1;
	tm.tm_mday = day;
	tm.tm_year = (year < 100 ? year + 2000 : year) - 1900;
	tm.tm_hour = hh;
	tm.tm_min = mm;
	tm.tm_sec = ss;
	*when = (long long)timegm(&tm) - (long long)zone * 60;
	*tz = zone;
	return 0;
}

/* "Name <email>", "\"Last, First\" <email>" or a bare address. */
static void parse_from(struct mbox_patch *p, const char *from)
{
	const char *lt = strchr(from, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	size_t len;

	if (!lt || !gt) {
		p->author_email = xstrdup(from);
		p->author_name = xstrdup(from);
		return;
	}
	p->author_email = xstrndup(lt + 1, (size_t)(gt - lt - 1));
	len = (size_t)(lt - from);
	while (len && isspace((unsigned char)from[len - 1]))
		len--;
	if (len >= 2 && from[0] == '"' && from[len - 1] == '"') {
		from++;
		len -= 2;
	}
	p->author_name = len ? xstrndup(from, len) : xstrdup(p->author_email);
}

/*
 * Where the diff that starts at p ends: after the last line of its last
 * hunk (counted by the hunk headers), or of the last file header (a mode
 * change, a rename, a binary patch); the "-- " signature and the
 * base-commit lines after it are not part of it.
 */
static const char *diff_end(const char *p, const char *end)
{
	static const char *const headers[] = {
		"diff --git ", "old mode ", "new mode ", "deleted file mode ", "new file mode ",
		"copy from ", "copy to ", "rename from ", "rename to ", "similarity index ",
		"dissimilarity index ", "index ", "--- ", "+++ ", "Binary files ",
	};
	const char *last = p;
	int binary = 0;

	while (p < end) {
		int known = 0, old_n = 1, new_n = 1;

		if (binary) {
			/* Base85 lines until a blank line ends each of its two parts. */
			if (starts_with(p, "diff --git "))
				binary = 0;
			else {
				p = next_line(p, end);
				last = p;
				continue;
			}
		}
		for (size_t i = 0; i < ARRAY_SIZE(headers) && !known; i++)
			known = starts_with(p, headers[i]);
		if (starts_with(p, "GIT binary patch")) {
			binary = known = 1;
		} else if (starts_with(p, "@@ -")) {
			const char *q = p + 4;

			strtol(q, (char **)&q, 10);
			if (*q == ',')
				old_n = (int)strtol(q + 1, (char **)&q, 10);
			q += strspn(q, " +");
			strtol(q, (char **)&q, 10);
			if (*q == ',')
				new_n = (int)strtol(q + 1, (char **)&q, 10);
			p = next_line(p, end);
			while (p < end && (old_n > 0 || new_n > 0 || *p == '\\')) {
				if (*p == ' ' || *p == '\n')
					old_n--, new_n--;
				else if (*p == '-')
					old_n--;
				else if (*p == '+')
					new_n--;
				else if (*p != '\\')
					break;
				p = next_line(p, end);
			}
			last = p;
			continue;
		}
		if (!known)
			break;
		p = next_line(p, end);
		last = p;
	}
	return last;
}

static const char *find_line(const char *p, const char *end, const char *prefix)
{
	for (; p < end; p = next_line(p, end))
		if (starts_with(p, prefix))
			return p;
	return NULL;
}

/* The commit message: the subject, a blank line, the body up to "---" or the diff. */
static char *commit_message(const char *subject, const char *body, const char *body_end)
{
	struct strbuf sb = STRBUF_INIT;
	char *s = commit_subject(subject);

	strbuf_addstr(&sb, s);
	strbuf_addch(&sb, '\n');
	free(s);
	while (body < body_end && *body == '\n')
		body++;
	while (body_end > body && (body_end[-1] == '\n' || body_end[-1] == ' '))
		body_end--;
	if (body < body_end) {
		strbuf_addch(&sb, '\n');
		strbuf_add(&sb, body, (size_t)(body_end - body));
		strbuf_addch(&sb, '\n');
	}
	return strbuf_detach(&sb, NULL);
}

static void take_base_commit(struct mbox_series *s, const char *body, const char *end)
{
	const char *b = find_line(body, end, "base-commit: ");

	if (b && !s->base_commit) {
		b += strlen("base-commit: ");
		s->base_commit = xstrndup(b, strspn(b, "0123456789abcdefABCDEF"));
	}
}

/*
 * One message: its headers, its body decoded, and a patch appended to the
 * series when it has a diff. Returns 1 for a patch, 0 for none.
 */
static int parse_message(struct mbox_series *s, const char *source, const char *p,
			 const char *end)
{
	struct mail_headers h = { 0 }, inbody = { 0 };
	struct strbuf body = STRBUF_INIT;
	struct mbox_patch *mp;
	const char *b, *bend, *diff, *dashes;
	char *subject;

	p = parse_headers(p, end, &h);
	if (h.encoding && !strcasecmp(h.encoding, "quoted-printable"))
		decode_qp(&body, p, (size_t)(end - p), 0);
	else if (h.encoding && !strcasecmp(h.encoding, "base64"))
		decode_base64(&body, p, (size_t)(end - p));
	else
		strbuf_add(&body, p, (size_t)(end - p));
	b = body.buf;
	bend = body.buf + body.len;
	/* git format-patch --from: the author's own From: (and Date:) lead the body. */
	if (starts_with(b, "From: ") || starts_with(b, "Date: ") || starts_with(b, "Subject: "))
		b = parse_headers(b, bend, &inbody);
	take_base_commit(s, b, bend);
	diff = find_line(b, bend, "diff --git ");
	if (!diff) {
		mail_headers_clear(&h);
		mail_headers_clear(&inbody);
		strbuf_release(&body);
		return 0;
	}
	ALLOC_GROW(s->v, s->nr + 1, s->alloc);
	mp = &s->v[s->nr++];
	memset(mp, 0, sizeof(*mp));
	mp->source = xstrdup(source);
	subject = decode_header(inbody.subject ? inbody.subject : h.subject ? h.subject : "");
	mp->subject = subject;
	dashes = find_line(b, diff, "---\n");
	mp->message = commit_message(subject, b, dashes ? dashes : diff);
	{
		char *from = decode_header(inbody.from ? inbody.from : h.from ? h.from : "");

		parse_from(mp, from);
		free(from);
	}
	parse_date(inbody.date ? inbody.date : h.date ? h.date : "", &mp->when, &mp->tz_offset);
	mp->message_id = h.message_id ? xstrdup(h.message_id) : NULL;
	mp->references = h.references ? xstrdup(h.references) : NULL;
	if (h.to || h.cc)
		mp->recipients = xstrfmt("%s%s%s", h.to ? h.to : "", h.to && h.cc ? ", " : "",
					 h.cc ? h.cc : "");
	mp->diff_len = (size_t)(diff_end(diff, bend) - diff);
	mp->diff = xstrndup(diff, mp->diff_len);
	mail_headers_clear(&h);
	mail_headers_clear(&inbody);
	strbuf_release(&body);
	return 1;
}

/* Mail as stored: CRLF line ends become LF, mboxrd's ">From " quoting is undone. */
static void normalize(struct strbuf *sb)
{
	size_t j = 0;
	int bol = 1;

	for (size_t i = 0; i < sb->len; i++) {
		if (sb->buf[i] == '\r' && i + 1 < sb->len && sb->buf[i + 1] == '\n')
			continue;
		if (bol && sb->buf[i] == '>') {
			size_t k = i;

			while (k < sb->len && sb->buf[k] == '>')
				k++;
			if (sb->len - k >= 5 && !memcmp(sb->buf + k, "From ", 5))
				i++;
		}
		bol = sb->buf[i] == '\n';
		sb->buf[j++] = sb->buf[i];
	}
	sb->len = j;
	sb->buf[j] = '\0';
}

static int read_input(const char *path, struct strbuf *sb)
{
	if (!strcmp(path, "-"))
		return strbuf_read_fd(sb, 0);
	{
		char *data;
		size_t size;

		if (read_file(path, &data, &size) < 0)
			return -1;
		strbuf_add(sb, data, size);
		free(data);
	}
	return 0;
}

static int read_one(struct mbox_series *s, const char *path, int may_be_cover)
{
	struct strbuf sb = STRBUF_INIT;
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	const char *end, *start;
	size_t nr_msgs = 0, nr_patches = 0;
	int had_base = s->base_commit != NULL;

	if (read_input(path, &sb) < 0) {
		int e = errno;

		strbuf_release(&sb);
		return error("cannot read %s: %s", name, strerror(e));
	}
	normalize(&sb);
	start = sb.buf;
	end = sb.buf + sb.len;
	if (start < end && is_from_line(start, line_end(start, end)))
		start = next_line(start, end);
	/* Each message runs to the next separator that follows a blank line. */
	while (start < end) {
		const char *q = start, *stop = end;

		for (; q < end; q = next_line(q, end))
			if (q >= start + 2 && q[-2] == '\n' && is_from_line(q, line_end(q, end))) {
				stop = q;
				break;
			}
		nr_msgs++;
		{
			char *source = xstrfmt("%s:%zu", name, nr_msgs);

			nr_patches += (size_t)parse_message(s, source, start, stop);
			free(source);
		}
		start = stop < end ? next_line(stop, end) : end;
	}
	had_base = !had_base && s->base_commit;
	strbuf_release(&sb);
	/* A cover letter alone in its file says the base, and that is all. */
	if (!nr_patches && !had_base && !may_be_cover)
		return error("%s: no patch in it", name);
	if (!nr_patches)
		return 0;
	/* A file of one message: its name alone says which patch it is. */
	if (nr_msgs == 1) {
		free(s->v[s->nr - 1].source);
		s->v[s->nr - 1].source = xstrdup(name);
	}
	return 0;
}

/*
 * A directory of `git format-patch -o` output: its *.patch files in name
 * order; a 0000-* file (the cover letter) may hold no patch.
 */
static int read_dir(struct mbox_series *s, const char *dir)
{
	struct strvec names = STRVEC_INIT;
	struct dirent *de;
	DIR *d = opendir(dir);
	int ret = 0;

	if (!d)
		return error("cannot read %s: %s", dir, strerror(errno));
	while ((de = readdir(d)))
		if (ends_with(de->d_name, ".patch") && de->d_name[0] != '.')
			strvec_push(&names, de->d_name);
	closedir(d);
	strvec_sort(&names);
	if (!names.nr)
		ret = error("%s: no *.patch file in it", dir);
	for (size_t i = 0; !ret && i < names.nr; i++) {
		char *path = xstrfmt("%s%s%s", dir, ends_with(dir, "/") ? "" : "/", names.v[i]);

		ret = read_one(s, path, starts_with(names.v[i], "0000-"));
		free(path);
	}
	strvec_clear(&names);
	return ret;
}

int mbox_read(struct mbox_series *s, const char *path)
{
	struct stat st;

	if (strcmp(path, "-") && !stat(path, &st) && S_ISDIR(st.st_mode))
		return read_dir(s, path);
	return read_one(s, path, 0);
}

int mbox_apply(struct repo *r, struct mbox_series *s, const char *base)
{
	struct strbuf why = STRBUF_INIT;
	const char *rev = base ? base : s->base_commit ? s->base_commit : "HEAD";
	const git_oid *parent = &s->base;

	s->applied = 0;
	if (repo_resolve_commit(r, rev, &s->base) < 0)
		return error("cannot apply the series: its base %s is not in this repository%s", rev,
			     base || !s->base_commit ? "" : " (base-commit; --base=<rev> names another)");
	if (repo_scratch_objects(r) < 0)
		return -1;
	for (size_t i = 0; i < s->nr; i++) {
		struct mbox_patch *p = &s->v[i];
		struct patch_commit pc = {
			.diff = p->diff, .diff_len = p->diff_len, .message = p->message,
			.author_name = p->author_name, .author_email = p->author_email,
			.when = p->when, .tz_offset = p->tz_offset,
		};

		strbuf_reset(&why);
		if (repo_apply_patch(r, parent, &pc, &p->commit, &why) < 0) {
			error("patch '%s' (%s) does not apply: %s", p->subject, p->source, why.buf);
			strbuf_release(&why);
			return -1;
		}
		parent = &p->commit;
		s->applied++;
	}
	strbuf_release(&why);
	return 0;
}

void mbox_series_clear(struct mbox_series *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		struct mbox_patch *p = &s->v[i];

		free(p->source);
		free(p->subject);
		free(p->message);
		free(p->author_name);
		free(p->author_email);
		free(p->message_id);
		free(p->references);
		free(p->recipients);
		free(p->diff);
	}
	free(s->v);
	free(s->base_commit);
	memset(s, 0, sizeof(*s));
}
