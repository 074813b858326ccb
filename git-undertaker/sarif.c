// SPDX-License-Identifier: GPL-2.0
/* SARIF 2.1.0 output; see sarif.h. */
#include "sarif.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "repo.h"

struct sarif_log {
	struct strvec rule_ids;		/* "<kind>/<cause>", in the order met */
	struct strbuf rules;		/* their JSON objects, comma-separated */
	struct strbuf results;		/* likewise */
	struct strmap seen;		/* commit + fingerprint -> how many so far */
};

struct sarif_log *sarif_new(void)
{
	return xcalloc(1, sizeof(struct sarif_log));
}

void sarif_free(struct sarif_log *s)
{
	if (!s)
		return;
	strvec_clear(&s->rule_ids);
	strbuf_release(&s->rules);
	strbuf_release(&s->results);
	strmap_clear(&s->seen, NULL);
	free(s);
}

static void add_text(struct json_writer *w, const char *key, const char *text)
{
	json_object_begin(w, key);
	json_add_str(w, "text", text);
	json_object_end(w);
}

/*
 * The rule of a kind and cause, made when first met: its help says what the
 * kind and the cause mean, from defect.c, or names them where it says
 * nothing (a kind added later still gets a valid rule).
 */
static size_t rule_index(struct sarif_log *s, const struct defect *d)
{
	const char *kind = defect_kind_name(d->kind), *cause = defect_cause_name(d->cause);
	const char *kh = defect_kind_help(d->kind), *ch = defect_cause_help(d->cause);
	struct strbuf id = STRBUF_INIT, sb = STRBUF_INIT, help = STRBUF_INIT;
	struct json_writer w;
	size_t i;

	strbuf_addf(&id, "%s/%s", kind, cause);
	for (i = 0; i < s->rule_ids.nr; i++)
		if (!strcmp(s->rule_ids.v[i], id.buf)) {
			strbuf_release(&id);
			return i;
		}
	strvec_push(&s->rule_ids, id.buf);
	if (kh)
		strbuf_addstr(&help, kh);
	else
		strbuf_addf(&help, "A %s defect.", kind);
	strbuf_addf(&help, " Cause %s: ", cause);
	strbuf_addstr(&help, ch ? ch : "see git-undertaker(1).");
	json_init(&w, &sb);
	json_object_begin(&w, NULL);
	json_add_str(&w, "id", id.buf);
	strbuf_reset(&id);
	for (const char *p = kind; *p; p++)
		strbuf_addch(&id, p == kind ? toupper((unsigned char)*p) : *p);
	for (const char *p = cause; *p; p++)
		strbuf_addch(&id, p == cause ? toupper((unsigned char)*p) : *p);
	json_add_str(&w, "name", id.buf);
	strbuf_reset(&id);
	strbuf_addf(&id, "%s block (%s)", kind, cause);
	add_text(&w, "shortDescription", id.buf);
	add_text(&w, "fullDescription", help.buf);
	add_text(&w, "help", help.buf);
	json_object_begin(&w, "defaultConfiguration");
	json_add_str(&w, "level", "warning");
	json_object_end(&w);
	json_object_end(&w);
	if (s->rules.len)
		strbuf_addch(&s->rules, ',');
	strbuf_addstr(&s->rules, sb.buf);
	strbuf_release(&sb);
	strbuf_release(&help);
	strbuf_release(&id);
	return i;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void sarif_fingerprint(const struct defect *d, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	char **syms = xcalloc(d->symbols.nr + 1, sizeof(*syms));
	char hex[GIT_OID_HEXSZ + 1];
	git_oid id;
	int blank = 0;

	strbuf_addf(&sb, "%s%c%s%c%s%c", d->path, 0, defect_kind_name(d->kind), 0,
		    defect_cause_name(d->cause), 0);
	/* The directive as written, but for its blanks: reindenting keeps it. */
	for (const char *p = d->directive; *p; p++) {
		if (isspace((unsigned char)*p)) {
			blank = 1;
			continue;
		}
		if (blank && sb.len && sb.buf[sb.len - 1] != '\0')
			strbuf_addch(&sb, ' ');
		blank = 0;
		strbuf_addch(&sb, *p);
	}
	strbuf_addch(&sb, 0);
	memcpy(syms, d->symbols.v, d->symbols.nr * sizeof(*syms));
	qsort(syms, d->symbols.nr, sizeof(*syms), cmp_str);
	for (size_t i = 0; i < d->symbols.nr; i++)
		strbuf_addf(&sb, "%s%c", syms[i], 0);
	free(syms);
	repo_hash_blob(sb.buf, sb.len, &id);
	strbuf_addstr(out, oid_hex(&id, hex));
	strbuf_release(&sb);
}

/* A path as a relative URI reference: RFC 3986's unreserved characters and '/' kept. */
static void add_uri(struct strbuf *sb, const char *path)
{
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (isalnum(*p) || strchr("-._~/", *p))
			strbuf_addch(sb, *p);
		else
			strbuf_addf(sb, "%%%02X", *p);
	}
}

