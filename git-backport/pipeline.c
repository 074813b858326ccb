// SPDX-License-Identifier: GPL-2.0
/*
 * The rules over the files: rule after rule, as spatch --in-place rule after
 * rule would leave them (rule k+1 reads what rule k wrote). For each rule, the
 * files that may match and have no cached answer are split into -j batches
 * that run in parallel, each spatch in a private directory holding its files
 * at their paths in the tree and the local headers spatch reads beside them.
 */
#define _GNU_SOURCE /* strcasestr */
#include "jobs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void apply_result(struct run_context *ctx, struct subject *s, size_t ri,
			 char *data, size_t size, const git_oid *oid, const struct strvec *msgs)
{
	struct rule *rule = &ctx->rules->v[ri];

	for (size_t i = 0; msgs && i < msgs->nr; i++) {
		subject_add_failure(s, ri, msgs->v[i]);
		rule->failures++;
	}
	if (!data)
		return;
	rule->hunks += count_hunks(s->data, s->size, data, size);
	if (!s->changed_by[ri])
		rule->files_changed++;
	s->changed_by[ri] = 1;
	free(s->data);
	s->data = data;
	s->size = size;
	s->cur = *oid;
}

/* Replays a cached result; -1 when it cannot be (its blob is gone): run again. */
static int apply_cached(struct run_context *ctx, struct subject *s, size_t ri, const char *entry)
{
	struct strvec msgs = STRVEC_INIT;
	char *data = NULL;
	size_t size = 0;
	git_oid oid;
	int changed = 0;

	for (const char *p = entry; *p;) {
		const char *nl = strchr(p, '\n');
		char *line = xstrndup(p, nl ? (size_t)(nl - p) : strlen(p));

		if (starts_with(line, "changed ")) {
			git_blob *blob;

			if (git_oid_fromstr(&oid, line + 8) < 0 ||
			    git_blob_lookup(&blob, repo_git(ctx->repo), &oid) < 0) {
				free(line);
				strvec_clear(&msgs);
				return -1;
			}
			size = git_blob_rawsize(blob);
			data = xmalloc(size + 1);
			memcpy(data, git_blob_rawcontent(blob), size);
			data[size] = '\0';
			git_blob_free(blob);
			changed = 1;
		} else if (starts_with(line, "message ")) {
			strvec_push(&msgs, line + 8);
		}
		free(line);
		if (!nl)
			break;
		p = nl + 1;
	}
	apply_result(ctx, s, ri, changed ? data : NULL, size, &oid, &msgs);
	strvec_clear(&msgs);
	return 0;
}

/* Takes a subject through the rules it needs no spatch for; 1 when it needs one. */
static int advance(struct run_context *ctx, size_t si, struct pending *p)
{
	struct subject *s = &ctx->subjects->v[si];

	while (s->next_rule < ctx->rules->nr) {
		struct rule *rule = &ctx->rules->v[s->next_rule];
		char *entry;

		if (!rule->selected || rule->failure) {
			s->next_rule++;
			continue;
		}
		rule->considered++;
		if (!rule_may_apply(rule, s->data, s->size)) {
			rule->filtered++;
			s->next_rule++;
			continue;
		}
		find_deps(ctx, p, s);
		cache_key_result(ctx->cache, rule, &s->cur, p->deps, p->nr, &p->key);
		entry = cache_get(ctx->cache, &p->key);
		if (entry && apply_cached(ctx, s, s->next_rule, entry) == 0) {
			free(entry);
			rule->cached++;
			s->next_rule++;
			continue;
		}
		free(entry);
		return 1;
	}
	return 0;
}


/* Files for one spatch process: C files of one rule, or one file alone. */
struct batch {
	size_t *v;
	size_t nr, alloc;
	size_t bytes;
	int single;
};

struct rule_run {
	struct run_context *ctx;
	struct pending *pend;
	unsigned char *waiting;		/* per subject: needs spatch for its next rule */
	struct batch *batches;
	size_t nr_batches, alloc_batches, next_batch;
};

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

static void write_inputs(struct run_context *ctx, struct job *job, struct pending *pend)
{
	struct strmap written = STRMAP_INIT;

	/* Headers first: a file given to spatch wins over a header of the same path. */
	for (size_t i = 0; i < job->nr_subjects; i++) {
		struct pending *p = &pend[job->subjects[i]];

		for (size_t k = 0; k < p->nr; k++) {
			struct blob *b;

			if (strmap_contains(&written, p->deps[k].path))
				continue;
			strmap_put(&written, p->deps[k].path, NULL);
			if (repo_read_blob(ctx->repo, &p->deps[k].blob, &b) < 0)
				die("cannot read %s", p->deps[k].path);
			if (write_file_at(job->dir, p->deps[k].path, b->data, b->size) < 0)
				die("cannot write %s/%s: %s", job->dir, p->deps[k].path, strerror(errno));
			blob_release(ctx->repo, b);
		}
	}
	for (size_t i = 0; i < job->nr_subjects; i++) {
		struct subject *s = &ctx->subjects->v[job->subjects[i]];

		if (write_file_at(job->dir, s->path, s->data, s->size) < 0)
			die("cannot write %s/%s: %s", job->dir, s->path, strerror(errno));
	}
	strmap_clear(&written, NULL);
}

