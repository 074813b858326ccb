// SPDX-License-Identifier: GPL-2.0
/*
 * The rules over the files: rule after rule, as spatch --in-place rule after
 * rule would leave them (rule k+1 reads what rule k wrote). For each rule, the
 * files that may match and have no cached answer are split into -j batches
 * that run in parallel, each spatch in a private directory holding its files
 * at their paths in the tree and the local headers spatch reads beside them.
 */
#define _GNU_SOURCE /* qsort_r */
#include "jobs.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void apply_result(struct run_context *ctx, struct subject *s, size_t ri,
			 char *data, size_t size, const git_oid *oid, const struct strvec *msgs)
{
	struct rule *rule = &ctx->rules->v[ri];
	int hunks;

	for (size_t i = 0; msgs && i < msgs->nr; i++)
		rule->failures += subject_add_failure(s, ri, msgs->v[i]);
	if (!data)
		return;
	hunks = count_hunks(s->path, s->data, s->size, data, size);
	if (hunks < 0)
		rule->failures += subject_add_failure(s, ri, "cannot diff spatch's output");
	else
		rule->hunks += hunks;
	if (!s->changed_by[ri])
		rule->files_changed++;
	s->changed_by[ri] = 1;
	free(s->data);
	s->data = data;
	s->size = size;
	s->cur = *oid;
}

/* A header that spatch changed while it read it for a C file of the run. */
struct hdr_change {
	size_t from;			/* the C file */
	char *path;
	git_oid base, oid;		/* the header before and after */
};

/* Files for one spatch process: C files of one rule, or one file alone. */
struct batch {
	size_t *v;
	size_t nr, alloc;
	size_t bytes;
	int single;
};

struct rule_run {
	struct run_context *ctx;
	struct pending *pend;		/* per subject */
	size_t alloc_pend;
	struct batch *batches;
	size_t nr_batches, alloc_batches, next_batch;
	struct hdr_change *hdrs;	/* of the current rule */
	size_t nr_hdrs, alloc_hdrs;
	struct job *jobs;		/* one per slot of the engine */
	size_t rule;			/* the rule being run */
};

static const git_oid *dep_blob(const struct pending *p, const char *path)
{
	for (size_t i = 0; i < p->nr; i++)
		if (!strcmp(p->deps[i].path, path))
			return &p->deps[i].blob;
	return NULL;
}

static void push_hdr(struct rule_run *rr, size_t from, const char *path, const git_oid *oid)
{
	const git_oid *base = dep_blob(&rr->pend[from], path);
	struct hdr_change *h;

	if (!base)
		return;
	ALLOC_GROW(rr->hdrs, rr->nr_hdrs + 1, rr->alloc_hdrs);
	h = &rr->hdrs[rr->nr_hdrs++];
	h->from = from;
	h->path = xstrdup(path);
	h->base = *base;
	h->oid = *oid;
}

/* Replays a cached result; -1 when it cannot be (a blob is gone): run again. */
static int apply_cached(struct rule_run *rr, size_t si, size_t ri, const char *entry)
{
	struct run_context *ctx = rr->ctx;
	struct strvec msgs = STRVEC_INIT, hdrs = STRVEC_INIT;
	char *data = NULL;
	size_t size = 0;
	git_oid oid;
	int changed = 0, ret = 0;

	for (const char *p = entry; *p;) {
		const char *nl = strchr(p, '\n');
		char *line = xstrndup(p, nl ? (size_t)(nl - p) : strlen(p));

		if (starts_with(line, "changed ")) {
			struct blob *blob;

			if (git_oid_fromstr(&oid, line + 8) < 0 ||
			    repo_read_blob(ctx->repo, &oid, &blob) < 0) {
				ret = -1;
			} else {
				free(data);
				size = blob->size;
				data = xmalloc(size + 1);
				memcpy(data, blob->data, size + 1);	/* its NUL too */
				blob_release(ctx->repo, blob);
				changed = 1;
			}
		} else if (starts_with(line, "message ")) {
			strvec_push(&msgs, line + 8);
		} else if (starts_with(line, "header ")) {
			git_oid h;

			/* "header <blob> <path>": read once it is applied; here only present? */
			if (strlen(line) < 7 + GIT_OID_HEXSZ + 2 ||
			    git_oid_fromstrn(&h, line + 7, GIT_OID_HEXSZ) < 0 ||
			    !repo_has_object(ctx->repo, &h))
				ret = -1;
			else
				strvec_push(&hdrs, line + 7);
		}
		free(line);
		if (ret < 0 || !nl)
			break;
		p = nl + 1;
	}
	if (ret == 0) {
		for (size_t i = 0; i < hdrs.nr; i++) {
			git_oid h;

			git_oid_fromstrn(&h, hdrs.v[i], GIT_OID_HEXSZ);
			push_hdr(rr, si, hdrs.v[i] + GIT_OID_HEXSZ + 1, &h);
		}
		apply_result(ctx, &ctx->subjects->v[si], ri, changed ? data : NULL, size, &oid, &msgs);
	} else {
		free(data);
	}
	strvec_clear(&msgs);
	strvec_clear(&hdrs);
	return ret;
}

