// SPDX-License-Identifier: GPL-2.0
/*
 * Running spatch: one process per rule and file, -j at a time. Each file goes
 * through the rules in order (rule k+1 reads what rule k wrote, as spatch
 * --in-place rule after rule would leave it), independently of the other
 * files, so that no rule waits for the slowest file of the one before.
 * A process works in a private directory holding the file at its path in the
 * tree and the local headers spatch would read beside it; nothing else of the
 * tree is written out.
 */
#include "backport.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum job_kind { JOB_QUERY, JOB_RULE };

struct job {
	enum job_kind kind;
	int busy;
	size_t rule, subject;
	pid_t pid;
	int fd[2];			/* stdout, stderr; -1 once closed */
	struct strbuf out, err;
	double start;
	int timed_out;
	char *dir;
	struct header_dep *deps;
	size_t nr_deps, alloc_deps;
	git_oid key;
};

struct queue {
	size_t *v;
	size_t head, nr, alloc;
};

static void queue_push(struct queue *q, size_t x)
{
	ALLOC_GROW(q->v, q->head + q->nr + 1, q->alloc);
	q->v[q->head + q->nr++] = x;
}

static int queue_pop(struct queue *q, size_t *x)
{
	if (!q->nr)
		return 0;
	*x = q->v[q->head++];
	q->nr--;
	return 1;
}

void subject_add_failure(struct subject *s, size_t rule, const char *message)
{
	ALLOC_GROW(s->fails, s->nr_fails + 1, s->alloc_fails);
	s->fails[s->nr_fails].rule = rule;
	s->fails[s->nr_fails].message = xstrdup(message);
	s->nr_fails++;
}

/* spatch's chatter that says nothing about what went wrong. */
static int noise_line(const char *line, size_t len)
{
	return !len || starts_with(line, "init_defs_builtins:") ||
		starts_with(line, "Warning: PARSING: type defaults") ||
		starts_with(line, "HANDLING:");
}

/* A message on one line from spatch's output: its meaningful lines joined. */
static char *spatch_message(const char *text, size_t max_lines)
{
	struct strbuf sb = STRBUF_INIT;
	size_t lines = 0;

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
			strbuf_add(&sb, q, len);
			lines++;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	if (!sb.len)
		strbuf_addstr(&sb, "(no message)");
	return strbuf_detach(&sb, NULL);
}

/*
 * With --verbose-parsing spatch tells when it could not parse part of a C
 * file ("parse error" and the place); otherwise it skips that part silently.
 */
static void parse_errors(const char *err, struct strvec *out)
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

static int spawn(struct run_context *ctx, struct job *job, const struct strvec *args)
{
	int out[2] = { -1, -1 }, err[2];
	int null = open("/dev/null", O_RDWR);

	if (null < 0 || pipe(err) < 0 || (job->kind == JOB_QUERY && pipe(out) < 0))
		die("cannot run spatch: %s", strerror(errno));
	job->pid = fork();
	if (job->pid < 0)
		die("cannot run spatch: %s", strerror(errno));
	if (!job->pid) {
		/* Its own process group: a timeout kills spatch and its helpers. */
		setpgid(0, 0);
		if (chdir(job->dir) < 0)
			_exit(126);
		dup2(null, 0);
		dup2(out[1] >= 0 ? out[1] : null, 1);
		dup2(err[1], 2);
		execv(ctx->spatch->path, args->v);
		_exit(127);
	}
	setpgid(job->pid, job->pid);
	close(null);
	close(err[1]);
	if (out[1] >= 0)
		close(out[1]);
	job->fd[0] = out[0];
	job->fd[1] = err[0];
	for (int i = 0; i < 2; i++)
		if (job->fd[i] >= 0)
			fcntl(job->fd[i], F_SETFD, FD_CLOEXEC);
	job->start = now_seconds();
	job->timed_out = 0;
	job->busy = 1;
	ctx->spatch_runs++;
	return 0;
}

