// SPDX-License-Identifier: GPL-2.0
/*
 * The compiler probes of a kconfig run, answered once per tree and compiler.
 * Each run of a Linux tree's kconfig asks the compiler the same ~60
 * questions ($(cc-option,...), $(as-instr,...), cc-version.sh, the
 * Makefile's cc-option), about half of the run's CPU, and --expand runs
 * kconfig 4-6 times. The kconfig command runs with <tree>/.vampyr-probes/bin
 * first in PATH, where gcc, cc, clang and the cross compilers on PATH
 * (<prefix>-gcc, -cc, -clang) are links to vampyr-cc
 * (git-vampyr/cc/vampyr-cc.c): it runs the real compiler found further along
 * the PATH, and keeps its answer to a probe in <tree>/.vampyr-probes/, keyed
 * by the compiler and assembler (path, inode, size, times), the arguments and
 * the input. The tree's own kconfig still decides everything; it only gets
 * the compiler's answers faster. The entries go with the tree when it is
 * pruned. VAMPYR_NO_PROBE_CACHE=1 runs kconfig without it. The toolchain's
 * run (in the tree itself) also gets VAMPYR_CC_DEPS: what its compiler
 * answers depend on, for keeping the whole run (toolchain.c).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vampyr.h"

char *probe_cc_program(void)
{
	char *self = realpath("/proc/self/exe", NULL), *slash, *cc;

	if (!self)
		return NULL;
	slash = strrchr(self, '/');
	*slash = '\0';
	cc = xstrfmt("%s/../libexec/undertaker/vampyr-cc", self);
	free(self);
	self = realpath(cc, NULL);
	free(cc);
	if (self && access(self, X_OK)) {
		free(self);
		self = NULL;
	}
	return self;
}

/* dir/name -> target, replaced whole when it points elsewhere: 0, or -1. */
static int link_to(const char *dir, const char *name, const char *target)
{
	char *path = xstrfmt("%s/%s", dir, name), *tmp, buf[PATH_MAX];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);
	int ret = 0;

	if (n > 0 && (size_t)n == strlen(target) && !memcmp(buf, target, (size_t)n)) {
		free(path);
		return 0;
	}
	tmp = xstrfmt("%s/.%s.tmp.%ld", dir, name, (long)getpid());
	unlink(tmp);
	if (symlink(target, tmp) || rename(tmp, path)) {
		unlink(tmp);
		ret = -1;
	}
	free(tmp);
	free(path);
	return ret;
}

char *probe_deps_path(const char *tree)
{
	return xstrfmt("%s/.vampyr-toolchain/deps.%ld", tree, (long)getpid());
}

/* A compiler to intercept: gcc, cc, clang, or a cross compiler (aarch64-linux-gnu-gcc). */
static int compiler_name(const char *name)
{
	return !strcmp(name, "gcc") || !strcmp(name, "cc") || !strcmp(name, "clang") ||
	       (name[0] != '.' && (ends_with(name, "-gcc") || ends_with(name, "-cc") ||
				   ends_with(name, "-clang")));
}

/* gcc, cc, clang and the cross compilers in path's directories, sorted, once each. */
static void compiler_names(const char *path, struct strvec *names)
{
	strvec_push(names, "gcc");
	strvec_push(names, "cc");
	strvec_push(names, "clang");
	for (const char *p = path; ; ) {
		const char *colon = strchrnul(p, ':');
		char *dir = colon > p ? xstrndup(p, (size_t)(colon - p)) : xstrdup(".");
		DIR *d = opendir(dir);
		struct dirent *e;

		while (d && (e = readdir(d)))
			if (compiler_name(e->d_name))
				strvec_push(names, e->d_name);
		if (d)
			closedir(d);
		free(dir);
		if (!*colon)
			break;
		p = colon + 1;
	}
	strvec_sort(names);
	for (size_t i = 1; i < names->nr; )
		if (!strcmp(names->v[i], names->v[i - 1])) {
			free(names->v[i]);
			memmove(&names->v[i], &names->v[i + 1], (names->nr - i - 1) * sizeof(*names->v));
			names->nr--;
		} else {
			i++;
		}
}

/* Links in bin to compilers no longer on PATH go: the shell says "not found" for them again. */
static void remove_stale(const char *bin, const struct strvec *names)
{
	DIR *d = opendir(bin);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		size_t i;

		if (e->d_name[0] == '.')
			continue;
		for (i = 0; i < names->nr && strcmp(names->v[i], e->d_name); i++)
			;
		if (i == names->nr) {
			char *link = xstrfmt("%s/%s", bin, e->d_name);

			unlink(link);
			free(link);
		}
	}
	if (d)
		closedir(d);
}

void probe_cache_env(const char *tree, const char *rundir, struct strvec *env)
{
	struct strvec names = STRVEC_INIT;
	const char *off = getenv("VAMPYR_NO_PROBE_CACHE"), *path = getenv("PATH");
	char *cc, *dir, *bin;

	if ((off && *off && strcmp(off, "0")) || !path)
		return;
	cc = probe_cc_program();
	if (!cc)
		return;
	dir = xstrfmt("%s/.vampyr-probes", tree);
	bin = xstrfmt("%s/bin", dir);
	if (mkdir_p(bin)) {
		warning("cannot create %s (%s): compiler probes are not kept", bin, strerror(errno));
		goto out;
	}
	compiler_names(path, &names);
	for (size_t i = 0; i < names.nr; i++)
		if (link_to(bin, names.v[i], cc)) {
			warning("cannot link %s/%s (%s): compiler probes are not kept", bin, names.v[i],
				strerror(errno));
			goto out;
		}
	remove_stale(bin, &names);
	strvec_pushf(env, "PATH=%s:%s", bin, path);
	strvec_pushf(env, "VAMPYR_CC_PATH=%s", path);
	strvec_pushf(env, "VAMPYR_CC_CACHE=%s", dir);
	if (rundir) {
		strvec_pushf(env, "VAMPYR_CC_RUN_DIR=%s", rundir);
		strvec_pushf(env, "VAMPYR_CC_TREE=%s", tree);
	} else {
		char *deps = probe_deps_path(tree);

		if (!mkdir_leading(deps) && !write_file_atomic(deps, "", 0))
			strvec_pushf(env, "VAMPYR_CC_DEPS=%s", deps);
		free(deps);
	}
out:
	strvec_clear(&names);
	free(bin);
	free(dir);
	free(cc);
}