/* 1 when the subject needs spatch for rule k: no filter skips it, no cached answer. */
static int needs_spatch(struct rule_run *rr, size_t si, size_t k)
{
	struct run_context *ctx = rr->ctx;
	struct subject *s = &ctx->subjects->v[si];
	struct rule *rule = &ctx->rules->v[k];
	struct pending *p = &rr->pend[si];
	char *entry;
	int ret = 1;

	if (s->refused)
		return 0;
	rule->considered++;
	if (!rule_may_apply(rule, s->data, s->size)) {
		rule->filtered++;
		return 0;
	}
	find_deps(ctx, p, s);
	cache_key_result(ctx->cache, rule, &s->cur, p->deps, p->nr, &p->key);
	entry = cache_get(ctx->cache, &p->key);
	if (entry && apply_cached(rr, si, k, entry) == 0) {
		rule->cached++;
		ret = 0;
	}
	free(entry);
	return ret;
}

static struct batch *new_batch(struct rule_run *rr, int single)
{
	struct batch *b;

	ALLOC_GROW(rr->batches, rr->nr_batches + 1, rr->alloc_batches);
	b = &rr->batches[rr->nr_batches++];
	memset(b, 0, sizeof(*b));
	b->single = single;
	return b;
}

static void batch_add(struct batch *b, size_t si, size_t bytes)
{
	ALLOC_GROW(b->v, b->nr + 1, b->alloc);
	b->v[b->nr++] = si;
	b->bytes += bytes;
}

/* A file of the job that cannot be written for spatch: a failure of this file and rule. */
static void input_failed(struct run_context *ctx, struct job *job, size_t si, int e)
{
	char *msg = xstrfmt("cannot be written for spatch: %s", strerror(e));

	ctx->rules->v[job->rule].failures +=
		subject_add_failure(&ctx->subjects->v[si], job->rule, msg);
	free(msg);
}

/*
 * The job's files and the headers spatch reads beside them, where the
 * directory lacks them. A file that cannot be written leaves the job (a
 * failure of that file); spatch reads without a header that cannot.
 */
static void write_inputs(struct run_context *ctx, struct job *job, struct pending *pend)
{
	size_t kept = 0;

	for (size_t i = 0; i < job->nr_subjects; i++) {
		struct pending *p = &pend[job->subjects[i]];

		for (size_t k = 0; k < p->nr; k++) {
			struct blob *b;

			if (workdir_holds(job, p->deps[k].path, &p->deps[k].blob))
				continue;
			if (repo_read_blob(ctx->repo, &p->deps[k].blob, &b) < 0) {
				warning("%s: cannot be read from the object store; spatch runs without it",
					p->deps[k].path);
				continue;
			}
			if (workdir_put(job, p->deps[k].path, &p->deps[k].blob, b->data, b->size) < 0) {
				char *shown = xquote_path(p->deps[k].path);

				warning("%s: cannot be written for spatch: %s; spatch runs without it",
					shown, strerror(errno));
				free(shown);
			}
			blob_release(ctx->repo, b);
		}
	}
	for (size_t i = 0; i < job->nr_subjects; i++) {
		size_t si = job->subjects[i];
		struct subject *s = &ctx->subjects->v[si];

		if (workdir_put(job, s->path, &s->cur, s->data, s->size) < 0)
			input_failed(ctx, job, si, errno);
		else
			job->subjects[kept++] = si;
	}
	job->nr_subjects = kept;
}

