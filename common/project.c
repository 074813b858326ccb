// SPDX-License-Identifier: GPL-2.0
/* Which Kconfig tree a commit holds: its srctree, its variables, its macros. */
#include "project.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "diskcache.h"
#include "kconfig-git.h"

const char *project_kind_name(enum project_kind k)
{
	static const char *const names[] = {
		[PROJECT_KCONFIG] = "kconfig", [PROJECT_LINUX] = "linux",
		[PROJECT_UBOOT] = "u-boot", [PROJECT_XEN] = "xen",
		[PROJECT_ZEPHYR] = "zephyr", [PROJECT_COREBOOT] = "coreboot",
		[PROJECT_NONE] = "none",
	};

	return k < ARRAY_SIZE(names) ? names[k] : "none";
}

/* The host's architecture, read once (by whichever thread asks first). */
static const char *host_srcarch;
static pthread_once_t host_srcarch_once = PTHREAD_ONCE_INIT;

static void find_host_srcarch(void)
{
	static const struct { const char *prefix, *arch; } map[] = {
		{ "x86_64", "x86" }, { "i386", "x86" }, { "i486", "x86" }, { "i586", "x86" },
		{ "i686", "x86" }, { "aarch64", "arm64" }, { "arm64", "arm64" }, { "arm", "arm" },
		{ "sa110", "arm" }, { "s390", "s390" }, { "ppc", "powerpc" },
		{ "powerpc", "powerpc" }, { "mips", "mips" }, { "sh2", "sh" }, { "sh3", "sh" },
		{ "sh4", "sh" }, { "riscv", "riscv" }, { "loongarch", "loongarch" },
		{ "sun4u", "sparc" }, { "sparc", "sparc" }, { "parisc", "parisc" },
	};
	static char machine[sizeof(((struct utsname *)0)->machine)];
	struct utsname u;

	host_srcarch = "x86";
	if (uname(&u) < 0)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (starts_with(u.machine, map[i].prefix)) {
			host_srcarch = map[i].arch;
			return;
		}
	memcpy(machine, u.machine, sizeof(machine));
	machine[sizeof(machine) - 1] = '\0';
	host_srcarch = machine;
}

const char *project_host_srcarch(void)
{
	pthread_once(&host_srcarch_once, find_host_srcarch);
	return host_srcarch;
}

void project_config_init(struct project_config *pc, struct repo *r)
{
	char *presets;

	memset(pc, 0, sizeof(*pc));
	pc->srctree = repo_config_get(r, "undertaker.srctree");
	if (pc->srctree) {
		/* "xen/", "./xen" and "xen" are one directory. */
		char *s = pc->srctree;
		size_t n;

		while (s[0] == '.' && s[1] == '/')
			s += 2;
		memmove(pc->srctree, s, strlen(s) + 1);
		n = strlen(pc->srctree);
		while (n && pc->srctree[n - 1] == '/')
			pc->srctree[--n] = '\0';
		if (!strcmp(pc->srctree, "."))
			pc->srctree[0] = '\0';
	}
	repo_config_get_all(r, "undertaker.env", &pc->env);
	repo_config_get_all(r, "undertaker.macro", &pc->macros);
	presets = repo_config_get(r, "undertaker.presets");
	if (presets && (!strcmp(presets, "false") || !strcmp(presets, "no") ||
			!strcmp(presets, "off") || !strcmp(presets, "0")))
		pc->no_presets = 1;
	free(presets);
	presets = repo_config_get(r, "undertaker.cacheModels");
	pc->cache_models = presets && (!strcmp(presets, "true") || !strcmp(presets, "yes") ||
				       !strcmp(presets, "on") || !strcmp(presets, "1"));
	free(presets);
}

void project_config_release(struct project_config *pc)
{
	free(pc->srctree);
	strvec_clear(&pc->env);
	strvec_clear(&pc->macros);
	memset(pc, 0, sizeof(*pc));
}

