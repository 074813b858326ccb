// SPDX-License-Identifier: GPL-2.0
/*
 * Build phases: U-Boot compiles its tree more than once, as U-Boot proper
 * and then as SPL, TPL or VPL, each phase with its own -D names and its own
 * prefix for the options its Makefiles name (obj-$(CONFIG_$(PHASE_)FOO)).
 * Nothing here is one U-Boot release's: the phases and their -D names are
 * read from scripts/Makefile.autoconf at the commit
 *
 *	spl/u-boot.cfg: include/config.h FORCE
 *		$(call cmd,u_boot_cfg,-DCONFIG_XPL_BUILD -DCONFIG_SPL_BUILD)
 *
 * and the prefixes ($(PHASE_), $(SPL_), $(SPL_TPL_), $(XPL_): variables
 * whose names end in an underscore) come from interpreting the files that
 * scripts/Makefile.build includes for every directory (Kbuild.include,
 * Kbuild.uboot) with those names set, as autoconf.mk sets them. A tree
 * without that file has one phase, with nothing set.
 */
#define _GNU_SOURCE
#include "kbuild-internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Where the prefix variables are defined, in the order Makefile.build includes them. */
static const char *const definitions[] = { "scripts/Kbuild.include", "scripts/Kbuild.uboot" };

static void add_phase(struct kbuild_phase **phases, size_t *nr, size_t *alloc, const char *name,
		      size_t len)
{
	ALLOC_GROW(*phases, *nr + 1, *alloc);
	memset(&(*phases)[*nr], 0, sizeof(**phases));
	(*phases)[*nr].name = xstrndup(name, len);
	(*nr)++;
}

/* The -D names of a `$(call cmd,u_boot_cfg,-DA -DB)` line. */
static void add_defines(struct kbuild_phase *ph, const char *p, const char *eol)
{
	while ((p = strstr(p, "-D")) && p < eol) {
		const char *q = p += 2;

		while (q < eol && (isalnum((unsigned char)*q) || *q == '_'))
			q++;
		if (q > p)
			strvec_pushf(&ph->defines, "%.*s", (int)(q - p), p);
		p = q;
	}
}

size_t kbuild_phases(const struct kbuild_reader *rd, struct kbuild_phase **out)
{
	struct kbuild_phase *phases = NULL;
	size_t nr = 0, alloc = 0;
	struct kbuild_text t;
	long current = -1;

	add_phase(&phases, &nr, &alloc, "", 0);
	if (!rd->read(rd->ctx, "scripts/Makefile.autoconf", &t)) {
		for (const char *p = t.data; *p; ) {
			const char *eol = strchrnul(p, '\n'), *target = strstr(p, "/u-boot.cfg:");

			if (target && target < eol && !memchr(p, ' ', (size_t)(target - p)) &&
			    !memchr(p, '\t', (size_t)(target - p)) && target > p) {
				add_phase(&phases, &nr, &alloc, p, (size_t)(target - p));
				current = (long)nr - 1;
			} else if (current >= 0) {
				const char *call = strstr(p, "u_boot_cfg,");

				if (call && call < eol) {
					add_defines(&phases[current], call, eol);
					current = -1;
				}
			}
			p = *eol ? eol + 1 : eol;
		}
		if (rd->release)
			rd->release(rd->ctx, &t);
	}
	/* A phase with no -D names is not one we can tell from U-Boot proper. */
	for (size_t i = 1; i < nr; ) {
		if (phases[i].defines.nr) {
			i++;
			continue;
		}
		free(phases[i].name);
		memmove(&phases[i], &phases[i + 1], (nr - i - 1) * sizeof(*phases));
		nr--;
	}
	*out = phases;
	return nr;
}

void kbuild_phases_free(struct kbuild_phase *phases, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(phases[i].name);
		strvec_clear(&phases[i].defines);
	}
	free(phases);
}

