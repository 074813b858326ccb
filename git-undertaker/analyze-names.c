// SPDX-License-Identifier: GPL-2.0
/*
 * The names a block's directive uses that no Kconfig file, no #define of
 * the file and no project macro's variants define: the missing names of
 * its defect, or an undefined-name defect of its own (analyze-internal.h).
 */
#include "analyze-internal.h"

#include <ctype.h>
#include <string.h>

/*
 * The names of block i's condition and of the earlier arms of its chain,
 * nearest first: at most MAX_DEFECT_SYMBOLS names from as many arms.
 */
void analyze_set_symbols(struct defect *d, const struct cpp_file *f, size_t i)
{
	int arms = 0;

	for (int j = (int)i; j >= 0 && arms++ < MAX_DEFECT_SYMBOLS; j = f->blocks[j].prev_sibling)
		for (size_t k = 0; k < f->blocks[j].nr_symbols && d->symbols.nr < MAX_DEFECT_SYMBOLS; k++) {
			const char *name = f->blocks[j].symbols[k].name;

			if (!strvec_has(&d->symbols, name))
				strvec_push(&d->symbols, name);
		}
}

/* Does name end with "_" + tail ("CONFIG_SPL_FOO" with "FOO")? */
static int variant_of_name(const char *name, const char *tail)
{
	size_t n = strlen(name), t = strlen(tail);

	return n > t && name[n - t - 1] == '_' && !strcmp(name + n - t, tail);
}

/*
 * A project macro's names (U-Boot's CONFIG_IS_ENABLED(FOO): CONFIG_FOO,
 * CONFIG_SPL_FOO, ...) stand for one option: a variant that the tree lacks
 * is no defect, but when the tree defines none of them the option is
 * missing (CONFIG_IS_ENABLED(PLATDATA) for OF_PLATDATA). The base is the
 * name of which the block's other macro names are variants.
 */
static int macro_option_missing(struct file_state *fs, const struct analyze_options *opt,
				const struct cpp_block *b, size_t k)
{
	const char *base = b->symbols[k].name + 7;

	if (!starts_with(b->symbols[k].name, "CONFIG_"))
		return 0;
	/* The phase markers of the definition itself (defined(CONFIG_XPL_BUILD)). */
	for (size_t j = 0; fs->tm->macro_defs && j < fs->tm->macro_defs->nr; j++) {
		const char *p = fs->tm->macro_defs->v[j];
		size_t n = strlen(b->symbols[k].name);

		while ((p = strstr(p, b->symbols[k].name)) != NULL) {
			if (!isalnum((unsigned char)p[n]) && p[n] != '_')
				return 0;
			p++;
		}
	}
	for (size_t j = 0; j < b->nr_symbols; j++) {
		const struct cpp_symbol_ref *ref = &b->symbols[j];

		if (!ref->from_macro || j == k)
			continue;
		if (variant_of_name(base, ref->name + (starts_with(ref->name, "CONFIG_") ? 7 : 0)))
			return 0;	/* not the base itself */
	}
	for (size_t j = 0; j < b->nr_symbols; j++) {
		const struct cpp_symbol_ref *ref = &b->symbols[j];

		if (!ref->from_macro || (j != k && !variant_of_name(ref->name, base)))
			continue;
		if (ref->file_defined ||
		    trees_defines(fs->tm, ref->name))
			return 0;
	}
	return 1;
}

/*
 * The names of block i's own directive that nothing defines, into `names`.
 * Returns 1 when one came from a project macro (CONFIG_IS_ENABLED(TYPO)):
 * the presence condition has it false, so the block looks dead in C alone.
 */
int analyze_undefined_names(struct file_state *fs, size_t i, const struct analyze_options *opt,
			   struct strvec *names)
{
	const struct cpp_block *b = &fs->f->blocks[i];
	int from_macro = 0;

	/* The directive's names are distinct; a defect lists MAX_DEFECT_SYMBOLS of them. */
	for (size_t k = 0; k < b->nr_symbols && names->nr < MAX_DEFECT_SYMBOLS; k++) {
		const struct cpp_symbol_ref *ref = &b->symbols[k];

		if (ref->from_macro ? !macro_option_missing(fs, opt, b, k) :
		    ref->file_defined ||
		    trees_defines(fs->tm, ref->name))
			continue;
		strvec_push(names, ref->name);
		from_macro |= ref->from_macro;
	}
	return from_macro;
}

/* A block neither dead nor undead whose directive names something undefined: a line of its own. */
void analyze_add_undefined(struct file_state *fs, const char *path, size_t i,
			  const struct analyze_options *opt, const struct strvec *names,
			  struct defect_list *out)
{
	struct defect *d;

	if (!names->nr)
		return;
	d = analyze_add_defect(out, path, fs->f, fs->ids, i, DEFECT_UNDEFINED);
	d->cause = CAUSE_MISSING;
	d->global = 1;
	for (size_t k = 0; k < names->nr; k++) {
		strvec_push(&d->symbols, names->v[k]);
		strvec_push(&d->missing, names->v[k]);
		if (opt->explain)
			analyze_explain_missing(d, fs->tm, names->v[k]);
	}
}
