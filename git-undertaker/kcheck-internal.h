/* SPDX-License-Identifier: GPL-2.0 */
/* What the kcheck*.c files share; not an interface (see kcheck.h). */
#ifndef UT_KCHECK_INTERNAL_H
#define UT_KCHECK_INTERNAL_H

#include "kcheck.h"

/*
 * The name of a `CONFIG_X=...` or `# CONFIG_X is not set` line [line, end):
 * its length (CONFIG_ included), *name where it starts; 0 for another line.
 */
size_t kcheck_defconfig_name(const char *line, const char *end, const char **name);

/* The `dropped` defects of a defconfig (kcheck-dropped.c). */
void kcheck_dropped(struct tree_models *tm, const char *path, const char *data, size_t size,
		    struct defect_list *out);

#endif