/*
 * The files of a batch go to spatch as --file-groups, one file a group: each
 * is processed on its own, as --dir --include-headers would process it, but
 * the headers written beside them only to be read are not processed as files
 * of their own (--dir --include-headers would take them too). A file retried
 * alone is named on the command line. Returns 1 when spatch is to run
 * (prepared in c), 0 when none of the files could be written for it, -1
 * with an error when the run cannot go on.
 */
static int start_batch(struct rule_run *rr, struct job *job, size_t slot, size_t rule,
		       const struct batch *b, struct parallel_child *c)
{
	struct run_context *ctx = rr->ctx;
	struct strvec args = STRVEC_INIT;
	size_t nr;
	int ret = 1;

	job->kind = JOB_RULE;
	job->rule = rule;
	job->single = b->single;
	job->nr_subjects = 0;
	for (size_t i = 0; i < b->nr; i++) {
		ALLOC_GROW(job->subjects, job->nr_subjects + 1, job->alloc_subjects);
		job->subjects[job->nr_subjects++] = b->v[i];
	}
	if (job_dir(ctx, job, slot) < 0)
		return -1;
	write_inputs(ctx, job, rr->pend);
	nr = job->nr_subjects;
	if (!nr)
		return 0;
	strvec_push(&args, "spatch");
	strvec_push(&args, "--quiet");
	strvec_push(&args, "--verbose-parsing");
	strvec_push(&args, "--in-place");
	strvec_push(&args, "--sp-file");
	strvec_push(&args, ctx->rules->v[rule].file);
	if (ctx->opts->macro_path) {
		strvec_push(&args, "--macro-file");
		strvec_push(&args, ctx->opts->macro_path);
	}
	push_defines(ctx, rule, &args);
	if (ctx->opts->timeout > 0) {
		strvec_push(&args, "--timeout");
		strvec_pushf(&args, "%d", ctx->opts->timeout);
		/* spatch bounds each file; this bounds a spatch that does not. */
		job->limit = (double)ctx->opts->timeout * nr + (nr > 1 ? 5 : 0);
	}
	if (b->single) {
		strvec_push(&args, ctx->subjects->v[job->subjects[0]].path);
	} else {
		struct strbuf groups = STRBUF_INIT;
		char *file = xstrfmt("%s.groups", job->dir);

		for (size_t i = 0; i < nr; i++)
			strbuf_addf(&groups, "%s./%s\n", i ? "\n" : "",
				    ctx->subjects->v[job->subjects[i]].path);
		if (mkdir_leading(file) < 0 || write_file_atomic(file, groups.buf, groups.len) < 0)
			ret = error("cannot write %s: %s", file, strerror(errno));
		if (ctx->opts->jobs > 1 && nr > 1) {
			strvec_push(&args, "-j");
			strvec_pushf(&args, "%d", ctx->opts->jobs);
		}
		strvec_push(&args, "--file-groups");
		strvec_push(&args, file);
		strbuf_release(&groups);
		free(file);
	}
	if (ret > 0) {
		ctx->rules->v[rule].processes++;
		strvec_clear(&job->args);
		job->args = args;
		job_prepare(ctx, job, c);
	} else {
		strvec_clear(&args);
	}
	return ret;
}

/*
 * spatch's own timeout messages only: --verbose-parsing also prints source
 * lines ("bad: ..."), where "timeout" is a common identifier.
 */
static int is_timeout(const char *line)
{
	return starts_with(line, "timeout (we abort)") || starts_with(line, "Timeout at ") ||
		starts_with(line, "TIMEOUT") || (starts_with(line, "EXN") && strstr(line, "Timeout"));
}

/* What spatch said about one file: exceptions, timeouts (parse errors: below). */
static void file_messages(const char *section, struct strvec *msgs, int *transient)
{
	for (const char *p = section; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, len);

		if (starts_with(line, "EXN") || is_timeout(line)) {
			strvec_push(msgs, line);
			if (is_timeout(line))
				*transient = 1;
		}
		free(line);
		if (!nl)
			break;
		p = nl + 1;
	}
}

