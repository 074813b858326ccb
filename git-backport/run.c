// SPDX-License-Identifier: GPL-2.0
/*
 * spatch processes: prepared in a private directory each for the engine
 * (parallel.h), which starts them, reads their output and kills them past
 * their time limit; and the first use of them, each rule's tokens from
 * `spatch --parse-cocci`.
 */
#include "jobs.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

void queue_push(struct queue *q, size_t x)
{
	ALLOC_GROW(q->v, q->head + q->nr + 1, q->alloc);
	q->v[q->head + q->nr++] = x;
}

int queue_pop(struct queue *q, size_t *x)
{
	if (!q->nr)
		return 0;
	*x = q->v[q->head++];
	q->nr--;
	return 1;
}

int subject_add_failure(struct subject *s, size_t rule, const char *message)
{
	struct strbuf sb = STRBUF_INIT;

	/* spatch's words may hold any byte of the C file and run long. */
	strbuf_add_printable(&sb, message, strlen(message), 2 * SPATCH_MESSAGE_MAX);
	/* A file run again (alone, or after its batch failed) says the same again. */
	for (size_t i = 0; i < s->nr_fails; i++)
		if (s->fails[i].rule == rule && !strcmp(s->fails[i].message, strbuf_str(&sb))) {
			strbuf_release(&sb);
			return 0;
		}
	ALLOC_GROW(s->fails, s->nr_fails + 1, s->alloc_fails);
	s->fails[s->nr_fails].rule = rule;
	s->fails[s->nr_fails].message = sb.buf ? strbuf_detach(&sb, NULL) : xstrdup("");
	s->nr_fails++;
	return 1;
}

/* spatch's chatter that says nothing about what went wrong. */
static int noise_line(const char *line, size_t len)
{
	return !len || starts_with(line, "init_defs_builtins:") ||
		starts_with(line, "Warning: PARSING: type defaults") ||
		starts_with(line, "HANDLING:");
}

/* Does the line say what went wrong (spatch's fatal line among its chatter)? */
static int fatal_line(const char *line, size_t len)
{
	static const char *const marks[] = {
		"error", "failure", "exception", "not supported", "no ocaml", "not found",
		"cannot", "can't", "unable", "invalid", NULL
	};

	for (size_t i = 0; marks[i]; i++) {
		size_t n = strlen(marks[i]);

		for (size_t j = 0; j + n <= len; j++)
			if (!strncasecmp(line + j, marks[i], n))
				return 1;
	}
	return 0;
}

/*
 * A message on one line from spatch's output: its fatal line when it has
 * one (after its warnings, or before an echo of the rule), else its
 * meaningful lines joined.
 */
