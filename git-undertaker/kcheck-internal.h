/* SPDX-License-Identifier: GPL-2.0 */
/* What the kcheck*.c files share; not an interface (see kcheck.h). */
#ifndef UT_KCHECK_INTERNAL_H
#define UT_KCHECK_INTERNAL_H

#include "kcheck.h"

/* A new defect of a Kconfig or defconfig line (no block), global until told otherwise. */
struct defect *kcheck_add_defect(struct defect_list *out, const char *path, int line,
				 enum defect_kind kind, enum defect_cause cause);
/* Is the name in sv? */
/* Is the symbol a bool or a tristate? */
int kcheck_is_tristate_logic(const struct kconfig_symbol *s);

/*
 * The architectures whose models decide `path`'s selects and options, as
 * indexes into *scope (room for tm->nr_arches + 1); returns how many
 * (kcheck-scope.c).
 */
size_t kcheck_scope(struct tree_models *tm, const char *path, const char *data, size_t size,
		    size_t *scope);

/* The checks of a Kconfig file, each appending its defects to `out`. */
void kcheck_names(struct tree_models *tm, const char *path, const char *data, size_t size,
		  const struct kcheck_options *opt, struct defect_list *out);
void kcheck_unmet(struct tree_models *tm, const char *path, const char *data, size_t size,
		  struct defect_list *out);
void kcheck_dead_options(struct tree_models *tm, const char *path, const char *data, size_t size,
			 const struct kcheck_options *opt, struct defect_list *out);

/*
 * kcheck_unmet() and kcheck_dead_options() one architecture at a time:
 * _begin, then _on(a) for an architecture _wants, then _end, which asks
 * those still wanted in the walk's own order and appends the same defects
 * as the whole walk. The unmet walk takes its architectures in any order
 * (each one's findings are its own, combined in scope order at the end);
 * so does the options walk, until its verdicts, taken in scope order as
 * the answers come, leave no option (kcheck-options.c).
 */
struct kcheck_unmet_walk;
struct kcheck_unmet_walk *kcheck_unmet_begin(struct tree_models *tm, const char *path,
					     const char *data, size_t size);
int kcheck_unmet_wants(const struct kcheck_unmet_walk *w, size_t a);
void kcheck_unmet_on(struct kcheck_unmet_walk *w, size_t a);
void kcheck_unmet_end(struct kcheck_unmet_walk *w, struct defect_list *out);
void kcheck_unmet_free(struct kcheck_unmet_walk *w);	/* without its defects */
struct kcheck_options_walk;
struct kcheck_options_walk *kcheck_options_begin(struct tree_models *tm, const char *path,
						 const char *data, size_t size,
						 const struct kcheck_options *opt);
int kcheck_options_wants(const struct kcheck_options_walk *w, size_t a);
void kcheck_options_on(struct kcheck_options_walk *w, size_t a);
void kcheck_options_end(struct kcheck_options_walk *w, struct defect_list *out);
void kcheck_options_free(struct kcheck_options_walk *w);	/* without its defects */

/* One line of a defconfig that sets a symbol. */
struct kcheck_setting {
	int line;		/* the defconfig's: this one, or the #include that brings it */
	const char *path;	/* the file that holds it (the defconfig, or one it includes) */
	int file_line;		/* its line there */
	const char *text;	/* the whole line, without its newline */
	size_t len;
	const char *name;	/* "CONFIG_X", NUL-terminated, valid during the call */
	const char *value;	/* after '=', to the end of the line; NULL: is not set */
	size_t value_len;
};
/*
 * fn for each `CONFIG_X=...` and `# CONFIG_X is not set` line, in the
 * order kconfig reads them: the lines of the files the defconfig at `path`
 * includes (inc, or NULL) where their `#include` lines are.
 */
void kcheck_for_each_setting(const char *path, const char *data, size_t size,
			     const struct defconfig_includes *inc,
			     void (*fn)(const struct kcheck_setting *s, void *arg), void *arg);
/*
 * The text of a defect of the line in the defconfig at `path`: the line,
 * "file:line: " before it when an included file holds it.
 */
char *kcheck_setting_text(const char *path, const struct kcheck_setting *s);

/* The checks of a defconfig: names no Kconfig defines, values kconfig would not keep. */
void kcheck_defconfig_names(struct tree_models *tm, const char *path, const char *data,
			    size_t size, const struct kcheck_options *opt, struct defect_list *out);
void kcheck_dropped(struct tree_models *tm, const char *path, const char *data, size_t size,
		    const struct kcheck_options *opt, struct defect_list *out);

#endif
