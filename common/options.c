// SPDX-License-Identifier: GPL-2.0
#include "options.h"
#include "report.h"

#include <git2.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


void common_options_init(struct common_options *c)
{
	const char *stats = getenv("UNDERTAKER_STATS");
	const char *pool = getenv("UNDERTAKER_POOL");
	const char *kcache = getenv("UNDERTAKER_KCONFIG_CACHE");

	memset(c, 0, sizeof(*c));
	c->notes = 1;
	c->format = "text";
	c->stats = stats != NULL;
	if (pool && *pool) {
		char *end;
		unsigned long n = strtoul(pool, &end, 10);

		/* Not a number: the default, as an unset variable. */
		if (!*end)
			c->pool = !n ? -1 : n > INT_MAX ? INT_MAX : (int)n;
	}
	if (kcache && *kcache) {
		char *end;
		unsigned long long n = strtoull(kcache, &end, 10);

		if (!*end && n <= SIZE_MAX / 1024)
			c->kconfig_cache_kib = (size_t)n;
	}
}

static const char *const *current_usage;

static void print_usage(FILE *f, const char *const *usage, const struct option *opts)
{
	fprintf(f, "usage: %s\n", usage[0]);
	for (size_t i = 1; usage[i]; i++)
		fprintf(f, "   or: %s\n", usage[i]);
	if (!opts)
		return;
	fputc('\n', f);
	for (const struct option *o = opts; o->type != OPTION_END; o++) {
		struct strbuf sb = STRBUF_INIT;

		if (o->type == OPTION_GROUP) {
			fprintf(f, "%s%s\n", o == opts ? "" : "\n", o->help);
			continue;
		}
		/* No help: a hidden option (an old spelling kept for a while). */
		if (!o->help)
			continue;
		strbuf_addstr(&sb, "    ");
		if (o->short_name)
			strbuf_addf(&sb, "-%c%s", o->short_name, o->long_name ? ", " : "");
		if (o->long_name)
			strbuf_addf(&sb, "--%s%s", o->type == OPTION_BOOL && strcmp(o->long_name, "notes") == 0 ? "[no-]" : "", o->long_name);
		if (o->argh) {
			if (o->type == OPTION_OPTSTRING)
				strbuf_addf(&sb, "[=<%s>]", o->argh);
			else if (o->long_name)
				strbuf_addf(&sb, " <%s>", o->argh);
			else
				strbuf_addf(&sb, " <%s>", o->argh);
		}
		if (sb.len < 30)
			fprintf(f, "%-30s%s\n", sb.buf, o->help);
		else
			fprintf(f, "%s\n%30s%s\n", sb.buf, "", o->help);
		strbuf_release(&sb);
	}
}

void usage_with_options(const char *const *usage, const struct option *opts)
{
	print_usage(stdout, usage, opts);
	exit(EXIT_USAGE);
}

void usage_error(const char *const *usage, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: error: %s\n", program_name(), sb.buf);
	strbuf_release(&sb);
	if (!usage)
		usage = current_usage;
	if (usage)
		print_usage(stderr, usage, NULL);
	exit(EXIT_USAGE);
}

static int set_value(const struct option *o, const char *arg, const char *optname)
{
	long n;

	switch (o->type) {
	case OPTION_INT:
		if (parse_int(arg, &n) < 0 || n < 0 || n > 1000000)
			usage_error(current_usage, "option '%s' expects a number, not '%s'", optname, arg);
		*(int *)o->value = (int)n;
		break;
	case OPTION_STRING:
	case OPTION_OPTSTRING:
		*(const char **)o->value = arg;
		break;
	case OPTION_LIST:
		strvec_push(o->value, arg);
		break;
	case OPTION_REV_ARG:
		strvec_pushf(o->value, "--%s=%s", o->long_name, arg);
		break;
	default:
		return -1;
	}
	return 0;
}

/* Returns how many argv entries were used. */
static int parse_long(const char *arg, const char *next, const struct option *opts)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	int negated = 0;
	const struct option *match = NULL;

	for (int pass = 0; pass < 2 && !match; pass++) {
		const char *name = arg;
		size_t nlen = len;

		if (pass == 1) {
			if (strncmp(arg, "no-", 3))
				break;
			name += 3;
			nlen -= 3;
			negated = 1;
		}
		for (const struct option *o = opts; o->type != OPTION_END; o++)
			if (o->long_name && strlen(o->long_name) == nlen &&
			    !strncmp(o->long_name, name, nlen)) {
				match = o;
				break;
			}
	}
	if (!match || match->type == OPTION_GROUP)
		usage_error(current_usage, "unknown option '%s'", arg);
	if (negated) {
		if (match->type == OPTION_BOOL && !eq) {
			*(int *)match->value = 0;
			return 1;
		}
		if (match->type == OPTION_STRING || match->type == OPTION_OPTSTRING) {
			*(const char **)match->value = NULL;
			return 1;
		}
		if (match->type == OPTION_LIST) {
			strvec_clear(match->value);
			return 1;
		}
		usage_error(current_usage, "option '%s' cannot be negated", match->long_name);
	}
	if (match->type == OPTION_BOOL || match->type == OPTION_REV_FLAG) {
		if (eq)
			usage_error(current_usage, "option '%s' takes no value", match->long_name);
		if (match->type == OPTION_REV_FLAG)
			strvec_pushf(match->value, "--%s", match->long_name);
		else
			*(int *)match->value = 1;
		return 1;
	}
	if (match->type == OPTION_OPTSTRING) {
		*(const char **)match->value = eq ? eq + 1 : "";
		return 1;
	}
	if (eq) {
		set_value(match, eq + 1, match->long_name);
		return 1;
	}
	if (!next)
		usage_error(current_usage, "option '%s' requires a value", match->long_name);
	set_value(match, next, match->long_name);
	return 2;
}

