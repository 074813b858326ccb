// SPDX-License-Identifier: GPL-2.0
/* Revision arguments with the syntax of `git rev-list`, walked oldest first. */
#include "process.h"
#include "repo.h"

#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct rev_sets {
	struct commit_list pos, neg;
};

static void list_add(struct commit_list *l, const git_oid *oid)
{
	ALLOC_GROW(l->oid, l->nr + 1, l->alloc);
	git_oid_cpy(&l->oid[l->nr++], oid);
}

/* Like git's message, with our program name in place of "fatal". */
static int bad_revision(const char *arg)
{
	fprintf(stderr, "%s: bad revision '%s'\n", program_name(), arg);
	return -1;
}

/* A commit of the :/ walk, newest first; ties keep their order of arrival. */
struct dated {
	git_oid oid;
	git_time_t date;
};

struct dated_list {
	struct dated *v;
	size_t nr, alloc;
};

static void dated_insert(git_repository *g, struct dated_list *l, const git_oid *oid, int at_end)
{
	git_commit *c;
	size_t pos = l->nr;

	if (git_commit_lookup(&c, g, oid) < 0)
		return;	/* past a shallow boundary: nothing there to match */
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	if (!at_end)
		for (pos = 0; pos < l->nr && l->v[pos].date >= git_commit_time(c); pos++)
			;
	memmove(l->v + pos + 1, l->v + pos, (l->nr - pos) * sizeof(*l->v));
	git_oid_cpy(&l->v[pos].oid, oid);
	l->v[pos].date = git_commit_time(c);
	l->nr++;
	git_commit_free(c);
}

static int cmp_dated(const void *a, const void *b)
{
	const struct dated *x = a, *y = b;

	return x->date < y->date ? 1 : x->date > y->date ? -1 : 0;
}

/* The tips git starts a :/ search from: HEAD, then every ref, last name first. */
static void message_tips(git_repository *g, struct dated_list *l)
{
	git_reference_iterator *it;
	struct strvec names = STRVEC_INIT;
	const char *name;
	git_oid oid;

	if (!git_reference_name_to_id(&oid, g, "HEAD"))
		dated_insert(g, l, &oid, 1);
	if (!git_reference_iterator_glob_new(&it, g, "refs/*")) {
		while (!git_reference_next_name(&name, it))
			strvec_push(&names, name);
		git_reference_iterator_free(it);
	}
	strvec_sort(&names);
	for (size_t i = names.nr; i--;) {
		git_object *obj;
		git_reference *ref;

		if (git_reference_lookup(&ref, g, names.v[i]) < 0)
			continue;
		if (!git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT)) {
			dated_insert(g, l, git_object_id(obj), 1);
			git_object_free(obj);
		}
		git_reference_free(ref);
	}
	strvec_clear(&names);
	/* A stable sort, as git's merge sort of the tips by date. */
	for (size_t i = 1; i < l->nr; i++)
		for (size_t j = i; j && cmp_dated(&l->v[j - 1], &l->v[j]) > 0; j--) {
			struct dated t = l->v[j];

			l->v[j] = l->v[j - 1];
			l->v[j - 1] = t;
		}
}

/*
 * ":/<regex>": the youngest commit reachable from any ref whose message
 * matches (":/!-<regex>": does not match; ":/!!..." for a leading "!"), in
 * git's order of search. Done here: libgit2 1.5 leaks on this syntax
 * (LeakSanitizer).
 */
static int resolve_message(git_repository *g, const char *pattern, git_oid *out)
{
	struct dated_list l = { 0 };
	struct strmap seen = STRMAP_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	int negate = 0, ret = -1;
	regex_t re;

	if (pattern[0] == '!') {
		if (pattern[1] == '-')
			negate = 1;
		else if (pattern[1] != '!')
			return -1;
		pattern += 1 + negate;	/* "!!x" is the regex "!x" */
	}
	if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB))
		return -1;
	message_tips(g, &l);
	for (size_t i = 0; i < l.nr; i++)
		strmap_put(&seen, oid_hex(&l.v[i].oid, hex), NULL);
	while (ret < 0 && l.nr) {
		git_oid oid = l.v[0].oid;
		git_commit *c;

		memmove(l.v, l.v + 1, --l.nr * sizeof(*l.v));
		if (git_commit_lookup(&c, g, &oid) < 0)
			continue;
		for (unsigned i = 0; i < git_commit_parentcount(c); i++) {
			const git_oid *p = git_commit_parent_id(c, i);

			if (!strmap_contains(&seen, oid_hex(p, hex))) {
				strmap_put(&seen, hex, NULL);
				dated_insert(g, &l, p, 0);
			}
		}
		if (negate != !regexec(&re, git_commit_message(c), 0, NULL, 0)) {
			git_oid_cpy(out, &oid);
			ret = 0;
		}
		git_commit_free(c);
	}
	free(l.v);
	strmap_clear(&seen, NULL);
	regfree(&re);
	return ret;
}

