/* SPDX-License-Identifier: GPL-2.0 */
/*
 * C preprocessor conditional blocks, as undertaker defined them (DESIGN.md,
 * "C preprocessor blocks"). Knows nothing of Kconfig or git: it scans one
 * C or assembler blob and returns its block tree with presence conditions
 * abstracted to boolean formulas over macro names and opaque atoms.
 *
 * Typical use by an analysis driver:
 *
 *	struct cpp_macros *macros = cpp_macros_new();
 *	for each `git config undertaker.macro` value v:
 *		if (cpp_macros_add(macros, v) < 0) ... bad definition ...
 *	struct cpp_options opt = { .path = "drivers/foo.c", .macros = macros };
 *	struct cpp_file *f = cpp_scan(blob, size, &opt);
 *	for (i = 0; i < f->nr_blocks; i++) {
 *		const struct cpp_block *b = &f->blocks[i];
 *		dead:   PC(b) = b->pc unsatisfiable
 *		undead: PC(parent) && !b->local unsatisfiable (parent alive)
 *		skip when b->constant (#if 0, #if 1, #else of #if 0...) or when
 *		b->pc->kind == CPP_EXPR_CONST (inside an #if 0: folded to 0)
 *	}
 *	cpp_file_free(f);
 *	cpp_macros_free(macros);
 *
 * Formulas are struct cpp_expr DAGs owned by the cpp_file (one arena, freed
 * with it): walk them, never free them nor change them. Sub-formulas are
 * shared (a child's pc points into its parent's), so memoise per node when
 * encoding. Two formulas print the same with cpp_expr_format() exactly when
 * they are the same formula: that text is a fine cache key for "identical
 * presence conditions are answered once".
 *
 * cpp_scan() keeps no global state: threads may scan in parallel, sharing one
 * struct cpp_macros (read only once built). A driver maps each leaf to its own
 * logic variables:
 *	CPP_EXPR_CONFIG, name "CONFIG_FOO", variant DEFINED  -> FOO=y
 *	    ... ENABLED -> FOO=y || FOO=m, BUILTIN -> FOO=y, MODULE -> FOO=m,
 *	    REACHABLE -> FOO=y || (FOO=m && the free variable MODULE)
 *	    The name is kept as written: defined(CONFIG_FOO_MODULE) gives
 *	    "CONFIG_FOO_MODULE" with variant DEFINED; resolving the _MODULE suffix
 *	    against the Kconfig symbol table is the driver's job.
 *	CPP_EXPR_FREE   a macro not tied to Kconfig: a free variable (any
 *	    non-CONFIG name, and CONFIG names the file #defines or #undefs
 *	    before that line, flagged file_defined)
 *	CPP_EXPR_OPAQUE a comparison, arithmetic, or an unknown function-like
 *	    macro: a free variable keyed by its text (same text, same atom)
 */
#ifndef UT_CPP_H
#define UT_CPP_H

#include "util.h"

enum cpp_expr_kind {
	CPP_EXPR_CONST,		/* value: 0 or 1 */
	CPP_EXPR_NOT,		/* !a */
	CPP_EXPR_AND,		/* a && b */
	CPP_EXPR_OR,		/* a || b */
	CPP_EXPR_CONFIG,	/* a CONFIG_ macro tied to Kconfig */
	CPP_EXPR_FREE,		/* any other macro: a free variable */
	CPP_EXPR_OPAQUE,	/* a non-boolean subexpression, keyed by text */
};

/* How a macro is tested: what the driver maps a CONFIG or FREE leaf to. */
enum cpp_variant {
	CPP_DEFINED,	/* defined(X), #ifdef X, or X as a truth value (see `bare`) */
	CPP_ENABLED,	/* IS_ENABLED(X): X or X_MODULE */
	CPP_BUILTIN,	/* IS_BUILTIN(X): X */
	CPP_MODULE,	/* IS_MODULE(X): X_MODULE */
	CPP_REACHABLE,	/* IS_REACHABLE(X): X || (X_MODULE && MODULE) */
};
/* "defined", "IS_ENABLED", "IS_BUILTIN", "IS_MODULE", "IS_REACHABLE". */
const char *cpp_variant_name(enum cpp_variant v);

