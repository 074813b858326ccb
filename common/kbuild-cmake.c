// SPDX-License-Identifier: GPL-2.0
/*
 * Zephyr's build model, for a tree built with CMake (a top CMakeLists.txt,
 * no top Makefile): from the root down, each directory's CMakeLists.txt is
 * read for its sources and subdirectories, with the conditions CMake gives:
 *
 * - `zephyr_library_sources(a.c)`, `zephyr_sources(...)`, `target_sources(
 *   <target> PRIVATE ...)` and any other `*sources*` command list sources;
 *   `add_subdirectory(dir)` the directories read next;
 * - `<command>_ifdef(CONFIG_X ...)` holds when CONFIG_X is on,
 *   `<command>_ifndef(CONFIG_X ...)` when it is off, `add_subdirectory_if_
 *   kconfig(dir)` when CONFIG_<DIR> is on, a source of `<command>_if_kconfig`
 *   (poll.c) when CONFIG_<NAME> (CONFIG_POLL) is; `add_library(<target>
 *   files...)` lists sources too;
 * - `if(...)`, `elseif(...)`, `else()`, `endif()` over CONFIG_X, ${CONFIG_X},
 *   `DEFINED CONFIG_X`, NOT, AND, OR and parentheses; any other test
 *   (STREQUAL, a variable that is not a CONFIG symbol) is a free variable.
 *
 * Paths are the directory's, or ${CMAKE_CURRENT_SOURCE_DIR}/,
 * ${CMAKE_CURRENT_LIST_DIR}/ and ${ZEPHYR_BASE}/ ones; any other ${VAR} is
 * unknown (a pattern over the directory's files, or its subdirectories,
 * under a free variable). Function and macro bodies are definitions, not
 * read; `include()`d .cmake files and variables set with set() are not
 * followed.
 */
#include "kbuild-internal.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One command invocation: its name (lower case) and arguments, "(" and ")" as tokens. */
struct cm_cmd {
	char name[64];
	struct strvec args;
	int line;
};

static const char *skip_space(const char *p, const char *end, int *line)
{
	while (p < end) {
		if (*p == '\n') {
			(*line)++;
			p++;
		} else if (isspace((unsigned char)*p)) {
			p++;
		} else if (*p == '#') {
			/* a bracket comment #[[ ... ]] or a line comment */
			const char *close = p + 1 < end && p[1] == '[' && p + 2 < end && p[2] == '[' ?
				strstr(p, "]]") : NULL;
			const char *stop = close ? close + 2 : memchr(p, '\n', (size_t)(end - p));

			for (const char *q = p; q < (stop ? stop : end); q++)
				*line += *q == '\n';
			p = stop ? stop : end;
		} else {
			break;
		}
	}
	return p;
}

/* The arguments of a command, from after its '(' to the matching ')'. */
static const char *read_args(const char *p, const char *end, struct cm_cmd *c, int *line)
{
	int depth = 1;

	while (p < end && depth) {
		p = skip_space(p, end, line);
		if (p >= end)
			break;
		if (*p == '(' || *p == ')') {
			depth += *p == '(' ? 1 : -1;
			if (depth)
				strvec_push(&c->args, *p == '(' ? "(" : ")");
			p++;
		} else if (*p == '"') {
			struct strbuf sb = STRBUF_INIT;

			for (p++; p < end && *p != '"'; p++) {
				if (*p == '\\' && p + 1 < end)
					p++;
				*line += *p == '\n';
				strbuf_addch(&sb, *p);
			}
			p += p < end;
			strvec_push(&c->args, strbuf_str(&sb));
			strbuf_release(&sb);
		} else {
			const char *s = p;

			/* strchr finds the terminator too: a NUL byte ends a word, as a space does */
			while (p < end && !isspace((unsigned char)*p) && *p && !strchr("()\"#", *p))
				p += *p == '\\' && p + 1 < end ? 2 : 1;
			if (p == s) {
				p++;	/* a NUL, or a # inside the arguments: skipped */
				continue;
			}
			strvec_pushf(&c->args, "%.*s", (int)(p - s), s);
		}
	}
	return p;
}

