// SPDX-License-Identifier: GPL-2.0
/*
 * One pass over a C or assembler blob: find the directives that comments,
 * literals and continuations do not hide, and build the block tree.
 */
#include "cpp-internal.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

static const char *const directive_names[] = {
	[CPP_IF] = "if", [CPP_IFDEF] = "ifdef", [CPP_IFNDEF] = "ifndef",
	[CPP_ELIF] = "elif", [CPP_ELIFDEF] = "elifdef", [CPP_ELIFNDEF] = "elifndef",
	[CPP_ELSE] = "else", [CPP_ENDIF] = "endif", [CPP_DEFINE] = "define",
	[CPP_UNDEF] = "undef",
};

const char *cpp_directive_name(enum cpp_directive d)
{
	return (size_t)d < ARRAY_SIZE(directive_names) ? directive_names[d] : "?";
}

/* An open #if ... #endif chain. */
struct chain {
	int first, cur;
	int had_else;
	struct cpp_expr *neg_prev;	/* !expr of every block of the chain so far */
};

struct scanner {
	const char *p, *end;
	int line;
	const struct cpp_options *opt;
	struct cpp_file *f;
	struct cpp_expr_ctx ctx;
	struct strmap file_defined;
	struct chain *chains;
	size_t nr_chains, alloc_chains;
	struct strbuf clean;	/* the directive's logical line, comments removed */
};

/* Bytes that can change the lexical state of ordinary code. */
static const unsigned char special[256] = {
	['\n'] = 1, ['/'] = 1, ['"'] = 1, ['\''] = 1, ['\\'] = 1,
};

/*
 * The first byte in [p, end) that can change the lexical state of code, or
 * end. Most of a source file is plain code: 16 bytes at a time where the
 * machine allows.
 */
static const char *find_special(const char *p, const char *end)
{
#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n'), slash = _mm_set1_epi8('/');
	const __m128i dq = _mm_set1_epi8('"'), sq = _mm_set1_epi8('\'');
	const __m128i bs = _mm_set1_epi8('\\');

	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)p);
		__m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, nl), _mm_cmpeq_epi8(v, slash)),
					 _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, dq),
								   _mm_cmpeq_epi8(v, sq)),
						      _mm_cmpeq_epi8(v, bs)));
		int bits = _mm_movemask_epi8(m);

		if (bits)
			return p + __builtin_ctz((unsigned)bits);
		p += 16;
	}
#endif
	while (p < end && !special[(unsigned char)*p])
		p++;
	return p;
}

static int is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_word(int c)
{
	return is_alpha(c) || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static void add_error(struct scanner *s, int line, const char *fmt, const char *arg)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s:%d: ", s->opt->path ? s->opt->path : "<blob>", line);
	strbuf_addf(&sb, fmt, arg);
	if (s->opt->print_errors)
		error("%s", sb.buf);
	strvec_push(&s->f->errors, sb.buf);
	strbuf_release(&sb);
}

/* A backslash-newline at p (also with \r\n): its length, else 0. */
static int splice_len(const char *p, const char *end)
{
	if (p + 1 < end && p[0] == '\\') {
		if (p[1] == '\n')
			return 2;
		if (p[1] == '\r' && p + 2 < end && p[2] == '\n')
			return 3;
	}
	return 0;
}

/* p at "/ *": past the closing "* /", counting lines. */
static void skip_block_comment(struct scanner *s)
{
	const char *p = s->p + 2, *end = s->end;
	int line = s->line;

	while (p < end) {
		const char *star = memchr(p, '*', end - p);
		const char *stop = star ? star : end;

		for (const char *q = memchr(p, '\n', stop - p); q; q = memchr(q + 1, '\n', stop - q - 1))
			s->line++;
		if (!star)
			break;
		p = star + 1;
		if (p < end && *p == '/') {
			s->p = p + 1;
			return;
		}
	}
	s->p = end;
	add_error(s, line, "unterminated comment%s", "");
}

/* p at "//": up to (not past) the newline that ends it; continuations extend it. */
static void skip_line_comment(struct scanner *s)
{
	const char *p = s->p + 2;
	int n;

	while (p < s->end && *p != '\n') {
		if (*p == '\\' && (n = splice_len(p, s->end))) {
			p += n;
			s->line++;
		} else {
			p++;
		}
	}
	s->p = p;
}