static void push_defines(struct run_context *ctx, struct strvec *args)
{
	for (size_t i = 0; i < ctx->opts->defines.nr; i++) {
		strvec_push(args, "-D");
		strvec_push(args, ctx->opts->defines.v[i]);
	}
}

static void start_query(struct run_context *ctx, struct job *job, size_t rule)
{
	struct strvec args = STRVEC_INIT;

	job->kind = JOB_QUERY;
	job->rule = rule;
	strvec_push(&args, "spatch");
	strvec_push(&args, "--parse-cocci");
	strvec_push(&args, ctx->rules->v[rule].file);
	push_defines(ctx, &args);
	spawn(ctx, job, &args);
	strvec_clear(&args);
}

static void query_done(struct run_context *ctx, struct rule *rule, const char *out,
		       const char *err, int ok, const git_oid *key)
{
	const char *q = NULL;
	struct strbuf entry = STRBUF_INIT;

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

static int job_running(const struct job *job)
{
	return job->busy;
}

static void job_dir(struct run_context *ctx, struct job *job, size_t slot)
{
	if (!job->dir)
		job->dir = xstrfmt("%s/job%zu", ctx->tmpdir, slot);
	remove_tree(job->dir);
	if (mkdir(job->dir, 0700) < 0)
		die("cannot create %s: %s", job->dir, strerror(errno));
}

/*
 * Waits for output or exits of the running jobs; returns the index of one that
 * finished (its status in *status), or -1 when none did yet.
 */
static int wait_any(struct run_context *ctx, struct job *jobs, size_t nr, int *status)
{
	struct pollfd pfd[64];
	size_t map[64], n = 0;
	int timeout = 1000;
	double now = now_seconds();

	for (size_t i = 0; i < nr; i++) {
		struct job *job = &jobs[i];

		if (!job_running(job))
			continue;
		if (job->fd[0] < 0 && job->fd[1] < 0) {
			/* Its output is closed: it has exited, or is about to. */
			if (waitpid(job->pid, status, 0) == job->pid)
				return (int)i;
		}
		if (ctx->opts->timeout > 0 && !job->timed_out) {
			double left = job->start + ctx->opts->timeout - now;

			if (left <= 0) {
				kill(-job->pid, SIGKILL);
				kill(job->pid, SIGKILL);
				job->timed_out = 1;
			} else if (left * 1000 < timeout) {
				timeout = (int)(left * 1000) + 1;
			}
		}
		for (int k = 0; k < 2; k++)
			if (job->fd[k] >= 0 && n < ARRAY_SIZE(pfd)) {
				pfd[n].fd = job->fd[k];
				pfd[n].events = POLLIN;
				map[n++] = i * 2 + k;
			}
	}
	if (!n)
		return -1;
	if (poll(pfd, n, timeout) < 0) {
		if (errno == EINTR)
			return -1;
		die("poll: %s", strerror(errno));
	}
	for (size_t j = 0; j < n; j++) {
		struct job *job = &jobs[map[j] / 2];
		int k = map[j] % 2;
		char buf[65536];
		ssize_t got;

		if (!(pfd[j].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		got = read(pfd[j].fd, buf, sizeof(buf));
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got <= 0) {
			close(job->fd[k]);
			job->fd[k] = -1;
			continue;
		}
		/* Enough to find spatch's message; the rest of its chatter is dropped. */
		if (k == 0 || job->err.len < (1 << 20))
			strbuf_add(k ? &job->err : &job->out, buf, got);
	}
	return -1;
}

static void job_reset(struct job *job)
{
	job->busy = 0;
	strbuf_reset(&job->out);
	strbuf_reset(&job->err);
	for (size_t i = 0; i < job->nr_deps; i++)
		free(job->deps[i].path);
	job->nr_deps = 0;
}

static int exit_ok(int status)
{
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static char *exit_message(const struct job *job, int status, int timeout)
{
	char *msg, *what;

	if (job->timed_out)
		return xstrfmt("timeout: spatch killed after %d s", timeout);
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

void run_queries(struct run_context *ctx)
{
	size_t nr_jobs = ctx->opts->jobs > 0 ? (size_t)ctx->opts->jobs : 1;
	struct job *jobs;
	struct queue todo = { 0 };
	size_t running = 0, r;
	git_oid *keys = xcalloc(ctx->rules->nr ? ctx->rules->nr : 1, sizeof(*keys));

	if (nr_jobs > 32)
		nr_jobs = 32;
	jobs = xcalloc(nr_jobs, sizeof(*jobs));
	for (size_t i = 0; i < ctx->rules->nr; i++) {
		struct rule *rule = &ctx->rules->v[i];
		char *entry;

		if (!rule->selected)
			continue;
		cache_key_query(ctx->cache, rule, &keys[i]);
		entry = cache_get(ctx->cache, &keys[i]);
		if (entry) {
			apply_query_entry(rule, entry);
			free(entry);
		} else {
			queue_push(&todo, i);
		}
	}
	while (todo.nr || running) {
		int status, done;

		for (size_t slot = 0; slot < nr_jobs && todo.nr; slot++) {
			if (jobs[slot].busy)
				continue;
			queue_pop(&todo, &r);
			job_dir(ctx, &jobs[slot], slot);
			start_query(ctx, &jobs[slot], r);
			running++;
		}
		done = wait_any(ctx, jobs, nr_jobs, &status);
		if (done < 0)
			continue;
		query_done(ctx, &ctx->rules->v[jobs[done].rule], strbuf_str(&jobs[done].out),
			   strbuf_str(&jobs[done].err), exit_ok(status) && !jobs[done].timed_out,
			   &keys[jobs[done].rule]);
		job_reset(&jobs[done]);
		running--;
	}
	for (size_t slot = 0; slot < nr_jobs; slot++) {
		if (jobs[slot].dir)
			remove_tree(jobs[slot].dir);
		free(jobs[slot].dir);
		strbuf_release(&jobs[slot].out);
		strbuf_release(&jobs[slot].err);
		free(jobs[slot].deps);
	}
	free(jobs);
	free(todo.v);
	free(keys);
}

/* Per subject: what its next spatch run needs. */
struct pending {
	git_oid key;
	struct header_dep *deps;
	size_t nr, alloc;
};

static void pending_clear_deps(struct pending *p)
{
	for (size_t i = 0; i < p->nr; i++)
		free(p->deps[i].path);
	p->nr = 0;
}

static void add_dep(struct run_context *ctx, struct pending *p, const char *path)
{
	git_oid oid;

	for (size_t i = 0; i < p->nr; i++)
		if (!strcmp(p->deps[i].path, path))
			return;
	if (repo_path_oid(ctx->repo, ctx->tip, path, &oid) != 0)
		return;
	ALLOC_GROW(p->deps, p->nr + 1, p->alloc);
	p->deps[p->nr].path = xstrdup(path);
	p->deps[p->nr].blob = oid;
	p->nr++;
}

/* dir + "/" + rel with "." and ".." resolved; NULL when it leaves the tree. */
static char *join_path(const char *dir, size_t dirlen, const char *rel, size_t rellen)
{
	struct strbuf sb = STRBUF_INIT;
	char *all = xstrfmt("%.*s%s%.*s", (int)dirlen, dir, dirlen ? "/" : "", (int)rellen, rel);
	char *p = all, *res = NULL;

	while (*p) {
		char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);

		if (!len || (len == 1 && p[0] == '.'))
			; /* the same directory */
		else if (len == 2 && p[0] == '.' && p[1] == '.') {
			char *last;

			if (!sb.len)
				goto out;
			last = strrchr(sb.buf, '/');
			sb.len = last ? (size_t)(last - sb.buf) : 0;
			sb.buf[sb.len] = '\0';
		} else {
			if (sb.len)
				strbuf_addch(&sb, '/');
			strbuf_add(&sb, p, len);
		}
		if (!slash)
			break;
		p = slash + 1;
	}
	if (sb.len)
		res = strbuf_detach(&sb, NULL);
out:
	strbuf_release(&sb);
	free(all);
	return res;
}

/*
 * The headers spatch reads for a C file by default (its "local includes"):
 * every #include "x" that exists beside the file, and an #include <a/x.h>
 * whose name is the file's own (x.c), found under include/ as spatch does from
 * the top of a tree. A header's own #includes are not followed; nor does
 * spatch follow them for a header it is given.
 */
static void find_deps(struct run_context *ctx, struct pending *p, const struct subject *s)
{
	const char *slash = strrchr(s->path, '/');
	size_t dirlen = slash ? (size_t)(slash - s->path) : 0;
	const char *base = slash ? slash + 1 : s->path;
	size_t baselen = strcspn(base, ".");
	const char *line = s->data, *end = s->data + s->size;

	pending_clear_deps(p);
	if (!ends_with(s->path, ".c"))
		return;
	while (line < end) {
		const char *nl = memchr(line, '\n', end - line);
		const char *q = line, *stop = nl ? nl : end;

		while (q < stop && (*q == ' ' || *q == '\t'))
			q++;
		if (q < stop && *q == '#') {
			q++;
			while (q < stop && (*q == ' ' || *q == '\t'))
				q++;
			if (stop - q > 7 && !strncmp(q, "include", 7)) {
				q += 7;
				while (q < stop && (*q == ' ' || *q == '\t'))
					q++;
				if (q < stop && (*q == '"' || *q == '<')) {
					char close = *q == '"' ? '"' : '>';
					const char *name = ++q, *e = memchr(q, close, stop - q);

					if (e && close == '"') {
						char *path = join_path(s->path, dirlen, name, e - name);

						if (path)
							add_dep(ctx, p, path);
						free(path);
					} else if (e) {
						/* <a/b/x.h>: under include/, then shorter suffixes. */
						const char *last = name;

						for (const char *c = name; c < e; c++)
							if (*c == '/')
								last = c + 1;
						if (strcspn(last, ".") == baselen && !strncmp(last, base, baselen)) {
							for (const char *sfx = name; sfx && sfx < e;) {
								char *path = xstrfmt("include/%.*s", (int)(e - sfx), sfx);
								git_oid oid;
								int found = repo_path_oid(ctx->repo, ctx->tip, path, &oid) == 0;

								if (found)
									add_dep(ctx, p, path);
								free(path);
								if (found)
									break;
								sfx = memchr(sfx, '/', e - sfx);
								if (sfx)
									sfx++;
							}
						}
					}
				}
			}
		}
		line = nl ? nl + 1 : end;
	}
}

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
		} else if (starts_with(line, "parse-error ")) {
			strvec_push(&msgs, line + 12);
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

static void start_rule(struct run_context *ctx, struct job *job, size_t slot, size_t si,
		       struct pending *p)
{
	struct subject *s = &ctx->subjects->v[si];
	struct rule *rule = &ctx->rules->v[s->next_rule];
	struct strvec args = STRVEC_INIT;

	job->kind = JOB_RULE;
	job->rule = s->next_rule;
	job->subject = si;
	job->key = p->key;
	job_dir(ctx, job, slot);
	for (size_t i = 0; i < p->nr; i++) {
		struct blob *b;

		if (!strcmp(p->deps[i].path, s->path))
			continue;
		if (repo_read_blob(ctx->repo, &p->deps[i].blob, &b) < 0)
			die("cannot read %s", p->deps[i].path);
		if (write_file_at(job->dir, p->deps[i].path, b->data, b->size) < 0)
			die("cannot write %s/%s: %s", job->dir, p->deps[i].path, strerror(errno));
		blob_release(ctx->repo, b);
	}
	if (write_file_at(job->dir, s->path, s->data, s->size) < 0)
		die("cannot write %s/%s: %s", job->dir, s->path, strerror(errno));
	strvec_push(&args, "spatch");
	strvec_push(&args, "--quiet");
	strvec_push(&args, "--verbose-parsing");
	strvec_push(&args, "--in-place");
	strvec_push(&args, "--sp-file");
	strvec_push(&args, rule->file);
	push_defines(ctx, &args);
	strvec_push(&args, s->path);
	spawn(ctx, job, &args);
	strvec_clear(&args);
}

static void rule_done(struct run_context *ctx, struct job *job, int status)
{
	struct subject *s = &ctx->subjects->v[job->subject];
	struct rule *rule = &ctx->rules->v[job->rule];
	struct strvec msgs = STRVEC_INIT;
	char *data = NULL, *path;
	size_t size;
	git_oid oid;

	rule->runs++;
	rule->seconds += now_seconds() - job->start;
	path = xstrfmt("%s/%s", job->dir, s->path);
	if (job->timed_out || !exit_ok(status) || read_whole_file(path, &data, &size) < 0) {
		/* Not cached: a timeout or a crash may not happen again. */
		char *msg = exit_ok(status) && !job->timed_out ?
			xstrfmt("spatch left no output: %s", strerror(errno)) :
			exit_message(job, status, ctx->opts->timeout);

		strvec_push(&msgs, msg);
		free(msg);
		apply_result(ctx, s, job->rule, NULL, 0, NULL, &msgs);
	} else {
		struct strbuf entry = STRBUF_INIT;
		int changed = size != s->size || memcmp(data, s->data, size);
		char hex[GIT_OID_HEXSZ + 1];

		parse_errors(strbuf_str(&job->err), &msgs);
		if (changed) {
			if (git_blob_create_from_buffer(&oid, repo_git(ctx->repo), data, size) < 0)
				die_git("writing spatch's output to the object store");
			strbuf_addf(&entry, "changed %s\n", oid_hex(&oid, hex));
		} else {
			strbuf_addstr(&entry, "same\n");
			free(data);
			data = NULL;
		}
		for (size_t i = 0; i < msgs.nr; i++)
			strbuf_addf(&entry, "parse-error %s\n", msgs.v[i]);
		cache_put(ctx->cache, &job->key, entry.buf);
		strbuf_release(&entry);
		apply_result(ctx, s, job->rule, data, size, &oid, &msgs);
	}
	s->next_rule++;
	strvec_clear(&msgs);
	free(path);
}

void run_rules(struct run_context *ctx)
{
	size_t nr_jobs = ctx->opts->jobs > 0 ? (size_t)ctx->opts->jobs : 1;
	struct pending *pend = xcalloc(ctx->subjects->nr ? ctx->subjects->nr : 1, sizeof(*pend));
	struct queue todo = { 0 };
	struct job *jobs;
	size_t running = 0;

	if (nr_jobs > 32)
		nr_jobs = 32;
	jobs = xcalloc(nr_jobs, sizeof(*jobs));
	for (size_t i = 0; i < ctx->subjects->nr; i++)
		if (advance(ctx, i, &pend[i]))
			queue_push(&todo, i);
	while (todo.nr || running) {
		int status, done;
		size_t si;

		for (size_t slot = 0; slot < nr_jobs && todo.nr; slot++) {
			if (jobs[slot].busy)
				continue;
			queue_pop(&todo, &si);
			start_rule(ctx, &jobs[slot], slot, si, &pend[si]);
			running++;
		}
		done = wait_any(ctx, jobs, nr_jobs, &status);
		if (done < 0)
			continue;
		si = jobs[done].subject;
		rule_done(ctx, &jobs[done], status);
		job_reset(&jobs[done]);
		running--;
		if (advance(ctx, si, &pend[si]))
			queue_push(&todo, si);
	}
	for (size_t slot = 0; slot < nr_jobs; slot++) {
		if (jobs[slot].dir)
			remove_tree(jobs[slot].dir);
		free(jobs[slot].dir);
		strbuf_release(&jobs[slot].out);
		strbuf_release(&jobs[slot].err);
		free(jobs[slot].deps);
	}
	for (size_t i = 0; i < ctx->subjects->nr; i++) {
		pending_clear_deps(&pend[i]);
		free(pend[i].deps);
	}
	free(pend);
	free(jobs);
	free(todo.v);
}
