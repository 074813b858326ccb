// SPDX-License-Identifier: GPL-2.0
/*
 * The rules: *.cocci files from a work-tree directory or a tree of the
 * repository, in file-name order, each with the kernel version it backports
 * (if it says) and the tokens a file must contain for it to apply.
 */
#include "backport.h"
#include "outtree.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int rule_cmp(const void *a, const void *b)
{
	return strcmp(((const struct rule *)a)->name, ((const struct rule *)b)->name);
}

/* "// Backport: 4.10" (or the same in a C comment) on the first line. */
static char *parse_backport_header(const char *data, size_t size)
{
	const char *end = memchr(data, '\n', size);
	const char *p = data, *q;
	size_t len = end ? (size_t)(end - data) : size;
	const char *stop = data + len;

	while (p < stop && isspace((unsigned char)*p))
		p++;
	if (stop - p < 2 || p[0] != '/' || (p[1] != '/' && p[1] != '*'))
		return NULL;
	p += 2;
	while (p < stop && isspace((unsigned char)*p))
		p++;
	if (stop - p < 9 || strncasecmp(p, "Backport:", 9))
		return NULL;
	p += 9;
	while (p < stop && isspace((unsigned char)*p))
		p++;
	q = p;
	while (q < stop && !isspace((unsigned char)*q) && !(q + 1 < stop && q[0] == '*' && q[1] == '/'))
		q++;
	return q > p ? xstrndup(p, q - p) : NULL;
}

static int closes_comment(const char *p, const char *end)
{
	for (; p + 1 < end; p++)
		if (p[0] == '*' && p[1] == '/')
			return 1;
	return 0;
}

/*
 * The `virtual a, b` lines of a rule (SmPL: at a line's start, outside
 * comments): is `patch` among the names, else the names, comma-separated.
 */
static void scan_virtuals(struct rule *rule, const char *data, size_t size)
{
	struct strbuf names = STRBUF_INIT;
	const char *p = data, *end = data + size;
	int in_comment = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *q = p;

		while (q < e && (*q == ' ' || *q == '\t'))
			q++;
		if (in_comment) {
			in_comment = !closes_comment(q, e);
		} else if (e - q >= 2 && q[0] == '/' && q[1] == '*') {
			in_comment = !closes_comment(q + 2, e);
		} else if ((size_t)(e - q) > 8 && !strncmp(q, "virtual", 7) &&
			   (q[7] == ' ' || q[7] == '\t')) {
			for (q += 8; q < e;) {
				while (q < e && (*q == ' ' || *q == '\t' || *q == ','))
					q++;
				const char *w = q;
				while (q < e && (isalnum((unsigned char)*q) || *q == '_'))
					q++;
				if (q == w)
					break;
				if ((size_t)(q - w) == 5 && !strncmp(w, "patch", 5))
					rule->virtual_patch = 1;
				strbuf_addf(&names, "%s%.*s", names.len ? ", " : "", (int)(q - w), w);
			}
		}
		p = nl ? nl + 1 : end;
	}
	if (names.len && !rule->virtual_patch)
		rule->no_patch_mode = strbuf_detach(&names, NULL);
	strbuf_release(&names);
}

static void add_rule(struct rule_set *rs, const char *name, const char *file,
		     const char *data, size_t size)
{
	struct rule *rule;

	ALLOC_GROW(rs->v, rs->nr + 1, rs->alloc);
	rule = &rs->v[rs->nr++];
	memset(rule, 0, sizeof(*rule));
	rule->name = xstrdup(name);
	rule->file = xstrdup(file);
	repo_hash_blob(data, size, &rule->blob);
	rule->version = parse_backport_header(data, size);
	scan_virtuals(rule, data, size);
	if (rule->version) {
		long parts[4], rc;

		if (kernel_version_parse(rule->version, parts, 4, &rc) < 0) {
			warning("%s:1: not a kernel version: '%s' (the rule always runs)",
				name, rule->version);
			free(rule->version);
			rule->version = NULL;
		}
	}
}

struct tree_walk {
	struct repo *repo;
	struct outtree *out;
	struct rule_set *rs;
};

static int tree_cb(const struct tree_file *f, void *data)
{
	struct tree_walk *w = data;
	struct blob *blob;
	char *file;

	if (repo_read_blob(w->repo, f->blob, &blob) < 0) {
		error("cannot read the rule %s", f->path);
		return -1;
	}
	/* Every file is written, so that a rule's #include and `using` find theirs. */
	if (outtree_write(w->out, f->path, 0100644, blob->data, blob->size) < 0) {
		blob_release(w->repo, blob);
		return -1;
	}
	if (ends_with(f->path, ".cocci")) {
		file = xstrfmt("%s/%s", outtree_dir(w->out), f->path);
		add_rule(w->rs, f->path, file, blob->data, blob->size);
		free(file);
	}
	blob_release(w->repo, blob);
	return 0;
}

