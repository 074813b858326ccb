// SPDX-License-Identifier: GPL-2.0
/*
 * test-cpp: exercises common/cpp from the test suite.
 *
 *   test-cpp blocks [--macro=DEF]... [--asm] <file>
 *   test-cpp symbols [--macro=DEF]... <file>
 *   test-cpp defines <file>
 *   test-cpp at <file>                   the innermost block of each line
 *   test-cpp keep [--macro=DEF]... <file> [-DNAME[=VALUE] | -UNAME]...
 *        the lines a preprocessor keeps, removed lines blank (unifdef -k -b)
 *   test-cpp gen [--cpp] <seed>          a random file of nested conditionals
 *        (--cpp: also continuations, comments across lines, #elifdef and
 *        arithmetic, which unifdef does not read but a real cpp does)
 *   test-cpp assign <seed> <n> NAME...   n random lines of -D/-U options
 *   test-cpp time [-n <rounds>] <list>   scan the files named in <list>
 *   test-cpp fuzz <seed> <n>             scan n random token soups, check invariants
 */
#include "cpp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char usage_text[] =
	"usage: test-cpp (blocks|symbols|defines|at|keep) [--macro=DEF]... [--asm] <file> [-D.. -U..]\n"
	"       test-cpp gen [--cpp] <seed> | assign <seed> <n> <name>... | time [-n N] <list>\n"
	"       test-cpp fuzz <seed> <n>";

static char *read_input(const char *path, size_t *len)
{
	char *data;

	if (read_file(path, &data, len) < 0)
		die("cannot open '%s': %s", path, strerror(errno));
	return data;
}

static void print_block(const struct cpp_block *b)
{
	struct strbuf sb = STRBUF_INIT;

	cpp_expr_format(&sb, b->pc);
	printf("B%d %d-%d parent=B%s%d kind=%s%s pc=%s directive=%s\n", b->number, b->line,
	       b->end_line, b->parent < 0 ? "0" : "", b->parent < 0 ? 0 : b->parent,
	       cpp_directive_name(b->kind), b->constant ? " constant" : "", sb.buf, b->directive);
	strbuf_release(&sb);
}

static void print_symbols(const struct cpp_block *b)
{
	printf("B%d", b->number);
	for (size_t i = 0; i < b->nr_symbols; i++)
		printf(" %s%s%s", b->symbols[i].name, b->symbols[i].from_macro ? "[macro]" : "",
		       b->symbols[i].file_defined ? "[file]" : "");
	putchar('\n');
}

/* Prints the kept lines, a removed one as an empty line, as unifdef -b does. */
static void print_kept(const char *buf, size_t len, const unsigned char *keep, int nr_lines)
{
	const char *p = buf, *end = buf + len;

	for (int line = 1; line <= nr_lines; line++) {
		const char *nl = memchr(p, '\n', end - p);
		const char *e = nl ? nl : end;

		if (keep[line])
			fwrite(p, 1, e - p, stdout);
		putchar('\n');
		p = nl ? nl + 1 : end;
	}
}