/* The next command of the text, or 0 at its end. */
static int next_cmd(const char **pp, const char *end, struct cm_cmd *c, int *line)
{
	const char *p = *pp;

	for (;;) {
		size_t n = 0;

		p = skip_space(p, end, line);
		if (p >= end)
			return 0;
		c->line = *line;
		while (p < end && (isalnum((unsigned char)*p) || *p == '_')) {
			if (n + 1 < sizeof(c->name))
				c->name[n++] = (char)tolower((unsigned char)*p);
			p++;
		}
		c->name[n] = '\0';
		p = skip_space(p, end, line);
		if (n && p < end && *p == '(') {
			strvec_clear(&c->args);
			*pp = read_args(p + 1, end, c, line);
			return 1;
		}
		/* not a command: on to the next line */
		while (p < end && *p != '\n')
			p++;
	}
}

struct cm_state {
	struct builder *b;
	struct kdir *d;
	const char *path;	/* the CMakeLists.txt, for origins */
	const char *text;
};

static int is_config(const char *t, const char **name)
{
	if (starts_with(t, "${CONFIG_") && ends_with(t, "}") && !strchr(t + 2, '$')) {
		static __thread char buf[256];

		snprintf(buf, sizeof(buf), "%.*s", (int)strlen(t) - 3, t + 2);
		*name = buf;
		return 1;
	}
	if (starts_with(t, "CONFIG_") && t[7] && !strpbrk(t, "${}")) {
		*name = t;
		return 1;
	}
	return 0;
}

static const struct kbuild_expr *cond_or(struct cm_state *s, const struct strvec *a, size_t *i);

static const struct kbuild_expr *cond_operand(struct cm_state *s, const struct strvec *a, size_t *i)
{
	static const char *const truthy[] = { "1", "ON", "YES", "TRUE", "Y" };
	static const char *const falsy[] = { "0", "OFF", "NO", "FALSE", "N", "IGNORE", "NOTFOUND", "" };
	struct kbuild_exprs *ex = s->b->ex;
	const char *t, *name;

	if (*i >= a->nr)
		return kbuild_expr_free(ex, "if()");
	t = a->v[(*i)++];
	if (!strcmp(t, "(")) {
		const struct kbuild_expr *e = cond_or(s, a, i);

		*i += *i < a->nr && !strcmp(a->v[*i], ")");
		return e;
	}
	if (!strcmp(t, "DEFINED") && *i < a->nr) {
		t = a->v[(*i)++];
		if (is_config(t, &name))
			return kbuild_expr_enabled(ex, name);
		return kbuild_expr_free(ex, t);
	}
	/* a comparison or another test: its text is one free variable */
	if (*i < a->nr && isupper((unsigned char)a->v[*i][0]) &&
	    strcmp(a->v[*i], "AND") && strcmp(a->v[*i], "OR") && strcmp(a->v[*i], ")")) {
		char *text = xstrfmt("%s %s %s", t, a->v[*i], *i + 1 < a->nr ? a->v[*i + 1] : "");
		const struct kbuild_expr *e = kbuild_expr_free(ex, text);

		free(text);
		*i += 1 + (*i + 1 < a->nr);
		return e;
	}
	if (is_config(t, &name))
		return kbuild_expr_enabled(ex, name);
	for (size_t k = 0; k < ARRAY_SIZE(truthy); k++)
		if (!strcasecmp(t, truthy[k]))
			return kbuild_expr_true(ex);
	for (size_t k = 0; k < ARRAY_SIZE(falsy); k++)
		if (!strcasecmp(t, falsy[k]))
			return kbuild_expr_false(ex);
	return kbuild_expr_free(ex, t);
}

static const struct kbuild_expr *cond_not(struct cm_state *s, const struct strvec *a, size_t *i)
{
	if (*i < a->nr && !strcmp(a->v[*i], "NOT")) {
		(*i)++;
		return kbuild_expr_not(s->b->ex, cond_not(s, a, i));
	}
	return cond_operand(s, a, i);
}