static int load_dir(const char *root, const char *rel, struct rule_set *rs)
{
	char *path = *rel ? xstrfmt("%s/%s", root, rel) : xstrdup(root);
	DIR *d = opendir(path);
	struct dirent *de;
	int ret = 0;

	if (!d) {
		error("cannot read rules directory '%s': %s", path, strerror(errno));
		free(path);
		return -1;
	}
	while (!ret && (de = readdir(d))) {
		char *sub, *full;
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		sub = *rel ? xstrfmt("%s/%s", rel, de->d_name) : xstrdup(de->d_name);
		full = xstrfmt("%s/%s", root, sub);
		if (stat(full, &st) == 0) {
			if (S_ISDIR(st.st_mode)) {
				ret = load_dir(root, sub, rs);
			} else if (S_ISREG(st.st_mode) && ends_with(de->d_name, ".cocci")) {
				char *data;
				size_t size;

				if (read_file(full, &data, &size) < 0) {
					ret = error("cannot read rule '%s': %s", full, strerror(errno));
				} else {
					add_rule(rs, sub, full, data, size);
					free(data);
				}
			}
		} else {
			char target[PATH_MAX];
			ssize_t n = readlink(full, target, sizeof(target) - 1);

			/* A rule whose link points nowhere must not vanish without a word. */
			if (n >= 0) {
				target[n] = '\0';
				warning("%s: dangling symbolic link to '%s': skipped", full, target);
			} else {
				warning("%s: %s: skipped", full, strerror(errno));
			}
		}
		free(sub);
		free(full);
	}
	closedir(d);
	free(path);
	return ret;
}

int rules_load(struct repo *r, const char *spec, const char *tmpdir, struct rule_set *out)
{
	struct stat st;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (strchr(spec, ':') && stat(spec, &st) < 0) {
		git_oid tree;
		struct tree_walk w = { 0 };
		char *root;
		int found = repo_resolve_object(r, spec, GIT_OBJECT_TREE, &tree);

		if (found == -1)
			return error("--rules: '%s' is neither a directory nor a tree in the repository", spec);
		if (found < 0)
			return error("--rules: '%s' is not a tree", spec);
		root = xstrfmt("%s/rules", tmpdir);
		w.repo = r;
		w.rs = out;
		if (mkdir_p(root) < 0 || !(w.out = outtree_open(root)))
			ret = error("--rules: cannot create %s: %s", root, strerror(errno));
		else if (repo_for_each_file(r, &tree, "", tree_cb, &w) != 0)
			ret = error("--rules: cannot read the tree '%s'", spec);
		outtree_close(w.out);
		free(root);
	} else {
		char abs[PATH_MAX];

		if (!realpath(spec, abs) || stat(abs, &st) < 0 || !S_ISDIR(st.st_mode))
			return error("--rules: '%s' is not a directory", spec);
		ret = load_dir(abs, "", out);
	}
	if (ret < 0)
		return -1;
	if (!out->nr)
		warning("no *.cocci rules in '%s'", spec);
	if (out->nr)
		qsort(out->v, out->nr, sizeof(*out->v), rule_cmp);
	return 0;
}

int rules_macro_file(struct repo *r, const char *spec, const char *tmpdir, char **path,
		     git_oid *id)
{
	struct stat st;
	char *data;
	size_t size;

	if (strchr(spec, ':') && stat(spec, &st) < 0) {
		struct blob *blob;
		int ret = repo_resolve_object(r, spec, GIT_OBJECT_BLOB, id);

		if (ret == -1)
			return error("--macro-file: '%s' is neither a file nor a blob in the repository", spec);
		if (ret < 0)
			return error("--macro-file: '%s' is not a file", spec);
		if (repo_read_blob(r, id, &blob) < 0)
			return -1;
		if (blob->size > RULES_MACRO_FILE_MAX) {
			blob_release(r, blob);
			return error("--macro-file: '%s' is larger than %d MiB", spec,
				     RULES_MACRO_FILE_MAX >> 20);
		}
		*path = xstrfmt("%s/macros.h", tmpdir);
		if (mkdir_leading(*path) < 0 || write_file_atomic(*path, blob->data, blob->size) < 0)
			ret = error("cannot write %s: %s", *path, strerror(errno));
		blob_release(r, blob);
		return ret;
	}
	*path = realpath(spec, NULL);
	if (!*path || read_file_max(*path, RULES_MACRO_FILE_MAX, &data, &size) < 0) {
		if (*path && (errno == EINVAL || errno == EISDIR))
			return error("--macro-file: '%s' is not a regular file", spec);
		if (*path && errno == EFBIG)
			return error("--macro-file: '%s' is larger than %d MiB", spec,
				     RULES_MACRO_FILE_MAX >> 20);
		return error("--macro-file: cannot read '%s': %s", spec, strerror(errno));
	}
	repo_hash_blob(data, size, id);
	free(data);
	return 0;
}

