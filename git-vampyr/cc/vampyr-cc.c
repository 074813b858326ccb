// SPDX-License-Identifier: GPL-2.0
/*
 * vampyr-cc: the compiler's answers to a tree's toolchain probes, kept.
 *
 * Each kconfig run of a Linux tree asks the compiler about 60 questions
 * ($(cc-option,...), $(as-instr,...), cc-version.sh, the Makefile's own
 * cc-option): the same questions in every run, about half of the run's CPU.
 * git vampyr (probes.c) runs kconfig with a directory first in PATH whose
 * gcc, cc and clang are links to this program. It finds the real compiler of
 * that name further along the PATH vampyr was given (VAMPYR_CC_PATH), and
 * when the call is a probe it can answer from $VAMPYR_CC_CACHE/<digest>,
 * replays what the compiler printed, wrote and returned; else it runs the
 * compiler, keeps the answer (written whole under a temporary name and
 * renamed: a concurrent run sees all of it or nothing) and passes it on.
 *
 * A probe: compile only (-c, -S, -E) with an output (-o) or -E, every input
 * `-` or /dev/null, no option that reads or writes other files (-include,
 * -MD, -gsplit-dwarf, @file...); or --version, -dumpversion,
 * -dumpfullversion, -dumpmachine alone. Everything else runs the compiler
 * as always, but for two kinds of probe whose answer is more than the
 * compiler's: a link of standard input or /dev/null to -o /dev/null (the
 * kernel's scripts/cc-can-link.sh: `#include <stdio.h>`, crt files, libc),
 * a compile whose input includes files, and -print-file-name=,
 * -print-prog-name=, -print-libgcc-file-name. Their entry also lists what
 * the answer depends on, taken on a miss from the compiler itself by a
 * second run with -v, -H and (links) -Wl,--trace, and its
 * -print-search-dirs: every absolute path those name (the programs it ran,
 * each header and library it opened, its search directories), with the
 * directory of each file, and the identity (inode, size, times) of each, or
 * that it was absent. A hit needs every one of them unchanged: a header
 * installed, a library upgraded, a directory that appeared is a miss.
 *
 * The key: the compiler's real path, inode, size and times, the assembler's
 * of the same prefix likewise (as-instr asks it), the working directory (in
 * the cached tree a run's copy stands for), the
 * environment the compiler reads, whether standard output and error are one
 * file, the arguments (the -o path as a placeholder: it names a temporary
 * directory), standard input. A changed compiler or assembler is a new key.
 * The entry holds the whole key, compared on reading: a digest collision is
 * a miss, never a wrong answer.
 *
 * VAMPYR_CC_DEPS=<file> (git vampyr sets it for the toolchain's kconfig
 * run, which it keeps whole: toolchain.c): each call appends there the
 * "<path>\t<identity>" lines its answer depends on beyond the programs on
 * PATH; a call that is no probe runs the compiler (not exec'd) and then
 * takes what it depends on as above; one whose options read or write other
 * files appends "unkept", and the run is not kept.
 *
 * VAMPYR_TEST_PROBES=<file>: appends "hit", "miss" or "run" and the name
 * for each call (the tests count them).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

/* Raise when the key or the entry changes. */
#define ENTRY_FORMAT 2

static void test_log(const char *what, const char *name)
{
	const char *log = getenv("VAMPYR_TEST_PROBES");
	FILE *f;

	if (!log || !*log || !(f = fopen(log, "a")))
		return;
	fprintf(f, "%s %s\n", what, name);
	fclose(f);
}

/* "path ino size mtime ctime" of the file behind `prog`, or "none". */
static void add_identity(struct strbuf *key, const char *what, const char *prog)
{
	char *real = prog ? realpath(prog, NULL) : NULL;

	strbuf_addf(key, "%s %s ", what, real ? real : "");
	strbuf_add_file_id(key, real);
	strbuf_addch(key, '\n');
	free(real);
}