struct cpp_expr {
	enum cpp_expr_kind kind;
	enum cpp_variant variant;	/* CONFIG, FREE */
	int value;			/* CONST */
	/*
	 * CONFIG, FREE: set when the macro's value was used (`#if X`), not just
	 * its definedness (`defined X`). For Kconfig both mean X=y (a Kconfig
	 * macro is defined to 1 or not at all); cpp_eval() tells them apart to
	 * match a real preprocessor on any assignment.
	 */
	unsigned bare : 1;
	unsigned from_macro : 1;	/* produced by a project macro's expansion */
	unsigned file_defined : 1;	/* the file #defined/#undef'd it earlier (FREE) */
	/* CONFIG, FREE: the macro name as written, e.g. "CONFIG_FOO_MODULE". */
	const char *name;
	/* OPAQUE: normalised text, e.g. "LINUX_VERSION_CODE >= KERNEL_VERSION(4, 1, 0)". */
	const char *text;
	struct cpp_expr *a, *b;		/* NOT: a; AND, OR: a, b */
	const struct cpp_node *node;	/* OPAQUE: the integer expression, for cpp_eval() */
};

/* The conditional directives, plus the two others the scanner tracks. */
enum cpp_directive {
	CPP_IF, CPP_IFDEF, CPP_IFNDEF, CPP_ELIF, CPP_ELIFDEF, CPP_ELIFNDEF,
	CPP_ELSE, CPP_ENDIF, CPP_DEFINE, CPP_UNDEF,
};
const char *cpp_directive_name(enum cpp_directive d);	/* "if", "elifdef", ... */

/* A CONFIG_ name that a directive mentions (after project macro expansion). */
struct cpp_symbol_ref {
	const char *name;		/* "CONFIG_FOO", as written */
	unsigned from_macro : 1;	/* only appears through a project macro */
	unsigned file_defined : 1;	/* the file #defined/#undef'd it before */
};

/*
 * One block: the lines an #if, #ifdef, #ifndef, #elif(n)def or #else controls.
 * Blocks are numbered B0, B1, ... in the order of their opening directive;
 * B00, the file itself, is parent -1. Lines count from 1. A parent always
 * comes before its children, so one forward pass sees parents first.
 *
 *	10 #ifdef CONFIG_A	B0: line 10, end_line 14, parent -1, first 0, prev_sibling -1
 *	11 #if X > 2		B1: line 11, end_line 13, parent 0, first 1, prev_sibling -1
 *	12 foo();
 *	13 #endif
 *	14 #else		B2: line 14, end_line 15, parent -1, first 0, prev_sibling 0
 *	15 #endif
 *
 * The lines a block controls are line_last + 1 .. end_line - 1.
 */
struct cpp_block {
	int number;		/* index in cpp_file.blocks */
	int parent;		/* enclosing block, -1 for the file (B00) */
	int first;		/* the #if(def/ndef) block of this chain (itself for one) */
	int prev_sibling;	/* earlier block of the same chain, -1 for the #if */
	enum cpp_directive kind;
	const char *directive;	/* "#ifdef CONFIG_FOO", continuations joined, trimmed */
	int line, line_last;	/* the opening directive's first and last physical line */
	/*
	 * The directive that closes it (next #elif/#else/#endif of the chain):
	 * first and last physical line. For a block left open at the end of the
	 * file (an error) both are nr_lines + 1.
	 */
	int end_line, end_line_last;
	unsigned unterminated : 1;	/* no closing directive before EOF */
	/* expr: own condition, folded (#else: 1). local: expr && !earlier siblings. */
	struct cpp_expr *expr, *local;
	/* PC(B) = PC(parent) && local. */
	struct cpp_expr *pc;
	/* local is a constant after folding: #if 0, #if 1, #if 0 && X, #else of #if 0. */
	unsigned constant : 1;
	/*
	 * What it holds directly: an #error line (has_error), anything else:
	 * code, another directive, a nested block (has_code). A block of only
	 * #error is a build assertion: being dead is what it is for.
	 */
	unsigned has_error : 1, has_code : 1;
	struct cpp_symbol_ref *symbols;	/* CONFIG_ names of its own directive */
	size_t nr_symbols;
};

/* A #define or #undef line (any macro name). */
struct cpp_define {
	const char *name;
	int line;
	unsigned undef : 1;
};

struct cpp_file {
	struct cpp_block *blocks;
	size_t nr_blocks, alloc_blocks;
	struct cpp_define *defines;
	size_t nr_defines, alloc_defines;
	int nr_lines;
	/*
	 * "path:line: message" for each unbalanced or malformed directive and
	 * unterminated comment: errors.nr != 0 is the "had errors" flag.
	 */
	struct strvec errors;
	struct arena *arena;	/* owns every string and expression above */
};