/* Resolves `spec` (`len` bytes; empty means HEAD) to a commit, silently. */
static int resolve(git_repository *g, const char *spec, size_t len, git_oid *out)
{
	git_object *obj, *commit;
	char *s = len ? xstrndup(spec, len) : xstrdup("HEAD");
	int err;

	if (starts_with(s, ":/") && s[2]) {
		err = resolve_message(g, s + 2, out);
		free(s);
		return err;
	}
	err = git_revparse_single(&obj, g, s);
	free(s);
	if (err < 0)
		return -1;
	err = git_object_peel(&commit, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (err < 0)
		return -1;
	git_oid_cpy(out, git_object_id(commit));
	git_object_free(commit);
	return 0;
}

int repo_resolve_commit(struct repo *r, const char *rev, git_oid *out)
{
	if (!*rev || resolve(repo_git(r), rev, strlen(rev), out) < 0)
		return bad_revision(rev);
	return 0;
}

/* Adds the parents of `oid` to `l`: all of them (nth = 0) or the nth. */
static int add_parents(struct repo *r, const git_oid *oid, unsigned nth, struct commit_list *l)
{
	git_commit *c;
	unsigned n;

	if (repo_lookup_commit(r, repo_git(r), oid, &c) < 0)
		return -1;
	n = repo_commit_parentcount(r, c);
	if (nth && nth > n) {
		git_commit_free(c);
		return -1;
	}
	for (unsigned i = 0; i < n; i++)
		if (!nth || i + 1 == nth)
			list_add(l, git_commit_parent_id(c, i));
	git_commit_free(c);
	return 0;
}

/* "X^-" and "X^-<n>": returns n (1 when absent) and the length of X, or 0. */
static unsigned parent_shorthand(const char *arg, size_t *xlen)
{
	const char *p = strstr(arg, "^-");
	unsigned long n = 1;

	for (; p; p = strstr(p + 1, "^-")) {
		const char *q = p + 2;

		if (*q) {
			char *end;

			n = strtoul(q, &end, 10);
			if (*end || !n || *q == '+' || *q == '-')
				continue;
		}
		*xlen = (size_t)(p - arg);
		return (unsigned)n;
	}
	return 0;
}

static int parse_one(struct repo *r, const char *arg, struct rev_sets *s, int *plain)
{
	git_repository *g = repo_git(r);
	const char *dots;
	size_t len = strlen(arg), xlen;
	unsigned nth;
	git_oid a, b;

	*plain = 0;
	if ((dots = strstr(arg, "..."))) {
		git_oidarray bases = { 0 };
		int err;

		if (resolve(g, arg, (size_t)(dots - arg), &a) < 0 ||
		    resolve(g, dots + 3, strlen(dots + 3), &b) < 0)
			return bad_revision(arg);
		list_add(&s->pos, &a);
		list_add(&s->pos, &b);
		/* Symmetric difference: everything reachable from both is out. */
		err = git_merge_bases(&bases, g, &a, &b);
		if (err < 0 && err != GIT_ENOTFOUND)
			return bad_revision(arg);
		for (size_t i = 0; i < bases.count; i++)
			list_add(&s->neg, &bases.ids[i]);
		git_oidarray_dispose(&bases);
		return 0;
	}
	if ((dots = strstr(arg, ".."))) {
		if (resolve(g, arg, (size_t)(dots - arg), &a) < 0 ||
		    resolve(g, dots + 2, strlen(dots + 2), &b) < 0)
			return bad_revision(arg);
		list_add(&s->neg, &a);
		list_add(&s->pos, &b);
		return 0;
	}
	if (len > 2 && ends_with(arg, "^!")) {
		if (resolve(g, arg, len - 2, &a) < 0 || add_parents(r, &a, 0, &s->neg) < 0)
			return bad_revision(arg);
		list_add(&s->pos, &a);
		return 0;
	}
	if (len > 2 && ends_with(arg, "^@")) {
		if (resolve(g, arg, len - 2, &a) < 0 || add_parents(r, &a, 0, &s->pos) < 0)
			return bad_revision(arg);
		return 0;
	}
	if ((nth = parent_shorthand(arg, &xlen)) && xlen) {
		if (resolve(g, arg, xlen, &a) < 0 || add_parents(r, &a, nth, &s->neg) < 0)
			return bad_revision(arg);
		list_add(&s->pos, &a);
		return 0;
	}
	if (arg[0] == '^') {
		if (!arg[1] || resolve(g, arg + 1, len - 1, &a) < 0)
			return bad_revision(arg);
		list_add(&s->neg, &a);
		return 0;
	}
	if (!len || resolve(g, arg, len, &a) < 0)
		return bad_revision(arg);
	list_add(&s->pos, &a);
	*plain = 1;
	return 0;
}

/*
 * The commit limiting options of `git rev-list` that the commands take:
 * which commits of the walk are shown, applied as git applies them.
 */
struct rev_limits {
	long max_count, skip;		/* -1: no limit */
	int min_parents, max_parents;	/* --merges, --no-merges; max -1: none */
	int first_parent;
	long long since, until;		/* --since/--after, --until/--before; -1: none */
	regex_t *authors, *greps;	/* OR within each, AND between the two */
	size_t nr_authors, nr_greps;
	int any;			/* an option was given */
};

/* `git rev-parse --since=<date>` says "--max-age=<timestamp>": git's own date parser. */
static int git_date(const char *opt, const char *date, long long *out)
{
	char *arg = xstrfmt("--%s=%s", opt, date);
	const char *argv[] = { "git", "rev-parse", arg, NULL };
	struct strbuf sb = STRBUF_INIT;
	int ok = 0;

	if (process_run_capture(argv, &sb, 1) == 0 && sb.len) {
		const char *v = strchr(sb.buf, '=');
		char *end;

		if (v) {
			*out = strtoll(v + 1, &end, 10);
			ok = end != v + 1;
		}
	}
	strbuf_release(&sb);
	free(arg);
	if (!ok)
		return error("cannot read the date '%s' of --%s", date, opt);
	return 0;
}

static int add_pattern(regex_t **v, size_t *nr, const char *opt, const char *pattern)
{
	char msg[256];
	int err;

	*v = xrealloc(*v, (*nr + 1) * sizeof(**v));
	/* git's default: basic regular expressions, matched line by line. */
	err = regcomp(&(*v)[*nr], pattern, REG_NOSUB | REG_NEWLINE);
	if (err) {
		regerror(err, &(*v)[*nr], msg, sizeof(msg));
		return error("--%s: bad pattern '%s': %s", opt, pattern, msg);
	}
	(*nr)++;
	return 0;
}

/*
 * As git reads -n and --skip: a negative count is no limit (-n -1 lists
 * everything, --skip=-1 skips nothing), and one too large for a long is
 * the largest; anything but an integer is an error.
 */
static int limit_number(const char *opt, const char *v, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(v, &end, 10);
	if (!*v || *end || isspace((unsigned char)*v))
		return error("--%s expects a number, not '%s'", opt, v);
	if (*out < 0)
		*out = -1;
	return 0;
}

/*
 * One option of `args` at *i (its value maybe the next argument): 1 when it
 * was a limiting option, 0 when it is no option, -1 on error.
 */
static int parse_limit(const struct strvec *args, size_t *i, struct rev_limits *l)
{
	const char *a = args->v[*i], *v = NULL;
	char *name;
	size_t len;
	int ret = 0;

	if (a[0] != '-' || !a[1])
		return 0;
	if (a[1] != '-') {
		if (a[1] != 'n')
			return error("unknown revision option '%s'", a);
		name = xstrdup("max-count");
		v = a[2] ? a + 2 : *i + 1 < args->nr ? args->v[++*i] : NULL;
	} else {
		len = strcspn(a + 2, "=");
		name = xstrndup(a + 2, len);
		if (a[2 + len] == '=')
			v = a + 3 + len;
	}
	l->any = 1;
	if (!strcmp(name, "no-merges") || !strcmp(name, "merges") || !strcmp(name, "first-parent")) {
		if (v)
			ret = error("--%s takes no value", name);
		else if (!strcmp(name, "no-merges"))
			l->max_parents = 1;
		else if (!strcmp(name, "merges"))
			l->min_parents = 2;
		else
			l->first_parent = 1;
		free(name);
		return ret < 0 ? ret : 1;
	}
	if (!v && *i + 1 < args->nr && a[1] == '-')
		v = args->v[++*i];
	if (!v)
		ret = error("--%s requires a value", name);
	else if (!strcmp(name, "max-count"))
		ret = limit_number(name, v, &l->max_count);
	else if (!strcmp(name, "skip"))
		ret = limit_number(name, v, &l->skip);
	else if (!strcmp(name, "since") || !strcmp(name, "after"))
		ret = git_date("since", v, &l->since);
	else if (!strcmp(name, "until") || !strcmp(name, "before"))
		ret = git_date("until", v, &l->until);
	else if (!strcmp(name, "author"))
		ret = add_pattern(&l->authors, &l->nr_authors, name, v);
	else if (!strcmp(name, "grep"))
		ret = add_pattern(&l->greps, &l->nr_greps, name, v);
	else
		ret = error("unknown revision option '--%s'", name);
	free(name);
	return ret < 0 ? ret : 1;
}

static void limits_clear(struct rev_limits *l)
{
	for (size_t i = 0; i < l->nr_authors; i++)
		regfree(&l->authors[i]);
	for (size_t i = 0; i < l->nr_greps; i++)
		regfree(&l->greps[i]);
	free(l->authors);
	free(l->greps);
}

static int any_match(const regex_t *v, size_t nr, const char *text)
{
	for (size_t i = 0; i < nr; i++)
		if (!regexec(&v[i], text, 0, NULL, 0))
			return 1;
	return 0;
}

/* Is the commit shown? (get_commit_action's tests, after the walk.) */
static int shown(struct repo *r, const git_oid *oid, const struct rev_limits *l)
{
	git_commit *c;
	unsigned np;
	int ok = 1;

	/* Without these filters every commit of the walk is shown: no lookup. */
	if (!l->min_parents && l->max_parents < 0 && l->until < 0 && !l->nr_authors &&
	    !l->nr_greps)
		return 1;
	if (repo_lookup_commit(r, repo_git(r), oid, &c) < 0)
		return 0;
	np = repo_commit_parentcount(r, c);
	if ((int)np < l->min_parents || (l->max_parents >= 0 && (int)np > l->max_parents))
		ok = 0;
	if (ok && l->until >= 0 && (long long)git_commit_time(c) > l->until)
		ok = 0;
	if (ok && l->nr_authors) {
		const git_signature *a = git_commit_author(c);
		char *who = xstrfmt("%s <%s>", a->name, a->email);

		ok = any_match(l->authors, l->nr_authors, who);
		free(who);
	}
	if (ok && l->nr_greps)
		ok = any_match(l->greps, l->nr_greps, git_commit_message(c));
	git_commit_free(c);
	return ok;
}

/* One commit of the range, for ordering it as git does. */
struct node {
	git_oid oid;
	git_time_t date;	/* committer date: what git's walk orders by */
	size_t *parents;	/* indices of the parents in the range, in parent order */
	size_t nr_parents;
	unsigned seq;		/* insertion order in the date queue: ties go first in, first out */
	int seen, indegree;
};

struct range {
	struct node *v;
	size_t nr, alloc;
	struct strmap index;	/* hex id -> index + 1 */
};

static size_t range_find(const struct range *rg, const git_oid *oid)
{
	char hex[GIT_OID_HEXSZ + 1];

	return (size_t)(uintptr_t)strmap_get(&rg->index, oid_hex(oid, hex));
}

/* Date queue: newest first; equal dates in insertion order (git's commit_list_insert_by_date). */
static int queue_before(const struct node *a, const struct node *b)
{
	return a->date != b->date ? a->date > b->date : a->seq < b->seq;
}

static void heap_push(struct range *rg, size_t *heap, size_t *nr, size_t i)
{
	size_t k = (*nr)++;

	heap[k] = i;
	while (k && queue_before(&rg->v[heap[k]], &rg->v[heap[(k - 1) / 2]])) {
		size_t t = heap[k];

		heap[k] = heap[(k - 1) / 2];
		heap[(k - 1) / 2] = t;
		k = (k - 1) / 2;
	}
}

static size_t heap_pop(struct range *rg, size_t *heap, size_t *nr)
{
	size_t top = heap[0], k = 0;

	heap[0] = heap[--(*nr)];
	for (;;) {
		size_t l = 2 * k + 1, m = k;

		if (l < *nr && queue_before(&rg->v[heap[l]], &rg->v[heap[m]]))
			m = l;
		if (l + 1 < *nr && queue_before(&rg->v[heap[l + 1]], &rg->v[heap[m]]))
			m = l + 1;
		if (m == k)
			break;
		heap[m] ^= heap[k];
		heap[k] ^= heap[m];
		heap[m] ^= heap[k];
		k = m;
	}
	return top;
}

/*
 * Orders the range as `git rev-list --topo-order` does (limit_list, then
 * sort_in_topological_order in graph order), and appends it reversed:
 * 1. a walk from the positive tips (sorted by date, stably) that always
 *    takes the newest commit next, a parent joining the queue when first seen;
 * 2. from the commits in that order, emit tips first; a LIFO stack takes a
 *    parent once all of its children in the range are out.
 */
static void order_like_git(struct range *rg, const struct commit_list *pos, struct commit_list *out,
			   struct commit_list *by_date)
{
	size_t *heap = xmalloc((rg->nr + 1) * sizeof(*heap));
	size_t *walked = xmalloc((rg->nr + 1) * sizeof(*walked));
	size_t *stack = xmalloc((rg->nr + 1) * sizeof(*stack));
	size_t *emitted = xmalloc((rg->nr + 1) * sizeof(*emitted));
	size_t nheap = 0, nwalked = 0, nstack = 0, nemitted = 0;
	size_t *tips = xmalloc((pos->nr + 1) * sizeof(*tips));
	size_t ntips = 0;
	unsigned seq = 0;

	for (size_t i = 0; i < pos->nr; i++) {
		size_t k = range_find(rg, &pos->oid[i]);

		if (k && !rg->v[k - 1].seen) {
			rg->v[k - 1].seen = 1;
			tips[ntips++] = k - 1;
		}
	}
	/* Insertion sort keeps equal dates in command-line order, as git's stable sort. */
	for (size_t i = 1; i < ntips; i++)
		for (size_t j = i; j && rg->v[tips[j]].date > rg->v[tips[j - 1]].date; j--) {
			size_t t = tips[j];

			tips[j] = tips[j - 1];
			tips[j - 1] = t;
		}
	for (size_t i = 0; i < ntips; i++) {
		rg->v[tips[i]].seq = seq++;
		heap_push(rg, heap, &nheap, tips[i]);
	}
	while (nheap) {
		size_t c = heap_pop(rg, heap, &nheap);

		walked[nwalked++] = c;
		list_add(by_date, &rg->v[c].oid);
		for (size_t j = 0; j < rg->v[c].nr_parents; j++) {
			struct node *p = &rg->v[rg->v[c].parents[j]];

			if (!p->seen) {
				p->seen = 1;
				p->seq = seq++;
				heap_push(rg, heap, &nheap, rg->v[c].parents[j]);
			}
		}
	}

	for (size_t i = 0; i < nwalked; i++)
		rg->v[walked[i]].indegree = 1;
	for (size_t i = 0; i < nwalked; i++)
		for (size_t j = 0; j < rg->v[walked[i]].nr_parents; j++)
			rg->v[rg->v[walked[i]].parents[j]].indegree++;
	/* Tips pushed in reverse, so that the first one is on top. */
	for (size_t i = nwalked; i--;)
		if (rg->v[walked[i]].indegree == 1)
			stack[nstack++] = walked[i];
	while (nstack) {
		size_t c = stack[--nstack];

		for (size_t j = 0; j < rg->v[c].nr_parents; j++) {
			struct node *p = &rg->v[rg->v[c].parents[j]];

			if (p->indegree && --p->indegree == 1)
				stack[nstack++] = rg->v[c].parents[j];
		}
		rg->v[c].indegree = 0;
		emitted[nemitted++] = c;
	}
	for (size_t i = nemitted; i--;)
		list_add(out, &rg->v[emitted[i]].oid);
	free(heap);
	free(walked);
	free(stack);
	free(emitted);
	free(tips);
}

static int load_range(struct repo *r, struct range *rg, int first_parent)
{
	for (size_t i = 0; i < rg->nr; i++) {
		struct node *n = &rg->v[i];
		git_commit *c;
		unsigned np;

		if (repo_lookup_commit(r, repo_git(r), &n->oid, &c) < 0)
			return -1;
		n->date = git_commit_time(c);
		np = repo_commit_parentcount(r, c);
		if (first_parent && np > 1)
			np = 1;
		n->parents = xmalloc((np + 1) * sizeof(*n->parents));
		for (unsigned j = 0; j < np; j++) {
			size_t k = range_find(rg, git_commit_parent_id(c, j));

			if (k)
				n->parents[n->nr_parents++] = k - 1;
		}
		git_commit_free(c);
	}
	return 0;
}

static void range_add(struct range *rg, const git_oid *oid)
{
	char hex[GIT_OID_HEXSZ + 1];

	ALLOC_GROW(rg->v, rg->nr + 1, rg->alloc);
	memset(&rg->v[rg->nr], 0, sizeof(rg->v[rg->nr]));
	git_oid_cpy(&rg->v[rg->nr].oid, oid);
	rg->nr++;
	strmap_put(&rg->index, oid_hex(oid, hex), (void *)(uintptr_t)rg->nr);
}

/*
 * The commits reachable from `todo` and not yet in `seen` (all parents, or the
 * first), each put in `seen` and, when `rg` is given, in the range. Parents
 * end at a shallow boundary.
 */
static int reach(struct repo *r, struct commit_list *todo, struct strmap *seen, int first_parent,
		 struct range *rg)
{
	char hex[GIT_OID_HEXSZ + 1];

	while (todo->nr) {
		git_oid oid = todo->oid[--todo->nr];
		git_commit *c;
		unsigned np;

		if (strmap_contains(seen, oid_hex(&oid, hex)))
			continue;
		strmap_put(seen, hex, NULL);
		if (repo_lookup_commit(r, repo_git(r), &oid, &c) < 0)
			return -1;
		if (rg)
			range_add(rg, &oid);
		np = repo_commit_parentcount(r, c);
		if (first_parent && np > 1)
			np = 1;
		for (unsigned i = 0; i < np; i++)
			list_add(todo, git_commit_parent_id(c, i));
		git_commit_free(c);
	}
	return 0;
}

/*
 * libgit2 before 1.7 walks past a shallow boundary into the missing parents:
 * in a shallow clone the set is found here, as the ancestors of the positive
 * commits that no negative one reaches.
 */
static int walk_set_shallow(struct repo *r, struct rev_sets *s, const struct commit_list *hide,
			    int first_parent, struct range *rg)
{
	struct strmap seen = STRMAP_INIT;
	struct commit_list todo = { 0 };
	int err;

	for (size_t i = 0; i < s->neg.nr; i++)
		list_add(&todo, &s->neg.oid[i]);
	for (size_t i = 0; hide && i < hide->nr; i++)
		list_add(&todo, &hide->oid[i]);
	err = reach(r, &todo, &seen, 0, NULL);
	for (size_t i = s->pos.nr; !err && i--;)
		list_add(&todo, &s->pos.oid[i]);
	if (!err)
		err = reach(r, &todo, &seen, first_parent, rg);
	if (!err)
		err = load_range(r, rg, first_parent);
	commit_list_clear(&todo);
	strmap_clear(&seen, NULL);
	if (err)
		return error("cannot walk revisions: %s",
			     git_error_last() ? git_error_last()->message : "unknown error");
	return 0;
}

/*
 * The commits of `s`: libgit2 finds the set, the order is git's. `hide`:
 * more commits to leave out with their ancestors.
 */
static int walk_set(struct repo *r, struct rev_sets *s, const struct commit_list *hide,
		    int first_parent, struct range *rg)
{
	git_repository *g = repo_git(r);
	git_revwalk *w;
	git_oid oid;
	int err = 0;

	if (repo_is_shallow(r))
		return walk_set_shallow(r, s, hide, first_parent, rg);
	if (git_revwalk_new(&w, g) < 0)
		return error("cannot walk revisions: %s", git_error_last()->message);
	if (first_parent)
		git_revwalk_simplify_first_parent(w);
	for (size_t i = 0; i < s->pos.nr && !err; i++)
		err = git_revwalk_push(w, &s->pos.oid[i]);
	for (size_t i = 0; i < s->neg.nr && !err; i++)
		err = git_revwalk_hide(w, &s->neg.oid[i]);
	for (size_t i = 0; hide && i < hide->nr && !err; i++)
		err = git_revwalk_hide(w, &hide->oid[i]);
	while (!err && !(err = git_revwalk_next(&oid, w)))
		range_add(rg, &oid);
	git_revwalk_free(w);
	if (err == GIT_ITEROVER)
		err = load_range(r, rg, first_parent);
	if (err)
		return error("cannot walk revisions: %s",
			     git_error_last() ? git_error_last()->message : "unknown error");
	return 0;
}

static void range_clear(struct range *rg)
{
	for (size_t i = 0; i < rg->nr; i++)
		free(rg->v[i].parents);
	free(rg->v);
	strmap_clear(&rg->index, NULL);
	memset(rg, 0, sizeof(*rg));
}

static int walk(struct repo *r, struct rev_sets *s, const struct rev_limits *l,
		struct commit_list *out)
{
	struct range rg = { 0 };
	struct commit_list all = { 0 }, by_date = { 0 };
	int err;

	if (!s->pos.nr)
		return 0;
	err = walk_set(r, s, NULL, l->first_parent, &rg);
	if (!err && l->since >= 0) {
		/*
		 * git marks a commit older than --since uninteresting, and so
		 * its ancestors: walk again with those hidden.
		 */
		struct commit_list old = { 0 };

		for (size_t i = 0; i < rg.nr; i++)
			if ((long long)rg.v[i].date < l->since)
				list_add(&old, &rg.v[i].oid);
		if (old.nr) {
			range_clear(&rg);
			err = walk_set(r, s, &old, l->first_parent, &rg);
		}
		commit_list_clear(&old);
	}
	if (!err)
		order_like_git(&rg, &s->pos, &all, &by_date);
	range_clear(&rg);
	if (!err && (l->max_count >= 0 || l->skip > 0)) {
		/*
		 * git rev-list -n and --skip count in its own order (the walk
		 * by date, newest first) whatever order the commits are then
		 * processed in: choose there, keep the topological order.
		 */
		long skip = l->skip > 0 ? l->skip : 0, left = l->max_count;
		struct strmap chosen = STRMAP_INIT;
		char hex[GIT_OID_HEXSZ + 1];

		for (size_t i = 0; i < by_date.nr && left; i++) {
			if (!shown(r, &by_date.oid[i], l))
				continue;
			if (skip) {
				skip--;
				continue;
			}
			strmap_put(&chosen, oid_hex(&by_date.oid[i], hex), NULL);
			if (left > 0)
				left--;
		}
		for (size_t i = 0; i < all.nr; i++)
			if (strmap_contains(&chosen, oid_hex(&all.oid[i], hex)))
				list_add(out, &all.oid[i]);
		strmap_clear(&chosen, NULL);
	} else if (!err) {
		for (size_t i = 0; i < all.nr; i++)
			if (shown(r, &all.oid[i], l))
				list_add(out, &all.oid[i]);
	}
	commit_list_clear(&by_date);
	commit_list_clear(&all);
	return err ? -1 : 0;
}

int repo_parse_revisions(struct repo *r, const struct strvec *args, struct commit_list *out)
{
	git_repository *g = repo_git(r);
	struct rev_sets s = { 0 };
	struct rev_limits l = { .max_count = -1, .max_parents = -1, .since = -1, .until = -1 };
	int plain = 0, ret = 0, nr_revs = 0;

	for (size_t i = 0; args && i < args->nr && !ret; i++) {
		int k = parse_limit(args, &i, &l);

		if (k < 0)
			ret = -1;
		else if (!k && ++nr_revs)
			ret = parse_one(r, args->v[i], &s, &plain);
	}
	if (!ret && !nr_revs) {
		git_oid head;

		if (git_repository_head_unborn(g) == 1) {
			fprintf(stderr, "%s: your current branch does not have any commits yet\n",
				program_name());
			ret = -1;
		} else if (resolve(g, "HEAD", 4, &head) < 0) {
			ret = bad_revision("HEAD");
		} else if (!l.any) {
			list_add(out, &head);
		} else {
			list_add(&s.pos, &head);
			ret = walk(r, &s, &l, out);
		}
	} else if (!ret) {
		/* One plain revision alone means that commit, as `git show X`. */
		if (nr_revs == 1 && plain && !l.any)
			list_add(out, &s.pos.oid[0]);
		else
			ret = walk(r, &s, &l, out);
	}
	limits_clear(&l);
	commit_list_clear(&s.pos);
	commit_list_clear(&s.neg);
	return ret;
}