/* Options whose value is the next argument. */
static int takes_value(const char *a)
{
	static const char *const opts[] = {
		"-o", "-x", "-I", "-D", "-U", "-L", "-l", "-u", "-T", "-A", "-z", "-G",
		"-isystem", "-idirafter", "-iquote", "-iprefix", "-iwithprefix",
		"-iwithprefixbefore", "-imultilib", "-isysroot", "-MT", "-MQ",
		"-Xassembler", "-Xlinker", "-Xpreprocessor", "-Xclang", "-mllvm",
		"--param", "-target", "-arch", "-dumpbase", "-dumpdir", "-dumpbase-ext",
		NULL,
	};

	for (size_t i = 0; opts[i]; i++)
		if (!strcmp(a, opts[i]))
			return 1;
	return 0;
}

/* Options that read or write files beside the inputs and the output: never kept. */
static int touches_files(const char *a)
{
	static const char *const prefixes[] = {
		"@", "-include", "-imacros", "-M", "-Wp,", "-save-temps", "-gsplit-dwarf",
		"-fdump-", "-fstack-usage", "-fcallgraph-info", "-ftest-coverage", "--coverage",
		"-fprofile-", "-fauto-profile", "-aux-info", "-fopt-info", "-ftime-trace",
		"-specs", "--specs", "-fplugin", "-B", "--sysroot", "-isysroot", "-Wa,-a",
		"-fsanitize-blacklist", "-fsanitize-ignorelist", "-fsanitize-coverage-allow",
		"-fsanitize-coverage-ignore", "-fsanitize-coverage-block", "-frandom-seed=",
		"-fdebug-prefix-map", "-ffile-prefix-map", "-fmacro-prefix-map",
		NULL,
	};

	for (size_t i = 0; prefixes[i]; i++)
		if (!strncmp(a, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

static int is_query(const char *a)
{
	return !strcmp(a, "--version") || !strcmp(a, "-dumpversion") ||
	       !strcmp(a, "-dumpfullversion") || !strcmp(a, "-dumpmachine");
}

struct probe {
	int out_arg;		/* index of the -o value, 0: none */
	int reads_stdin;	/* an input is `-` */
	int link;		/* a link to -o /dev/null: kept with what it depends on */
	int print;		/* -print-file-name= and the like: likewise */
};

/* Queries whose answer names files of the compiler's installation. */
static int is_print_query(const char *a)
{
	return starts_with(a, "-print-file-name=") || starts_with(a, "-print-prog-name=") ||
	       !strcmp(a, "-print-libgcc-file-name");
}

/* Is argv a probe whose answer can be kept (see the top)? */
static int is_probe(int argc, char **argv, struct probe *p)
{
	int compile = 0, query = 0, inputs = 0, print = 0;

	memset(p, 0, sizeof(*p));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-") || !strcmp(a, "/dev/null")) {
			inputs++;
			p->reads_stdin |= a[1] == '\0';
			continue;
		}
		/* Linker options may name scripts and libraries: no link with them is kept. */
		if (a[0] != '-' || touches_files(a) || starts_with(a, "-Wl,") ||
		    !strcmp(a, "-Xlinker"))
			return 0;
		if (!strcmp(a, "-c") || !strcmp(a, "-S") || !strcmp(a, "-E"))
			compile |= a[1] == 'E' ? 2 : 1;
		else if (is_query(a))
			query = 1;
		else if (is_print_query(a))
			print++;
		if (!strcmp(a, "-o")) {
			if (p->out_arg || i + 1 >= argc)
				return 0;
			p->out_arg = ++i;
		} else if (takes_value(a)) {
			if (++i >= argc)
				return 0;
		}
	}
	if (compile)
		return inputs > 0 && (p->out_arg || (compile & 2));
	if (print)
		return p->print = print == 1 && !query && !inputs && !p->out_arg;
	if (query)
		return !inputs;
	/* A link of the inputs to nothing: does the compiler link a program? */
	p->link = inputs > 0 && p->out_arg && !strcmp(argv[p->out_arg], "/dev/null");
	return p->link;
}

/* Headers, or an assembler's .include: the answer is not the compiler's alone. */
static int includes_files(const struct strbuf *in)
{
	static const char *const words[] = { "include", "import", "incbin", "__has_include", NULL };

	for (size_t i = 0; words[i]; i++)
		if (in->len && memmem(in->buf, in->len, words[i], strlen(words[i])))
			return 1;
	return 0;
}

/*
 * The working directory as the key has it: a kconfig run works in its own
 * copy of the cached tree (VAMPYR_CC_RUN_DIR), which stands for the tree
 * itself (VAMPYR_CC_TREE), so that the copies share their answers.
 */
static const char *tree_cwd(const char *cwd)
{
	static char *mapped;
	const char *from = getenv("VAMPYR_CC_RUN_DIR"), *to = getenv("VAMPYR_CC_TREE");
	size_t len = from ? strlen(from) : 0;

	if (!cwd)
		return "?";
	if (!len || !to || strncmp(cwd, from, len) || (cwd[len] && cwd[len] != '/'))
		return cwd;
	free(mapped);
	mapped = xstrfmt("%s%s", to, cwd + len);
	return mapped;
}

static void build_key(struct strbuf *key, int argc, char **argv, const struct probe *p, int merged,
		      const char *name, const char *real, const char *path, const struct strbuf *in)
{
	static const char *const env[] = {
		"LC_ALL", "LC_MESSAGES", "LC_CTYPE", "LANG", "LANGUAGE", "GCC_EXEC_PREFIX",
		"COMPILER_PATH", "LIBRARY_PATH", "CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH",
		"OBJC_INCLUDE_PATH", "DEPENDENCIES_OUTPUT", "SUNPRO_DEPENDENCIES",
		"SOURCE_DATE_EPOCH", "GCC_COLORS", "GCC_URLS", "TERM_URLS", "CCC_OVERRIDE_OPTIONS",
		"TMPDIR", NULL,
	};
	size_t nlen = strlen(name);
	char *as_name, *as_prog, *cwd = getcwd(NULL, 0);

	strbuf_addf(key, "vampyr-cc %d\nname %s\n", ENTRY_FORMAT, name);
	add_identity(key, "compiler", real);
	/* x86_64-linux-gnu-gcc: x86_64-linux-gnu-as; gcc, cc, clang: as. */
	if (nlen >= 3 && (!strcmp(name + nlen - 3, "gcc") || !strcmp(name + nlen - 3, "-cc")))
		nlen -= 3;
	else if (nlen >= 5 && !strcmp(name + nlen - 5, "clang"))
		nlen -= 5;
	else
		nlen = 0;
	as_name = xstrfmt("%.*sas", (int)nlen, name);
	as_prog = find_program(as_name, path, NULL);
	add_identity(key, "assembler", as_prog);
	free(as_prog);
	free(as_name);
	if (p->link) {
		as_name = xstrfmt("%.*sld", (int)nlen, name);
		as_prog = find_program(as_name, path, NULL);
		add_identity(key, "linker", as_prog);
		free(as_prog);
		free(as_name);
	}
	strbuf_addf(key, "cwd %s\npath %s\n", tree_cwd(cwd), path);
	free(cwd);
	for (size_t i = 0; env[i]; i++) {
		const char *val = getenv(env[i]);

		if (val)
			strbuf_addf(key, "env %s=%s\n", env[i], val);
	}
	strbuf_addf(key, "merged %d\n", merged);
	for (int i = 1; i < argc; i++)
		strbuf_addf(key, "arg %s\n", i == p->out_arg ? (strcmp(argv[i], "-") &&
			 strcmp(argv[i], "/dev/null") ? "<output>" : argv[i]) : argv[i]);
	strbuf_addf(key, "stdin %zu\n", in->len);
	strbuf_add(key, in->buf ? in->buf : "", in->len);
}

/* Two 64-bit FNV-1a digests of the key, 32 hex digits: the entry's name. */
static void key_digest(const struct strbuf *key, char hex[33])
{
	uint64_t h1 = 0xcbf29ce484222325ULL, h2 = 0x84222325cbf29ce4ULL;

	for (size_t i = 0; i < key->len; i++) {
		h1 = (h1 ^ (unsigned char)key->buf[i]) * 0x100000001b3ULL;
		h2 = (h2 ^ (unsigned char)key->buf[key->len - 1 - i]) * 0x100000001b3ULL;
	}
	snprintf(hex, 33, "%016llx%016llx", (unsigned long long)h1, (unsigned long long)h2);
}

/*
 * What the compiler did: exit code, what it printed, the -o file (file_len
 * -1: none), and what that depends on beyond the key ("<path>\t<identity>\n"
 * lines, see the top).
 */
struct answer {
	int code;
	struct strbuf out, err, file, deps;
	long long file_len;
};

/*
 * The entry: "vampyr-cc-entry <format> <key> <code> <out> <err> <file> <deps>\n"
 * and the bytes; a hit only while its deps hold.
 */
static int read_entry(const char *path, const struct strbuf *key, struct answer *a)
{
	struct strbuf b = STRBUF_INIT;
	int fd = open(path, O_RDONLY | O_CLOEXEC), format, n = 0;
	unsigned long long klen, olen, elen, dlen;
	long long flen;
	const char *p;

	if (fd < 0)
		return -1;
	if (strbuf_read_fd(&b, fd)) {
		close(fd);
		strbuf_release(&b);
		return -1;
	}
	close(fd);
	if (!b.buf || sscanf(b.buf, "vampyr-cc-entry %d %llu %d %llu %llu %lld %llu\n%n", &format,
			      &klen, &a->code, &olen, &elen, &flen, &dlen, &n) != 7 || !n ||
	    format != ENTRY_FORMAT || flen < -1 ||
	    b.len != (size_t)n + klen + olen + elen + dlen +
		     (unsigned long long)(flen > 0 ? flen : 0) ||
	    klen != key->len || memcmp(b.buf + n, key->buf, key->len) ||
	    !file_ids_hold(b.buf + b.len - dlen, dlen)) {
		strbuf_release(&b);
		return -1;
	}
	p = b.buf + n + klen;
	strbuf_add(&a->out, p, olen);
	strbuf_add(&a->err, p + olen, elen);
	a->file_len = flen;
	if (flen > 0)
		strbuf_add(&a->file, p + olen + elen, (size_t)flen);
	strbuf_add(&a->deps, b.buf + b.len - dlen, dlen);
	strbuf_release(&b);
	return 0;
}

static void write_entry(const char *dir, const char *hex, const struct strbuf *key,
			const struct answer *a)
{
	char *path = NULL, *tmp = NULL;
	struct strbuf b = STRBUF_INIT;
	int fd;

	path = xstrfmt("%s/%s", dir, hex);
	tmp = xstrfmt("%s/.%s.tmp.%ld", dir, hex, (long)getpid());
	strbuf_addf(&b, "vampyr-cc-entry %d %zu %d %zu %zu %lld %zu\n", ENTRY_FORMAT, key->len,
		 a->code, a->out.len, a->err.len, a->file_len, a->deps.len);
	strbuf_add(&b, key->buf, key->len);
	strbuf_add(&b, a->out.buf ? a->out.buf : "", a->out.len);
	strbuf_add(&b, a->err.buf ? a->err.buf : "", a->err.len);
	strbuf_add(&b, a->file.buf ? a->file.buf : "", a->file.len);
	strbuf_add(&b, a->deps.buf ? a->deps.buf : "", a->deps.len);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd >= 0) {
		int bad = write_all(fd, b.buf, b.len);

		if (close(fd) || bad || rename(tmp, path))
			unlink(tmp);
	}
	strbuf_release(&b);
	free(tmp);
	free(path);
}

