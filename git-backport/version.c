// SPDX-License-Identifier: GPL-2.0
#include "backport.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARTS 4

/*
 * Kernel versions compare component by component as numbers ("4.10" is after
 * "4.9", which a string comparison gets wrong); a release candidate comes
 * before its release. Returns the number of components, or -1.
 */
int kernel_version_parse(const char *s, long *parts, int max_parts, long *rc)
{
	int n = 0;

	if (*s == 'v' || *s == 'V')
		s++;
	*rc = LONG_MAX;
	for (;;) {
		char *end;
		long v;

		if (!isdigit((unsigned char)*s) || n == max_parts)
			return -1;
		v = strtol(s, &end, 10);
		parts[n++] = v;
		s = end;
		if (*s != '.')
			break;
		s++;
	}
	if (!strncmp(s, "-rc", 3) && isdigit((unsigned char)s[3])) {
		char *end;

		*rc = strtol(s + 3, &end, 10);
		s = end;
	}
	return *s ? -1 : n;
}

int kernel_version_compare(const char *a, const char *b)
{
	long pa[MAX_PARTS] = { 0 }, pb[MAX_PARTS] = { 0 }, ra, rb;

	if (kernel_version_parse(a, pa, MAX_PARTS, &ra) < 0 ||
	    kernel_version_parse(b, pb, MAX_PARTS, &rb) < 0)
		return strcmp(a, b);
	for (int i = 0; i < MAX_PARTS; i++)
		if (pa[i] != pb[i])
			return pa[i] < pb[i] ? -1 : 1;
	if (ra != rb)
		return ra < rb ? -1 : 1;
	return 0;
}
