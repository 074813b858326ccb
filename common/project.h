/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kind of Kconfig tree a commit holds, and what follows for reading it:
 * where the Kconfig tree starts (the srctree: the root for Linux, U-Boot,
 * Zephyr and coreboot, xen/ for Xen), the variables its `source` lines need
 * ($(ZEPHYR_BASE)), and the macros its C code spells "enabled" with
 * (U-Boot's CONFIG_IS_ENABLED(X), coreboot's CONFIG(X)).
 *
 * Git config, read once by project_config_init():
 *   undertaker.srctree <dir>   the Kconfig tree starts there (overrides the guess)
 *   undertaker.env NAME=value  a variable for $(NAME) in Kconfig (multi-valued)
 *   undertaker.macro DEF       a project macro; replaces a preset of the same name
 *   undertaker.presets false   no macro presets: only undertaker.macro
 */
#ifndef UT_PROJECT_H
#define UT_PROJECT_H

#include "cpp.h"
#include "kbuild.h"
#include "kconfig.h"
#include "repo.h"

enum project_kind {
	PROJECT_KCONFIG,	/* a top-level Kconfig and nothing more we know of */
	PROJECT_LINUX,
	PROJECT_UBOOT,
	PROJECT_XEN,
	PROJECT_ZEPHYR,
	PROJECT_COREBOOT,
	PROJECT_NONE,		/* no Kconfig tree found */
};
/* "kconfig", "linux", "u-boot", "xen", "zephyr", "coreboot", "none". */
const char *project_kind_name(enum project_kind k);

/* What the user's git config says; the same for every commit of a run. */
struct project_config {
	char *srctree;			/* undertaker.srctree, or NULL */
	struct strvec env;		/* undertaker.env */
	struct strvec macros;		/* undertaker.macro */
	int no_presets;			/* undertaker.presets false */
	/*
	 * undertaker.cacheModels true: each architecture's model kept in the
	 * disk cache and read back. Off by default: read back, a model costs
	 * about what building it does (the store's hash table and name maps
	 * are made again), for 8-14 MB of the cache's budget each.
	 */
	int cache_models;
};
void project_config_init(struct project_config *pc, struct repo *r);
/*
 * The host's architecture as the kernel's top Makefile derives SRCARCH from
 * `uname -m` (x86_64 and i686 are x86, aarch64 is arm64, ...): the one to
 * try first when no --arch is given.
 */
const char *project_host_srcarch(void);
void project_config_release(struct project_config *pc);

/* One commit's tree. */
struct project {
	enum project_kind kind;
	/* "" for the repository root, else a directory without trailing slash. */
	char *srctree;
	/*
	 * The top Kconfig file from the srctree: "Kconfig", or coreboot's
	 * "src/Kconfig" (a mainmenu one level down whose `source` paths start
	 * from the repository root).
	 */
	char *top;
	/* NAME=value for $(NAME): presets, then undertaker.env (the later wins). */
	struct strvec env;
};

/*
 * Looks at a few paths of `commit`: the top Kconfig, a <dir>/Kconfig with a
 * `mainmenu` one level down, the headers that define each project's macros.
 * Never fails: a tree it cannot place is PROJECT_NONE with srctree "".
 */
void project_detect(struct project *p, const struct project_config *pc, struct repo *r,
		    const git_oid *commit);
void project_release(struct project *p);

/*
 * The macro definitions for this kind of tree (presets unless disabled),
 * then undertaker.macro: appended to `defs` as cpp_macros_add() takes them.
 */
void project_macros(enum project_kind kind, const struct project_config *pc,
		    struct strvec *defs);

/*
 * kconfig_architectures() over the commit's Kconfig tree; for Xen the
 * names are its $(ARCH) values (arm32, arm64, x86_64), each parsed with
 * the $(SRCARCH) it belongs to.
 */
int project_architectures(const struct project *p, struct repo *r, const git_oid *commit,
			  struct strvec *out);

/*
 * The directory under <srctree>/arch/ that architecture `arch` (a name of
 * project_architectures()) builds from: Xen's arm64 is arch/arm; for every
 * other tree the name itself.
 */
const char *project_arch_dir(const struct project *p, const char *arch);

/*
 * The directories the tree's build enters by string options' values
 * (U-Boot's board/$(VENDOR)/$(BOARD)/: see kbuild_named_dir), *nr of them,
 * and those options (NULL-terminated), whose values the model must know.
 */
const struct kbuild_named_dir *project_named_dirs(const struct project *p, size_t *nr);
const char *const *project_string_options(const struct project *p);

/*
 * kconfig_parse() over the commit's Kconfig tree, with the project's
 * variables added to `opts` (which may be NULL); definition locations are
 * made relative to the repository root ("xen/common/Kconfig").
 */
struct kconfig *project_kconfig_parse(const struct project *p, struct repo *r,
				      const git_oid *commit, const char *arch,
				      const struct kconfig_options *opts);

/*
 * The names (without CONFIG_) that the build defines for every file:
 * `cmdline` (-D in the Makefiles), plus the CONFIG_ macros of the headers
 * the build force-includes (Xen's `-include include/xen/config.h` and the
 * asm/config.h it pulls in), and U-Boot's legacy board-header options
 * (scripts/config_whitelist.txt). Added to `out` with values of its own: free
 * them with strmap_clear(out, free). U-Boot's are kept in `dc` (may be NULL),
 * keyed by the blobs of its headers and scripts.
 */
struct diskcache;
void project_build_defined(const struct project *p, struct repo *r, const git_oid *commit,
			   const struct strmap *cmdline, struct diskcache *dc, struct strmap *out);

/*
 * The directories holding a Kconfig tree of their own: a <dir>/Kconfig with a
 * `mainmenu`, other than the commit's srctree and its parents (coreboot's
 * payloads/libpayload/, whose code says CONFIG_LP_X for its own symbol X).
 * Their code is built against that tree, not this one's. Each is pushed to
 * `dirs` with a trailing slash.
 */
void project_foreign_trees(const struct project *p, struct repo *r, const git_oid *commit,
			   struct strvec *dirs);

#endif