/*
 * spatch -j interleaves the lines of its workers, but each parse error names
 * its file (File "./<path>", line ...): each goes to that file's messages.
 */
static void parse_messages(struct run_context *ctx, const struct job *job, const char *err,
			   struct strvec *per_file)
{
	struct strvec all = STRVEC_INIT;

	parse_errors(err, &all);
	for (size_t m = 0; m < all.nr; m++) {
		/*
		 * The file is named as `File "path", line L` or, for a file spatch
		 * parsed without --verbose-parsing (a header it read), as
		 * `error in path; set verbose_parsing for more info`.
		 */
		const char *f = strstr(all.v[m], "File \""), *end = "\"";
		size_t len;

		if (f) {
			f += 6;
		} else if ((f = strstr(all.v[m], "error in "))) {
			f += 9;
			end = ";";
		}
		if (job->single || job->nr_subjects == 1 || !f) {
			strvec_push(&per_file[0], all.v[m]);
			continue;
		}
		if (starts_with(f, "./"))
			f += 2;
		len = strcspn(f, end);
		for (size_t i = 0; i < job->nr_subjects; i++) {
			const char *sp = ctx->subjects->v[job->subjects[i]].path;

			if (strlen(sp) == len && !strncmp(sp, f, len)) {
				strvec_push(&per_file[i], all.v[m]);
				break;
			}
		}
	}
	strvec_clear(&all);
}

/* spatch --dir prints "HANDLING: ./<path>" before each file: split its stderr so. */
static void split_sections(struct run_context *ctx, const struct job *job, const char *err,
			   struct strbuf *sections)
{
	struct strbuf *cur = job->single ? &sections[0] : NULL;

	for (const char *p = err; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (!job->single && len > 10 && !strncmp(p, "HANDLING: ", 10)) {
			const char *path = p + 10;
			size_t plen = len - 10;

			if (plen > 2 && path[0] == '.' && path[1] == '/') {
				path += 2;
				plen -= 2;
			}
			cur = NULL;
			for (size_t i = 0; i < job->nr_subjects; i++) {
				const char *sp = ctx->subjects->v[job->subjects[i]].path;

				if (strlen(sp) == plen && !strncmp(sp, path, plen))
					cur = &sections[i];
			}
		} else if (cur) {
			strbuf_add(cur, p, len);
			strbuf_addch(cur, '\n');
		}
		if (!nl)
			break;
		p = nl + 1;
	}
}

/*
 * The local headers of the job's files that spatch changed in its directory
 * (it transforms what it reads for a C file, as plain spatch --in-place does
 * in the tree): path -> strdup'ed content, in `changed`.
 */
static void changed_headers(struct rule_run *rr, struct job *job, struct strmap *changed)
{
	struct strmap seen = STRMAP_INIT;

	for (size_t i = 0; i < job->nr_subjects; i++) {
		const struct pending *p = &rr->pend[job->subjects[i]];

		for (size_t k = 0; k < p->nr; k++) {
			char *data;
			size_t size;
			git_oid now;

			if (strmap_contains(&seen, p->deps[k].path))
				continue;
			strmap_put(&seen, p->deps[k].path, NULL);
			if (workdir_read_back(job, p->deps[k].path, &now, &data, &size) == 1 &&
			    !git_oid_equal(&now, &p->deps[k].blob))
				strmap_put(changed, p->deps[k].path, data);
			else
				free(data);
		}
	}
	strmap_clear(&seen, NULL);
}

/*
 * The headers whose result the batch cannot attribute: changed (in `changed`)
 * or dropped by spatch, and read by two or more of its files. A worker of
 * spatch transforms a header only through the first of its files that reads
 * it, and spatch drops a header whose workers disagree ("different
 * modification result for ./x.h"); with one reader, the result is that
 * reader's.
 */