/*
 * p at a quote: past the literal when it closes on its logical line. A quote
 * that does not close is an ordinary character (an apostrophe in an
 * assembler comment), as GCC's preprocessor treats it in assembler files.
 */
static void skip_literal(struct scanner *s, struct strbuf *copy)
{
	const char *p = s->p + 1, *end = s->end;
	char q = *s->p;
	int lines = 0, n;

	while (p < end && *p != q && *p != '\n') {
		if (*p == '\\' && (n = splice_len(p, end))) {
			p += n;
			lines++;
		} else {
			p += *p == '\\' && p + 1 < end && p[1] != '\n' ? 2 : 1;
		}
	}
	if (p < end && *p == q) {
		if (copy)
			strbuf_add(copy, s->p, p + 1 - s->p);
		s->p = p + 1;
		s->line += lines;
	} else {
		if (copy)
			strbuf_addch(copy, q);
		s->p++;
	}
}

static struct cpp_expr *pc_of(struct scanner *s, int block)
{
	return block < 0 ? cpp_expr_const(s->f->arena, 1) : s->f->blocks[block].pc;
}

/* The directive as written: continuations joined, a comment's newlines as spaces. */
static const char *directive_text(struct scanner *s, const char *b, const char *e)
{
	char *out = arena_alloc(s->f->arena, e - b + 1), *o = out;
	/* A splice may end with the newline at e, never past the blob. */
	const char *limit = e < s->end ? e + 1 : e;
	int n;

	while (b < e) {
		if (*b == '\\' && (n = splice_len(b, limit))) {
			b += n;
			continue;
		}
		*o++ = (*b == '\n' || *b == '\r') ? ' ' : *b;
		b++;
	}
	while (o > out && (o[-1] == ' ' || o[-1] == '\t'))
		o--;
	*o = '\0';
	return out;
}

static int open_block(struct scanner *s, enum cpp_directive kind, struct cpp_expr *expr,
		      int parent, int prev, int line, int line_last, const char *text)
{
	struct cpp_file *f = s->f;
	struct cpp_block *b;
	struct arena *a = f->arena;

	ALLOC_GROW(f->blocks, f->nr_blocks + 1, f->alloc_blocks);
	b = &f->blocks[f->nr_blocks];
	memset(b, 0, sizeof(*b));
	b->number = (int)f->nr_blocks;
	b->parent = parent;
	b->prev_sibling = prev;
	b->first = prev < 0 ? b->number : f->blocks[prev].first;
	b->kind = kind;
	b->directive = text;
	b->line = line;
	b->line_last = line_last;
	b->expr = expr;
	b->local = prev < 0 ? expr : cpp_expr_and(a, expr, s->chains[s->nr_chains - 1].neg_prev);
	b->pc = cpp_expr_and(a, pc_of(s, parent), b->local);
	b->constant = b->local->kind == CPP_EXPR_CONST;
	if (s->ctx.nr_symbols) {
		b->nr_symbols = s->ctx.nr_symbols;
		b->symbols = arena_alloc(a, sizeof(*b->symbols) * b->nr_symbols);
		memcpy(b->symbols, s->ctx.symbols, sizeof(*b->symbols) * b->nr_symbols);
	}
	return (int)f->nr_blocks++;
}

/* The innermost open block holds code (what) or an #error line. */
static void mark_content(struct scanner *s, int error)
{
	struct cpp_block *b;

	if (!s->nr_chains)
		return;
	b = &s->f->blocks[s->chains[s->nr_chains - 1].cur];
	if (error)
		b->has_error = 1;
	else
		b->has_code = 1;
}

static int is_error_word(const char *w, size_t n)
{
	return n == 5 && !memcmp(w, "error", 5);
}

static void close_block(struct scanner *s, int block, int line, int line_last)
{
	s->f->blocks[block].end_line = line;
	s->f->blocks[block].end_line_last = line_last;
}