static void add_location(struct json_writer *w, const struct defect *d)
{
	struct strbuf uri = STRBUF_INIT;
	int start = d->line > 0 ? d->line : 1;

	add_uri(&uri, d->path);
	json_array_begin(w, "locations");
	json_object_begin(w, NULL);
	json_object_begin(w, "physicalLocation");
	json_object_begin(w, "artifactLocation");
	json_add_str(w, "uri", uri.buf);
	json_add_str(w, "uriBaseId", "SRCROOT");
	json_object_end(w);
	json_object_begin(w, "region");
	json_add_int(w, "startLine", start);
	json_add_int(w, "endLine", d->end_line >= start ? d->end_line : start);
	json_object_end(w);
	json_object_end(w);
	json_object_end(w);
	json_array_end(w);
	strbuf_release(&uri);
}

/* The message: the defect's line without its path and line, then --explain's reasons. */
static void add_message(struct json_writer *w, const struct defect *d)
{
	struct strbuf line = STRBUF_INIT, text = STRBUF_INIT;
	const char *p;

	defect_format_text(&line, d, 0);
	p = strstr(line.buf, ": ");
	strbuf_addstr(&text, p ? p + 2 : line.buf);
	for (size_t i = 0; i < d->explanation.nr; i++)
		strbuf_addf(&text, "\n%s", d->explanation.v[i]);
	add_text(w, "message", text.buf);
	strbuf_release(&line);
	strbuf_release(&text);
}

static const char *baseline_state(enum defect_status st)
{
	return st == STATUS_FIXED ? "absent" : st == STATUS_UNCHANGED ? "unchanged" : "new";
}

void sarif_add(struct sarif_log *s, const struct defect *d, const char *commit, const char *patch)
{
	struct strbuf sb = STRBUF_INIT, fp = STRBUF_INIT, key = STRBUF_INIT;
	struct json_writer w;
	size_t rule = rule_index(s, d);
	uintptr_t nth;

	sarif_fingerprint(d, &fp);
	/* The same directive twice in a file: told apart by their order. */
	strbuf_addf(&key, "%s %s", commit, fp.buf);
	nth = (uintptr_t)strmap_get(&s->seen, key.buf) + 1;
	strmap_put(&s->seen, key.buf, (void *)nth);
	if (nth > 1)
		strbuf_addf(&fp, ":%lu", (unsigned long)nth);
	json_init(&w, &sb);
	json_object_begin(&w, NULL);
	json_add_str(&w, "ruleId", s->rule_ids.v[rule]);
	json_add_int(&w, "ruleIndex", (long long)rule);
	json_add_str(&w, "level", d->status == STATUS_FIXED ? "none" : "warning");
	add_message(&w, d);
	add_location(&w, d);
	json_object_begin(&w, "partialFingerprints");
	json_add_str(&w, "undertakerDefect/v1", fp.buf);
	json_object_end(&w);
	json_add_str(&w, "baselineState", baseline_state(d->status));
	if (d->status == STATUS_ACCEPTED) {
		json_array_begin(&w, "suppressions");
		json_object_begin(&w, NULL);
		json_add_str(&w, "kind", "external");
		json_add_str(&w, "justification", "Undertaker-Accept or undertaker.accept");
		json_object_end(&w);
		json_array_end(&w);
	}
	json_object_begin(&w, "properties");
	json_add_str(&w, "commit", commit);
	if (patch)
		json_add_str(&w, "patch", patch);
	json_add_int(&w, "block", d->block);
	json_add_str(&w, "scope", d->global ? "global" : "local");
	json_add_strvec(&w, "arches", &d->arches);
	json_add_strvec(&w, "symbols", &d->symbols);
	json_add_str(&w, "status", defect_status_name(d->status));
	json_object_end(&w);
	json_object_end(&w);
	if (s->results.len)
		strbuf_addch(&s->results, ',');
	strbuf_addstr(&s->results, sb.buf);
	strbuf_release(&sb);
	strbuf_release(&fp);
	strbuf_release(&key);
}

void sarif_write(struct sarif_log *s, struct strbuf *out, int ok)
{
	strbuf_addstr(out, "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\","
			   "\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{");
	strbuf_addstr(out, "\"name\":\"git-undertaker\",\"version\":");
	strbuf_add_json_str(out, suite_version);
	strbuf_addf(out, ",\"rules\":[%s]}},", s->rules.buf ? s->rules.buf : "");
	strbuf_addf(out, "\"invocations\":[{\"executionSuccessful\":%s}],", ok ? "true" : "false");
	strbuf_addstr(out, "\"originalUriBaseIds\":{\"SRCROOT\":{\"description\":"
			   "{\"text\":\"The top of the repository.\"}}},");
	strbuf_addstr(out, "\"columnKind\":\"utf16CodeUnits\",");
	strbuf_addf(out, "\"results\":[%s]}]}\n", s->results.buf ? s->results.buf : "");
}
