// SPDX-License-Identifier: GPL-2.0
/*
 * test-kconfig [--arch=<a> | --all-arches | --arches] [--details | --no-dump]
 *              [--env NAME=VALUE] [--stats] <srctree> [<Kconfig>]
 * test-kconfig --git=<rev> [<options>] [<Kconfig>]
 *
 * Parses a Kconfig tree from the filesystem (or from a commit of the
 * repository of the current directory, with --git) and prints its symbols (as
 * `--dump-model=symbols` does), or everything parsed (--details), or the
 * architectures (--arches). Exits 1 when the parse found errors.
 */
#include "kconfig.h"
#include "kconfig-git.h"
#include "options.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const usage[] = {
	"test-kconfig [<options>] <srctree> [<Kconfig>]",
	"test-kconfig --git=<rev> [<options>] [<Kconfig>]",
	NULL,
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One parse per architecture; with -j, several threads take them in turn. */
struct run {
	struct repo *repo;
	const git_oid *commit;
	const char *root;
	const struct kconfig_options *kopts;
	const struct strvec *arches;
	int details, no_dump, stats;
	pthread_mutex_t lock;
	size_t next;
	char **out, **err;	/* per architecture: dump, stats line */
	int *errors;
	int fatal;
};

static void parse_one(struct run *run, struct kconfig_reader *reader, size_t i)
{
	const char *a = *run->arches->v[i] ? run->arches->v[i] : NULL;
	struct kconfig *kc = kconfig_parse(reader, a, run->kopts);
	size_t len;
	FILE *f;

	if (!kc) {
		run->fatal = 1;
		return;
	}
	run->errors[i] = kc->nr_errors;
	f = open_memstream(&run->out[i], &len);
	if (!run->no_dump) {
		if (run->arches->nr > 1)
			fprintf(f, "# arch %s\n", a);
		if (run->details)
			kconfig_dump_details(kc, f);
		else
			kconfig_dump_symbols(kc, f);
	}
	fclose(f);
	if (run->stats)
		run->err[i] = xstrfmt("%s: %zu files, %zu symbols (%zu defined), %zu definitions, %d errors\n",
				      a ? a : "-", kc->nr_files, kc->nr_symbols, kc->nr_defined,
				      kc->nr_definitions, kc->nr_errors);
	kconfig_free(kc);
}

static void reader_init(struct run *run, struct kconfig_reader *reader)
{
	if (run->repo)
		kconfig_git_reader_init(reader, run->repo, run->commit);
	else
		kconfig_fs_reader_init(reader, run->root);
}

static void reader_release(struct run *run, struct kconfig_reader *reader)
{
	if (run->repo)
		kconfig_git_reader_release(reader);
	else
		kconfig_fs_reader_release(reader);
}

static void *worker(void *data)
{
	struct run *run = data;
	struct kconfig_reader reader;

	reader_init(run, &reader);	/* a reader serves one thread */
	for (;;) {
		size_t i;

		pthread_mutex_lock(&run->lock);
		i = run->next++;
		pthread_mutex_unlock(&run->lock);
		if (i >= run->arches->nr)
			break;
		parse_one(run, &reader, i);
	}
	reader_release(run, &reader);
	return NULL;
}

/* One parse of every architecture in run, on `jobs` threads; the output in order. */
static void parse_round(struct run *run, int jobs, struct kconfig_reader *reader, int reader_per_arch,
			int *errors)
{
	const struct strvec *arches = run->arches;
	pthread_t *threads = NULL;
	size_t i;
	int t;

	run->out = xcalloc(arches->nr, sizeof(*run->out));
	run->err = xcalloc(arches->nr, sizeof(*run->err));
	run->errors = xcalloc(arches->nr, sizeof(*run->errors));
	pthread_mutex_init(&run->lock, NULL);
	if (jobs > 1) {
		threads = xcalloc(jobs, sizeof(*threads));
		for (t = 0; t < jobs; t++)
			if (pthread_create(&threads[t], NULL, worker, run))
				die("cannot start a thread");
		for (t = 0; t < jobs; t++)
			pthread_join(threads[t], NULL);
		free(threads);
	} else {
		for (i = 0; i < arches->nr && !run->fatal; i++) {
			/* As a caller that makes a reader per parse does: the cache remembers the paths. */
			if (run->repo && reader_per_arch) {
				kconfig_git_reader_release(reader);
				kconfig_git_reader_init(reader, run->repo, run->commit);
			}
			parse_one(run, reader, i);
		}
	}
	for (i = 0; i < arches->nr; i++) {
		if (run->out[i])
			fputs(run->out[i], stdout);
		if (run->err[i])
			fputs(run->err[i], stderr);
		*errors += run->errors[i];
		free(run->out[i]);
		free(run->err[i]);
	}
	pthread_mutex_destroy(&run->lock);
	free(run->out);
	free(run->err);
	free(run->errors);
}