static int cmd_scan(const char *cmd, int argc, const char **argv)
{
	struct cpp_macros *macros = cpp_macros_new();
	struct cpp_assignment assign = CPP_ASSIGNMENT_INIT;
	struct cpp_options opt = { 0 };
	const char *path = NULL;
	struct cpp_file *f;
	size_t len;
	char *buf, *file;
	int ret;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (starts_with(a, "--macro=")) {
			if (cpp_macros_add(macros, a + 8) < 0)
				exit(EXIT_USAGE);
		} else if (!strcmp(a, "--asm")) {
			opt.asm_file = 1;
		} else if (starts_with(a, "-D") && a[2]) {
			char *name = xstrdup(a + 2), *eq = strchr(name, '=');

			if (eq)
				*eq++ = '\0';
			cpp_assignment_define(&assign, name, eq ? eq : "1");
			free(name);
		} else if (starts_with(a, "-U") && a[2]) {
			cpp_assignment_undefine(&assign, a + 2);
		} else if (!path) {
			path = a;
		} else {
			die("%s", usage_text);
		}
	}
	if (!path)
		die("%s", usage_text);
	/*
	 * The scanner gets a copy of exactly the file's bytes, with no NUL
	 * after them, as a blob from git is: under AddressSanitizer any read
	 * past the end fails the test.
	 */
	file = read_input(path, &len);
	buf = xmalloc(len ? len : 1);
	memcpy(buf, file, len);
	free(file);
	opt.path = path;
	opt.macros = macros;
	f = cpp_scan(buf, len, &opt);
	for (size_t i = 0; i < f->errors.nr; i++)
		error("%s", f->errors.v[i]);
	if (!strcmp(cmd, "blocks")) {
		for (size_t i = 0; i < f->nr_blocks; i++)
			print_block(&f->blocks[i]);
	} else if (!strcmp(cmd, "symbols")) {
		for (size_t i = 0; i < f->nr_blocks; i++)
			print_symbols(&f->blocks[i]);
	} else if (!strcmp(cmd, "at")) {
		for (int line = 1; line <= f->nr_lines; line++) {
			int b = cpp_block_at(f, line);

			printf("%d B%s%d\n", line, b < 0 ? "0" : "", b < 0 ? 0 : b);
		}
	} else if (!strcmp(cmd, "defines")) {
		for (size_t i = 0; i < f->nr_defines; i++)
			printf("%d %s %s\n", f->defines[i].line,
			       f->defines[i].undef ? "undef" : "define", f->defines[i].name);
	} else {
		unsigned char *keep = xmalloc(f->nr_lines + 2);

		cpp_keep_lines(f, &assign, keep);
		print_kept(buf, len, keep, f->nr_lines);
		free(keep);
	}
	ret = f->errors.nr ? 1 : 0;
	cpp_file_free(f);
	cpp_macros_free(macros);
	cpp_assignment_clear(&assign);
	free(buf);
	return ret;
}

/* ---- random files for the differential test against unifdef ---- */

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
	/* xorshift64*: the same files on every machine for a given seed. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 2685821657736338717ULL) >> 33) % n;
}

static void seed(const char *s)
{
	rng_state = strtoull(s, NULL, 10) * 0x9E3779B97F4A7C15ULL + 1;
	for (int i = 0; i < 8; i++)
		rnd(2);
}

static int nr_syms;
static int full_cpp;	/* gen --cpp: forms only a real preprocessor reads */
static const char *const sym_names[] = {
	"CONFIG_A", "CONFIG_B", "CONFIG_C", "CONFIG_D",
	"CONFIG_E", "CONFIG_F", "CONFIG_G", "CONFIG_H",
};

static const char *sym(void)
{
	return sym_names[rnd(nr_syms)];
}

static void gen_expr(struct strbuf *sb, int depth)
{
	/* What unifdef cannot evaluate; a real preprocessor can. */
	if (full_cpp && depth <= 2 && rnd(4) == 0) {
		switch (rnd(5)) {
		case 0: strbuf_addf(sb, "(%s * 3) / 2 == 1", sym()); break;
		case 1: strbuf_addf(sb, "%s + %s > 1", sym(), sym()); break;
		case 2:
			strbuf_addf(sb, "%s ? ", sym());
			gen_expr(sb, depth + 1);
			strbuf_addstr(sb, " : ");
			gen_expr(sb, depth + 1);
			break;
		case 3: strbuf_addf(sb, "'a' == 97 && (-%s < 0 || 1 << %s == 2)", sym(), sym()); break;
		default: strbuf_addf(sb, "(%s | 2) ^ 3 && ~%s", sym(), sym()); break;
		}
		return;
	}
	switch (depth > 2 ? rnd(4) : rnd(11)) {
	case 0: strbuf_addf(sb, "defined(%s)", sym()); break;
	case 1: strbuf_addf(sb, "defined %s", sym()); break;
	case 2: strbuf_addstr(sb, sym()); break;
	case 3: strbuf_addf(sb, "!defined(%s)", sym()); break;
	case 4: gen_expr(sb, depth + 1); strbuf_addstr(sb, " && "); gen_expr(sb, depth + 1); break;
	case 5: gen_expr(sb, depth + 1); strbuf_addstr(sb, " || "); gen_expr(sb, depth + 1); break;
	case 6: strbuf_addstr(sb, "!("); gen_expr(sb, depth + 1); strbuf_addch(sb, ')'); break;
	case 7: strbuf_addch(sb, '('); gen_expr(sb, depth + 1); strbuf_addch(sb, ')'); break;
	case 8: strbuf_addf(sb, "%s == %d", sym(), (int)rnd(3)); break;
	case 9: strbuf_addf(sb, "%s > 1", sym()); break;
	default:
		strbuf_addf(sb, "%d && ", (int)rnd(2));
		gen_expr(sb, depth + 1);
		break;
	}
}