char *spatch_message(const char *text, size_t max_lines)
{
	struct strbuf sb = STRBUF_INIT;
	size_t lines = 0;

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (!starts_with(p, "Warning:") && !noise_line(p, len) && fatal_line(p, len)) {
			/* The line, and the indented lines that continue it (the place). */
			text = p;
			max_lines = 1;
			for (const char *q = nl; q && (q[1] == ' ' || q[1] == '\t') && max_lines < 3;
			     q = strchr(q + 1, '\n'))
				max_lines++;
			break;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	for (const char *p = text; *p && lines < max_lines;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *q = p;

		while (len && (*q == ' ' || *q == '\t')) {
			q++;
			len--;
		}
		while (len && (q[len - 1] == ' ' || q[len - 1] == '\t' || q[len - 1] == '\r'))
			len--;
		if (!noise_line(q, len)) {
			if (sb.len)
				strbuf_addstr(&sb, " ");
			strbuf_add_printable(&sb, q, len, SPATCH_MESSAGE_MAX);
			lines++;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	if (!sb.len)
		strbuf_addstr(&sb, "(no message)");
	if (sb.len > SPATCH_MESSAGE_MAX) {
		/* Cut on a character: the escapes above are ASCII, the rest valid UTF-8. */
		size_t cut = SPATCH_MESSAGE_MAX;

		while (cut && ((unsigned char)sb.buf[cut] & 0xc0) == 0x80)
			cut--;
		sb.len = cut;
		sb.buf[cut] = '\0';
		strbuf_addstr(&sb, "...");
	}
	return strbuf_detach(&sb, NULL);
}

/*
 * With --verbose-parsing spatch tells when it could not parse part of a C
 * file ("parse error" and the place); otherwise it skips that part silently.
 */
void parse_errors(const char *err, struct strvec *out)
{
	const char *p = err;

	while ((p = strstr(p, "parse error"))) {
		struct strbuf sb = STRBUF_INIT;
		const char *q = p;
		int lines = 0;

		if (p != err && p[-1] != '\n') {
			p++;
			continue;
		}
		/* "parse error", then " = File ..., line L, column C", "around = ...". */
		while (*q && lines < 3) {
			const char *nl = strchr(q, '\n');
			size_t len = nl ? (size_t)(nl - q) : strlen(q);
			const char *s = q;

			while (len && (*s == ' ' || *s == '=' || *s == '\t')) {
				s++;
				len--;
			}
			while (len && (s[len - 1] == ' ' || s[len - 1] == ',' || s[len - 1] == '\r'))
				len--;
			if (len) {
				if (sb.len)
					strbuf_addstr(&sb, lines == 1 ? ": " : ", ");
				strbuf_add(&sb, s, len);
			}
			lines++;
			if (!nl)
				break;
			q = nl + 1;
		}
		strvec_push(out, sb.buf);
		strbuf_release(&sb);
		p = q;
	}
}

/*
 * spatch is an OCaml program that spends much of its time collecting garbage
 * (a third, by perf, on string_choices) with the runtime's defaults (a 2 MB
 * minor heap). A 4 MB minor heap and a lazier major collector (o=300) cost
 * each worker some 100 MB more and save 13-15% of its CPU on the kernel's
 * rules over a driver directory (string_choices, returnvar, minmax); the
 * result is the same. Larger still (8 MB, o=400) costs more in page faults
 * than it saves. A user's own OCAMLRUNPARAM (or CAMLRUNPARAM) is left as it is.
 */
#define SPATCH_GC "s=512k,o=300"

/* What spatch gets beside this process's environment: made once, whichever thread asks first. */
static struct strvec spatch_env = STRVEC_INIT;
static pthread_once_t spatch_env_once = PTHREAD_ONCE_INIT;

static void make_spatch_environment(void)
{
	if (!getenv("OCAMLRUNPARAM") && !getenv("CAMLRUNPARAM"))
		strvec_push(&spatch_env, "OCAMLRUNPARAM=" SPATCH_GC);
}

static const struct strvec *spatch_environment(void)
{
	pthread_once(&spatch_env_once, make_spatch_environment);
	return &spatch_env;
}

void job_prepare(struct run_context *ctx, struct job *job, struct parallel_child *c)
{
	struct process *p = &c->p;

	/*
	 * Its own process group: a timeout kills spatch and its helpers, and
	 * an interrupt ends them all (process.h).
	 */
	p->argv = (const char *const *)job->args.v;
	p->dir = job->dir;
	p->out = job->kind == JOB_QUERY ? PROCESS_PIPE : PROCESS_NULL;
	p->err = PROCESS_PIPE;
	/* argv[0] is "spatch", for its messages; the program is the one found. */
	p->program = ctx->spatch->path;
	p->env = spatch_environment();
	c->limit = job->limit;
	c->task = job;
	job->timed_out = 0;
	job->runs++;
	ctx->spatch_runs++;
}

int job_output(struct parallel_child *c, size_t slot, int fd, const char *buf, size_t len,
	       void *data)
{
	struct job *job = c->task;

	(void)slot;
	(void)data;
	/* Enough to find spatch's message; the rest of its chatter is dropped. */
	if (fd == 1 || job->err.len < (1 << 20))
		strbuf_add(fd == 1 ? &job->out : &job->err, buf, len);
	return 0;
}

void push_defines(struct run_context *ctx, size_t rule, struct strvec *args)
{
	int patch = 0;

	for (size_t i = 0; i < ctx->opts->defines.nr; i++) {
		strvec_push(args, "-D");
		strvec_push(args, ctx->opts->defines.v[i]);
		patch |= !strcmp(ctx->opts->defines.v[i], "patch");
	}
	/* A rule written for make coccicheck transforms with MODE=patch. */
	if (ctx->rules->v[rule].virtual_patch && !patch) {
		strvec_push(args, "-D");
		strvec_push(args, "patch");
	}
}

static void start_query(struct run_context *ctx, struct job *job, size_t rule,
			struct parallel_child *c)
{
	job->kind = JOB_QUERY;
	job->limit = ctx->opts->timeout;
	job->rule = rule;
	strvec_push(&job->args, "spatch");
	strvec_push(&job->args, "--parse-cocci");
	strvec_push(&job->args, ctx->rules->v[rule].file);
	push_defines(ctx, rule, &job->args);
	job_prepare(ctx, job, c);
}

/*
 * Did spatch reach a verdict on the rule? Not when it was killed (by our
 * timeout or anyone's signal) or could not run: that says nothing about the
 * rule, and a later run must ask again.
 */
static int verdict_reached(const struct job *job, int status)
{
	return !job->timed_out && WIFEXITED(status) &&
	       WEXITSTATUS(status) != 126 && WEXITSTATUS(status) != 127;
}

static void query_done(struct run_context *ctx, struct rule *rule, const struct job *job,
		       int status, const git_oid *key)
{
	const char *out = strbuf_str(&job->out), *err = strbuf_str(&job->err);
	int ok = exit_ok(status) && !job->timed_out;
	const char *q = NULL;
	struct strbuf entry = STRBUF_INIT;

	if (!verdict_reached(job, status)) {
		rule->failure = exit_message(job, status);
		return;
	}

	if (ok) {
		for (const char *p = out; (p = strstr(p, "Grep query\n")); p++)
			if (p == out || p[-1] == '\n')
				q = p + strlen("Grep query\n");
	}
	if (q) {
		char *line = xstrndup(q, strcspn(q, "\n"));

		if (rule_set_tokens(rule, line) < 0)
			warning("%s: cannot build a filter from spatch's tokens: every file is tried",
				rule->name);
		strbuf_addf(&entry, "tokens %s\n", line);
		free(line);
	} else if (ok && strstr(out, "No grep query")) {
		rule->no_filter = 1;
		strbuf_addstr(&entry, "tokens\n");
	} else {
		struct strbuf all = STRBUF_INIT;

		strbuf_addstr(&all, err);
		strbuf_addstr(&all, out);
		rule->failure = spatch_message(all.buf, 8);
		strbuf_release(&all);
		strbuf_addf(&entry, "error %s\n", rule->failure);
	}
	cache_put(ctx->cache, key, entry.buf);
	strbuf_release(&entry);
}

static void apply_query_entry(struct rule *rule, const char *entry)
{
	char *nl = strchr(entry, '\n');
	char *line = xstrndup(entry, nl ? (size_t)(nl - entry) : strlen(entry));

	if (starts_with(line, "error "))
		rule->failure = xstrdup(line + 6);
	else if (!strcmp(line, "tokens"))
		rule->no_filter = 1;
	else if (starts_with(line, "tokens ") && rule_set_tokens(rule, line + 7) < 0)
		warning("%s: cannot build a filter from spatch's tokens: every file is tried", rule->name);
	free(line);
}

int job_dir(struct run_context *ctx, struct job *job, size_t slot)
{
	if (job->dir)
		return 0;
	job->dir = xstrfmt("%s/job%zu", ctx->tmpdir, slot);
	if (mkdir(job->dir, 0700) < 0 && errno != EEXIST) {
		error("cannot create %s: %s", job->dir, strerror(errno));
		free(job->dir);
		job->dir = NULL;
		return -1;
	}
	return 0;
}

void job_reset(struct job *job)
{
	strbuf_reset(&job->out);
	strbuf_reset(&job->err);
	strvec_clear(&job->args);
	job->nr_subjects = 0;
	job->single = 0;
	job->limit = 0;
}

void job_release(struct job *job)
{
	if (job->dir)
		remove_tree(job->dir);
	free(job->dir);
	strmap_clear(&job->files, free);
	outtree_close(job->tree);
	job->tree = NULL;
	strbuf_release(&job->out);
	strbuf_release(&job->err);
	strvec_clear(&job->args);
	free(job->subjects);
}

int exit_ok(int status)
{
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

char *exit_message(const struct job *job, int status)
{
	char *msg, *what;

	if (job->timed_out)
		return xstrfmt("timeout: spatch killed after %.0f s", job->limit);
	msg = spatch_message(job->err.len ? job->err.buf : "", 6);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		what = xstrfmt("cannot run spatch: %s", msg);
	else if (WIFEXITED(status))
		what = xstrfmt("spatch exited with status %d: %s", WEXITSTATUS(status), msg);
	else
		what = xstrfmt("spatch killed by signal %d: %s", WTERMSIG(status), msg);
	free(msg);
	return what;
}

/* The queries of a run: the rules that the cache does not answer, one spatch each. */
struct query_run {
	struct run_context *ctx;
	struct job *jobs;
	struct queue todo;
	git_oid *keys;
};

static int query_next(struct parallel_child *c, size_t slot, void *data)
{
	struct query_run *qr = data;
	size_t r;

	if (!queue_pop(&qr->todo, &r))
		return 0;
	if (job_dir(qr->ctx, &qr->jobs[slot], slot) < 0)
		return -1;
	start_query(qr->ctx, &qr->jobs[slot], r, c);
	return 1;
}

static int query_finished(struct parallel_child *c, size_t slot, int status, void *data)
{
	struct query_run *qr = data;
	struct job *job = &qr->jobs[slot];

	/* process_start said why, or refused it because the run is interrupted. */
	if (status < 0)
		return -1;
	job->timed_out = c->timed_out;
	query_done(qr->ctx, &qr->ctx->rules->v[job->rule], job, status, &qr->keys[job->rule]);
	job_reset(job);
	return 0;
}

int run_queries(struct run_context *ctx)
{
	size_t nr_jobs = ctx->opts->jobs > 0 ? (size_t)ctx->opts->jobs : 1;
	struct query_run qr = { ctx };
	struct parallel_processes pp = { 0, query_next, job_output, query_finished, &qr };
	int ret;

	if (nr_jobs > 32)
		nr_jobs = 32;
	pp.jobs = nr_jobs;
	qr.jobs = xcalloc(nr_jobs, sizeof(*qr.jobs));
	qr.keys = xcalloc(ctx->rules->nr ? ctx->rules->nr : 1, sizeof(*qr.keys));
	for (size_t i = 0; i < ctx->rules->nr; i++) {
		struct rule *rule = &ctx->rules->v[i];
		char *entry;

		if (!rule->selected)
			continue;
		cache_key_query(ctx->cache, rule, &qr.keys[i]);
		entry = cache_get(ctx->cache, &qr.keys[i]);
		if (entry) {
			apply_query_entry(rule, entry);
			free(entry);
		} else {
			queue_push(&qr.todo, i);
		}
	}
	ret = parallel_processes(&pp);
	for (size_t slot = 0; slot < nr_jobs; slot++)
		job_release(&qr.jobs[slot]);
	free(qr.jobs);
	free(qr.todo.v);
	free(qr.keys);
	return ret;
}