static enum cpp_directive keyword(const char *w, size_t n, int *known)
{
#define IS(word) (n == sizeof(word) - 1 && !memcmp(w, word, n))
	*known = 1;
	switch (n ? *w : 0) {
	case 'i':
		if (IS("if")) return CPP_IF;
		if (IS("ifdef")) return CPP_IFDEF;
		if (IS("ifndef")) return CPP_IFNDEF;
		break;
	case 'e':
		if (IS("endif")) return CPP_ENDIF;
		if (IS("else")) return CPP_ELSE;
		if (IS("elif")) return CPP_ELIF;
		if (IS("elifdef")) return CPP_ELIFDEF;
		if (IS("elifndef")) return CPP_ELIFNDEF;
		break;
	case 'd':
		if (IS("define")) return CPP_DEFINE;
		break;
	case 'u':
		if (IS("undef")) return CPP_UNDEF;
		break;
	}
#undef IS
	*known = 0;
	return CPP_IF;
}

/*
 * In assembler, `#` also starts comments: "# else we branch" has words
 * where a directive has none, and is no directive.
 */
static int asm_comment(enum cpp_directive kind, const char *rest, size_t len)
{
	const char *p = skip_blanks(rest, rest + len), *end = rest + len;

	if (kind == CPP_ELSE || kind == CPP_ENDIF)
		return p < end;
	if (kind == CPP_IF || kind == CPP_ELIF)
		return 0;
	while (p < end && is_word(*p))
		p++;
	return skip_blanks(p, end) < end;
}

static void conditional(struct scanner *s, enum cpp_directive kind, const char *rest,
			size_t len, int line, int line_last, const char *hash, const char *eol)
{
	struct cpp_expr_ctx *ctx = &s->ctx;
	struct arena *a = s->f->arena;
	struct cpp_expr *expr = NULL;
	struct chain *c = s->nr_chains ? &s->chains[s->nr_chains - 1] : NULL;
	const char *what = cpp_directive_name(kind);
	int b;

	if (s->opt->asm_file && asm_comment(kind, rest, len))
		return;
	if (kind != CPP_IF && kind != CPP_IFDEF && kind != CPP_IFNDEF && !c) {
		add_error(s, line, "#%s without #if", what);
		return;
	}
	ctx->nr_symbols = 0;
	switch (kind) {
	case CPP_IF:
	case CPP_ELIF:
		expr = cpp_parse_condition(ctx, rest, len);
		if (ctx->error && s->opt->asm_file) {
			/* "# if the operand is zero, ...": prose in an assembler comment. */
			arena_reset(&ctx->scratch);
			return;
		}
		if (ctx->error)
			add_error(s, line, "%s", ctx->error);
		break;
	case CPP_IFDEF:
	case CPP_IFNDEF:
	case CPP_ELIFDEF:
	case CPP_ELIFNDEF: {
		const char *w = rest, *e = rest + len;

		while (w < e && (*w == ' ' || *w == '\t'))
			w++;
		for (e = w; e < rest + len && is_word(*e); e++)
			;
		if (e == w || (*w >= '0' && *w <= '9')) {
			add_error(s, line, "#%s without a macro name", what);
			expr = cpp_parse_condition(ctx, "?", 1);
		} else {
			expr = cpp_expr_defined(ctx, w, e - w);
		}
		if (kind == CPP_IFNDEF || kind == CPP_ELIFNDEF)
			expr = cpp_expr_not(a, expr);
		break;
	}
	case CPP_ELSE:
		expr = cpp_expr_const(a, 1);
		break;
	default:
		break;
	}
	arena_reset(&ctx->scratch);

	if (kind == CPP_IF || kind == CPP_IFDEF || kind == CPP_IFNDEF) {
		int parent = c ? c->cur : -1;

		mark_content(s, 0);
		b = open_block(s, kind, expr, parent, -1, line, line_last,
			       directive_text(s, hash, eol));
		ALLOC_GROW(s->chains, s->nr_chains + 1, s->alloc_chains);
		c = &s->chains[s->nr_chains++];
		c->first = c->cur = b;
		c->had_else = 0;
		c->neg_prev = cpp_expr_not(a, expr);
		return;
	}
	close_block(s, c->cur, line, line_last);
	if (kind == CPP_ENDIF) {
		s->nr_chains--;
		return;
	}
	if (c->had_else)
		add_error(s, line, "#%s after #else", what);
	b = open_block(s, kind, expr, s->f->blocks[c->cur].parent, c->cur, line, line_last,
		       directive_text(s, hash, eol));
	c = &s->chains[s->nr_chains - 1];
	c->cur = b;
	if (kind == CPP_ELSE)
		c->had_else = 1;
	else
		c->neg_prev = cpp_expr_and(a, c->neg_prev, cpp_expr_not(a, expr));
}

