/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The processes of a run: the interrupt that stops it, the children it
 * starts (each in its own process group), the temporary directories it makes.
 *
 * The first SIGINT, SIGTERM or SIGHUP sets a flag that long loops poll
 * (process_interrupted) and ends the process group of every running child at
 * once, so that whatever waits for one returns; the command then keeps what
 * was finished whole, and dies of that same signal after its cleanup, as git
 * does (a shell's $? 130, 143, 129; a parent's wait status says "signal").
 * A second signal kills the process at once. Temporary directories made here
 * are removed at exit, an interrupted exit too.
 */
#ifndef UT_PROCESS_H
#define UT_PROCESS_H

#include <sys/types.h>
#include "util.h"

/* Installs the handlers (and ignores SIGPIPE: a closed pager is a write error). */
void process_catch_interrupts(void);
/* The signal that interrupted the run, or 0. Async-signal-safe, any thread. */
int process_interrupted(void);
/* When interrupted: says so and dies of that signal (cleanup done). */
void process_exit_if_interrupted(void);
/* When interrupted: dies of that signal, saying nothing (cleanup done). */
void process_die_if_interrupted(void);
/*
 * Flushes stdout. When its reader has gone (EPIPE: `| head`), the run is
 * interrupted as by SIGPIPE: long loops stop, what is finished is kept, and
 * process_end_if_pipe_closed() then ends the process as git ends, silently
 * by SIGPIPE. 0, or -1 when the write failed.
 */
int process_flush_stdout(void);
/* After a closed stdout: dies of SIGPIPE (exit status 141), saying nothing. */
void process_end_if_pipe_closed(void);

#define PROCESS_NULL (-1)	/* /dev/null */
#define PROCESS_PIPE (-2)	/* a pipe; the parent's end is stored back */
#define PROCESS_INHERIT (-3)	/* this process's own descriptor */

struct process {
	const char *const *argv;
	const char *program;		/* NULL: argv[0], searched in PATH unless it has a slash */
	const char *dir;		/* working directory; NULL: this one */
	const struct strvec *env;	/* extra "NAME=value"; NULL: none */
	int in, out, err;		/* a descriptor, or PROCESS_NULL/PIPE/INHERIT */
	pid_t pid;
};
#define PROCESS_INIT { NULL, NULL, NULL, NULL, PROCESS_NULL, PROCESS_INHERIT, PROCESS_INHERIT, 0 }

/*
 * Starts p->argv in a process group of its own (so that a terminal's ^C
 * reaches only this process, which then ends the group). 0, or -1 (said)
 * when it cannot fork or the run is already interrupted.
 */
int process_start(struct process *p);
/*
 * Waits for p to exit; returns its wait status, or -1. An interrupt ends
 * its process group; the wait then returns its (signalled) status.
 */
int process_wait(struct process *p);
/*
 * Has p exited? 1 (its wait status in *status, p forgotten), 0 while it
 * runs, -1 on error. Never blocks: several children at once are the
 * engine's (parallel.h), which asks here when one has ended. An interrupt
 * ends p's process group.
 */
int process_poll(struct process *p, int *status);
/*
 * A descriptor (close-on-exec, the caller's to close) that poll() finds
 * readable once p has exited (Linux's pidfd), or -1 where the kernel has none.
 */
int process_pidfd(const struct process *p);
/* Ends p's process group (SIGKILL) without waiting. */
void process_kill(struct process *p);
/* Forgets p once waited for elsewhere (waitpid of its pid). */
void process_done(struct process *p);
/*
 * Runs argv to its end with its standard output read into `out` (may be
 * NULL: discarded) and its standard error discarded (or this process's, with
 * show_err); returns the wait status, or -1 when it could not start.
 */
int process_run_capture(const char *const *argv, struct strbuf *out, int show_err);
/* The wait status as a shell's $?: exit code, or 128 + signal. */
int process_status_code(int status);

/*
 * A new directory $TMPDIR/<name>-<pid>-XXXXXX (to be freed), removed at exit
 * unless removed or kept before; NULL (said) when it cannot be made. The
 * directories of <name> that a killed run left (its pid gone) are removed
 * first. Children started here die with this process, SIGKILL too.
 */
char *process_tmpdir(const char *name);
/* Removes it with its contents now; frees dir. */
void process_tmpdir_remove(char *dir);
/* Leaves it on disk at exit (debugging); frees dir. */
void process_tmpdir_keep(char *dir);

#endif