void rules_select(struct rule_set *rs, const char *target)
{
	for (size_t i = 0; i < rs->nr; i++) {
		struct rule *rule = &rs->v[i];

		/* A rule undoes an API of its version: needed only on older kernels. */
		rule->selected = !rule->no_patch_mode && (!target || !rule->version ||
			kernel_version_compare(rule->version, target) > 0);
	}
}

void rules_clear(struct rule_set *rs)
{
	for (size_t i = 0; i < rs->nr; i++) {
		struct rule *rule = &rs->v[i];

		free(rule->name);
		free(rule->file);
		free(rule->version);
		free(rule->failure);
		free(rule->no_patch_mode);
		pcre2_code_free(rule->filter);
	}
	free(rs->v);
	memset(rs, 0, sizeof(*rs));
}

static int is_word(int c)
{
	return isalnum(c) || c == '_';
}

/*
 * spatch prints its grep tokens joined by " || ": a file may match only if it
 * contains one of them. spatch itself tests them with egrep, bounded by \b
 * where a token starts with [A-Za-z_] or ends with [A-Za-z_] (both for a plain
 * identifier); we build the same test, so we skip exactly the files spatch
 * would skip, never one it would change.
 */
int rule_set_tokens(struct rule *rule, const char *line)
{
	struct strbuf re = STRBUF_INIT;
	const char *p = line;
	int n = 0, errcode;
	PCRE2_SIZE erroff;

	while (*p) {
		const char *end = strstr(p, " || ");
		size_t len = end ? (size_t)(end - p) : strlen(p);
		int ident = len > 0 && (isalpha((unsigned char)p[0]) || p[0] == '_');

		for (size_t i = 1; ident && i < len; i++)
			if (!is_word((unsigned char)p[i]))
				ident = 0;
		while (len && isspace((unsigned char)p[len - 1]))
			len--;
		if (len) {
			int lead = isalpha((unsigned char)p[0]) || p[0] == '_';
			/* Exactly spatch's cases: never a \b where it has none. */
			int trail = ident || (!lead && (isalpha((unsigned char)p[len - 1]) || p[len - 1] == '_'));

			/* Markers of an unsimplified query: no filter rather than a wrong one. */
			if ((len == 4 && !strncmp(p, "True", 4)) || (len == 5 && !strncmp(p, "False", 5))) {
				strbuf_release(&re);
				rule->no_filter = 1;
				return 0;
			}
			strbuf_addstr(&re, n++ ? "|" : "(?:");
			if (lead)
				strbuf_addstr(&re, "\\b");
			for (size_t i = 0; i < len; i++) {
				if (!is_word((unsigned char)p[i]))
					strbuf_addch(&re, '\\');
				strbuf_addch(&re, p[i]);
			}
			if (trail)
				strbuf_addstr(&re, "\\b");
		}
		if (!end)
			break;
		p = end + 4;
	}
	if (!n) {
		strbuf_release(&re);
		rule->no_filter = 1;
		return 0;
	}
	strbuf_addch(&re, ')');
	rule->filter = pcre2_compile((PCRE2_SPTR)re.buf, re.len, 0, &errcode, &erroff, NULL);
	strbuf_release(&re);
	if (!rule->filter) {
		rule->no_filter = 1;
		return -1;
	}
	pcre2_jit_compile(rule->filter, PCRE2_JIT_COMPLETE);
	return 0;
}

int rule_may_apply(const struct rule *rule, const char *data, size_t size)
{
	pcre2_match_data *md;
	int rc;

	if (!rule->filter)
		return 1;
	md = pcre2_match_data_create_from_pattern(rule->filter, NULL);
	rc = pcre2_match(rule->filter, (PCRE2_SPTR)data, size, 0, 0, md, NULL);
	pcre2_match_data_free(md);
	/* Only a clean "no match" skips the file: an error keeps it. */
	return rc != PCRE2_ERROR_NOMATCH;
}