static void ambiguous_headers(struct rule_run *rr, const struct job *job,
			      const struct strmap *changed, struct strmap *ambiguous)
{
	static const char dropped[] = "different modification result for ";
	struct strmap suspects = STRMAP_INIT;
	struct strmap_entry *e;
	const char *err = strbuf_str(&job->err);

	strmap_for_each(changed, e)
		strmap_put(&suspects, e->key, NULL);
	for (const char *p = err; (p = strstr(p, dropped)); p++) {
		char *raw, *path;

		if (p != err && p[-1] != '\n')
			continue;
		raw = xstrndup(p + strlen(dropped), strcspn(p + strlen(dropped), "\n"));
		path = dep_path_normalize(raw);
		if (path)
			strmap_put(&suspects, path, NULL);
		free(path);
		free(raw);
	}
	for (size_t i = 0; suspects.nr && i < job->nr_subjects; i++) {
		const struct pending *p = &rr->pend[job->subjects[i]];

		for (size_t k = 0; k < p->nr; k++) {
			uintptr_t n;

			if (!strmap_contains(&suspects, p->deps[k].path))
				continue;
			n = (uintptr_t)strmap_get(&suspects, p->deps[k].path) + 1;
			strmap_put(&suspects, p->deps[k].path, (void *)n);
			if (n == 2)
				strmap_put(ambiguous, p->deps[k].path, NULL);
		}
	}
	strmap_clear(&suspects, NULL);
}

static int reads_any(const struct pending *p, const struct strmap *headers)
{
	for (size_t k = 0; k < p->nr; k++)
		if (strmap_contains(headers, p->deps[k].path))
			return 1;
	return 0;
}

/*
 * A spatch that failed or ran past its time: what it left behind is not
 * known. Each of its files goes again alone, so that one file does not cost
 * the others; a file that was alone gets the failure. -1 with an error
 * when the job's directory cannot be made again.
 */
static int batch_failed(struct rule_run *rr, struct job *job, int status)
{
	struct run_context *ctx = rr->ctx;
	struct rule *rule = &ctx->rules->v[job->rule];
	char *msg;

	if (workdir_forget(job) < 0)
		return -1;
	if (!job->single && job->nr_subjects > 1) {
		for (size_t i = 0; i < job->nr_subjects; i++)
			batch_add(new_batch(rr, 1), job->subjects[i], 0);
		rule->alone_failed += job->nr_subjects;
		return 0;
	}
	msg = exit_message(job, status);
	for (size_t i = 0; i < job->nr_subjects; i++) {
		struct strvec msgs = STRVEC_INIT;

		rule->runs++;
		strvec_push(&msgs, msg);
		apply_result(ctx, &ctx->subjects->v[job->subjects[i]], job->rule, NULL, 0, NULL, &msgs);
		strvec_clear(&msgs);
	}
	free(msg);
	return 0;
}

/*
 * The cache entry of one file's result (apply_cached reads it back):
 * "changed <blob>" or "same", "header <blob> <path>" for each header spatch
 * changed while it read it for the file, "message <text>" for each message.
 * The blobs are written to the object store here; -1 (with an error) when
 * one cannot be, and then no header change is kept.
 */
static int result_entry(struct rule_run *rr, size_t si, const char *data, size_t size,
			git_oid *oid, const struct strmap *changed, const struct strvec *msgs,
			struct strbuf *entry)
{
	struct run_context *ctx = rr->ctx;
	const struct pending *p = &rr->pend[si];
	git_oid *hdrs = xcalloc(p->nr + 1, sizeof(*hdrs));
	char hex[GIT_OID_HEXSZ + 1];
	int ret = 0;

	if (data) {
		if (repo_write_blob(ctx->repo, data, size, oid) < 0)
			ret = -1;
		else
			strbuf_addf(entry, "changed %s\n", oid_hex(oid, hex));
	} else {
		strbuf_addstr(entry, "same\n");
	}
	for (size_t k = 0; !ret && k < p->nr; k++) {
		const char *hd = strmap_get(changed, p->deps[k].path);

		if (!hd)
			continue;
		if (repo_write_blob(ctx->repo, hd, strlen(hd), &hdrs[k]) < 0)
			ret = -1;
		else
			strbuf_addf(entry, "header %s %s\n", oid_hex(&hdrs[k], hex),
				    p->deps[k].path);
	}
	for (size_t k = 0; !ret && k < p->nr; k++)
		if (strmap_get(changed, p->deps[k].path))
			push_hdr(rr, si, p->deps[k].path, &hdrs[k]);
	for (size_t k = 0; k < msgs->nr; k++)
		strbuf_addf(entry, "message %s\n", msgs->v[k]);
	free(hdrs);
	return ret;
}

