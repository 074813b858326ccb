// SPDX-License-Identifier: GPL-2.0
/*
 * test-model [--arch=<a>] [--top=<Kconfig>] <srctree> dimacs
 *	the model as DIMACS CNF
 * test-model [--arch=<a>] [--top=<Kconfig>] <srctree> check <.config>...
 *	does each full configuration satisfy the model? Exit 0 when all do,
 *	1 when one does not (the violated constraints are printed).
 * test-model [--arch=<a>] [--top=<Kconfig>] <srctree> sat <symbol[=y|m|n]>...
 *	is the conjunction satisfiable? Prints "sat" or "unsat" and the reasons.
 * test-model [--arch=<a>] <srctree> alive [<n>]
 *	every bool/tristate symbol asked "can it be on?" and "can it be off?":
 *	prints the dead and the undead ones, and the query time on stderr.
 * test-model [--all-arches] [--repeat=<n>] <srctree> stats
 *	build time and size of the model(s), on stderr.
 * test-model <srctree> damage
 *	the model saved (model_save), then read back with each byte of the
 *	entry changed in turn and cut at each length: prints how many of those
 *	model_load refused and how many it took (each then asked a question).
 * test-model <srctree> forced <in> <out>
 *	the values the defconfig <in> forces by evaluation alone
 *	(model_defconfig_forced) against <out>, what conf --olddefconfig wrote
 *	of it: prints each symbol conf gives another value, and exits 1 then.
 * --reload: every command works on the model saved and read back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "kconfig.h"
#include "logic.h"
#include "model.h"
#include "options.h"

static const char *const usage[] = {
	"test-model [<options>] <srctree> (dimacs | check <.config>... | sat <sym[=v]>... | alive [<n>] | stats | damage | forced <in> <out>)",
	NULL,
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *read_whole(const char *path)
{
	char *data;
	size_t len;

	if (read_file(path, &data, &len) < 0)
		die("cannot open %s: %s", path, strerror(errno));
	return data;
}

static struct model *reload(struct model *m, const struct kconfig *kc)
{
	struct strbuf sb = STRBUF_INIT;
	struct model *back;

	model_save(m, &sb);
	back = model_load(kc, &sb);
	if (!back)
		die("the saved model does not load back");
	strbuf_release(&sb);
	model_free(m);
	return back;
}

/* One damaged entry: refused (1), or taken and asked a question (0). */
static int try_damaged(const struct kconfig *kc, const struct strbuf *sb)
{
	struct model *m = model_load(kc, sb);
	int defined;

	if (!m)
		return 1;
	model_satisfiable(m, model_config(m, kc->nr_symbols ? kc->symbols[0]->name : "X", &defined));
	model_free(m);
	return 0;
}

static int damage(struct model *m, const struct kconfig *kc)
{
	struct strbuf sb = STRBUF_INIT, cut = STRBUF_INIT;
	size_t refused = 0, taken = 0, cuts_taken = 0;

	model_save(m, &sb);
	for (size_t i = 0; i < sb.len; i++) {
		sb.buf[i] ^= 0x5a;
		if (try_damaged(kc, &sb))
			refused++;
		else
			taken++;
		sb.buf[i] ^= 0x5a;
	}
	for (size_t len = 0; len < sb.len; len++) {
		strbuf_reset(&cut);
		strbuf_add(&cut, sb.buf, len);
		cuts_taken += !try_damaged(kc, &cut);
	}
	printf("changed bytes: %zu refused, %zu taken\ncuts taken: %zu of %zu\n", refused, taken,
	       cuts_taken, sb.len);
	strbuf_release(&sb);
	strbuf_release(&cut);
	return 0;
}

static int check(struct model *m, const struct strvec *args)
{
	int ret = 0;
	for (size_t i = 2; i < args->nr; i++) {
		char *config = read_whole(args->v[i]);
		struct strbuf why = STRBUF_INIT;
		if (model_check_config(m, config, &why)) {
			printf("%s: rejected\n%s", args->v[i], strbuf_str(&why));
			ret = 1;
		} else {
			printf("%s: ok\n", args->v[i]);
		}
		strbuf_release(&why);
		free(config);
	}
	return ret;
}