static int parse_short(const char *arg, const char *next, const struct option *opts)
{
	/* arg points after the '-'; allows bundled booleans: -qv */
	for (const char *p = arg; *p; p++) {
		const struct option *match = NULL;

		for (const struct option *o = opts; o->type != OPTION_END; o++)
			if (o->short_name == *p) {
				match = o;
				break;
			}
		if (!match)
			usage_error(current_usage, "unknown switch '%c'", *p);
		if (match->type == OPTION_BOOL) {
			*(int *)match->value = 1;
			continue;
		}
		if (match->type == OPTION_OPTSTRING) {
			*(const char **)match->value = p[1] ? p + 1 : "";
			return 1;
		}
		if (p[1]) {
			char name[3] = { '-', *p, 0 };

			set_value(match, p + 1, name);
			return 1;
		}
		if (!next)
			usage_error(current_usage, "switch '%c' requires a value", *p);
		{
			char name[3] = { '-', *p, 0 };

			set_value(match, next, name);
		}
		return 2;
	}
	return 1;
}

void parse_options(int argc, const char **argv, const struct option *opts,
		   const char *const *usage, const char *cmd, struct parsed_args *out)
{
	memset(out, 0, sizeof(*out));
	current_usage = usage;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *next = i + 1 < argc ? argv[i + 1] : NULL;
		int used;

		if (out->seen_dashdash) {
			strvec_push(&out->paths, a);
			continue;
		}
		if (!strcmp(a, "--")) {
			out->seen_dashdash = 1;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help-all"))
			usage_with_options(usage, opts);
		if (!strcmp(a, "--help")) {
			char *page = xstrfmt("%s", cmd);

			execlp("git", "git", "help", page, (char *)NULL);
			die("cannot run 'git help %s'", page);
		}
		if (!strcmp(a, "--version")) {
			printf("git %s version %s\n", cmd, suite_version);
			exit(EXIT_CLEAN);
		}
		if (a[0] != '-' || !a[1]) {
			strvec_push(&out->args, a);
			continue;
		}
		if (a[1] == '-')
			used = parse_long(a + 2, next, opts);
		else
			used = parse_short(a + 1, next, opts);
		i += used - 1;
	}
}

/*
 * A job per online CPU, but no more than one per JOB_MEMORY of the memory
 * available (MemAvailable): a worker of git undertaker holds its own
 * primary model and files (Linux: about 150-200 MB more at -j2 than at
 * -j1), a job of vampyr or backport its compiler or spatch.
 */
#define JOB_MEMORY ((uint64_t)512 << 20)

static int default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	int jobs = n > 0 ? (int)n : 1;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long kib;

		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
			uint64_t fit = (uint64_t)kib * 1024 / JOB_MEMORY;

			if (fit < (uint64_t)jobs)
				jobs = fit ? (int)fit : 1;
			break;
		}
	}
	if (f)
		fclose(f);
	return jobs;
}

void common_options_finish(struct common_options *c, const char *tool)
{
	int known = 0;

	for (size_t i = 0; c->formats && c->formats[i]; i++)
		known |= c->format && !strcmp(c->format, c->formats[i]);
	if (!c->format || !strcmp(c->format, "text") || known) {
		c->json = 0;
	} else if (!strcmp(c->format, "json")) {
		c->json = 1;
	} else {
		struct strbuf also = STRBUF_INIT;

		for (size_t i = 0; c->formats && c->formats[i]; i++)
			strbuf_addf(&also, ", '%s'", c->formats[i]);
		usage_error(current_usage, "--format must be 'text', 'json'%s, not '%s'",
			    strbuf_str(&also), c->format);
	}
	if (c->jobs <= 0)
		c->jobs = default_jobs();
	quiet = c->quiet;
	if (c->no_color)
		color_option(0);
	else if (c->color && color_option_parse(c->color) < 0)
		usage_error(current_usage, "--color takes always, never or auto, not '%s'", c->color);
	if (c->notes_ref) {
		char *ref = common_notes_ref(c, tool);
		int valid = 0;

		/* As git notes refuses GIT_NOTES_REF=refs/heads/x: a branch is no place for notes. */
		if (!starts_with(ref, "refs/notes/"))
			usage_error(current_usage, "refusing to write notes in %s (outside of refs/notes/)", ref);
		git_libgit2_init();
		if (git_reference_name_is_valid(&valid, ref) < 0)
			valid = 0;
		git_libgit2_shutdown();
		if (!valid)
			usage_error(current_usage, "--notes-ref: '%s' is not a valid ref name", ref);
		free(ref);
	}
}

char *common_notes_ref(const struct common_options *c, const char *tool)
{
	if (!c->notes_ref)
		return xstrfmt("refs/notes/%s", tool);
	if (starts_with(c->notes_ref, "refs/"))
		return xstrdup(c->notes_ref);
	if (starts_with(c->notes_ref, "notes/"))
		return xstrfmt("refs/%s", c->notes_ref);
	return xstrfmt("refs/notes/%s", c->notes_ref);
}

void parsed_args_clear(struct parsed_args *pa)
{
	strvec_clear(&pa->args);
	strvec_clear(&pa->paths);
}

void parsed_args_add_revopts(struct parsed_args *pa, struct strvec *revopts)
{
	struct strvec all = STRVEC_INIT;

	for (size_t i = 0; i < revopts->nr; i++)
		strvec_push(&all, revopts->v[i]);
	for (size_t i = 0; i < pa->args.nr; i++)
		strvec_push(&all, pa->args.v[i]);
	strvec_clear(&pa->args);
	pa->args = all;
	strvec_clear(revopts);
}