static const struct kbuild_expr *cond_and(struct cm_state *s, const struct strvec *a, size_t *i)
{
	const struct kbuild_expr *e = cond_not(s, a, i);

	while (*i < a->nr && !strcmp(a->v[*i], "AND")) {
		(*i)++;
		e = kbuild_expr_and(s->b->ex, e, cond_not(s, a, i));
	}
	return e;
}

static const struct kbuild_expr *cond_or(struct cm_state *s, const struct strvec *a, size_t *i)
{
	const struct kbuild_expr *e = cond_and(s, a, i);

	while (*i < a->nr && !strcmp(a->v[*i], "OR")) {
		(*i)++;
		e = kbuild_expr_or(s->b->ex, e, cond_and(s, a, i));
	}
	return e;
}

static const struct kbuild_expr *cond_of(struct cm_state *s, const struct strvec *a)
{
	size_t i = 0;
	const struct kbuild_expr *e = cond_or(s, a, &i);

	/* what the grammar above does not take is not guessed at */
	return i == a->nr ? e : kbuild_expr_free(s->b->ex, "if(...)");
}

/*
 * A path argument, relative to the directory: ${CMAKE_CURRENT_SOURCE_DIR}/
 * and ${CMAKE_CURRENT_LIST_DIR}/ are the directory, ${ZEPHYR_BASE}/ the
 * root ("/" first); any other ${VAR} becomes KMAKE_UNKNOWN.
 */
static char *expand_path(const char *t)
{
	static const char *const here[] = { "${CMAKE_CURRENT_SOURCE_DIR}", "${CMAKE_CURRENT_LIST_DIR}" };
	struct strbuf sb = STRBUF_INIT;

	for (size_t k = 0; k < ARRAY_SIZE(here); k++)
		if (starts_with(t, here[k])) {
			t += strlen(here[k]);
			t += *t == '/';
		}
	if (starts_with(t, "${ZEPHYR_BASE}")) {
		t += strlen("${ZEPHYR_BASE}");
		strbuf_addch(&sb, '/');
		t += *t == '/';
	}
	while (*t) {
		const char *close;

		if (t[0] == '$' && t[1] == '{' && (close = strchr(t, '}'))) {
			strbuf_addch(&sb, KMAKE_UNKNOWN);
			t = close + 1;
		} else {
			strbuf_addch(&sb, *t++);
		}
	}
	return strbuf_detach(&sb, NULL);
}

static const struct kbuild_origin *origin_of(struct cm_state *s, const struct cm_cmd *c)
{
	const char *p = s->text;

	for (int l = 1; l < c->line && p; l++) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	if (!p)
		return NULL;
	return kbuild_exprs_origin(s->b->ex, s->path, c->line, p, strcspn(p, "\n"));
}

static void add_source(struct cm_state *s, const char *arg, const struct kbuild_expr *cond,
		       const struct kbuild_origin *origin)
{
	char *t = expand_path(arg);
	size_t len = strlen(t);
	struct kobj *o;

	if (!ends_with(t, ".c") && !ends_with(t, ".S")) {
		free(t);
		return;
	}
	if (has_unknown(t)) {
		char *glob;

		if (t[0] == '/') {
			free(t);
			return;
		}
		glob = xstrfmt("%.*s.o", (int)len - 2, t);
		o = kbuild_dir_add_obj(s->b, s->d, glob, 1);
		free(glob);
	} else {
		char *stem = xstrndup(t + (t[0] == '/'), len - 2 - (t[0] == '/'));

		o = kbuild_dir_add_obj(s->b, s->d, stem, 0);
		if (t[0] == '/') {
			free(o->stem);
			o->stem = kbuild_join("", stem);
		}
		free(stem);
	}
	o->la = cond;
	o->origin = origin;
	free(t);
}

