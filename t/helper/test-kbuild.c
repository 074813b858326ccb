// SPDX-License-Identifier: GPL-2.0
/*
 * test-kbuild [--arch=<srcarch>] [--kind] [--stats] [--eval=<.config>] [--file=<path>] <dir>
 * test-kbuild [options] --rev=<commit>...
 *
 * Builds the kbuild map of a directory tree read from the filesystem (or of
 * each commit in turn from the repository of the current directory, through
 * one cache: the dump is the last one's) and
 * prints `path<TAB>condition` per .c/.S file (with --kind a third column:
 * object, host or unlisted). --eval prints `path<TAB>y|n|?` instead: whether
 * the condition holds under that .config (? when it depends on a free
 * variable). --file prints only that file, with its builtin and module parts.
 */
#include "kbuild.h"
#include "repo.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static int fs_read(void *ctx, const char *path, struct kbuild_text *out)
{
	char *full = xstrfmt("%s/%s", (const char *)ctx, path);
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	char buf[8192];
	size_t n;
	FILE *f;

	if (stat(full, &st) || !S_ISREG(st.st_mode)) {
		free(full);
		return 1;
	}
	f = fopen(full, "rb");
	if (!f) {
		error("%s: %s", full, strerror(errno));
		free(full);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(f);
	free(full);
	out->len = sb.len;
	out->data = strbuf_detach(&sb, NULL);
	out->id[0] = '\0';
	out->handle = (void *)out->data;
	return 0;
}

static void fs_release(void *ctx, struct kbuild_text *t)
{
	free(t->handle);
}

static int walk(const char *root, const char *rel, int (*fn)(const char *, void *), void *data)
{
	char *full = *rel ? xstrfmt("%s/%s", root, rel) : xstrdup(root);
	DIR *d = opendir(full);
	struct dirent *de;
	struct strvec names = STRVEC_INIT;
	int ret = 0;

	free(full);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && strcmp(de->d_name, ".git"))
			strvec_push(&names, de->d_name);
	closedir(d);
	for (size_t i = 0; i < names.nr && !ret; i++) {
		char *r = *rel ? xstrfmt("%s/%s", rel, names.v[i]) : xstrdup(names.v[i]);
		char *f = xstrfmt("%s/%s", root, r);
		struct stat st;

		if (!lstat(f, &st)) {
			if (S_ISDIR(st.st_mode))
				ret = walk(root, r, fn, data);
			else if (S_ISREG(st.st_mode))
				ret = fn(r, data);
		}
		free(f);
		free(r);
	}
	strvec_clear(&names);
	return ret;
}

static int fs_for_each(void *ctx, int (*fn)(const char *, void *), void *data)
{
	return walk(ctx, "", fn, data);
}

static struct strmap config = STRMAP_INIT;

static char config_value(const char *sym, void *data)
{
	const char *v = strmap_get(&config, sym);

	return v ? v[0] : 'n';
}

static void read_config(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096];

	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *eq;

		if (!starts_with(line, "CONFIG_") || !(eq = strchr(line, '=')))
			continue;
		*eq = '\0';
		/* strings and numbers count as set: kbuild sees a non-empty value */
		strmap_put(&config, line + 7, (void *)(eq[1] == 'm' && (eq[2] == '\n' || !eq[2]) ? "m" :
						       eq[1] == 'n' && (eq[2] == '\n' || !eq[2]) ? "n" : "y"));
	}
	fclose(f);
}

static const char *kind_name(enum kbuild_file_kind k)
{
	return k == KBUILD_OBJECT ? "object" : k == KBUILD_HOST ? "host" : "unlisted";
}