static void define(struct scanner *s, enum cpp_directive kind, const char *rest, size_t len,
		   int line)
{
	const char *w = rest, *e = rest + len;
	struct cpp_define *d;
	char *name;

	while (w < e && (*w == ' ' || *w == '\t'))
		w++;
	for (e = w; e < rest + len && is_word(*e); e++)
		;
	if (e == w)
		return;
	name = arena_strndup(s->f->arena, w, e - w);
	ALLOC_GROW(s->f->defines, s->f->nr_defines + 1, s->f->alloc_defines);
	d = &s->f->defines[s->f->nr_defines++];
	d->name = name;
	d->line = line;
	d->undef = kind == CPP_UNDEF;
	/* From here on the file, not Kconfig, decides this macro. */
	if (e - w > 7 && !memcmp(name, "CONFIG_", 7))
		strmap_put(&s->file_defined, name, (void *)1);
}

/*
 * Up to the newline that ends the logical line at p; with `copy`, its text
 * goes there with continuations joined and each comment as one space.
 */
static void logical_line(struct scanner *s, struct strbuf *copy)
{
	int n;

	while (s->p < s->end && *s->p != '\n') {
		const char *b = s->p;
		char c;

		s->p = find_special(s->p, s->end);
		if (copy && s->p > b)
			strbuf_add(copy, b, s->p - b);
		if (s->p >= s->end)
			break;
		c = *s->p;
		if (c == '\\' && (n = splice_len(s->p, s->end))) {
			s->p += n;
			s->line++;
		} else if (c == '/' && s->p + 1 < s->end && s->p[1] == '*') {
			skip_block_comment(s);
			if (copy)
				strbuf_addch(copy, ' ');
		} else if (c == '/' && s->p + 1 < s->end && s->p[1] == '/') {
			skip_line_comment(s);
		} else if (c == '"' || c == '\'') {
			skip_literal(s, copy);
		} else if (c != '\n') {
			if (copy)
				strbuf_addch(copy, c);
			s->p++;
		}
	}
}

/*
 * p at '#' (hlen 1) or its digraph "%:" (hlen 2), the first token of a line.
 * Leaves p at the newline that ends it.
 */
static void directive(struct scanner *s, int hlen)
{
	const char *hash = s->p, *w, *e, *end = s->end;
	int line = s->line, known;
	enum cpp_directive kind;
	struct strbuf *clean = &s->clean;

	/*
	 * Most directives (#include, #define) only need their first words:
	 * read those in place and copy nothing, unless a comment or a
	 * continuation hides among them.
	 */
	w = skip_blanks(hash + hlen, end);
	for (e = w; e < end && is_alpha(*e); e++)
		;
	if (e == end || !special[(unsigned char)*e] || *e == '\n') {
		kind = keyword(w, e - w, &known);
		if (!known) {
			mark_content(s, is_error_word(w, e - w));
			s->p = e;
			logical_line(s, NULL);
			return;	/* #include, #pragma, "# 1 file", an assembler comment... */
		}
		if (kind == CPP_DEFINE || kind == CPP_UNDEF) {
			mark_content(s, 0);
			const char *name = skip_blanks(e, end), *ne = name;

			while (ne < end && is_word(*ne))
				ne++;
			if (ne == end || !special[(unsigned char)*ne] || *ne == '\n') {
				define(s, kind, name, ne - name, line);
				s->p = ne;
				logical_line(s, NULL);
				return;
			}
		}
	}

	strbuf_reset(clean);
	s->p = hash + hlen;
	logical_line(s, clean);
	w = strbuf_str(clean);
	while (*w == ' ' || *w == '\t' || *w == '\r' || *w == '\f' || *w == '\v')
		w++;
	for (e = w; is_alpha(*e); e++)
		;
	kind = keyword(w, e - w, &known);
	if (!known) {
		mark_content(s, is_error_word(w, e - w));
		return;
	}
	if (kind == CPP_DEFINE || kind == CPP_UNDEF) {
		mark_content(s, 0);
		define(s, kind, e, clean->len - (e - clean->buf), line);
	} else {
		conditional(s, kind, e, clean->len - (e - clean->buf), line, s->line, hash, s->p);
	}
}