static void add_subdir(struct cm_state *s, const char *arg, const struct kbuild_expr *cond,
		       const struct kbuild_origin *origin)
{
	struct builder *b = s->b;
	char *t = expand_path(arg), *path;

	path = kbuild_join(t[0] == '/' ? "" : s->d->path, t + (t[0] == '/'));
	free(t);
	if (!has_unknown(path)) {
		kbuild_dir_add_edge(b, s->d, path + (*s->d->path ? strlen(s->d->path) + 1 : 0),
				    strlen(path) - (*s->d->path ? strlen(s->d->path) + 1 : 0),
				    kbuild_expr_false(b->ex), cond, origin);
		free(path);
		return;
	}
	for (char *q = path; *q; q++)
		if (*q == KMAKE_UNKNOWN)
			*q = '*';
	cond = kbuild_expr_and(b->ex, cond, kbuild_expr_free(b->ex, path));
	kbuild_coreboot_paths(b);
	for (size_t k = 0; k < b->tree_dirs.nr; k++)
		if (!fnmatch(path, b->tree_dirs.v[k], FNM_PATHNAME) &&
		    starts_with(b->tree_dirs.v[k], s->d->path))
			kbuild_dir_add_edge(b, s->d, b->tree_dirs.v[k] + (*s->d->path ? strlen(s->d->path) + 1 : 0),
					    strlen(b->tree_dirs.v[k]) - (*s->d->path ? strlen(s->d->path) + 1 : 0),
					    kbuild_expr_false(b->ex), cond, origin);
	free(path);
}

/*
 * One command under `cond`: a sources command or add_subdirectory, plain,
 * _ifdef(CONFIG_X ...), _ifndef(CONFIG_X ...) or _if_kconfig(dir).
 */
/* Zephyr's *_if_kconfig(x): CONFIG_X, from the name without its directory and suffix. */
static const struct kbuild_expr *kconfig_of(struct kbuild_exprs *ex, const char *arg)
{
	const char *base = strrchr(arg, '/') ? strrchr(arg, '/') + 1 : arg;
	char *sym = xstrfmt("CONFIG_%.*s", (int)strcspn(base, "."), base);
	const struct kbuild_expr *e;

	if (strchr(base, '$')) {
		/* ${VAR}.c: which symbol is not known */
		free(sym);
		return kbuild_expr_free(ex, arg);
	}
	for (char *q = sym; *q; q++)
		*q = (char)toupper((unsigned char)*q);
	e = kbuild_expr_enabled(ex, sym);
	free(sym);
	return e;
}

static void command(struct cm_state *s, const struct cm_cmd *c, const struct kbuild_expr *cond)
{
	static const char *const keywords[] = {
		"PRIVATE", "PUBLIC", "INTERFACE", "STATIC", "SHARED", "OBJECT", "MODULE",
		"EXCLUDE_FROM_ALL",
	};
	struct kbuild_exprs *ex = s->b->ex;
	char base[64];
	size_t first = 0, len = strlen(c->name);
	const char *name;
	int sources, per_file = 0;

	snprintf(base, sizeof(base), "%s", c->name);
	if (ends_with(base, "_ifdef") || ends_with(base, "_ifndef")) {
		int neg = ends_with(base, "_ifndef");
		const struct kbuild_expr *toggle;

		if (!c->args.nr)
			return;
		base[len - (neg ? 7 : 6)] = '\0';
		first = 1;
		toggle = is_config(c->args.v[0], &name) ? kbuild_expr_enabled(ex, name) :
			kbuild_expr_free(ex, c->args.v[0]);
		cond = kbuild_expr_and(ex, cond, neg ? kbuild_expr_not(ex, toggle) : toggle);
	} else if (!strcmp(base, "add_subdirectory_if_kconfig") && c->args.nr) {
		add_subdir(s, c->args.v[0], kbuild_expr_and(ex, cond, kconfig_of(ex, c->args.v[0])),
			   origin_of(s, c));
		return;
	} else if (ends_with(base, "_if_kconfig")) {
		/* target_sources_if_kconfig(kernel PRIVATE poll.c): poll.c under CONFIG_POLL */
		base[len - strlen("_if_kconfig")] = '\0';
		per_file = 1;
	}
	/* add_library(kernel device.c ...) lists sources too */
	sources = strstr(base, "sources") != NULL || !strcmp(base, "add_library");
	if (!sources && strcmp(base, "add_subdirectory"))
		return;
	if (sources && (starts_with(base, "target_sources") || !strcmp(base, "add_library")))
		first++;	/* the target */
	for (size_t i = first; i < c->args.nr; i++) {
		const char *a = c->args.v[i];
		size_t k;

		for (k = 0; k < ARRAY_SIZE(keywords) && strcmp(a, keywords[k]); k++)
			;
		if (k < ARRAY_SIZE(keywords))
			continue;
		if (sources) {
			add_source(s, a, per_file ? kbuild_expr_and(ex, cond, kconfig_of(ex, a)) : cond,
				   origin_of(s, c));
		} else {
			add_subdir(s, a, cond, origin_of(s, c));
			break;	/* then its binary directory, EXCLUDE_FROM_ALL */
		}
	}
}