/* One file's conditions (--file), each file's value (--eval), its kind (--kind), or the whole map. */
static void print_map(struct kbuild_map *m, const char *file, const char *eval, int kind, struct strbuf *out)
{
	if (file) {
		const struct kbuild_file *f = kbuild_map_lookup(m, file);

		if (!f)
			die("%s: not a .c/.S file of the tree", file);
		strbuf_addf(out, "cond\t");
		kbuild_expr_print(f->cond, out);
		strbuf_addf(out, "\nbuiltin\t");
		kbuild_expr_print(f->builtin, out);
		strbuf_addf(out, "\nmodule\t");
		kbuild_expr_print(f->module, out);
		strbuf_addf(out, "\nkind\t%s\n", kind_name(f->kind));
	} else if (eval) {
		size_t nr;
		const struct kbuild_file *f = kbuild_map_files(m, &nr);

		for (size_t k = 0; k < nr; k++) {
			int r = kbuild_expr_eval(f[k].cond, config_value, NULL);

			strbuf_addf(out, "%s\t%c\n", f[k].path, r < 0 ? '?' : r ? 'y' : 'n');
		}
	} else if (kind) {
		size_t nr;
		const struct kbuild_file *f = kbuild_map_files(m, &nr);

		for (size_t k = 0; k < nr; k++) {
			strbuf_addf(out, "%s\t", f[k].path);
			kbuild_expr_print(f[k].cond, out);
			strbuf_addf(out, "\t%s\n", kind_name(f[k].kind));
		}
	} else {
		kbuild_map_dump(m, out);
	}
}

int main(int argc, char **argv)
{
	const char *arch = NULL, *eval = NULL, *file = NULL;
	struct strvec revs = STRVEC_INIT;
	struct repo *repo = NULL;
	struct kbuild_cache *cache = NULL;
	int kind = 0, stats = 0;
	struct kbuild_reader rd = { fs_read, fs_release, fs_for_each, NULL, NULL };
	struct strbuf out = STRBUF_INIT;
	struct kbuild_map *m;
	struct timespec t0, t1;
	int i;

	set_program_name("test-kbuild");
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (starts_with(argv[i], "--arch="))
			arch = argv[i] + 7;
		else if (starts_with(argv[i], "--eval="))
			eval = argv[i] + 7;
		else if (starts_with(argv[i], "--file="))
			file = argv[i] + 7;
		else if (starts_with(argv[i], "--rev="))
			strvec_push(&revs, argv[i] + 6);
		else if (!strcmp(argv[i], "--kind"))
			kind = 1;
		else if (!strcmp(argv[i], "--stats"))
			stats = 1;
		else
			die("unknown option %s", argv[i]);
	}
	if (i + !revs.nr != argc)
		die("usage: test-kbuild [--arch=A] [--kind] [--stats] [--eval=CONFIG] [--file=P] (<dir> | --rev=<commit>...)");
	if (eval)
		read_config(eval);
	if (!revs.nr) {
		rd.ctx = argv[i];
		clock_gettime(CLOCK_MONOTONIC, &t0);
		m = kbuild_map_build(&rd, arch, NULL);
		clock_gettime(CLOCK_MONOTONIC, &t1);
	} else {
		struct strbuf why = STRBUF_INIT;

		repo = repo_open(&why);
		if (!repo)
			die("%s", why.buf);
		cache = kbuild_cache_new();
		m = NULL;
		for (size_t k = 0; k < revs.nr; k++) {
			git_oid oid;

			if (repo_resolve_commit(repo, revs.v[k], &oid))
				exit(128);
			kbuild_map_free(m);
			clock_gettime(CLOCK_MONOTONIC, &t0);
			m = kbuild_map_for_commit(repo, &oid, &(struct kbuild_target){ .arch = arch },
						  cache);
			clock_gettime(CLOCK_MONOTONIC, &t1);
			if (stats && k + 1 < revs.nr)
				fprintf(stderr, "%s: cached %zu makefiles %zu\n", revs.v[k],
					kbuild_map_stats(m)->cached, kbuild_map_stats(m)->makefiles);
		}
	}
	print_map(m, file, eval, kind, &out);
	fputs(strbuf_str(&out), stdout);
	if (stats) {
		const struct kbuild_stats *s = kbuild_map_stats(m);

		fprintf(stderr, "makefiles %zu dirs %zu files %zu compiled %zu with_free %zu cached %zu time %.3f s\n",
			s->makefiles, s->dirs, s->files, s->compiled, s->with_free, s->cached,
			(double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	}
	strbuf_release(&out);
	strmap_clear(&config, NULL);
	kbuild_map_free(m);
	kbuild_cache_free(cache);
	strvec_clear(&revs);
	if (repo)
		repo_close(repo);
	return 0;
}