/*
 * C files go to spatch as --dir, many per process like plain `spatch --dir`
 * (its rule is compiled once, the headers it parses cached); a header, which
 * --dir would not take, or a file retried alone, is named on the command line.
 */
static void start_batch(struct rule_run *rr, struct job *job, size_t slot, size_t rule,
			const struct batch *b)
{
	struct run_context *ctx = rr->ctx;
	struct strvec args = STRVEC_INIT;

	job->kind = JOB_RULE;
	job->rule = rule;
	job->single = b->single;
	job->nr_subjects = 0;
	for (size_t i = 0; i < b->nr; i++) {
		ALLOC_GROW(job->subjects, job->nr_subjects + 1, job->alloc_subjects);
		job->subjects[job->nr_subjects++] = b->v[i];
	}
	job_dir(ctx, job, slot);
	write_inputs(ctx, job, rr->pend);
	strvec_push(&args, "spatch");
	strvec_push(&args, "--quiet");
	strvec_push(&args, "--verbose-parsing");
	strvec_push(&args, "--in-place");
	strvec_push(&args, "--sp-file");
	strvec_push(&args, ctx->rules->v[rule].file);
	push_defines(ctx, &args);
	if (ctx->opts->timeout > 0) {
		strvec_push(&args, "--timeout");
		strvec_pushf(&args, "%d", ctx->opts->timeout);
		/* spatch bounds each file; this bounds a spatch that does not. */
		job->limit = (double)ctx->opts->timeout * b->nr + (b->nr > 1 ? 5 : 0);
	}
	if (b->single) {
		strvec_push(&args, ctx->subjects->v[b->v[0]].path);
	} else {
		strvec_push(&args, "--dir");
		strvec_push(&args, ".");
	}
	job_spawn(ctx, job, &args);
	strvec_clear(&args);
}

static int is_timeout(const char *line)
{
	return strcasestr(line, "timeout") != NULL;
}