/* What spatch left in a file of its directory (workdir_read_back). */
struct output {
	int back, back_errno;
	git_oid oid;
	char *data;	/* NULL: as it was */
	size_t size;
};

/*
 * The i-th file of a spatch that ended well: what it said about the file
 * (its section of stderr, its parse errors), what it left in the file and in
 * the headers the file reads. A timeout or a missing output is told but not
 * cached (it may not happen again); an output that cannot be written to the
 * object store is a failure of the file, not applied. Takes out->data.
 */
static void file_done(struct rule_run *rr, struct job *job, size_t i, struct output *out,
		      const struct strbuf *section, const struct strvec *parsing,
		      const struct strmap *changed)
{
	struct run_context *ctx = rr->ctx;
	size_t si = job->subjects[i];
	struct subject *s = &ctx->subjects->v[si];
	struct strvec msgs = STRVEC_INIT;
	struct strbuf entry = STRBUF_INIT;
	char *data = out->data;
	size_t size = out->size;
	int transient = 0;
	git_oid oid = out->oid;

	ctx->rules->v[job->rule].runs++;
	for (size_t k = 0; k < parsing->nr; k++)
		strvec_push(&msgs, parsing->v[k]);
	file_messages(strbuf_str(section), &msgs, &transient);
	if (out->back < 0) {
		strvec_pushf(&msgs, "spatch left no output: %s", strerror(out->back_errno));
		transient = 1;
	}
	if (!data || transient || git_oid_equal(&oid, &s->cur)) {
		free(data);
		data = NULL;
	}
	if (!transient && result_entry(rr, si, data, size, &oid, changed, &msgs, &entry) < 0) {
		strvec_push(&msgs, "spatch's output cannot be written to the object store");
		free(data);
		data = NULL;
	} else if (!transient) {
		cache_put(ctx->cache, &rr->pend[si].key, entry.buf);
	}
	apply_result(ctx, s, job->rule, data, size, &oid, &msgs);
	strbuf_release(&entry);
	strvec_clear(&msgs);
}

/* The files of a job that has ended: -1 with an error when the run cannot go on. */
static int batch_done(struct rule_run *rr, struct job *job, int status)
{
	struct run_context *ctx = rr->ctx;
	struct strbuf *sections;
	struct strvec *parsing;
	struct strmap changed = STRMAP_INIT, ambiguous = STRMAP_INIT;

	if (job->timed_out || !exit_ok(status))
		return batch_failed(rr, job, status);
	changed_headers(rr, job, &changed);
	ambiguous_headers(rr, job, &changed, &ambiguous);
	sections = xcalloc(job->nr_subjects, sizeof(*sections));
	split_sections(ctx, job, strbuf_str(&job->err), sections);
	parsing = xcalloc(job->nr_subjects, sizeof(*parsing));
	parse_messages(ctx, job, strbuf_str(&job->err), parsing);
	for (size_t i = 0; i < job->nr_subjects; i++) {
		size_t si = job->subjects[i];
		struct output out;

		/* Read back whatever comes next: the directory then knows what it holds. */
		out.back = workdir_read_back(job, ctx->subjects->v[si].path, &out.oid, &out.data,
					     &out.size);
		out.back_errno = errno;
		/* Which of its readers changed a header is known only when each runs alone. */
		if (job->nr_subjects > 1 && reads_any(&rr->pend[si], &ambiguous)) {
			batch_add(new_batch(rr, 1), si, 0);
			ctx->rules->v[job->rule].alone_header++;
			free(out.data);
			continue;
		}
		file_done(rr, job, i, &out, &sections[i], &parsing[i], &changed);
	}
	for (size_t i = 0; i < job->nr_subjects; i++) {
		strbuf_release(&sections[i]);
		strvec_clear(&parsing[i]);
	}
	free(sections);
	free(parsing);
	strmap_clear(&changed, free);
	strmap_clear(&ambiguous, NULL);
	return 0;
}

static int cmp_bytes_desc(const void *a, const void *b)
{
	const size_t *x = a, *y = b;

	return x[0] < y[0] ? 1 : x[0] > y[0] ? -1 : 0;
}