/* Project macros (git config undertaker.macro), expanded in #if lines. */
struct cpp_macros;
struct cpp_macros *cpp_macros_new(void);
/*
 * Adds "NAME(a,b)=body" or "NAME=body" ("NAME" alone means "NAME=1").
 * In a function-like body, a parameter pastes into identifiers at `_`
 * boundaries: with CONFIG_IS_ENABLED(x)=CONFIG_x || CONFIG_SPL_x, the call
 * CONFIG_IS_ENABLED(FOO) and CONFIG_IS_ENABLED(CONFIG_FOO) both give
 * CONFIG_FOO || CONFIG_SPL_FOO; `a ## b` also pastes. A later definition of
 * the same name replaces an earlier one. A body of several tokens is
 * expanded in parentheses, so that !CONFIG_IS_ENABLED(FOO) negates all of it; IS_ENABLED, IS_BUILTIN, IS_MODULE,
 * IS_REACHABLE are built in unless defined here. Returns -1 (with an error()
 * message) on a malformed definition.
 */
int cpp_macros_add(struct cpp_macros *m, const char *definition);
void cpp_macros_free(struct cpp_macros *m);

struct cpp_options {
	const char *path;		/* prefix of error messages; "<blob>" if NULL */
	const struct cpp_macros *macros;	/* may be NULL */
	/*
	 * An assembler file (.S). The same lexical rules apply (cpp runs on it
	 * too): a `#` line whose word is no directive (`# comment`) is skipped,
	 * and a quote with no closing quote on its line is an ordinary
	 * character, as in GCC's assembler-with-cpp mode.
	 */
	int asm_file;
	int print_errors;		/* also error() each message as found */
};

/*
 * Scans one blob (need not be NUL-terminated) in a single pass. Never fails:
 * on unbalanced directives it records errors and returns the tree it could
 * build (a stray #endif is ignored, an open #if runs to the end of file).
 */
struct cpp_file *cpp_scan(const char *buf, size_t len, const struct cpp_options *opt);
void cpp_file_free(struct cpp_file *f);

/*
 * The innermost block that holds `line`: its opening directive, its lines,
 * and for the last block of a chain its #endif; -1 for none (B00). Use it
 * to map the lines a diff touches to blocks.
 */
int cpp_block_at(const struct cpp_file *f, int line);

/* Appends a readable infix form: CONFIG_A && !(defined(B) || {X > 2}). */
void cpp_expr_format(struct strbuf *sb, const struct cpp_expr *e);
/*
 * Appends the normal form of a presence condition, which does not depend on
 * how it is written: #ifdef X, #if defined(X) and #if X of a CONFIG name are
 * one test "(X)", the operands of && and || are in sorted order, spacing and
 * the directive's spelling are gone ("(IS_ENABLED(A) && !(B))"). 0, or -1
 * when the text would be longer than `max` (it is not finished).
 */
int cpp_expr_format_normal(struct strbuf *sb, const struct cpp_expr *e, size_t max);

/*
 * An assignment of macros: each name is either defined to a value or
 * undefined; names not in it are unknown. Used to check block trees
 * against a real preprocessor (unifdef) in the tests.
 */
struct cpp_assignment {
	struct strmap values;	/* name -> char * value, NULL when undefined */
};
#define CPP_ASSIGNMENT_INIT { STRMAP_INIT }
void cpp_assignment_define(struct cpp_assignment *a, const char *name, const char *value);
void cpp_assignment_undefine(struct cpp_assignment *a, const char *name);
void cpp_assignment_clear(struct cpp_assignment *a);

enum cpp_truth { CPP_FALSE = 0, CPP_TRUE = 1, CPP_UNKNOWN = 2 };
/* Kleene logic; an opaque atom is computed when every macro it uses is assigned. */
enum cpp_truth cpp_eval(const struct cpp_expr *e, const struct cpp_assignment *a);

/*
 * Which lines a preprocessor keeps: keep[1..nr_lines] (the array has
 * nr_lines + 1 entries; keep[0] is unused) is 1 for a line that stays, 0 for
 * a line removed. As with `unifdef -k`, the directives of a chain whose
 * conditions are all decided are removed, the lines of false blocks too.
 * Undecided chains keep their directives and contents (unifdef would also
 * simplify their expressions; compare only fully decided assignments).
 */
void cpp_keep_lines(const struct cpp_file *f, const struct cpp_assignment *a,
		    unsigned char *keep);

#endif