/* Gives back what the compiler did: its output, its file, its exit code. */
static int replay(const struct answer *a, const char *out_path)
{
	if (out_path) {
		if (a->file_len < 0) {
			unlink(out_path);
		} else {
			int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);

			if (fd < 0 || write_all(fd, a->file.buf ? a->file.buf : "", a->file.len)) {
				fprintf(stderr, "vampyr-cc: cannot write %s: %s\n", out_path,
					strerror(errno));
				return 1;
			}
			close(fd);
		}
	}
	if (write_all(1, a->out.buf ? a->out.buf : "", a->out.len) ||
	    write_all(2, a->err.buf ? a->err.buf : "", a->err.len))
		return 1;
	return a->code;
}

static int temp_fd(void)
{
	FILE *f = tmpfile();
	int fd;

	if (!f)
		return -1;
	fd = dup(fileno(f));
	fclose(f);
	return fd;
}

/*
 * Runs the real compiler with `in` as its standard input and what it prints
 * caught: 0 (a), or -1 when it could not run or a signal ended it.
 */
static int run_compiler(const char *real, char **argv, const struct strbuf *in, int merged,
			const char *out_path, struct answer *a)
{
	int fds[3] = { temp_fd(), temp_fd(), merged ? -1 : temp_fd() }, status, ret = -1;
	pid_t pid;

	if (fds[0] < 0 || fds[1] < 0 || (!merged && fds[2] < 0) ||
	    write_all(fds[0], in->buf ? in->buf : "", in->len) || lseek(fds[0], 0, SEEK_SET))
		goto out;
	pid = fork();
	if (pid < 0)
		goto out;
	if (!pid) {
		if (dup2(fds[0], 0) < 0 || dup2(fds[1], 1) < 0 || dup2(merged ? fds[1] : fds[2], 2) < 0)
			_exit(127);
		execv(real, argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			goto out;
	if (lseek(fds[1], 0, SEEK_SET) || strbuf_read_fd(&a->out, fds[1]) ||
	    (!merged && (lseek(fds[2], 0, SEEK_SET) || strbuf_read_fd(&a->err, fds[2]))))
		goto out;
	a->file_len = -1;
	if (out_path) {
		int fd = open(out_path, O_RDONLY | O_CLOEXEC);

		if (fd >= 0) {
			if (!strbuf_read_fd(&a->file, fd))
				a->file_len = (long long)a->file.len;
			close(fd);
		}
	}
	if (WIFEXITED(status)) {
		a->code = WEXITSTATUS(status);
		ret = 0;
	} else {
		a->code = 128 + WTERMSIG(status);
	}
out:
	for (int i = 0; i < 3; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return ret;
}

static void answer_release(struct answer *a)
{
	strbuf_release(&a->out);
	strbuf_release(&a->err);
	strbuf_release(&a->file);
	strbuf_release(&a->deps);
	memset(a, 0, sizeof(*a));
}

/*
 * Adds path (an absolute one, not a temporary file of the compiler's) to
 * seen, and the directory of a file: a file put beside it (a library, a
 * header that comes first) changes the directory. A directory or a path
 * that does not exist is enough as it is: what appears in it or at it
 * changes its identity.
 */
static void add_path(struct strmap *seen, char *path, const char *tmpcc)
{
	struct stat st;
	size_t len;
	char *slash;

	while (*path == ' ' || *path == '\t')
		path++;
	len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		path[--len] = '\0';
	if (path[0] != '/' || (starts_with(path, tmpcc) && !strchr(path + strlen(tmpcc), '/')))
		return;
	strmap_put(seen, path, NULL);
	if (!stat(path, &st) && S_ISREG(st.st_mode) && (slash = strrchr(path, '/')) && slash != path) {
		*slash = '\0';
		strmap_put(seen, path, NULL);
		*slash = '/';
	}
}

/* Adds each piece of line[0..len) between separators that is an absolute path (-L/x: /x). */
static void add_pieces(struct strmap *seen, const char *line, size_t len, const char *seps,
		       const char *tmpcc)
{
	for (size_t i = 0; i < len; ) {
		size_t n = 0;
		char *tok;

		while (i + n < len && !strchr(seps, line[i + n]))
			n++;
		tok = xstrndup(line + i, n);
		add_path(seen, tok[0] == '-' && tok[1] && strchr("LIB", tok[1]) ? tok + 2 : tok, tmpcc);
		free(tok);
		i += n + 1;
	}
}

/*
 * Adds the absolute paths `text` names to seen: with `dirs`, the lists of
 * -print-search-dirs ("name: =/a:/b"); else each line that is one (ld's
 * --trace), the rest of a -H line (". /usr/include/stdio.h"), and each
 * blank-, quote- or colon-separated token that is one (-v's programs and
 * directories).
 */
static void paths_named(const struct strbuf *text, int dirs, struct strmap *seen)
{
	const char *tmp = getenv("TMPDIR"), *p = text->buf ? text->buf : "";
	const char *end = p + text->len;
	char *tmpcc = xstrfmt("%s/cc", tmp && *tmp ? tmp : "/tmp");

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *q = p;
		size_t len;

		eol = eol ? eol : end;
		len = (size_t)(eol - p);
		if (dirs) {
			if ((q = memchr(p, ':', len)))
				add_pieces(seen, q + 1, (size_t)(eol - q - 1), ":=", tmpcc);
		} else {
			while (q < eol && *q == '.')
				q++;
			if (q > p && q < eol && *q == ' ')
				add_pieces(seen, q + 1, (size_t)(eol - q - 1), "", tmpcc);
			if (*p == '/')
				add_pieces(seen, p, len, "", tmpcc);
			add_pieces(seen, p, len, " \t\r'\"():=,;", tmpcc);
		}
		p = eol + 1;
	}
	free(tmpcc);
}

/*
 * What the answer a to argv depends on (see the top), into a->deps: the
 * compiler asked again with -v, -H and (a link) -Wl,--trace, its output to
 * /dev/null, and with -print-search-dirs. 0, or -1 when it could not run.
 */
static int gather_deps(const char *real, int argc, char **argv, const struct probe *p,
		       const struct strbuf *in, struct answer *a)
{
	char **args = xcalloc((size_t)argc + 4, sizeof(*args));
	char *dirs_args[] = { argv[0], "-print-search-dirs", NULL };
	struct answer run = { 0 }, dirs = { 0 };
	struct strmap seen = STRMAP_INIT;
	struct strvec list = STRVEC_INIT;
	struct strmap_entry *e;
	struct strbuf none = STRBUF_INIT;
	int n = 0, ret = 0;

	/* The .dwo of -gsplit-dwarf would go beside /dev/null. */
	for (int i = 0; i < argc; i++)
		if (strcmp(argv[i], "-gsplit-dwarf"))
			args[n++] = i && i == p->out_arg ? "/dev/null" : argv[i];
	if (!p->print) {
		args[n++] = "-v";
		args[n++] = "-H";
	}
	if (p->link)
		args[n++] = "-Wl,--trace";
	if (run_compiler(real, args, in, 1, NULL, &run) ||
	    run_compiler(real, dirs_args, &none, 1, NULL, &dirs))
		ret = -1;
	paths_named(&run.out, 0, &seen);
	paths_named(&dirs.out, 1, &seen);
	/* -print-file-name= answers with a path: it, and its directory. */
	paths_named(&a->out, 0, &seen);
	strmap_for_each(&seen, e)
		strvec_push(&list, e->key);
	strvec_sort(&list);
	for (size_t i = 0; i < list.nr; i++) {
		strbuf_addf(&a->deps, "%s\t", list.v[i]);
		strbuf_add_file_id(&a->deps, list.v[i]);
		strbuf_addch(&a->deps, '\n');
	}
	strvec_clear(&list);
	strmap_clear(&seen, NULL);
	answer_release(&run);
	answer_release(&dirs);
	free(args);
	return ret;
}

/* Appends text to $VAMPYR_CC_DEPS, if set (one write: the calls of a run may overlap). */
static void note_deps(const char *text, size_t len)
{
	const char *log = getenv("VAMPYR_CC_DEPS");
	int fd;

	if (!log || !*log || !len)
		return;
	fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0)
		return;
	if (write_all(fd, text, len))
		fprintf(stderr, "vampyr-cc: cannot write %s: %s\n", log, strerror(errno));
	close(fd);
}

/*
 * A call that is no probe, in the toolchain's run (VAMPYR_CC_DEPS): the
 * compiler runs and what it printed is passed on, then what its answer
 * depends on is noted (gather_deps); its exit code. One whose options read
 * or write other files is noted "unkept" and run as always.
 */
static int run_noted(int argc, char **argv, const char *name, const char *real)
{
	struct probe p = { 0 };
	struct answer a = { 0 };
	struct strbuf in = STRBUF_INIT;
	struct stat o, e;
	int merged = !fstat(1, &o) && !fstat(2, &e) && o.st_dev == e.st_dev && o.st_ino == e.st_ino;
	int compile = 0, code;

	for (int i = 1; i < argc; i++) {
		if (touches_files(argv[i]) && strcmp(argv[i], "-gsplit-dwarf")) {
			note_deps("unkept\n", 7);
			test_log("run", name);
			execv(real, argv);
			fprintf(stderr, "vampyr-cc: cannot run %s: %s\n", real, strerror(errno));
			return 127;
		}
		compile |= !strcmp(argv[i], "-c") || !strcmp(argv[i], "-S") || !strcmp(argv[i], "-E");
		p.reads_stdin |= !strcmp(argv[i], "-");
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			p.out_arg = ++i;
	}
	p.link = !compile;
	test_log("run", name);
	if (p.reads_stdin && strbuf_read_fd(&in, 0))
		return 127;
	if (run_compiler(real, argv, &in, merged, NULL, &a)) {
		note_deps("unkept\n", 7);
		code = a.code ? a.code : 127;
	} else {
		code = replay(&a, NULL);
		if (gather_deps(real, argc, argv, &p, &in, &a))
			note_deps("unkept\n", 7);
		note_deps(a.deps.buf, a.deps.len);
	}
	answer_release(&a);
	strbuf_release(&in);
	return code;
}

/* The probe p of argv: from the cache, else from the real compiler (kept). Its exit code. */
static int answer_probe(char **argv, int argc, const struct probe *p, const char *name,
			const char *real, const char *path, const char *cache)
{
	const char *out_path = NULL;
	char hex[33], *entry = NULL;
	struct strbuf key = STRBUF_INIT, in = STRBUF_INIT;
	struct answer a = { 0 };
	struct stat o, e;
	int merged = !fstat(1, &o) && !fstat(2, &e) && o.st_dev == e.st_dev && o.st_ino == e.st_ino;
	int code, deps;

	if (p->reads_stdin && strbuf_read_fd(&in, 0))
		return 127;
	if (p->out_arg && strcmp(argv[p->out_arg], "-") && strcmp(argv[p->out_arg], "/dev/null"))
		out_path = argv[p->out_arg];
	deps = p->link || p->print || includes_files(&in);
	build_key(&key, argc, argv, p, merged, name, real, path, &in);
	key_digest(&key, hex);
	entry = xstrfmt("%s/%s", cache, hex);
	if (!read_entry(entry, &key, &a)) {
		test_log("hit", name);
		note_deps(a.deps.buf, a.deps.len);
		a.code = replay(&a, out_path);
		goto out;
	}
	answer_release(&a);
	if (run_compiler(real, argv, &in, merged, out_path, &a)) {
		/* It could not run, or a signal ended it: nothing is kept. */
		test_log("run", name);
		note_deps("unkept\n", 7);
		if (!a.code)
			a.code = 127;
	} else {
		test_log("miss", name);
		if (!deps || !gather_deps(real, argc, argv, p, &in, &a))
			write_entry(cache, hex, &key, &a);
		else
			note_deps("unkept\n", 7);
		note_deps(a.deps.buf, a.deps.len);
	}
	/* The compiler wrote the -o file itself. */
	replay(&a, NULL);
out:
	code = a.code;
	answer_release(&a);
	free(entry);
	strbuf_release(&key);
	strbuf_release(&in);
	return code;
}

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	const char *path = getenv("VAMPYR_CC_PATH"), *cache = getenv("VAMPYR_CC_CACHE");
	char *self, *real;
	struct probe p;
	int code;

	set_program_name("vampyr-cc");
	if (!path) {
		fprintf(stderr, "vampyr-cc: VAMPYR_CC_PATH is not set: git vampyr runs this as %s\n",
			name);
		return 127;
	}
	self = realpath("/proc/self/exe", NULL);
	real = find_program(name, path, self);
	free(self);
	if (!real) {
		fprintf(stderr, "vampyr-cc: %s: not found in VAMPYR_CC_PATH\n", name);
		return 127;
	}
	/* The compiler and what it runs see the PATH vampyr was given. */
	setenv("PATH", path, 1);
	if (!cache || !is_probe(argc, argv, &p)) {
		const char *deps = getenv("VAMPYR_CC_DEPS");

		if (cache && deps && *deps) {
			code = run_noted(argc, argv, name, real);
			free(real);
			return code;
		}
		test_log("run", name);
		execv(real, argv);
		fprintf(stderr, "vampyr-cc: cannot run %s: %s\n", real, strerror(errno));
		free(real);
		return 127;
	}
	code = answer_probe(argv, argc, &p, name, real, path, cache);
	free(real);
	return code;
}