static int line_no;

static void gen_text(void)
{
	switch (rnd(12)) {
	case 0: printf("/* #if %s */\n", sym()); break;
	case 1: printf("/* a comment\n#endif\n#else\n */ int c%d;\n", line_no); break;
	case 2: printf("static const char *s%d = \"#if 0 /* \";\n", line_no); break;
	case 3: printf("// #else\n"); break;
	case 4: printf("char q%d = '\"'; /* \" */\n", line_no); break;
	case 5: printf("#define X%d(a) \\\n\t(a + 1)\n", line_no); break;
	case 6: printf("\n"); break;
	default: printf("int v%d;\n", line_no); break;
	}
	line_no++;
}

static void gen_directive(const char *word, const char *rest)
{
	static const char *const spacing[] = { "#", "#", "#", "# ", "#  ", " #", "\t#\t" };

	printf("%s%s%s%s\n", spacing[rnd(ARRAY_SIZE(spacing))], word, *rest ? " " : "", rest);
}

static void gen_block(int depth)
{
	int n = 1 + rnd(4);

	for (int i = 0; i < n; i++) {
		if (depth < 4 && rnd(3) == 0) {
			struct strbuf sb = STRBUF_INIT;
			int kind = rnd(4), elifs = rnd(3);

			if (kind == 0) {
				gen_directive("ifdef", sym());
			} else if (kind == 1) {
				gen_directive("ifndef", sym());
			} else {
				gen_expr(&sb, 0);
				/* unifdef leaves multi-line #if lines alone: only with --cpp. */
				if (full_cpp && rnd(4) == 0)
					strbuf_addstr(&sb, " \\\n\t|| defined(CONFIG_A)");
				if (full_cpp && rnd(5) == 0)
					strbuf_addstr(&sb, " /* a comment\n   across lines */ && 1");
				if (rnd(4) == 0)
					strbuf_addstr(&sb, " /* why */");
				gen_directive("if", sb.buf);
			}
			gen_block(depth + 1);
			for (int k = 0; k < elifs; k++) {
				strbuf_reset(&sb);
				if (full_cpp && rnd(3) == 0) {
					gen_directive(rnd(2) ? "elifdef" : "elifndef", sym());
					gen_block(depth + 1);
					continue;
				}
				gen_expr(&sb, 0);
				gen_directive("elif", sb.buf);
				gen_block(depth + 1);
			}
			if (rnd(2)) {
				gen_directive("else", rnd(2) ? "" : "/* !X */");
				gen_block(depth + 1);
			}
			gen_directive("endif", rnd(3) ? "" : "// X");
			strbuf_release(&sb);
		} else {
			gen_text();
		}
	}
}

static int cmd_gen(int argc, const char **argv)
{
	if (argc == 2 && !strcmp(argv[0], "--cpp")) {
		full_cpp = 1;
		argc--;
		argv++;
	}
	if (argc != 1)
		die("%s", usage_text);
	seed(argv[0]);
	nr_syms = 5 + rnd(4);
	printf("/* generated by test-cpp gen %s */\n", argv[0]);
	while (line_no < 40)
		gen_block(0);
	return 0;
}

static int cmd_assign(int argc, const char **argv)
{
	int n;

	if (argc < 2)
		die("%s", usage_text);
	seed(argv[0]);
	n = atoi(argv[1]);
	for (int k = 0; k < n; k++) {
		for (int i = 2; i < argc; i++) {
			int r = rnd(8);

			if (r < 4)
				printf("%s-U%s", i > 2 ? " " : "", argv[i]);
			else
				printf("%s-D%s=%d", i > 2 ? " " : "", argv[i], r < 7 ? 1 : (int)rnd(3));
		}
		putchar('\n');
	}
	return 0;
}