/*
 * The files that need spatch for rule k in two batches (largest first), one
 * spatch -j N each, as plain `spatch --include-headers --dir` is one process
 * per rule: its workers take the next file when done, where batches fixed in
 * advance would wait for the slowest, and the rule is parsed once. C files and
 * headers go apart: a header that spatch transforms as a file of its own must
 * not be the header that the C files of the same process read, or which of
 * them changed it could not be told, and each would run again alone.
 */
static void plan_rule(struct rule_run *rr, size_t k, size_t nr_jobs)
{
	struct run_context *ctx = rr->ctx;
	size_t (*c)[2] = xcalloc(ctx->subjects->nr + 1, sizeof(*c));
	size_t (*h)[2] = xcalloc(ctx->subjects->nr + 1, sizeof(*h));
	size_t nr_c = 0, nr_h = 0;

	rr->nr_batches = rr->next_batch = 0;
	for (size_t si = 0; si < ctx->subjects->nr; si++) {
		struct subject *s = &ctx->subjects->v[si];
		size_t (*v)[2] = ends_with(s->path, ".h") ? h : c;
		size_t *nr = ends_with(s->path, ".h") ? &nr_h : &nr_c;

		if (s->include_only || !needs_spatch(rr, si, k))
			continue;
		v[*nr][0] = s->size;
		v[*nr][1] = si;
		(*nr)++;
	}
	for (int pass = 0; pass < 2; pass++) {
		size_t (*v)[2] = pass ? h : c;
		size_t nr = pass ? nr_h : nr_c;
		struct batch *b;

		if (!nr)
			continue;
		qsort(v, nr, sizeof(*v), cmp_bytes_desc);
		b = new_batch(rr, 0);
		for (size_t i = 0; i < nr; i++)
			batch_add(b, v[i][1], v[i][0]);
	}
	free(c);
	free(h);
}

static int cmp_hdr(const void *a, const void *b, void *data)
{
	const struct hdr_change *x = a, *y = b;
	const struct subject_set *set = data;
	int c = strcmp(x->path, y->path);

	return c ? c : strcmp(set->v[x->from].path, set->v[y->from].path);
}

static void grow_pending(struct rule_run *rr)
{
	size_t old = rr->alloc_pend;

	if (rr->ctx->subjects->nr + 1 <= old)
		return;
	rr->alloc_pend = (rr->ctx->subjects->nr + 1) * 2;
	rr->pend = xrealloc(rr->pend, rr->alloc_pend * sizeof(*rr->pend));
	memset(rr->pend + old, 0, (rr->alloc_pend - old) * sizeof(*rr->pend));
}

static void add_via(struct subject *h, size_t from, size_t rule)
{
	for (size_t i = 0; i < h->nr_via; i++)
		if (h->via[i].from == from && h->via[i].rule == rule)
			return;
	ALLOC_GROW(h->via, h->nr_via + 1, h->alloc_via);
	h->via[h->nr_via].from = from;
	h->via[h->nr_via++].rule = rule;
}

/*
 * After rule k: the headers its runs changed through C files, each as the
 * first of those C files (in path order) left it, as spatch in place over a
 * directory leaves it. A header not previewed itself joins the preview.
 */
