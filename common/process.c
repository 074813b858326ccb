// SPDX-License-Identifier: GPL-2.0
/* Interrupts, child processes and temporary directories of a run; see process.h. */
#define _GNU_SOURCE /* pipe2 */
#include "process.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static atomic_int caught;

/*
 * The process groups of the running children, for the signal handler: a
 * fixed table of lock-free slots, as a handler may take no lock. More
 * children than slots still run; only the handler would miss them, and
 * process_wait() ends their groups when it sees the flag.
 */
#define MAX_CHILDREN 256
static atomic_int children[MAX_CHILDREN];

static void remove_tmpdirs(void);

/*
 * Ends the process by the signal `sig` itself, as git does after its
 * cleanup: the parent sees a death by signal (a shell's $? 128 + sig), not
 * an exit code that a usage error (129) could also give. The temporary
 * directories go first: atexit handlers do not run on a signal.
 */
static void die_of_signal(int sig)
{
	remove_tmpdirs();
	fflush(stdout);
	fflush(stderr);
	signal(sig, SIG_DFL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

static void kill_children(void)
{
	for (size_t i = 0; i < MAX_CHILDREN; i++) {
		int pgid = atomic_load(&children[i]);

		if (pgid > 0)
			kill(-pgid, SIGKILL);
	}
}

static void on_interrupt(int sig)
{
	int saved = errno;
	int none = 0;

	atomic_compare_exchange_strong(&caught, &none, sig);
	kill_children();
	errno = saved;
}

void process_catch_interrupts(void)
{
	struct sigaction sa;
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	/*
	 * The second signal takes its default action: the process ends at once.
	 * No SA_RESTART: a blocking call (a FIFO's open, a read) returns EINTR
	 * and the run ends, where a restarted call would wait on.
	 */
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++) {
		struct sigaction old;

		/* Ignored when we started (nohup, a script's `cmd &`): stays ignored. */
		if (!sigaction(sigs[i], NULL, &old) && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
	signal(SIGPIPE, SIG_IGN);
}

int process_interrupted(void)
{
	return atomic_load(&caught);
}

void process_exit_if_interrupted(void)
{
	if (!process_interrupted())
		return;
	/* Their groups were killed: reaped here, none outlives the command. */
	for (size_t i = 0; i < MAX_CHILDREN; i++) {
		int pid = atomic_exchange(&children[i], 0);

		if (pid > 0) {
			kill(-pid, SIGKILL);
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
	}
	process_end_if_pipe_closed();
	error("interrupted");
	die_of_signal(process_interrupted());
}

void process_die_if_interrupted(void)
{
	if (process_interrupted())
		die_of_signal(process_interrupted());
}

int process_flush_stdout(void)
{
	int none = 0;

	if (!fflush(stdout) && !ferror(stdout))
		return 0;
	if (errno == EPIPE && atomic_compare_exchange_strong(&caught, &none, SIGPIPE))
		kill_children();
	return -1;
}

void process_end_if_pipe_closed(void)
{
	if (process_interrupted() != SIGPIPE)
		return;
	die_of_signal(SIGPIPE);
}

static void track(pid_t pid)
{
	for (size_t i = 0; i < MAX_CHILDREN; i++) {
		int none = 0;

		if (atomic_compare_exchange_strong(&children[i], &none, (int)pid))
			return;
	}
}

static void untrack(pid_t pid)
{
	for (size_t i = 0; i < MAX_CHILDREN; i++) {
		int was = (int)pid;

		if (atomic_compare_exchange_strong(&children[i], &was, 0))
			return;
	}
}

extern char **environ;

/*
 * The child's environment, made before the fork: between fork and exec a
 * child of a process with threads may call no function that takes a lock
 * another thread may hold (putenv's malloc deadlocked under ASan while
 * another thread allocated). environ with env's "NAME=value" in place of
 * the same names (of one name in env, the last); environ itself when env
 * is empty. Free the array only.
 */
static char **child_environment(const struct strvec *env)
{
	size_t n = 0, k = 0;
	char **v;

	if (!env || !env->nr)
		return environ;
	while (environ[n])
		n++;
	v = xcalloc(n + env->nr + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		size_t len = strcspn(environ[i], "=");
		int replaced = 0;

		for (size_t j = 0; j < env->nr && !replaced; j++)
			replaced = !strncmp(env->v[j], environ[i], len) && env->v[j][len] == '=';
		if (!replaced)
			v[k++] = environ[i];
	}
	/* As putenv one after the other: of one name, the last. */
	for (size_t j = 0; j < env->nr; j++) {
		size_t len = strcspn(env->v[j], "=");
		int later = 0;

		for (size_t l = j + 1; l < env->nr && !later; l++)
			later = !strncmp(env->v[l], env->v[j], len) && env->v[l][len] == '=';
		if (!later)
			v[k++] = env->v[j];
	}
	return v;
}

static void close_pair(int fds[2])
{
	for (int k = 0; k < 2; k++)
		if (fds[k] >= 0)
			close(fds[k]);
}

int process_start(struct process *p)
{
	int want[3] = { p->in, p->out, p->err };
	int pipes[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } };
	int null = -1;
	const char *prog = p->program ? p->program : p->argv[0];
	char **envp;
	pid_t pid;

	pid_t parent = getpid();

	p->pid = 0;
	if (process_interrupted())
		return -1;
	for (int k = 0; k < 3; k++) {
		if (want[k] == PROCESS_PIPE && pipe2(pipes[k], O_CLOEXEC) < 0)
			goto fail;
		if (want[k] == PROCESS_NULL && null < 0 &&
		    (null = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0)
			goto fail;
	}
	envp = child_environment(p->env);
	pid = fork();
	if (pid < 0) {
		if (envp != environ)
			free(envp);
		goto fail;
	}
	if (!pid) {
		static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

		for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
			signal(sigs[i], SIG_DFL);
		/*
		 * Killed with us, even by SIGKILL (which no handler sees): the
		 * thread that starts a child waits for it, so the thread's end
		 * that Linux means here is ours. Already orphaned: stop now.
		 */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(126);
		setpgid(0, 0);
		for (int k = 0; k < 3; k++) {
			int fd = want[k];

			if (fd == PROCESS_INHERIT)
				continue;
			if (fd == PROCESS_NULL)
				fd = null;
			else if (fd == PROCESS_PIPE)
				fd = pipes[k][k ? 1 : 0];
			if (fd != k && dup2(fd, k) < 0)
				_exit(126);
			if (fd == k)
				fcntl(k, F_SETFD, 0);
		}
		if (p->dir && chdir(p->dir) < 0)
			_exit(126);
		if (strchr(prog, '/'))
			execve(prog, (char *const *)p->argv, envp);
		else
			execvpe(prog, (char *const *)p->argv, envp);
		_exit(127);
	}
	if (envp != environ)
		free(envp);
	/* Also here: the group exists before anyone signals it, whichever runs first. */
	setpgid(pid, pid);
	track(pid);
	/* An interrupt between fork and track: its handler could not end this group. */
	if (process_interrupted())
		kill(-pid, SIGKILL);
	p->pid = pid;
	if (null >= 0)
		close(null);
	for (int k = 0; k < 3; k++) {
		if (want[k] != PROCESS_PIPE)
			continue;
		close(pipes[k][k ? 1 : 0]);
		want[k] = pipes[k][k ? 0 : 1];
	}
	p->in = want[0];
	p->out = want[1];
	p->err = want[2];
	return 0;
fail:
	error("cannot run %s: %s", prog, strerror(errno));
	for (int k = 0; k < 3; k++)
		close_pair(pipes[k]);
	if (null >= 0)
		close(null);
	return -1;
}

int process_pidfd(const struct process *p)
{
#ifdef SYS_pidfd_open
	int fd = p->pid > 0 ? (int)syscall(SYS_pidfd_open, p->pid, 0) : -1;

	if (fd >= 0)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
#else
	(void)p;
	return -1;
#endif
}

int process_wait(struct process *p)
{
	struct pollfd pfd = { .fd = -1, .events = POLLIN };
	int status, r;

	if (p->pid <= 0)
		return -1;
	/*
	 * Not one blocking waitpid: ThreadSanitizer defers signals outside the
	 * calls it knows to block, and waitpid is not one of them (a ^C waited
	 * for the child). poll() is: on the child's pidfd, which the interrupt
	 * makes readable by ending its group; each second too, for a child the
	 * handler's table could not hold (process_poll ends its group), and
	 * every 20 ms where the kernel has no pidfd.
	 */
	pfd.fd = process_pidfd(p);
	while (!(r = process_poll(p, &status)))
		poll(pfd.fd >= 0 ? &pfd : NULL, pfd.fd >= 0, pfd.fd >= 0 ? 1000 : 20);
	if (pfd.fd >= 0)
		close(pfd.fd);
	return r > 0 ? status : -1;
}

int process_poll(struct process *p, int *status)
{
	pid_t r;

	if (p->pid <= 0)
		return -1;
	do
		r = waitpid(p->pid, status, WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == p->pid) {
		process_done(p);
		return 1;
	}
	if (r < 0) {
		process_done(p);
		return -1;
	}
	if (process_interrupted())
		kill(-p->pid, SIGKILL);
	return 0;
}

void process_kill(struct process *p)
{
	if (p->pid > 0) {
		kill(-p->pid, SIGKILL);
		kill(p->pid, SIGKILL);
	}
}

void process_done(struct process *p)
{
	if (p->pid > 0)
		untrack(p->pid);
	p->pid = 0;
}

int process_run_capture(const char *const *argv, struct strbuf *out, int show_err)
{
	struct process p = PROCESS_INIT;

	p.argv = argv;
	p.out = out ? PROCESS_PIPE : PROCESS_NULL;
	p.err = show_err ? PROCESS_INHERIT : PROCESS_NULL;
	if (process_start(&p) < 0)
		return -1;
	while (out) {
		char buf[4096];
		ssize_t n = read(p.out, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		strbuf_add(out, buf, (size_t)n);
	}
	if (out)
		close(p.out);
	return process_wait(&p);
}

int process_status_code(int status)
{
	if (status < 0)
		return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

static pthread_mutex_t tmpdirs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct strvec tmpdirs;

static void remove_tmpdirs(void)
{
	pthread_mutex_lock(&tmpdirs_lock);
	for (size_t i = 0; i < tmpdirs.nr; i++)
		remove_tree(tmpdirs.v[i]);
	strvec_clear(&tmpdirs);
	pthread_mutex_unlock(&tmpdirs_lock);
}

/*
 * The directories <name>-<pid>-* under base that a run of ours left when it
 * was killed (SIGKILL: no atexit): ours (same owner), real directories, and
 * their process gone. A live process of that pid keeps its directory.
 */
static void reap_tmpdirs(const char *base, const char *name)
{
	DIR *d = opendir(base);
	struct dirent *e;
	size_t len = strlen(name);

	while (d && (e = readdir(d)) != NULL) {
		struct stat st;
		char *end, *path;
		long pid;

		if (strncmp(e->d_name, name, len) || e->d_name[len] != '-')
			continue;
		pid = strtol(e->d_name + len + 1, &end, 10);
		if (pid <= 0 || *end != '-' || pid == getpid() ||
		    !(kill((pid_t)pid, 0) < 0 && errno == ESRCH))
			continue;
		path = xstrfmt("%s/%s", base, e->d_name);
		if (!lstat(path, &st) && S_ISDIR(st.st_mode) && st.st_uid == getuid())
			remove_tree(path);
		free(path);
	}
	if (d)
		closedir(d);
}

char *process_tmpdir(const char *name)
{
	static int registered;
	const char *base = getenv("TMPDIR");
	char *dir;

	if (!base || !*base)
		base = "/tmp";
	reap_tmpdirs(base, name);
	dir = xstrfmt("%s/%s-%d-XXXXXX", base, name, (int)getpid());
	if (!mkdtemp(dir)) {
		error("cannot create a temporary directory %s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	pthread_mutex_lock(&tmpdirs_lock);
	if (!registered) {
		atexit(remove_tmpdirs);
		registered = 1;
	}
	strvec_push(&tmpdirs, dir);
	pthread_mutex_unlock(&tmpdirs_lock);
	return dir;
}

static void forget_tmpdir(const char *dir)
{
	pthread_mutex_lock(&tmpdirs_lock);
	for (size_t i = 0; i < tmpdirs.nr; i++) {
		if (strcmp(tmpdirs.v[i], dir))
			continue;
		free(tmpdirs.v[i]);
		tmpdirs.v[i] = tmpdirs.v[--tmpdirs.nr];
		break;
	}
	if (!tmpdirs.nr)
		strvec_clear(&tmpdirs);
	pthread_mutex_unlock(&tmpdirs_lock);
}

void process_tmpdir_remove(char *dir)
{
	if (!dir)
		return;
	remove_tree(dir);
	forget_tmpdir(dir);
	free(dir);
}

void process_tmpdir_keep(char *dir)
{
	if (!dir)
		return;
	forget_tmpdir(dir);
	free(dir);
}