static void scan(struct scanner *s)
{
	int bol = 1, n;

	while (s->p < s->end) {
		unsigned char c;

		if (bol) {
			/* Only blanks and comments may precede the # of a directive. */
			while (s->p < s->end) {
				c = *s->p;
				if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v')
					s->p++;
				else if (c == '\\' && (n = splice_len(s->p, s->end)))
					s->p += n, s->line++;
				else if (c == '/' && s->p + 1 < s->end && s->p[1] == '*')
					skip_block_comment(s);
				else
					break;
			}
			bol = 0;
			if (s->p < s->end && *s->p == '#')
				directive(s, 1);
			else if (s->p + 1 < s->end && s->p[0] == '%' && s->p[1] == ':' &&
				 !s->opt->asm_file)
				directive(s, 2);	/* a digraph, as gcc reads C (not assembler) */
			else if (s->p < s->end && *s->p != '\n' && s->nr_chains &&
				 !(*s->p == '/' && s->p + 1 < s->end && s->p[1] == '/'))
				mark_content(s, 0);
		}
		s->p = find_special(s->p, s->end);
		if (s->p >= s->end)
			break;
		switch (*s->p) {
		case '\n':
			s->p++;
			s->line++;
			bol = 1;
			break;
		case '\\':
			n = splice_len(s->p, s->end);
			s->p += n ? n : 1;
			s->line += !!n;
			break;
		case '/':
			if (s->p + 1 < s->end && s->p[1] == '*')
				skip_block_comment(s);
			else if (s->p + 1 < s->end && s->p[1] == '/')
				skip_line_comment(s);
			else
				s->p++;
			break;
		default:
			skip_literal(s, NULL);
			break;
		}
	}
}

struct cpp_file *cpp_scan(const char *buf, size_t len, const struct cpp_options *opt)
{
	static const struct cpp_options defaults;
	struct scanner s = { 0 };
	struct cpp_file *f = xcalloc(1, sizeof(*f));

	f->arena = xcalloc(1, sizeof(*f->arena));
	s.p = buf;
	s.end = buf + len;
	/* A UTF-8 byte order mark is no code: an #ifndef may follow it. */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		s.p += 3;
	s.line = 1;
	s.opt = opt ? opt : &defaults;
	s.f = f;
	s.ctx.arena = f->arena;
	s.ctx.macros = s.opt->macros;
	s.ctx.file_defined = &s.file_defined;

	scan(&s);
	f->nr_lines = len && buf[len - 1] == '\n' ? s.line - 1 : s.line;
	if (!len)
		f->nr_lines = 0;
	/* A comment left open at EOF swallows the last newline: stay in the file. */
	for (size_t i = 0; i < f->nr_blocks; i++) {
		struct cpp_block *b = &f->blocks[i];

		if (b->line_last > f->nr_lines)
			b->line_last = f->nr_lines;
		if (b->end_line_last > f->nr_lines && b->end_line <= f->nr_lines)
			b->end_line_last = f->nr_lines;
	}
	for (size_t i = 0; i < s.nr_chains; i++) {
		struct cpp_block *b = &f->blocks[s.chains[i].cur];

		add_error(&s, f->blocks[s.chains[i].first].line, "unterminated #%s",
			  cpp_directive_name(f->blocks[s.chains[i].first].kind));
		b->end_line = b->end_line_last = f->nr_lines + 1;
		b->unterminated = 1;
	}

	free(s.chains);
	strbuf_release(&s.clean);
	strmap_clear(&s.file_defined, NULL);
	arena_release(&s.ctx.scratch);
	free(s.ctx.raw.v);
	free(s.ctx.expanded.v);
	free(s.ctx.symbols);
	return f;
}

int cpp_block_at(const struct cpp_file *f, int line)
{
	/*
	 * Children follow their parents and a chain's next block follows the
	 * one before: the last block that holds the line is the innermost, and
	 * an #else line goes to the #else, not to the block it closes.
	 */
	for (size_t i = f->nr_blocks; i-- > 0;) {
		const struct cpp_block *b = &f->blocks[i];
		int last = b->unterminated ? f->nr_lines : b->end_line_last;

		if (b->line <= line && line <= last)
			return (int)i;
	}
	return -1;
}

void cpp_file_free(struct cpp_file *f)
{
	if (!f)
		return;
	free(f->blocks);
	free(f->defines);
	strvec_clear(&f->errors);
	arena_release(f->arena);
	free(f->arena);
	free(f);
}