/* ---- robustness ---- */

static int check_tree(const struct cpp_file *f, const char *what)
{
	for (size_t i = 0; i < f->nr_blocks; i++) {
		const struct cpp_block *b = &f->blocks[i];
		const struct cpp_block *p = b->parent >= 0 ? &f->blocks[b->parent] : NULL;
		const char *bad = NULL;

		if (b->number != (int)i || b->parent >= b->number || b->prev_sibling >= b->number ||
		    b->first > b->number)
			bad = "numbering";
		else if (b->line > b->line_last || b->line_last >= b->end_line ||
			 b->end_line > b->end_line_last)
			bad = "line order";
		else if (p && (p->line_last >= b->line ||
			       (!b->unterminated && b->end_line_last >= p->end_line)))
			bad = "not inside its parent";
		else if (b->prev_sibling >= 0 &&
			 f->blocks[b->prev_sibling].end_line != b->line)
			bad = "sibling does not end where it starts";
		if (bad) {
			error("%s: B%zu: %s", what, i, bad);
			return -1;
		}
	}
	return 0;
}

static int cmd_fuzz(int argc, const char **argv)
{
	static const char *const pieces[] = {
		"#", "#", "if ", "ifdef ", "ifndef ", "elif ", "elifdef ", "else", "endif",
		"define ", "undef ", " ", "\t", "\n", "\n", "\n#", "\\\n", "/*", "*/", "//",
		"\"", "'", "(", ")", "CONFIG_A", "CONFIG_B", "X", "defined", "&&", "||", "!",
		"?", ":", "1", "0", "IS_ENABLED(", "CONFIG_IS_ENABLED(", ",", "##", "0x1u", "<<",
		"/", "%", "-", "~", "\r", "'a'", "'\\''", "9999999999999999999999",
	};
	struct cpp_macros *macros = cpp_macros_new();
	struct cpp_assignment assign = CPP_ASSIGNMENT_INIT;
	struct strbuf buf = STRBUF_INIT, text = STRBUF_INIT;
	int n, ret = 0;

	if (argc != 2)
		die("%s", usage_text);
	seed(argv[0]);
	n = atoi(argv[1]);
	cpp_macros_add(macros, "CONFIG_IS_ENABLED(x)=CONFIG_x || CONFIG_SPL_x");
	cpp_macros_add(macros, "X=X + CONFIG_IS_ENABLED(B)");
	cpp_assignment_define(&assign, "CONFIG_A", "1");
	cpp_assignment_undefine(&assign, "CONFIG_B");
	for (int i = 0; i < n && !ret; i++) {
		struct cpp_options opt = { .path = "fuzz", .macros = macros, .asm_file = i & 1 };
		struct cpp_file *f;
		unsigned char *keep;
		int len = rnd(120);

		strbuf_reset(&buf);
		for (int k = 0; k < len; k++)
			strbuf_addstr(&buf, pieces[rnd(ARRAY_SIZE(pieces))]);
		/* Scan a copy without a NUL after it: the scanner must not read past. */
		{
			char *copy = xmalloc(buf.len ? buf.len : 1);

			memcpy(copy, strbuf_str(&buf), buf.len);
			f = cpp_scan(copy, buf.len, &opt);
			for (size_t b = 0; b < f->nr_blocks; b++) {
				strbuf_reset(&text);
				cpp_expr_format(&text, f->blocks[b].pc);
			}
			keep = xmalloc(f->nr_lines + 2);
			cpp_keep_lines(f, &assign, keep);
			free(keep);
			if (check_tree(f, "fuzz") < 0) {
				fprintf(stderr, "input %d:\n%s\n", i, strbuf_str(&buf));
				ret = 1;
			}
			cpp_file_free(f);
			free(copy);
		}
	}
	printf("scanned %d\n", n);
	strbuf_release(&buf);
	strbuf_release(&text);
	cpp_macros_free(macros);
	cpp_assignment_clear(&assign);
	return ret;
}

/* ---- speed ---- */

