// SPDX-License-Identifier: GPL-2.0
/* The table, the summary line, the JSON object and the note. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "vampyr.h"

/* "B3", and "B00" for a whole file (line 0): as cpp numbers the file. */
static const char *tag(const struct vblock *b)
{
	static char bufs[4][24];
	static unsigned next;
	char *buf = bufs[next++ % 4];

	if (b->number < 0)
		return "B00";
	snprintf(buf, sizeof(bufs[0]), "B%d", b->number);
	return buf;
}

static int is_lost(const struct vconfig *c, size_t block)
{
	for (size_t i = 0; i < c->nr_lost; i++)
		if (c->lost[i].block == block)
			return 1;
	return 0;
}

static const char *const lost_kind_name[] = { "kconfig", "toolchain", "outside" };

/* "lost|toolchain|outside<tab>path:line B<n><tab>why", as text and note show it. */
static void lost_line(const struct vampyr_cover *cv, const struct vlost *l, const char *sep,
		      struct strbuf *out)
{
	const struct vblock *b = &cv->blocks[l->block];

	strbuf_addf(out, "%s%s%s:%d %s%s", l->kind == LOST_KCONFIG ? "lost" : lost_kind_name[l->kind],
		    sep, b->shown, b->line, tag(b), sep);
	if (l->kind == LOST_TOOLCHAIN)
		strbuf_addf(out, "%s: ", l->probe);
	strbuf_addf(out, "%s\n", l->chain);
}

static void summary(const struct vampyr_cover *cv, struct strbuf *sb)
{
	strbuf_addf(sb, "%zu configuration%s compile%s %zu of %zu blocks (%zu dead, %zu lower bound)",
		    cv->nr_configs, cv->nr_configs == 1 ? "" : "s", cv->nr_configs == 1 ? "s" : "",
		    cv->nr_covered, cv->nr_targets, cv->nr_dead, cv->lower_bound);
}

/* The lost claims, and the fragment lines expansion did not keep (never changed silently). */
static void expansion_lines(const struct vampyr_cover *cv, struct strbuf *sb)
{
	for (size_t i = 0; i < cv->nr_configs; i++)
		for (size_t k = 0; k < cv->configs[i].nr_lost; k++)
			lost_line(cv, &cv->configs[i].lost[k], "\t", sb);
	for (size_t i = 0; i < cv->nr_configs; i++)
		for (size_t k = 0; k < cv->configs[i].changed.nr; k++)
			strbuf_addf(sb, "changed\t%s\t%s\n", cv->configs[i].name,
				    cv->configs[i].changed.v[k]);
}

void vampyr_print_text(const struct vampyr *v, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < v->cover.nr_configs; i++) {
		const struct vconfig *c = &v->cover.configs[i];

		fprintf(out, "%s%s%s  %s  (%zu block%s, %zu assignment%s)\n", color(COLOR_BOLD),
			c->name, color(COLOR_RESET), c->path, c->nr_claims,
			c->nr_claims == 1 ? "" : "s", c->assignments.nr,
			c->assignments.nr == 1 ? "" : "s");
		for (size_t k = 0; k < c->nr_claims; k++) {
			const struct vblock *b = &v->cover.blocks[c->claims[k]];

			fprintf(out, "\t%s:%d %s%s\n", b->shown, b->line, tag(b),
				is_lost(c, c->claims[k]) ? "  (lost by expansion)" : "");
		}
	}
	for (size_t i = 0; i < v->cover.nr_blocks; i++) {
		const struct vblock *b = &v->cover.blocks[i];

		if (b->target && b->dead)
			fprintf(out, "%sdead%s\t%s:%d %s\n", color(COLOR_RED), color(COLOR_RESET),
				b->shown, b->line, tag(b));
	}
	for (size_t i = 0; i < v->cover.nr_blocks; i++) {
		const struct vblock *b = &v->cover.blocks[i];

		if (b->target && b->toolchain && b->config < 0)
			fprintf(out, "%stoolchain%s\t%s:%d %s\n", color(COLOR_RED), color(COLOR_RESET),
				b->shown, b->line, tag(b));
	}
	expansion_lines(&v->cover, &sb);
	fputs(strbuf_str(&sb), out);
	strbuf_reset(&sb);
	summary(&v->cover, &sb);
	fprintf(out, "%s\n", sb.buf);
	if (v->toolchain.done)
		fprintf(out, "this toolchain rules out %zu block%s (%zu symbols only probes decide)\n",
			v->cover.nr_toolchain, v->cover.nr_toolchain == 1 ? "" : "s", v->toolchain.facts.nr);
	if (v->expansion.done) {
		size_t outside = 0;

		/* Claims kept whose condition also names what kconfig cannot set. */
		for (size_t i = 0; i < v->cover.nr_configs; i++)
			for (size_t k = 0; k < v->cover.configs[i].nr_claims; k++) {
				size_t blk = v->cover.configs[i].claims[k];
				const struct vblock *b = &v->cover.blocks[blk];
				char *names;

				if (is_lost(&v->cover.configs[i], blk) || !(names = vampyr_outside_names(&v->src, b)))
					continue;
				fprintf(out, "outside\t%s:%d %s\talso needs %s (not Kconfig)\n",
					b->shown, b->line, tag(b), names);
				outside++;
				free(names);
			}
		fprintf(out, "after expansion: %zu of %zu blocks compiled", v->expansion.nr_covered,
			v->cover.nr_targets);
		if (outside)
			fprintf(out, " (%zu of them only if the names outside Kconfig agree)", outside);
		fputc('\n', out);
	}
	if (v->build.done) {
		fprintf(out, "the commit adds %zu diagnostic%s\n", v->build.nr_warnings,
			v->build.nr_warnings == 1 ? "" : "s");
		for (size_t i = 0; i < v->build.nr_warnings; i++) {
			fprintf(out, "%s\n\tin", v->build.warnings[i].text);
			for (size_t k = 0; k < v->build.warnings[i].configs.nr; k++)
				fprintf(out, " %s", v->build.warnings[i].configs.v[k]);
			fputc('\n', out);
		}
	}
	strbuf_release(&sb);
}