/* Does `path` (from the repository root) exist at the commit, and say `needle`? */
static int file_says(struct repo *r, const git_oid *commit, const char *path, const char *needle)
{
	struct blob *b;
	int found = 0;

	if (repo_read_path(r, commit, path, &b) < 0)
		return 0;
	if (!needle) {
		found = 1;
	} else {
		size_t n = strlen(needle);

		for (size_t i = 0; i + n <= b->size && !found; i++)
			found = !memcmp(b->data + i, needle, n);
	}
	blob_release(r, b);
	return found;
}

static int path_exists(struct repo *r, const git_oid *commit, const char *path)
{
	git_oid oid;

	return !repo_path_oid(r, commit, path, &oid);
}

/*
 * No top-level Kconfig: the one directory whose Kconfig opens with a
 * `mainmenu` (Xen's xen/). Two such directories are ambiguous: none then.
 */
static char *find_srctree(struct repo *r, const git_oid *commit, char **top)
{
	struct strvec names = STRVEC_INIT;
	char *found = NULL;
	int nr = 0;

	if (path_exists(r, commit, "Kconfig"))
		return xstrdup("");
	if (repo_list_dir(r, commit, "", &names))
		return xstrdup("");
	for (size_t i = 0; i < names.nr; i++) {
		char *path = xstrfmt("%s/Kconfig", names.v[i]);

		if (file_says(r, commit, path, "mainmenu")) {
			nr++;
			free(found);
			found = xstrdup(names.v[i]);
		}
		free(path);
	}
	strvec_clear(&names);
	if (nr != 1) {
		free(found);
		return xstrdup("");
	}
	{
		/* coreboot's src/Kconfig says `source "src/mainboard/Kconfig"`. */
		char *path = xstrfmt("%s/Kconfig", found);
		char *needle = xstrfmt("source \"%s/", found);
		int from_root = file_says(r, commit, path, needle);

		free(needle);
		if (from_root) {
			*top = path;
			free(found);
			return xstrdup("");
		}
		free(path);
	}
	return found;
}

/* Where coreboot has defined CONFIG(option) over the years. */
static const char *const coreboot_headers[] = {
	"src/commonlib/bsd/include/commonlib/bsd/helpers.h",
	"src/commonlib/bsd/include/commonlib/bsd/compiler.h",
	"src/commonlib/include/commonlib/helpers.h",
	"src/include/kconfig.h",
	"src/include/rules.h",
};