static double now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmd_time(int argc, const char **argv)
{
	struct strvec paths = STRVEC_INIT;
	struct cpp_macros *macros = cpp_macros_new();
	char **bufs;
	size_t *lens, bytes = 0, blocks = 0, errors = 0, lines = 0;
	size_t kinds[CPP_UNDEF + 1] = { 0 }, with_config = 0, constant = 0, defines = 0;
	int rounds = 1;
	char *list, *p, *nl;
	size_t list_len;
	double t0, c0, t, c;

	if (argc >= 2 && !strcmp(argv[0], "-n")) {
		rounds = atoi(argv[1]);
		argc -= 2;
		argv += 2;
	}
	if (argc != 1 || rounds < 1)
		die("%s", usage_text);
	list = read_input(argv[0], &list_len);
	for (p = list; p < list + list_len; p = nl + 1) {
		nl = memchr(p, '\n', list + list_len - p);
		if (!nl)
			nl = list + list_len;
		*nl = '\0';
		if (*p)
			strvec_push(&paths, p);
	}
	free(list);
	cpp_macros_add(macros, "CONFIG_IS_ENABLED(x)=CONFIG_x || CONFIG_SPL_x");
	bufs = xcalloc(paths.nr + 1, sizeof(*bufs));
	lens = xcalloc(paths.nr + 1, sizeof(*lens));
	for (size_t i = 0; i < paths.nr; i++) {
		bufs[i] = read_input(paths.v[i], &lens[i]);
		bytes += lens[i];
	}
	t0 = now(CLOCK_MONOTONIC);
	/* CPU time too: on a loaded machine wall time says little. */
	c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	for (int r = 0; r < rounds; r++) {
		for (size_t i = 0; i < paths.nr; i++) {
			struct cpp_options opt = { .path = paths.v[i], .macros = macros,
						   .asm_file = ends_with(paths.v[i], ".S") };
			struct cpp_file *f = cpp_scan(bufs[i], lens[i], &opt);

			if (!r) {
				blocks += f->nr_blocks;
				errors += f->errors.nr;
				lines += f->nr_lines;
				defines += f->nr_defines;
				for (size_t k = 0; k < f->nr_blocks; k++) {
					kinds[f->blocks[k].kind]++;
					with_config += f->blocks[k].nr_symbols > 0;
					constant += f->blocks[k].constant;
				}
				for (size_t k = 0; k < f->errors.nr; k++)
					fprintf(stderr, "%s\n", f->errors.v[k]);
			}
			cpp_file_free(f);
		}
	}
	t = (now(CLOCK_MONOTONIC) - t0) / rounds;
	c = (now(CLOCK_PROCESS_CPUTIME_ID) - c0) / rounds;
	printf("files %zu bytes %zu lines %zu blocks %zu errors %zu\n", paths.nr, bytes, lines,
	       blocks, errors);
	printf("blocks naming CONFIG_ %zu constant %zu; #define/#undef %zu\n",
	       with_config, constant, defines);
	for (int k = CPP_IF; k <= CPP_ELSE; k++)
		printf("%s%s %zu", k ? " " : "", cpp_directive_name(k), kinds[k]);
	putchar('\n');
	printf("seconds %.3f cpu %.3f MB/s %.0f (cpu %.0f)\n", t, c, bytes / 1e6 / t,
	       bytes / 1e6 / c);
	for (size_t i = 0; i < paths.nr; i++)
		free(bufs[i]);
	free(bufs);
	free(lens);
	strvec_clear(&paths);
	cpp_macros_free(macros);
	return 0;
}

int main(int argc, const char **argv)
{
	set_program_name("test-cpp");
	if (argc < 2)
		die("%s", usage_text);
	if (!strcmp(argv[1], "blocks") || !strcmp(argv[1], "symbols") ||
	    !strcmp(argv[1], "defines") || !strcmp(argv[1], "keep") ||
	    !strcmp(argv[1], "at"))
		return cmd_scan(argv[1], argc - 2, argv + 2);
	if (!strcmp(argv[1], "gen"))
		return cmd_gen(argc - 2, argv + 2);
	if (!strcmp(argv[1], "assign"))
		return cmd_assign(argc - 2, argv + 2);
	if (!strcmp(argv[1], "fuzz"))
		return cmd_fuzz(argc - 2, argv + 2);
	if (!strcmp(argv[1], "time"))
		return cmd_time(argc - 2, argv + 2);
	die("%s", usage_text);
}