static int query(struct model *m, const struct strvec *args)
{
	struct logic *l = model_logic(m);
	formula f = LOGIC_TRUE;
	for (size_t i = 2; i < args->nr; i++) {
		const char *eq = strchr(args->v[i], '=');
		char *name = eq ? xstrndup(args->v[i], eq - args->v[i]) : xstrdup(args->v[i]);
		char *cfg = xstrfmt("CONFIG_%s", name), *mod = xstrfmt("CONFIG_%s_MODULE", name);
		int defined;
		formula y = model_config(m, cfg, &defined), mm = model_config(m, mod, &defined);
		char v = eq ? eq[1] : 'y';
		formula g = v == 'y' ? y : v == 'm' ? mm : logic_not(logic_or(l, y, mm));
		f = logic_and(l, f, g);
		free(name);
		free(cfg);
		free(mod);
	}
	if (model_satisfiable(m, f)) {
		printf("sat\n");
		return 0;
	}
	const struct model_reason **r;
	size_t n = model_explain(m, f, &r);
	printf("unsat\n");
	for (size_t i = 0; i < n; i++)
		printf("%s:%d: %s: %s\n", r[i]->path, r[i]->line, r[i]->symbol, r[i]->what);
	return 1;
}

/* A .config line's symbol and value (0 n, 1 m, 2 y, 3 another), or NULL. */
static struct kconfig_symbol *config_line(const struct kconfig *kc, const char *line, int *value)
{
	const char *p = line, *end;
	char *name;
	struct kconfig_symbol *s;

	if (starts_with(line, "# CONFIG_") && (end = strstr(p += 9, " is not set"))) {
		*value = 0;
	} else if (starts_with(line, "CONFIG_") && (end = strchr(p += 7, '='))) {
		*value = !strcmp(end, "=y") ? 2 : !strcmp(end, "=m") ? 1 : !strcmp(end, "=n") ? 0 : 3;
	} else {
		return NULL;
	}
	name = xstrndup(p, (size_t)(end - p));
	s = kconfig_lookup(kc, name);
	free(name);
	return s && s->nr_defs ? s : NULL;
}

/*
 * Each line's symbol and value of a .config, as values[] by symbol index
 * (-1 for none); the defconfig dc (when not NULL) set line by line, as conf reads it.
 */
static void config_values(const struct kconfig *kc, const char *path, signed char *values,
			  struct model_defconfig *dc)
{
	char *data = read_whole(path), *line = data;

	memset(values, -1, kc->nr_symbols + 1);
	while (line && *line) {
		char *nl = strchr(line, '\n');
		int v, tri;
		struct kconfig_symbol *s;

		if (nl)
			*nl = 0;
		s = config_line(kc, line, &v);
		line = nl ? nl + 1 : NULL;
		if (!s || s->index >= kc->nr_symbols)
			continue;
		values[s->index] = (signed char)v;
		tri = s->type == KCONFIG_BOOL || s->type == KCONFIG_TRISTATE;
		if (dc && (v < 3 || !tri))
			model_defconfig_set(dc, s, v < 3 && tri ? v : 3);
	}
	free(data);
}

static int forced(struct model *m, const struct kconfig *kc, const char *in, const char *out)
{
	struct model_defconfig *dc = model_defconfig_new(m, kc);
	signed char *given = xmalloc(kc->nr_symbols + 1), *kept = xmalloc(kc->nr_symbols + 1);
	size_t known = 0, bad = 0;

	config_values(kc, in, given, dc);
	config_values(kc, out, kept, NULL);
	for (size_t i = 0; i < kc->nr_symbols; i++) {
		const struct kconfig_symbol *s = kc->symbols[i];
		int f = s->type == KCONFIG_BOOL || s->type == KCONFIG_TRISTATE ?
			model_defconfig_forced(dc, s) : -1, v = kept[i] > 0 ? kept[i] : 0;

		if (f < 0)
			continue;
		known++;
		if (f != v) {
			printf("%s: forced %c, conf gives %c\n", s->name, "nmy"[f], "nmy"[v]);
			bad++;
		}
	}
	printf("forced %zu, otherwise %zu\n", known, bad);
	free(given);
	free(kept);
	model_defconfig_free(dc);
	return bad > 0;
}