static void apply_headers(struct rule_run *rr, size_t k)
{
	struct run_context *ctx = rr->ctx;

	if (!rr->nr_hdrs)
		return;
	qsort_r(rr->hdrs, rr->nr_hdrs, sizeof(*rr->hdrs), cmp_hdr, ctx->subjects);
	for (size_t i = 0; i < rr->nr_hdrs; i++) {
		struct hdr_change *h = &rr->hdrs[i];
		void *idx;
		size_t hi;
		struct blob *b;
		char *data;

		if (i && !strcmp(h->path, rr->hdrs[i - 1].path))
			continue;
		idx = strmap_get(&ctx->index, h->path);
		if (idx) {
			hi = (uintptr_t)idx - 1;
		} else {
			long n = subject_add(ctx->repo, ctx->tip, ctx->subjects, h->path, ctx->rules->nr);

			if (n < 0)
				continue;
			hi = (size_t)n;
			ctx->subjects->v[hi].include_only = 1;
			strmap_put(&ctx->index, h->path, (void *)(uintptr_t)(hi + 1));
			grow_pending(rr);
		}
		if (!git_oid_equal(&ctx->subjects->v[hi].cur, &h->base)) {
			/* Run alone, it changed already: that result stays. */
			char *m = xstrfmt("also changed through %s: that change is left out",
					  ctx->subjects->v[h->from].path);

			ctx->rules->v[k].failures += subject_add_failure(&ctx->subjects->v[hi], k, m);
			free(m);
			continue;
		}
		if (repo_read_blob(ctx->repo, &h->oid, &b) < 0) {
			ctx->rules->v[k].failures += subject_add_failure(&ctx->subjects->v[hi], k,
				"spatch's output cannot be read from the object store");
			continue;
		}
		add_via(&ctx->subjects->v[hi], h->from, k);
		data = xmalloc(b->size + 1);
		memcpy(data, b->data, b->size);
		data[b->size] = '\0';
		apply_result(ctx, &ctx->subjects->v[hi], k, data, b->size, &h->oid, NULL);
		blob_release(ctx->repo, b);
	}
	for (size_t i = 0; i < rr->nr_hdrs; i++)
		free(rr->hdrs[i].path);
	rr->nr_hdrs = 0;
}

/* The engine's next(): the next batch of the rule that can run (parallel.h). */
static int batch_next(struct parallel_child *c, size_t slot, void *data)
{
	struct rule_run *rr = data;

	while (rr->next_batch < rr->nr_batches) {
		int started = start_batch(rr, &rr->jobs[slot], slot, rr->rule,
					  &rr->batches[rr->next_batch++], c);

		if (started)
			return started;
		job_reset(&rr->jobs[slot]);
	}
	return 0;
}

static int batch_finished(struct parallel_child *c, size_t slot, int status, void *data)
{
	struct rule_run *rr = data;
	struct job *job = &rr->jobs[slot];
	int ret;

	/* process_start said why, or refused it because the run is interrupted. */
	if (status < 0)
		return -1;
	job->timed_out = c->timed_out;
	ret = batch_done(rr, job, status);
	job_reset(job);
	return ret < 0 ? -1 : 0;
}

int run_rules(struct run_context *ctx)
{
	size_t nr_jobs = ctx->opts->jobs > 0 ? (size_t)ctx->opts->jobs : 1;
	struct rule_run rr = { ctx };
	struct parallel_processes pp = { 0, batch_next, job_output, batch_finished, &rr };
	int ret = 0;

	if (nr_jobs > 32)
		nr_jobs = 32;
	pp.jobs = nr_jobs;
	rr.jobs = xcalloc(nr_jobs, sizeof(*rr.jobs));
	grow_pending(&rr);
	for (size_t si = 0; si < ctx->subjects->nr; si++)
		strmap_put(&ctx->index, ctx->subjects->v[si].path, (void *)(uintptr_t)(si + 1));
	/*
	 * Rule by rule, as spatch in place rule after rule: every file through
	 * rule k (in parallel) before any goes on to rule k+1, so that a C file
	 * reads its headers as the rules before left them.
	 */
	for (size_t k = 0; !ret && k < ctx->rules->nr; k++) {
		double start;

		if (!ctx->rules->v[k].selected || ctx->rules->v[k].failure)
			continue;
		start = parallel_clock();
		plan_rule(&rr, k, nr_jobs);
		rr.rule = k;
		ret = parallel_processes(&pp);
		for (size_t b = 0; b < rr.nr_batches; b++)
			free(rr.batches[b].v);
		if (ret)
			break;
		apply_headers(&rr, k);
		/* Its step's wall time: rules never overlap, and its batches do. */
		ctx->rules->v[k].seconds = parallel_clock() - start;
	}
	for (size_t slot = 0; slot < nr_jobs; slot++)
		job_release(&rr.jobs[slot]);
	for (size_t si = 0; si < rr.alloc_pend; si++) {
		pending_clear_deps(&rr.pend[si]);
		free(rr.pend[si].deps);
	}
	strmap_clear(&ctx->index, NULL);
	free(rr.pend);
	free(rr.hdrs);
	for (size_t i = 0; i < rr.nr_hdrs; i++)
		free(rr.hdrs[i].path);
	free(rr.batches);
	free(rr.jobs);
	return ret;
}