static void json_block(struct json_writer *w, const struct vblock *b)
{
	json_object_begin(w, NULL);
	json_add_str(w, "path", b->path);
	json_add_int(w, "line", b->line);
	json_add_int(w, "block", b->number);
	json_object_end(w);
}

/* A configuration's expansion: its .config, pins, changed lines and lost claims. */
static void json_expansion(struct json_writer *w, const struct vampyr *v, const struct vconfig *c)
{
	json_add_str(w, "expanded", c->expanded > 0 ? c->expanded_path : NULL);
	json_array_begin(w, "pinned");
	for (size_t k = 0; k < c->pins.nr; k++)
		json_add_str(w, NULL, c->pins.v[k]);
	json_array_end(w);
	json_array_begin(w, "changed");
	for (size_t k = 0; k < c->changed.nr; k++)
		json_add_str(w, NULL, c->changed.v[k]);
	json_array_end(w);
	json_array_begin(w, "lost");
	for (size_t k = 0; k < c->nr_lost; k++) {
		const struct vlost *l = &c->lost[k];
		const struct vblock *b = &v->cover.blocks[l->block];

		json_object_begin(w, NULL);
		json_add_str(w, "path", b->path);
		json_add_int(w, "line", b->line);
		json_add_int(w, "block", b->number);
		json_add_str(w, "kind", lost_kind_name[l->kind]);
		json_add_str(w, "reason", l->chain);
		if (l->probe)
			json_add_str(w, "probe", l->probe);
		json_object_end(w);
	}
	json_array_end(w);
}

void vampyr_print_json(const struct vampyr *v, struct strbuf *out)
{
	struct json_writer w;
	char hex[GIT_OID_HEXSZ + 1];

	json_init(&w, out);
	json_object_begin(&w, NULL);
	json_add_str(&w, "commit", oid_hex(&v->src.commit, hex));
	if (v->src.patch)
		json_add_str(&w, "patch", v->src.patch);
	json_add_str(&w, "arch", v->src.arch);
	json_array_begin(&w, "configs");
	for (size_t i = 0; i < v->cover.nr_configs; i++) {
		const struct vconfig *c = &v->cover.configs[i];

		json_object_begin(&w, NULL);
		json_add_str(&w, "name", c->name);
		json_add_str(&w, "path", c->path);
		json_array_begin(&w, "assignments");
		for (size_t k = 0; k < c->assignments.nr; k++)
			json_add_str(&w, NULL, c->assignments.v[k]);
		json_array_end(&w);
		json_array_begin(&w, "covers");
		for (size_t k = 0; k < c->nr_claims; k++) {
			const struct vblock *b = &v->cover.blocks[c->claims[k]];
			char *names = vampyr_outside_names(&v->src, b);

			json_object_begin(&w, NULL);
			json_add_str(&w, "path", b->path);
			json_add_int(&w, "line", b->line);
			json_add_int(&w, "block", b->number);
			if (names)
				json_add_str(&w, "outside", names);
			json_object_end(&w);
			free(names);
		}
		json_array_end(&w);
		if (c->expanded)
			json_expansion(&w, v, c);
		json_object_end(&w);
	}
	json_array_end(&w);
	json_add_int(&w, "blocks_total", (long long)v->cover.nr_targets);
	json_add_int(&w, "blocks_covered", (long long)v->cover.nr_covered);
	json_add_int(&w, "blocks_dead", (long long)v->cover.nr_dead);
	json_array_begin(&w, "dead");
	for (size_t i = 0; i < v->cover.nr_blocks; i++)
		if (v->cover.blocks[i].target && v->cover.blocks[i].dead)
			json_block(&w, &v->cover.blocks[i]);
	json_array_end(&w);
	json_add_int(&w, "lower_bound", (long long)v->cover.lower_bound);
	if (v->toolchain.done) {
		json_add_int(&w, "blocks_toolchain", (long long)v->cover.nr_toolchain);
		json_array_begin(&w, "toolchain");
		for (size_t i = 0; i < v->cover.nr_blocks; i++)
			if (v->cover.blocks[i].target && v->cover.blocks[i].toolchain)
				json_block(&w, &v->cover.blocks[i]);
		json_array_end(&w);
		json_array_begin(&w, "toolchain_facts");
		for (size_t i = 0; i < v->toolchain.facts.nr; i++)
			json_add_str(&w, NULL, v->toolchain.facts.v[i]);
		json_array_end(&w);
	}
	if (v->expansion.done)
		json_add_int(&w, "blocks_covered_expanded", (long long)v->expansion.nr_covered);
	if (v->build.done) {
		json_array_begin(&w, "warnings");
		for (size_t i = 0; i < v->build.nr_warnings; i++) {
			json_object_begin(&w, NULL);
			json_add_str(&w, "text", v->build.warnings[i].text);
			json_array_begin(&w, "configs");
			for (size_t k = 0; k < v->build.warnings[i].configs.nr; k++)
				json_add_str(&w, NULL, v->build.warnings[i].configs.v[k]);
			json_array_end(&w);
			json_object_end(&w);
		}
		json_array_end(&w);
	}
	json_object_end(&w);
}