static int alive(struct model *m, const struct kconfig *kc, size_t limit)
{
	struct logic *l = model_logic(m);
	size_t i, dead = 0, undead = 0, asked = 0;
	const struct kconfig_symbol *s;
	double t0 = now();
	for_each_kconfig_symbol(kc, i, s) {
		int y = model_var_y(m, s->name), mv = model_var_m(m, s->name);
		if (!y || (s->type != KCONFIG_BOOL && s->type != KCONFIG_TRISTATE))
			continue;
		if (limit && asked >= limit)
			break;
		formula on = logic_atom(l, y);
		if (mv)
			on = logic_or(l, on, logic_atom(l, mv));
		asked++;
		if (!model_satisfiable(m, on)) {
			printf("dead CONFIG_%s\n", s->name);
			dead++;
		} else if (!model_satisfiable(m, logic_not(on))) {
			printf("undead CONFIG_%s\n", s->name);
			undead++;
		}
	}
	struct sat_stats st;
	sat_get_stats(model_sat(m), &st);
	fprintf(stderr, "%zu symbols asked, %zu dead, %zu undead, %.3f s (%zu queries, %zu answered without the solver, %zu solver calls)\n",
		asked, dead, undead, now() - t0, st.queries, st.cached + st.witnessed, st.calls);
	return 0;
}

int main(int argc, const char **argv)
{
	const char *arch = NULL, *top = NULL;
	int all = 0, repeat = 1, ret = 0, again = 0;
	struct option opts[] = {
		OPT_STRING(0, "arch", &arch, "arch", "the architecture"),
		OPT_STRING(0, "top", &top, "file", "the top Kconfig file"),
		OPT_BOOL(0, "all-arches", &all, "every architecture (stats)"),
		OPT_INT(0, "repeat", &repeat, "n", "build n times (stats)"),
		OPT_BOOL(0, "reload", &again, "save the model and read it back first"),
		OPT_END(),
	};
	struct parsed_args pa;
	struct kconfig_reader reader;
	struct kconfig_options kopts = { 0 };
	struct strvec arches = STRVEC_INIT;

	set_program_name("test-model");
	parse_options(argc, argv, opts, usage, "test-model", &pa);
	if (pa.args.nr < 2)
		usage_with_options(usage, opts);
	const char *cmd = pa.args.v[1];
	kconfig_fs_reader_init(&reader, pa.args.v[0]);
	kopts.top = top;
	kopts.cache = kconfig_cache_new();
	kopts.quiet = !strcmp(cmd, "stats");
	if (all && kconfig_architectures(&reader, top, &arches) <= 0)
		strvec_push(&arches, "");
	if (!all)
		strvec_push(&arches, arch ? arch : "");

	double start = now(), parse = 0, build = 0;
	for (int r = 0; r < repeat && !ret; r++) {
		for (size_t i = 0; i < arches.nr && !ret; i++) {
			const char *a = *arches.v[i] ? arches.v[i] : NULL;
			double t0 = now();
			struct kconfig *kc = kconfig_parse(&reader, a, &kopts);
			if (!kc)
				die("cannot read the top Kconfig");
			parse += now() - t0;
			double t1 = now();
			struct model *m = model_build(kc);
			build += now() - t1;
			if (again)
				m = reload(m, kc);
			if (!strcmp(cmd, "dimacs")) {
				model_dump_dimacs(m, stdout);
			} else if (!strcmp(cmd, "check")) {
				ret = check(m, &pa.args);
			} else if (!strcmp(cmd, "alive")) {
				ret = alive(m, kc, pa.args.nr > 2 ? strtoul(pa.args.v[2], NULL, 10) : 0);
			} else if (!strcmp(cmd, "sat")) {
				ret = query(m, &pa.args);
			} else if (!strcmp(cmd, "forced") && pa.args.nr == 4) {
				ret = forced(m, kc, pa.args.v[2], pa.args.v[3]);
			} else if (!strcmp(cmd, "damage")) {
				ret = damage(m, kc);
			} else if (!strcmp(cmd, "stats")) {
				struct model_stats st;
				model_get_stats(m, &st);
				if (!r)
					fprintf(stderr, "%s: %zu symbols, %zu constraints, %zu vars, %zu clauses, %zu nodes\n",
						a ? a : "-", st.symbols, st.constraints, st.vars, st.clauses, st.nodes);
			} else {
				usage_with_options(usage, opts);
			}
			model_free(m);
			kconfig_free(kc);
		}
	}
	if (!strcmp(cmd, "stats"))
		fprintf(stderr, "%.3f s total (%.3f s parsing, %.3f s encoding) for %d x %zu models\n",
			now() - start, parse, build, repeat, arches.nr);
	kconfig_cache_free(kopts.cache);
	kconfig_fs_reader_release(&reader);
	strvec_clear(&arches);
	parsed_args_clear(&pa);
	return ret;
}