const char *kbuild_phase_top(const struct kbuild_reader *rd, const struct kbuild_phase *ph)
{
	static const char *const tops[] = { "scripts/Makefile.xpl", "scripts/Makefile.spl" };

	if (!*ph->name)
		return "Makefile";
	for (size_t i = 0; i < ARRAY_SIZE(tops); i++) {
		char id[48];
		struct kbuild_text t;
		int r;

		if (rd->id) {
			r = rd->id(rd->ctx, tops[i], id);
		} else {
			r = rd->read(rd->ctx, tops[i], &t);
			if (!r && rd->release)
				rd->release(rd->ctx, &t);
		}
		if (!r)
			return tops[i];
	}
	return "Makefile";
}

int kbuild_phase_is_prefix(const char *name)
{
	size_t len = strlen(name);

	if (len < 2 || name[len - 1] != '_')
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!isupper((unsigned char)name[i]) && !isdigit((unsigned char)name[i]) && name[i] != '_')
			return 0;
	return 1;
}

static int defines(const struct kbuild_phase *ph, const char *name)
{
	for (size_t i = 0; i < ph->defines.nr; i++)
		if (!strcmp(ph->defines.v[i], name))
			return 1;
	return 0;
}

const struct kbuild_expr *kbuild_phase_names(struct kbuild_exprs *ex,
					     const struct kbuild_phase *phases, size_t nr,
					     const struct kbuild_phase *ph)
{
	const struct kbuild_expr *r = kbuild_expr_true(ex);

	if (nr < 2)
		return r;
	for (size_t i = 0; i < nr; i++)
		for (size_t k = 0; k < phases[i].defines.nr; k++) {
			const struct kbuild_expr *d = kbuild_expr_defined(ex, phases[i].defines.v[k]);

			r = kbuild_expr_and(ex, r, defines(ph, d->name) ? d : kbuild_expr_not(ex, d));
		}
	return r;
}

void kbuild_phase_setup(struct kmake *mk, const struct kbuild_phase *phases, size_t nr,
			const struct kbuild_phase *ph)
{
	struct kmake defs;
	struct strmap_entry *e;

	if (nr < 2)
		return;
	/*
	 * Read as a directory's Makefile reads them (its conditionals decided,
	 * not both branches as in the top Makefile), with autoconf.mk's names:
	 * this phase's are y, the other phases' are not set.
	 */
	kbuild_make_init(&defs, mk->ex, mk->rd, "", NULL, 0);
	for (size_t i = 0; i < nr; i++)
		for (size_t k = 0; k < phases[i].defines.nr; k++) {
			const char *name = phases[i].defines.v[k];
			int own = defines(ph, name);

			kbuild_make_set_readonly(mk, name, own ? "y" : "");
			kbuild_make_set_readonly(&defs, name, own ? "y" : "");
		}
	for (size_t i = 0; i < ARRAY_SIZE(definitions); i++)
		kbuild_make_parse_file(&defs, definitions[i], kbuild_expr_true(mk->ex));
	for (size_t i = 0; i < defs.deps.nr; i++)
		strvec_push(&mk->deps, defs.deps.v[i]);
	/* A prefix with one value in this phase is set for every Makefile; others stay unknown. */
	strmap_for_each(&defs.vars, e) {
		struct kwords w = { 0 };
		struct strbuf value = STRBUF_INIT;
		int known = 1;

		if (!kbuild_phase_is_prefix(e->key))
			continue;
		kbuild_make_words(&defs, e->key, &w);
		for (size_t i = 0; i < w.nr && known; i++) {
			known = w.v[i].cond->op == KB_TRUE && !has_unknown(w.v[i].text);
			strbuf_addf(&value, "%s%s", value.len ? " " : "", w.v[i].text);
		}
		if (known)
			kbuild_make_set_readonly(mk, e->key, strbuf_str(&value));
		strbuf_release(&value);
		kbuild_words_clear(&w);
	}
	kbuild_make_release(&defs);
}