/* This run's section of the note: the summary, the fragments, the coverage. */
static void note_section(const struct vampyr_cover *cv, const struct vampyr_expansion *ex,
			 const struct vampyr_build *bd, const char *key, struct strbuf *out)
{
	strbuf_addf(out, "vampyr: %s: ", key);
	summary(cv, out);
	strbuf_addch(out, '\n');
	if (ex->done)
		strbuf_addf(out, "after expansion: %zu of %zu blocks compiled\n",
			    ex->nr_covered, cv->nr_targets);
	for (size_t i = 0; i < cv->nr_configs; i++) {
		const struct vconfig *c = &cv->configs[i];

		strbuf_addf(out, "%s:", c->name);
		for (size_t k = 0; k < c->assignments.nr; k++)
			strbuf_addf(out, " %s", c->assignments.v[k]);
		strbuf_addch(out, '\n');
		for (size_t k = 0; k < c->nr_claims; k++) {
			const struct vblock *b = &cv->blocks[c->claims[k]];

			strbuf_addf(out, "  covers %s:%d %s%s\n", b->shown, b->line, tag(b),
				    is_lost(c, c->claims[k]) ? " (lost by expansion)" : "");
		}
	}
	for (size_t i = 0; i < cv->nr_blocks; i++) {
		const struct vblock *b = &cv->blocks[i];

		if (b->target && b->dead)
			strbuf_addf(out, "dead %s:%d %s\n", b->shown, b->line, tag(b));
		if (b->target && b->toolchain && b->config < 0)
			strbuf_addf(out, "toolchain %s:%d %s\n", b->shown, b->line, tag(b));
	}
	for (size_t i = 0; i < cv->nr_configs; i++)
		for (size_t k = 0; k < cv->configs[i].nr_lost; k++)
			lost_line(cv, &cv->configs[i].lost[k], " ", out);
	for (size_t i = 0; i < bd->nr_warnings; i++)
		strbuf_addf(out, "adds %s\n", bd->warnings[i].text);
}

/* Does the line at p open the section of `key` ("vampyr: <key>: ...")? */
static int opens_section(const char *p, const char *key)
{
	size_t len = strlen(key);

	return starts_with(p, "vampyr: ") && !strncmp(p + 8, key, len) && p[8 + len] == ':' &&
	       p[9 + len] == ' ';
}

void vampyr_note(const struct vampyr_cover *cv, const struct vampyr_expansion *ex,
		 const struct vampyr_build *bd,
		 const char *old, const char *key, struct strbuf *out)
{
	int replaced = 0, skipping = 0;

	/* Sections of other runs (another architecture, other paths) stay as they were. */
	for (const char *p = old; p && *p; ) {
		const char *eol = strchrnul(p, '\n');

		if (starts_with(p, "vampyr: ")) {
			skipping = opens_section(p, key);
			if (skipping && !replaced) {
				note_section(cv, ex, bd, key, out);
				replaced = 1;
			}
		}
		if (!skipping) {
			strbuf_add(out, p, (size_t)(eol - p));
			strbuf_addch(out, '\n');
		}
		p = *eol ? eol + 1 : eol;
	}
	if (!replaced)
		note_section(cv, ex, bd, key, out);
}