/* if/elseif/else/endif: the condition of each branch, nested. */
struct cm_frame {
	const struct kbuild_expr *outer, *taken;
};

void kbuild_cmake_parse_dir(struct builder *b, struct kdir *d)
{
	struct cm_state s = { b, d, NULL, NULL };
	struct kbuild_exprs *ex = b->ex;
	struct kbuild_text t = { 0 };
	struct cm_cmd c = { .args = STRVEC_INIT };
	struct cm_frame *stack = NULL;
	size_t nr = 0, alloc = 0;
	const struct kbuild_expr *cond = kbuild_expr_true(ex);
	char *file = kbuild_join(d->path, "CMakeLists.txt");
	const char *p, *end;
	int line = 1, skip = 0, r = b->rd->read(b->rd->ctx, file, &t);

	if (r) {
		if (r == 1)
			strvec_pushf(&d->deps, "%s -", file);
		free(file);
		return;
	}
	strvec_pushf(&d->deps, "%s %s", file, t.id);
	b->m->stats.makefiles++;
	s.path = kbuild_exprs_string(ex, file);
	s.text = t.data;
	for (p = t.data, end = t.data + t.len; next_cmd(&p, end, &c, &line); ) {
		/* a function's or a macro's body is a definition */
		if (!strcmp(c.name, "function") || !strcmp(c.name, "macro"))
			skip++;
		else if (skip && (!strcmp(c.name, "endfunction") || !strcmp(c.name, "endmacro")))
			skip--;
		if (skip || !strcmp(c.name, "endfunction") || !strcmp(c.name, "endmacro"))
			continue;
		if (!strcmp(c.name, "if")) {
			const struct kbuild_expr *e = cond_of(&s, &c.args);

			ALLOC_GROW(stack, nr + 1, alloc);
			stack[nr].outer = cond;
			stack[nr++].taken = e;
			cond = kbuild_expr_and(ex, cond, e);
		} else if (nr && !strcmp(c.name, "elseif")) {
			const struct kbuild_expr *e = cond_of(&s, &c.args);

			cond = kbuild_expr_and(ex, stack[nr - 1].outer,
					       kbuild_expr_and(ex, kbuild_expr_not(ex, stack[nr - 1].taken), e));
			stack[nr - 1].taken = kbuild_expr_or(ex, stack[nr - 1].taken, e);
		} else if (nr && !strcmp(c.name, "else")) {
			cond = kbuild_expr_and(ex, stack[nr - 1].outer,
					       kbuild_expr_not(ex, stack[nr - 1].taken));
		} else if (nr && !strcmp(c.name, "endif")) {
			cond = stack[--nr].outer;
		} else {
			command(&s, &c, cond);
		}
	}
	strvec_clear(&c.args);
	free(stack);
	if (b->rd->release)
		b->rd->release(b->rd->ctx, &t);
	free(file);
}