static struct repo *open_repo(void)
{
	struct strbuf why = STRBUF_INIT;
	struct repo *r = repo_open(&why);

	if (!r)
		die("%s", why.buf);
	return r;
}

int main(int argc, const char **argv)
{
	const char *arch = NULL, *rev = NULL;
	struct repo *repo = NULL;
	git_oid commit;
	int all = 0, list = 0, details = 0, no_dump = 0, stats = 0, repeat = 1, reader_per_arch = 0, jobs = 1;
	int cache_kib = 0;
	struct strvec env = STRVEC_INIT, arches = STRVEC_INIT;
	struct option opts[] = {
		OPT_STRING(0, "arch", &arch, "arch", "parse for this architecture"),
		OPT_STRING(0, "git", &rev, "rev", "read the tree of this commit"),
		OPT_BOOL(0, "all-arches", &all, "parse every architecture"),
		OPT_BOOL(0, "arches", &list, "list the architectures"),
		OPT_BOOL(0, "details", &details, "dump every definition"),
		OPT_BOOL(0, "no-dump", &no_dump, "print nothing but errors"),
		OPT_BOOL(0, "reader-per-arch", &reader_per_arch, "a new reader for each parse (with --git)"),
		OPT_BOOL(0, "stats", &stats, "print timing and cache figures on stderr"),
		OPT_INT(0, "cache-kib", &cache_kib, "n", "keep at most n KiB of lexed files"),
		OPT_INT(0, "repeat", &repeat, "n", "parse n times (timing)"),
		OPT_INT('j', "jobs", &jobs, "n", "parse architectures in n threads sharing one cache"),
		OPT_LIST(0, "env", &env, "name=value", "a variable for $(name)"),
		OPT_END(),
	};
	struct parsed_args pa;
	struct kconfig_reader reader;
	struct kconfig_options kopts = { 0 };
	double start;
	size_t i;
	int errors = 0, ret = 0, r;

	set_program_name("test-kconfig");
	parse_options(argc, argv, opts, usage, "test-kconfig", &pa);
	if (rev) {
		if (pa.args.nr > 1)
			usage_with_options(usage, opts);
		repo = open_repo();
		if (repo_resolve_commit(repo, rev, &commit))
			return 128;
		kconfig_git_reader_init(&reader, repo, &commit);
		kopts.top = pa.args.nr ? pa.args.v[0] : NULL;
	} else {
		if (pa.args.nr < 1 || pa.args.nr > 2)
			usage_with_options(usage, opts);
		kconfig_fs_reader_init(&reader, pa.args.v[0]);
		kopts.top = pa.args.nr > 1 ? pa.args.v[1] : NULL;
	}
	kopts.env = &env;
	kopts.keep_help = details;
	kopts.cache = kconfig_cache_new();
	kconfig_cache_set_budget(kopts.cache, (size_t)(cache_kib > 0 ? cache_kib : 0) * 1024);

	start = now();
	if (list || all) {
		int n = kconfig_architectures(&reader, kopts.top, &arches);

		if (n < 0)
			ret = 128;
		if (list)
			for (i = 0; i < arches.nr; i++)
				printf("%s\n", arches.v[i]);
		if (!n && all)
			strvec_push(&arches, "");	/* a single model */
	} else {
		strvec_push(&arches, arch ? arch : "");
	}
	for (r = 0; r < repeat && !list && !ret; r++) {
		struct run run = {
			.repo = repo, .commit = &commit, .root = repo ? NULL : pa.args.v[0],
			.kopts = &kopts, .arches = &arches, .details = details,
			.no_dump = no_dump || r > 0, .stats = stats && r == 0,
		};
		parse_round(&run, jobs, &reader, reader_per_arch, &errors);
		if (run.fatal)
			ret = 128;
	}
	if (stats) {
		struct kconfig_cache_stats st;

		kconfig_cache_stats(kopts.cache, &st);
		fprintf(stderr, "%.3f s, %zu files lexed, %zu reused\n", now() - start,
			st.lexed, st.reused);
		fprintf(stderr, "cache: %zu evicted, %zu bytes held, %zu at most\n",
			st.evicted, st.bytes, st.peak);
	}
	if (errors && !ret) {
		fprintf(stderr, "%d errors\n", errors);
		ret = 1;
	}
	kconfig_cache_free(kopts.cache);
	if (repo) {
		kconfig_git_reader_release(&reader);
		repo_close(repo);
	} else {
		kconfig_fs_reader_release(&reader);
	}
	strvec_clear(&env);
	strvec_clear(&arches);
	parsed_args_clear(&pa);
	return ret;
}