static enum project_kind detect_kind(struct repo *r, const git_oid *commit, const char *srctree,
				     const char *top)
{
	struct strbuf path = STRBUF_INIT;
	const char *pre = *srctree ? "/" : "";
	enum project_kind kind = PROJECT_KCONFIG;

	strbuf_addf(&path, "%s%s%s", srctree, pre, top);
	if (!path_exists(r, commit, path.buf)) {
		strbuf_release(&path);
		return PROJECT_NONE;
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s%sKconfig.zephyr", srctree, pre);
	if (path_exists(r, commit, path.buf)) {
		kind = PROJECT_ZEPHYR;
		goto out;
	}
	for (size_t i = 0; i < ARRAY_SIZE(coreboot_headers); i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s%s%s", srctree, pre, coreboot_headers[i]);
		if (file_says(r, commit, path.buf, "define CONFIG(")) {
			kind = PROJECT_COREBOOT;
			goto out;
		}
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s%sinclude/linux/kconfig.h", srctree, pre);
	if (file_says(r, commit, path.buf, "CONFIG_IS_ENABLED"))
		kind = PROJECT_UBOOT;
	else if (path_exists(r, commit, path.buf))
		kind = PROJECT_LINUX;
	else if (!strcmp(srctree, "xen"))
		kind = PROJECT_XEN;
out:
	strbuf_release(&path);
	return kind;
}

void project_detect(struct project *p, const struct project_config *pc, struct repo *r,
		    const git_oid *commit)
{
	memset(p, 0, sizeof(*p));
	p->srctree = pc->srctree ? xstrdup(pc->srctree) : find_srctree(r, commit, &p->top);
	if (!p->top)
		p->top = xstrdup("Kconfig");
	p->kind = detect_kind(r, commit, p->srctree, p->top);
	/* Zephyr sources "$(ZEPHYR_BASE)/..." : the tree itself. */
	if (p->kind == PROJECT_ZEPHYR)
		strvec_push(&p->env, "ZEPHYR_BASE=.");
	for (size_t i = 0; i < pc->env.nr; i++)
		strvec_push(&p->env, pc->env.v[i]);
}

void project_release(struct project *p)
{
	free(p->srctree);
	free(p->top);
	strvec_clear(&p->env);
	memset(p, 0, sizeof(*p));
}

/*
 * U-Boot's include/linux/kconfig.h: CONFIG_IS_ENABLED(FOO) tests CONFIG_FOO
 * in U-Boot proper, CONFIG_SPL_FOO in SPL, CONFIG_TPL_FOO in TPL and
 * CONFIG_VPL_FOO in VPL. The Makefiles say which phase is being built:
 * -DCONFIG_SPL_BUILD (older trees) or -DCONFIG_XPL_BUILD (newer) in every
 * phase but proper, plus -DCONFIG_TPL_BUILD or -DCONFIG_VPL_BUILD. Those
 * names are free variables (never missing: the build system defines them),
 * so every phase stays a possible build of the same file, and a phase the
 * tree does not have (no such -D) drops out as false. CONFIG_VAL(FOO)
 * picks the value the same way (a comparison on it is an opaque atom).
 * Host tools (tools/, with -DUSE_HOSTCC) share boot/ and lib/ files and
 * test CONFIG_TOOLS_FOO there (U-Boot 2022.04 on); proper's clause does not
 * exclude USE_HOSTCC, since older trees gave host tools proper's symbols.
 */
#define UBOOT_XPL "(defined(CONFIG_SPL_BUILD) || defined(CONFIG_XPL_BUILD))"
#define UBOOT_PHASES(f)								\
	"(!" UBOOT_XPL " && " f("x") ") || "					\
	"(defined(USE_HOSTCC) && " f("TOOLS_x") ") || "				\
	"(" UBOOT_XPL " && !defined(CONFIG_TPL_BUILD) && !defined(CONFIG_VPL_BUILD) && " \
	f("SPL_x") ") || "							\
	"(" UBOOT_XPL " && defined(CONFIG_TPL_BUILD) && " f("TPL_x") ") || "	\
	"(" UBOOT_XPL " && !defined(CONFIG_TPL_BUILD) && defined(CONFIG_VPL_BUILD) && " \
	f("VPL_x") ")"
#define UBOOT_DEFINED(v) "defined(CONFIG_" v ")"
#define UBOOT_VALUE(v) "CONFIG_" v

void project_macros(enum project_kind kind, const struct project_config *pc,
		    struct strvec *defs)
{
	if (!pc->no_presets) {
		switch (kind) {
		case PROJECT_UBOOT:
			strvec_push(defs, "CONFIG_IS_ENABLED(x)=" UBOOT_PHASES(UBOOT_DEFINED));
			strvec_push(defs, "CONFIG_VAL(x)=" UBOOT_PHASES(UBOOT_VALUE));
			break;
		case PROJECT_COREBOOT:
			/* coreboot's config.h defines every bool to 0 or 1: CONFIG(X) is X=y. */
			strvec_push(defs, "CONFIG(x)=CONFIG_x");
			break;
		default:
			/* Linux, Xen, Zephyr: IS_ENABLED and friends, built into cpp. */
			break;
		}
	}
	for (size_t i = 0; i < pc->macros.nr; i++)
		strvec_push(defs, pc->macros.v[i]);
}

/*
 * Xen builds for XEN_TARGET_ARCH (its $(ARCH)), which names more than the
 * directory arch/$(SRCARCH): xen/arch/arm/Kconfig tests "$(ARCH)" = "arm32".
 */
static const struct {
	const char *srcarch, *arch;
} xen_arches[] = {
	{ "arm", "arm32" }, { "arm", "arm64" }, { "ppc", "ppc64" },
	{ "riscv", "riscv64" }, { "x86", "x86_64" },
};

static const char *xen_srcarch(const char *arch)
{
	for (size_t i = 0; i < ARRAY_SIZE(xen_arches); i++)
		if (!strcmp(xen_arches[i].arch, arch))
			return xen_arches[i].srcarch;
	return arch;
}

int project_architectures(const struct project *p, struct repo *r, const git_oid *commit,
			  struct strvec *out)
{
	struct kconfig_reader reader;
	struct strvec dirs = STRVEC_INIT;
	int n;

	kconfig_git_reader_init_prefix(&reader, r, commit, p->srctree);
	n = kconfig_architectures(&reader, p->top, &dirs);
	kconfig_git_reader_release(&reader);
	for (size_t i = 0; i < dirs.nr; i++) {
		int known = 0;

		for (size_t k = 0; p->kind == PROJECT_XEN && k < ARRAY_SIZE(xen_arches); k++)
			if (!strcmp(xen_arches[k].srcarch, dirs.v[i])) {
				strvec_push(out, xen_arches[k].arch);
				known++;
			}
		if (!known)
			strvec_push(out, dirs.v[i]);
		if (n > 0)
			n += known ? known - 1 : 0;
	}
	strvec_clear(&dirs);
	return n;
}

const char *project_arch_dir(const struct project *p, const char *arch)
{
	return p->kind == PROJECT_XEN ? xen_srcarch(arch) : arch;
}

struct kconfig *project_kconfig_parse(const struct project *p, struct repo *r,
				      const git_oid *commit, const char *arch,
				      const struct kconfig_options *opts)
{
	struct kconfig_options o = { 0 };
	struct kconfig_reader reader;
	struct strvec env = STRVEC_INIT;
	struct kconfig *kc;
	size_t i;

	if (opts)
		o = *opts;
	for (i = 0; i < p->env.nr; i++)
		strvec_push(&env, p->env.v[i]);
	/* The caller's variables win over the project's presets. */
	for (i = 0; opts && opts->env && i < opts->env->nr; i++)
		strvec_push(&env, opts->env->v[i]);
	o.env = &env;
	o.top = p->top;
	/* coreboot's kconfig runs each source path through glob(3): site-local/Kconfig may be absent. */
	if (p->kind == PROJECT_COREBOOT)
		o.source_globs = 1;
	if (arch && p->kind == PROJECT_XEN && !o.srcarch)
		o.srcarch = xen_srcarch(arch);
	o.path_prefix = p->srctree;
	kconfig_git_reader_init_prefix(&reader, r, commit, p->srctree);
	kc = kconfig_parse(&reader, arch, &o);
	kconfig_git_reader_release(&reader);
	strvec_clear(&env);
	return kc;
}

/* Adds the names of `#define CONFIG_X` lines of a header's text to `out`. */
static void blob_defines(const struct blob *b, const char *path, struct strmap *out)
{
	const char *p, *end;

	for (p = b->data, end = b->data + b->size; p < end; ) {
		const char *eol = memchr(p, '\n', end - p), *q;

		if (!eol)
			eol = end;
		while (p < eol && (*p == ' ' || *p == '\t'))
			p++;
		if (p < eol && *p == '#') {
			for (p++; p < eol && (*p == ' ' || *p == '\t'); p++)
				;
			if (eol - p > 14 && !memcmp(p, "define", 6) && (p[6] == ' ' || p[6] == '\t')) {
				for (p += 6; p < eol && (*p == ' ' || *p == '\t'); p++)
					;
				if (eol - p > 7 && !memcmp(p, "CONFIG_", 7)) {
					char *name;

					for (q = p += 7; q < eol && (isalnum((unsigned char)*q) || *q == '_'); q++)
						;
					name = xstrndup(p, q - p);
					/* A function-like macro is no configuration symbol. */
					if (q > p && (q == eol || *q != '(') && !strmap_get(out, name))
						strmap_put(out, name, xstrdup(path));
					free(name);
				}
			}
		}
		p = eol + 1;
	}
}

static void header_defines(struct repo *r, const git_oid *commit, const char *path,
			   struct strmap *out)
{
	struct blob *b;

	if (repo_read_path(r, commit, path, &b) < 0)
		return;
	blob_defines(b, path, out);
	blob_release(r, b);
}

struct header_walk {
	struct repo *repo;
	struct strmap *out;
};

/*
 * The `#define CONFIG_X` that build scripts write into generated headers
 * (U-Boot's scripts/Makefile.autoconf: CONFIG_BOARDDIR; env2string.awk:
 * CONFIG_EXTRA_ENV_TEXT), anywhere in a line of the script.
 */
static int walk_script(const struct tree_file *f, void *data)
{
	struct header_walk *w = data;
	struct blob *b;

	if (repo_read_blob(w->repo, f->blob, &b) < 0)
		return 0;
	for (size_t i = 0; i + 15 < b->size; i++) {
		const char *p = b->data + i, *q, *end = b->data + b->size;
		char *name;

		if (*p != '#' || memcmp(p + 1, "define ", 7) || memcmp(p + 8, "CONFIG_", 7))
			continue;
		for (p += 15, q = p; q < end && (isalnum((unsigned char)*q) || *q == '_'); q++)
			;
		if (q == p || (q < end && *q == '('))
			continue;
		name = xstrndup(p, (size_t)(q - p));
		if (!strmap_get(w->out, name))
			strmap_put(w->out, name, xstrdup(f->path));
		free(name);
	}
	blob_release(w->repo, b);
	return 0;
}

static int walk_header(const struct tree_file *f, void *data)
{
	struct header_walk *w = data;
	struct blob *b;

	if (!ends_with(f->path, ".h") || repo_read_blob(w->repo, f->blob, &b) < 0)
		return 0;
	blob_defines(b, f->path, w->out);
	blob_release(w->repo, b);
	return 0;
}

/*
 * U-Boot's scripts/config_whitelist.txt: the CONFIG_ options that boards
 * still define in their headers (include/configs/<board>.h), one a line.
 */
static void whitelist(struct repo *r, const git_oid *commit, const char *path, struct strmap *out)
{
	struct blob *b;
	const char *p, *end;

	if (repo_read_path(r, commit, path, &b) < 0)
		return;
	for (p = b->data, end = b->data + b->size; p < end; ) {
		const char *eol = memchr(p, '\n', end - p), *q;

		if (!eol)
			eol = end;
		if (eol - p > 7 && !memcmp(p, "CONFIG_", 7)) {
			char *name;

			for (q = p += 7; q < eol && (isalnum((unsigned char)*q) || *q == '_'); q++)
				;
			name = xstrndup(p, q - p);
			if (q > p && !strmap_get(out, name))
				strmap_put(out, name, xstrdup(path));
			free(name);
		}
		p = eol + 1;
	}
	blob_release(r, b);
}

struct key_walk {
	struct strbuf *list;
	const char *scripts;	/* "<srctree>/scripts/" */
};

/* What U-Boot's own names come from: its headers and the scripts, "<blob> <path>" a line. */
static int walk_key(const struct tree_file *f, void *data)
{
	struct key_walk *w = data;
	char hex[GIT_OID_HEXSZ + 1];

	if (ends_with(f->path, ".h") || starts_with(f->path, w->scripts))
		strbuf_addf(w->list, "%s %s\n", git_oid_tostr(hex, sizeof(hex), f->blob), f->path);
	return 0;
}

/*
 * The key of U-Boot's own names in the disk cache: the blobs they are read
 * from. An earlier run's walk for the same root tree is kept too ("headers").
 */
static char *uboot_defined_key(const struct project *p, struct repo *r, const git_oid *commit,
			       struct diskcache *dc)
{
	struct strbuf list = STRBUF_INIT;
	char *scripts = xstrfmt("%s%sscripts/", p->srctree, *p->srctree ? "/" : "");
	struct key_walk w = { &list, scripts };
	char hex[GIT_OID_HEXSZ + 1];
	char *tree_key = NULL, *key;
	git_commit *c;
	git_oid id;

	if (!repo_lookup_commit(r, repo_git(r), commit, &c)) {
		tree_key = xstrfmt("%s %s", git_oid_tostr(hex, sizeof(hex), git_commit_tree_id(c)),
				   p->srctree);
		git_commit_free(c);
		if (diskcache_read(dc, "headers", tree_key, &list) > 0 && list.len == GIT_OID_HEXSZ &&
		    strspn(list.buf, "0123456789abcdef") == GIT_OID_HEXSZ) {
			key = strbuf_detach(&list, NULL);
			free(tree_key);
			free(scripts);
			return key;
		}
		strbuf_reset(&list);
	}
	repo_for_each_file(r, commit, p->srctree, walk_key, &w);
	repo_hash_blob(list.buf ? list.buf : "", list.len, &id);
	key = xstrdup(git_oid_tostr(hex, sizeof(hex), &id));
	if (tree_key)
		diskcache_write(dc, "headers", tree_key, key, GIT_OID_HEXSZ);
	strbuf_release(&list);
	free(tree_key);
	free(scripts);
	return key;
}

/* U-Boot's own names (the first place that defines each wins), computed or from dc. */
static void uboot_defined(const struct project *p, struct repo *r, const git_oid *commit,
			  struct diskcache *dc, struct strmap *own)
{
	const char *pre = *p->srctree ? "/" : "";
	char *key = dc ? uboot_defined_key(p, r, commit, dc) : NULL, *path;
	struct strbuf sb = STRBUF_INIT;
	struct header_walk w = { r, own };
	const struct strmap_entry *e;

	if (key && diskcache_read(dc, "defines", key, &sb) > 0) {
		struct diskcache_reader rd;
		uint64_t nr;

		diskcache_reader_init(&rd, &sb);
		nr = diskcache_get_u64(&rd);
		for (uint64_t i = 0; i < nr && !rd.bad; i++) {
			char *name = diskcache_get_str(&rd), *where = diskcache_get_str(&rd);

			if (name && where)
				free(strmap_put(own, name, where));
			else
				free(where);
			free(name);
		}
		if (diskcache_reader_done(&rd))
			goto out;
		warning("the cache entry of U-Boot's header names %s does not decode: "
			"computing it again", key);
		strmap_clear(own, free);
	}
	/*
	 * Beside Kconfig, U-Boot's headers define CONFIG_ names of their
	 * own: board options (include/configs/), derived ones (the m68k
	 * CONFIG_CF_V4E of asm/cache.h), constants (post.h's
	 * CONFIG_SYS_POST_CPU). Macros of the code, never missing.
	 */
	path = xstrfmt("%s%sscripts/config_whitelist.txt", p->srctree, pre);
	whitelist(r, commit, path, own);
	free(path);
	repo_for_each_file(r, commit, p->srctree, walk_header, &w);
	path = xstrfmt("%s%sscripts", p->srctree, pre);
	repo_for_each_file(r, commit, path, walk_script, &w);
	free(path);
	if (key) {
		struct strvec names = STRVEC_INIT;

		strbuf_reset(&sb);
		strmap_for_each(own, e)
			strvec_push(&names, e->key);
		strvec_sort(&names);
		diskcache_put_u64(&sb, names.nr);
		for (size_t i = 0; i < names.nr; i++) {
			diskcache_put_str(&sb, names.v[i]);
			diskcache_put_str(&sb, strmap_get(own, names.v[i]));
		}
		diskcache_write(dc, "defines", key, sb.buf, sb.len);
		strvec_clear(&names);
	}
out:
	strbuf_release(&sb);
	free(key);
}

void project_build_defined(const struct project *p, struct repo *r, const git_oid *commit,
			   const struct strmap *cmdline, struct diskcache *dc, struct strmap *out)
{
	const struct strmap_entry *e;
	struct strvec arches = STRVEC_INIT;
	const char *pre = *p->srctree ? "/" : "";
	char *path;

	if (cmdline)
		strmap_for_each(cmdline, e)
			strmap_put(out, e->key, xstrdup(e->value ? (const char *)e->value : ""));
	if (p->kind == PROJECT_UBOOT) {
		struct strmap own = STRMAP_INIT;

		uboot_defined(p, r, commit, dc, &own);
		/* The build's -D names first: theirs is the place said. */
		strmap_for_each(&own, e)
			if (!strmap_get(out, e->key))
				strmap_put(out, e->key, xstrdup(e->value));
		strmap_clear(&own, free);
	}
	if (p->kind != PROJECT_XEN)
		return;
	path = xstrfmt("%s%sinclude/xen/config.h", p->srctree, pre);
	header_defines(r, commit, path, out);
	free(path);
	path = xstrfmt("%s%sarch", p->srctree, pre);
	repo_list_dir(r, commit, path, &arches);
	free(path);
	for (size_t i = 0; i < arches.nr; i++) {
		path = xstrfmt("%s%sarch/%s/include/asm/config.h", p->srctree, pre, arches.v[i]);
		header_defines(r, commit, path, out);
		free(path);
		/* Xen before 4.17 kept them in include/asm-<arch>/. */
		path = xstrfmt("%s%sinclude/asm-%s/config.h", p->srctree, pre, arches.v[i]);
		header_defines(r, commit, path, out);
		free(path);
	}
	strvec_clear(&arches);
}

struct foreign_walk {
	struct repo *repo;
	const struct project *project;
	struct strvec *dirs;
};

/* Does the text have a line that starts with `mainmenu`? */
static int says_mainmenu(const struct blob *b)
{
	for (size_t i = 0; i + 8 <= b->size; i++)
		if ((!i || b->data[i - 1] == '\n') && !memcmp(b->data + i, "mainmenu", 8))
			return 1;
	return 0;
}

static int walk_foreign(const struct tree_file *f, void *data)
{
	struct foreign_walk *w = data;
	const char *slash = strrchr(f->path, '/');
	const char *srctree = w->project->srctree;
	size_t dir_len, src_len = strlen(srctree);
	struct blob *b;
	int found;

	if (!slash || strcmp(slash + 1, "Kconfig"))
		return 0;
	dir_len = (size_t)(slash - f->path);
	/* The srctree itself, or a directory above it (Xen's srctree is xen/). */
	if (dir_len <= src_len && !strncmp(srctree, f->path, dir_len) &&
	    (dir_len == src_len || srctree[dir_len] == '/'))
		return 0;
	if (repo_read_blob(w->repo, f->blob, &b) < 0)
		return 0;
	found = says_mainmenu(b);
	blob_release(w->repo, b);
	/* coreboot's src/Kconfig is its top file, with srctree "". */
	if (found && !(!*srctree && !strcmp(f->path, w->project->top)))
		strvec_pushf(w->dirs, "%.*s/", (int)dir_len, f->path);
	return 0;
}

void project_foreign_trees(const struct project *p, struct repo *r, const git_oid *commit,
			   struct strvec *dirs)
{
	struct foreign_walk w = { r, p, dirs };

	/* Linux has none: no walk over its 1,700 Kconfig files. */
	if (p->kind == PROJECT_NONE || p->kind == PROJECT_LINUX)
		return;
	repo_for_each_file(r, commit, "", walk_foreign, &w);
}

/*
 * U-Boot's config.mk: BOARDDIR is $(VENDOR)/$(BOARD) from CONFIG_SYS_VENDOR
 * and CONFIG_SYS_BOARD, $(BOARD) alone when the vendor is empty; the top
 * Makefile (and scripts/Makefile.xpl) enter board/$(BOARDDIR)/ and, when it
 * has a Makefile, board/$(VENDOR)/common/.
 */
static const struct kbuild_named_dir uboot_board_dirs[] = {
	{ "board/$SYS_VENDOR/$SYS_BOARD", NULL },
	{ "board/$SYS_VENDOR/common", NULL },
	{ "board/$SYS_BOARD", "SYS_VENDOR" },
};
static const char *const uboot_board_options[] = { "SYS_VENDOR", "SYS_BOARD", NULL };

const struct kbuild_named_dir *project_named_dirs(const struct project *p, size_t *nr)
{
	*nr = p->kind == PROJECT_UBOOT ? ARRAY_SIZE(uboot_board_dirs) : 0;
	return *nr ? uboot_board_dirs : NULL;
}

const char *const *project_string_options(const struct project *p)
{
	return p->kind == PROJECT_UBOOT ? uboot_board_options : NULL;
}