/* What spatch said about one file: parse errors, exceptions, timeouts. */
static void file_messages(const char *section, struct strvec *msgs, int *transient)
{
	parse_errors(section, msgs);
	for (const char *p = section; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, len);

		if (starts_with(line, "EXN") || (is_timeout(line) && !starts_with(line, "HANDLING"))) {
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

static void finish_subject(struct rule_run *rr, size_t si)
{
	rr->ctx->subjects->v[si].next_rule++;
	rr->waiting[si] = advance(rr->ctx, si, &rr->pend[si]);
}

static void batch_done(struct rule_run *rr, struct job *job, int status)
{
	struct run_context *ctx = rr->ctx;
	struct rule *rule = &ctx->rules->v[job->rule];
	struct strbuf *sections;

	rule->seconds += now_seconds() - job->start;
	if (job->timed_out || !exit_ok(status)) {
		char *msg;

		/* One file should not cost the others: each goes again alone. */
		if (!job->single && job->nr_subjects > 1) {
			for (size_t i = 0; i < job->nr_subjects; i++) {
				struct batch *b = new_batch(rr, 1);

				batch_add(b, job->subjects[i], 0);
			}
			return;
		}
		msg = exit_message(job, status);
		for (size_t i = 0; i < job->nr_subjects; i++) {
			struct strvec msgs = STRVEC_INIT;

			rule->runs++;
			strvec_push(&msgs, msg);
			apply_result(ctx, &ctx->subjects->v[job->subjects[i]], job->rule, NULL, 0, NULL, &msgs);
			strvec_clear(&msgs);
			finish_subject(rr, job->subjects[i]);
		}
		free(msg);
		return;
	}
	sections = xcalloc(job->nr_subjects, sizeof(*sections));
	split_sections(ctx, job, strbuf_str(&job->err), sections);
	for (size_t i = 0; i < job->nr_subjects; i++) {
		size_t si = job->subjects[i];
		struct subject *s = &ctx->subjects->v[si];
		struct strvec msgs = STRVEC_INIT;
		struct strbuf entry = STRBUF_INIT;
		char *path = xstrfmt("%s/%s", job->dir, s->path), *data = NULL;
		char hex[GIT_OID_HEXSZ + 1];
		size_t size = 0;
		int transient = 0, changed;
		git_oid oid;

		rule->runs++;
		file_messages(strbuf_str(&sections[i]), &msgs, &transient);
		if (read_whole_file(path, &data, &size) < 0) {
			strvec_pushf(&msgs, "spatch left no output: %s", strerror(errno));
			transient = 1;
			data = NULL;
		}
		changed = data && !transient && (size != s->size || memcmp(data, s->data, size));
		if (changed) {
			if (git_blob_create_from_buffer(&oid, repo_git(ctx->repo), data, size) < 0)
				die_git("writing spatch's output to the object store");
			strbuf_addf(&entry, "changed %s\n", oid_hex(&oid, hex));
		} else {
			strbuf_addstr(&entry, "same\n");
			free(data);
			data = NULL;
		}
		for (size_t k = 0; k < msgs.nr; k++)
			strbuf_addf(&entry, "message %s\n", msgs.v[k]);
		/* A timeout may not happen again: never cached. */
		if (!transient)
			cache_put(ctx->cache, &rr->pend[si].key, entry.buf);
		apply_result(ctx, s, job->rule, data, size, &oid, &msgs);
		finish_subject(rr, si);
		strbuf_release(&entry);
		strbuf_release(&sections[i]);
		strvec_clear(&msgs);
		free(path);
	}
	free(sections);
}

static int cmp_bytes_desc(const void *a, const void *b)
{
	const size_t *x = a, *y = b;

	return x[0] < y[0] ? 1 : x[0] > y[0] ? -1 : 0;
}

/* The C files waiting at rule k into -j batches of about equal size (largest first). */
static void plan_rule(struct rule_run *rr, size_t k, size_t nr_jobs)
{
	struct run_context *ctx = rr->ctx;
	size_t (*c)[2] = xcalloc(ctx->subjects->nr + 1, sizeof(*c));
	size_t nr_c = 0, first;

	rr->nr_batches = rr->next_batch = 0;
	for (size_t si = 0; si < ctx->subjects->nr; si++) {
		struct subject *s = &ctx->subjects->v[si];

		if (!rr->waiting[si] || s->next_rule != k)
			continue;
		if (ends_with(s->path, ".c")) {
			c[nr_c][0] = s->size;
			c[nr_c][1] = si;
			nr_c++;
		} else {
			batch_add(new_batch(rr, 1), si, s->size);
		}
	}
	qsort(c, nr_c, sizeof(*c), cmp_bytes_desc);
	first = rr->nr_batches;
	for (size_t i = 0; i < nr_jobs && i < nr_c; i++)
		new_batch(rr, 0);
	for (size_t i = 0; i < nr_c; i++) {
		struct batch *least = &rr->batches[first];

		for (size_t b = first; b < rr->nr_batches; b++)
			if (rr->batches[b].bytes < least->bytes)
				least = &rr->batches[b];
		batch_add(least, c[i][1], c[i][0]);
	}
	free(c);
}

void run_rules(struct run_context *ctx)
{
	size_t nr_jobs = ctx->opts->jobs > 0 ? (size_t)ctx->opts->jobs : 1;
	struct rule_run rr = { ctx };
	struct job *jobs;

	if (nr_jobs > 32)
		nr_jobs = 32;
	jobs = xcalloc(nr_jobs, sizeof(*jobs));
	rr.pend = xcalloc(ctx->subjects->nr + 1, sizeof(*rr.pend));
	rr.waiting = xcalloc(ctx->subjects->nr + 1, 1);
	for (size_t si = 0; si < ctx->subjects->nr; si++)
		rr.waiting[si] = advance(ctx, si, &rr.pend[si]);
	/* Rule by rule, as spatch in place rule after rule; files in parallel. */
	for (size_t k = 0; k < ctx->rules->nr; k++) {
		size_t running = 0;

		plan_rule(&rr, k, nr_jobs);
		while (rr.next_batch < rr.nr_batches || running) {
			int status, done;

			for (size_t slot = 0; slot < nr_jobs && rr.next_batch < rr.nr_batches; slot++) {
				if (jobs[slot].busy)
					continue;
				start_batch(&rr, &jobs[slot], slot, k, &rr.batches[rr.next_batch++]);
				running++;
			}
			done = job_wait_any(jobs, nr_jobs, &status);
			if (done < 0)
				continue;
			batch_done(&rr, &jobs[done], status);
			job_reset(&jobs[done]);
			running--;
		}
		for (size_t b = 0; b < rr.nr_batches; b++)
			free(rr.batches[b].v);
	}
	for (size_t slot = 0; slot < nr_jobs; slot++)
		job_release(&jobs[slot]);
	for (size_t si = 0; si < ctx->subjects->nr; si++) {
		pending_clear_deps(&rr.pend[si]);
		free(rr.pend[si].deps);
	}
	free(rr.pend);
	free(rr.waiting);
	free(rr.batches);
	free(jobs);
}
