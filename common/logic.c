// SPDX-License-Identifier: GPL-2.0
/* Hash-consed boolean formulas (the encoding into CNF is in logic-cnf.c); see logic.h. */
#include <stdlib.h>
#include <string.h>
#include "logic-internal.h"
#include "diskcache.h"

static uint32_t mix(uint32_t h, uint32_t v)
{
	h ^= v + 0x9e3779b9u + (h << 6) + (h >> 2);
	return h;
}

/* Ids are dense and sequential: scramble every bit into the low ones (murmur3's finaliser). */
static uint32_t finish(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h ? h : 1;
}

static uint32_t node_hash(enum op op, const formula *args, size_t n, uint32_t var)
{
	uint32_t h = mix(0x811c9dc5u, op);
	if (op == OP_VAR)
		return finish(mix(h, var));
	for (size_t i = 0; i < n; i++)
		h = mix(h, args[i]);
	return finish(h);
}

static int node_equal(const struct logic *l, const struct node *nd, enum op op,
		      const formula *args, size_t n, uint32_t var)
{
	if (nd->op != op)
		return 0;
	if (op == OP_VAR)
		return nd->arg == var;
	return nd->nargs == n && !memcmp(l->args + nd->arg, args, n * sizeof(*args));
}

static void table_grow(struct logic *l)
{
	size_t cap = l->table_cap ? l->table_cap * 2 : 1024;
	struct slot *t = xcalloc(cap, sizeof(*t));
	for (size_t i = 0; i < l->table_cap; i++) {
		if (!l->table[i].node)
			continue;
		size_t j = l->table[i].hash & (cap - 1);
		while (t[j].node)
			j = (j + 1) & (cap - 1);
		t[j] = l->table[i];
	}
	free(l->table);
	l->table = t;
	l->table_cap = cap;
}

/* The node for (op, args) or (OP_VAR, var), made once. */
static uint32_t intern(struct logic *l, enum op op, const formula *args, size_t n, uint32_t var)
{
	uint32_t h = node_hash(op, args, n, var);
	if ((l->nr_nodes + 1) * 2 > l->table_cap)
		table_grow(l);
	size_t j = h & (l->table_cap - 1);
	for (; l->table[j].node; j = (j + 1) & (l->table_cap - 1)) {
		if (l->table[j].hash != h)
			continue;
		if (node_equal(l, &l->nodes[l->table[j].node], op, args, n, var))
			return l->table[j].node;
	}
	ALLOC_GROW(l->nodes, l->nr_nodes + 1, l->alloc_nodes);
	struct node *nd = &l->nodes[l->nr_nodes];
	nd->op = op;
	nd->hash = h;
	nd->nargs = op == OP_VAR ? 0 : n;
	if (op == OP_VAR) {
		nd->arg = var;
	} else {
		ALLOC_GROW(l->args, l->nr_args + n, l->alloc_args);
		memcpy(l->args + l->nr_args, args, n * sizeof(*args));
		nd->arg = l->nr_args;
		l->nr_args += n;
	}
	l->table[j].node = l->nr_nodes;
	l->table[j].hash = h;
	return l->nr_nodes++;
}

struct logic *logic_new(void)
{
	struct logic *l = xcalloc(1, sizeof(*l));
	ALLOC_GROW(l->nodes, 1, l->alloc_nodes);
	l->nodes[0].op = OP_CONST;
	l->nr_nodes = 1;
	ALLOC_GROW(l->var_names, 1, l->alloc_vars);
	l->var_node = xcalloc(l->alloc_vars, sizeof(*l->var_node));
	l->var_names[0] = NULL;
	l->nr_vars = 1;
	table_grow(l);
	return l;
}

void logic_free(struct logic *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->nr_vars; i++)
		free(l->var_names[i]);
	free(l->var_names);
	free(l->var_node);
	strmap_clear(&l->by_name, NULL);
	free(l->nodes);
	free(l->args);
	free(l->table);
	free(l->scratch);
	free(l);
}

int logic_var_new(struct logic *l, const char *name)
{
	size_t old = l->alloc_vars;
	ALLOC_GROW(l->var_names, l->nr_vars + 1, l->alloc_vars);
	if (old != l->alloc_vars)
		l->var_node = xrealloc(l->var_node, l->alloc_vars * sizeof(*l->var_node));
	int var = l->nr_vars++;
	l->var_names[var] = name ? xstrdup(name) : NULL;
	l->var_node[var] = intern(l, OP_VAR, NULL, 0, var);
	if (name && !strmap_contains(&l->by_name, name))
		strmap_put(&l->by_name, name, (void *)(intptr_t)var);
	return var;
}

/*
 * The store as diskcache's encoding: its nodes (op and argument count in one
 * word, then the variable or the first argument's index), their arguments,
 * each variable's node and the named variables' names. The hash table is
 * made again on loading.
 */
void logic_save(const struct logic *l, struct strbuf *sb)
{
	uint32_t *w = xmalloc((l->nr_nodes * 2 + 1) * sizeof(*w));
	size_t named = 0;

	w[0] = OP_CONST;
	w[1] = 0;
	for (size_t i = 1; i < l->nr_nodes; i++) {
		w[2 * i] = l->nodes[i].op | (uint32_t)l->nodes[i].nargs << 3;
		w[2 * i + 1] = l->nodes[i].arg;
	}
	diskcache_put_u32s(sb, w, l->nr_nodes * 2);
	free(w);
	diskcache_put_u32s(sb, l->args, l->nr_args);
	diskcache_put_u32s(sb, l->var_node, l->nr_vars);
	for (size_t v = 1; v < l->nr_vars; v++)
		named += l->var_names[v] != NULL;
	diskcache_put_u64(sb, named);
	for (size_t v = 1; v < l->nr_vars; v++)
		if (l->var_names[v]) {
			diskcache_put_u64(sb, v);
			diskcache_put_str(sb, l->var_names[v]);
		}
}

/* A node read back: a known op, arguments made before it, a variable that exists. */
static int node_sound(const struct logic *l, size_t i)
{
	const struct node *nd = &l->nodes[i];
	const formula *a = l->args + nd->arg;

	if (!i)
		return nd->op == OP_CONST;	/* its other fields are never read */
	if (nd->op == OP_VAR)
		return !nd->nargs && nd->arg && nd->arg < l->nr_vars;
	if (nd->op == OP_CONST || nd->op > OP_ITE || !nd->nargs ||
	    (size_t)nd->arg + nd->nargs > l->nr_args ||
	    (nd->op == OP_XOR && nd->nargs != 2) || (nd->op == OP_ITE && nd->nargs != 3))
		return 0;
	for (uint32_t k = 0; k < nd->nargs; k++)
		if (NODE(a[k]) >= i)
			return 0;
	return 1;
}

static int load_nodes(struct logic *l, struct diskcache_reader *rd)
{
	const unsigned char *w;
	const void *at;
	size_t nw = diskcache_get_u32s_at(rd, &at, (size_t)UINT32_MAX);

	w = at;
	if (!nw || nw % 2)
		return -1;
	l->nr_nodes = l->alloc_nodes = nw / 2;
	l->nodes = xcalloc(l->nr_nodes, sizeof(*l->nodes));
	for (size_t i = 0; i < l->nr_nodes; i++, w += 8) {
		uint32_t v[2];

		memcpy(v, w, sizeof(v));
		l->nodes[i].op = v[0] & 7;
		l->nodes[i].nargs = v[0] >> 3;
		l->nodes[i].arg = v[1];
	}
	l->nr_args = l->alloc_args = diskcache_get_u32s(rd, &l->args, (size_t)UINT32_MAX);
	l->nr_vars = l->alloc_vars = diskcache_get_u32s(rd, &l->var_node, (size_t)UINT32_MAX);
	if (rd->bad || !l->nr_vars)
		return -1;
	for (size_t i = 0; i < l->nr_nodes; i++)
		if (!node_sound(l, i))
			return -1;
	for (size_t v = 1; v < l->nr_vars; v++)
		if (l->var_node[v] >= l->nr_nodes || l->nodes[l->var_node[v]].op != OP_VAR ||
		    l->nodes[l->var_node[v]].arg != v)
			return -1;
	return 0;
}

/* The hash table and the names' map, made from the nodes and names read back. */
static int load_index(struct logic *l, struct diskcache_reader *rd)
{
	uint64_t named = diskcache_get_u64(rd);

	l->var_names = xcalloc(l->nr_vars, sizeof(*l->var_names));
	for (uint64_t k = 0; k < named && !rd->bad; k++) {
		uint64_t v = diskcache_get_u64(rd);
		char *name = diskcache_get_str(rd);

		if (!name || !v || v >= l->nr_vars || l->var_names[v]) {
			free(name);
			return -1;
		}
		l->var_names[v] = name;
		if (!strmap_contains(&l->by_name, name))
			strmap_put(&l->by_name, name, (void *)(intptr_t)v);
	}
	while (l->table_cap < (l->nr_nodes + 1) * 2)
		l->table_cap = l->table_cap ? l->table_cap * 2 : 1024;
	l->table = xcalloc(l->table_cap, sizeof(*l->table));
	for (size_t i = 1; i < l->nr_nodes; i++) {
		const struct node *nd = &l->nodes[i];
		uint32_t h = nd->op == OP_VAR ? node_hash(OP_VAR, NULL, 0, nd->arg)
					      : node_hash(nd->op, l->args + nd->arg, nd->nargs, 0);
		size_t j = h & (l->table_cap - 1);

		while (l->table[j].node)
			j = (j + 1) & (l->table_cap - 1);
		l->nodes[i].hash = h;
		l->table[j].node = (uint32_t)i;
		l->table[j].hash = h;
	}
	return rd->bad ? -1 : 0;
}

struct logic *logic_load(struct diskcache_reader *rd)
{
	struct logic *l = xcalloc(1, sizeof(*l));

	if (load_nodes(l, rd) < 0 || load_index(l, rd) < 0) {
		if (!l->var_names)
			l->var_names = xcalloc(l->nr_vars ? l->nr_vars : 1, sizeof(*l->var_names));
		logic_free(l);
		rd->bad = 1;
		return NULL;
	}
	return l;
}

int logic_var_find(const struct logic *l, const char *name)
{
	return (int)(intptr_t)strmap_get(&l->by_name, name);
}

int logic_var(struct logic *l, const char *name)
{
	int v = logic_var_find(l, name);
	return v ? v : logic_var_new(l, name);
}

const char *logic_var_name(const struct logic *l, int var)
{
	if (var <= 0 || (size_t)var >= l->nr_vars)
		return NULL;
	return l->var_names[var];
}

int logic_nr_vars(const struct logic *l) { return (int)l->nr_vars - 1; }
size_t logic_nr_nodes(const struct logic *l) { return l->nr_nodes; }

formula logic_atom(struct logic *l, int var)
{
	if (var <= 0 || (size_t)var >= l->nr_vars)
		die("BUG: logic_atom: no variable %d", var);
	return MKF(l->var_node[var], 0);
}

static int cmp_formula(const void *a, const void *b)
{
	formula x = *(const formula *)a, y = *(const formula *)b;
	return x < y ? -1 : x > y;
}

/* Inlining a child AND with many arguments would copy it into every parent. */
#define FLATTEN_MAX 8

formula logic_and_n(struct logic *l, const formula *in, size_t n)
{
	size_t nr = 0, base;
	/* The scratch area may be reused by nested calls: work at its end. */
	for (size_t i = 0; i < n; i++) {
		formula f = in[i];
		const struct node *nd = &l->nodes[NODE(f)];
		if (f == LOGIC_FALSE)
			return LOGIC_FALSE;
		if (f == LOGIC_TRUE)
			continue;
		if (!NEG(f) && nd->op == OP_AND && nd->nargs <= FLATTEN_MAX) {
			ALLOC_GROW(l->scratch, nr + nd->nargs, l->alloc_scratch);
			memcpy(l->scratch + nr, l->args + nd->arg, nd->nargs * sizeof(formula));
			nr += nd->nargs;
		} else {
			ALLOC_GROW(l->scratch, nr + 1, l->alloc_scratch);
			l->scratch[nr++] = f;
		}
	}
	if (nr > 16) {
		qsort(l->scratch, nr, sizeof(formula), cmp_formula);
	} else {
		/* Most conjunctions are short: insertion sort beats qsort's overhead. */
		for (size_t i = 1; i < nr; i++) {
			formula x = l->scratch[i];
			size_t j = i;
			for (; j && l->scratch[j - 1] > x; j--)
				l->scratch[j] = l->scratch[j - 1];
			l->scratch[j] = x;
		}
	}
	base = 0;
	for (size_t i = 0; i < nr; i++) {
		if (base && l->scratch[base - 1] == l->scratch[i])
			continue;
		if (base && l->scratch[base - 1] == (l->scratch[i] ^ 1))
			return LOGIC_FALSE;	/* x && !x: adjacent once sorted */
		l->scratch[base++] = l->scratch[i];
	}
	if (!base)
		return LOGIC_TRUE;
	if (base == 1)
		return l->scratch[0];
	return MKF(intern(l, OP_AND, l->scratch, base, 0), 0);
}

formula logic_or_n(struct logic *l, const formula *in, size_t n)
{
	formula stackbuf[16] = { 0 }, *neg = n <= 16 ? stackbuf : xmalloc(n * sizeof(*neg));
	for (size_t i = 0; i < n; i++)
		neg[i] = in[i] ^ 1;
	formula r = logic_and_n(l, neg, n) ^ 1;
	if (neg != stackbuf)
		free(neg);
	return r;
}

formula logic_and(struct logic *l, formula a, formula b)
{
	formula v[2] = { a, b };
	return logic_and_n(l, v, 2);
}

formula logic_or(struct logic *l, formula a, formula b)
{
	formula v[2] = { a ^ 1, b ^ 1 };
	return logic_and_n(l, v, 2) ^ 1;
}

formula logic_implies(struct logic *l, formula a, formula b)
{
	return logic_or(l, a ^ 1, b);
}

formula logic_xor(struct logic *l, formula a, formula b)
{
	formula v[2];
	int neg = NEG(a) ^ NEG(b);
	a &= ~1u;
	b &= ~1u;
	/* Both are now positive: constant FALSE or a node. */
	if (a == LOGIC_FALSE)
		return b ^ neg;
	if (b == LOGIC_FALSE)
		return a ^ neg;
	if (a == b)
		return LOGIC_FALSE ^ neg;
	v[0] = a < b ? a : b;
	v[1] = a < b ? b : a;
	return MKF(intern(l, OP_XOR, v, 2, 0), neg);
}

formula logic_iff(struct logic *l, formula a, formula b)
{
	return logic_xor(l, a, b) ^ 1;
}

formula logic_ite(struct logic *l, formula c, formula t, formula e)
{
	if (c == LOGIC_TRUE)
		return t;
	if (c == LOGIC_FALSE)
		return e;
	if (NEG(c)) {
		formula x = t;
		t = e;
		e = x;
		c ^= 1;
	}
	if (t == e)
		return t;
	if (t == (e ^ 1))
		return logic_xor(l, c, e);
	if (t == LOGIC_TRUE || t == c)
		return logic_or(l, c, e);
	if (t == LOGIC_FALSE || t == (c ^ 1))
		return logic_and(l, c ^ 1, e);
	if (e == LOGIC_TRUE || e == (c ^ 1))
		return logic_or(l, c ^ 1, t);
	if (e == LOGIC_FALSE || e == c)
		return logic_and(l, c, t);
	/* ite(c, !t, !e) == !ite(c, t, e): keep the then-branch positive. */
	int neg = NEG(t);
	formula v[3] = { c, t ^ neg, e ^ neg };
	return MKF(intern(l, OP_ITE, v, 3, 0), neg);
}

int logic_literal(const struct logic *l, formula f)
{
	const struct node *nd = &l->nodes[NODE(f)];
	if (nd->op != OP_VAR)
		return 0;
	return NEG(f) ? -(int)nd->arg : (int)nd->arg;
}

/* Depth-first walk over the nodes under f, each once (mark: a bitmap per call). */
struct walk {
	uint32_t *stack;
	size_t nr, alloc;
	uint8_t *seen;
};

static void walk_init(struct walk *w, const struct logic *l, formula f)
{
	w->stack = NULL;
	w->nr = w->alloc = 0;
	w->seen = xcalloc(l->nr_nodes / 8 + 1, 1);
	ALLOC_GROW(w->stack, 1, w->alloc);
	w->stack[w->nr++] = NODE(f);
	w->seen[NODE(f) / 8] |= 1 << (NODE(f) % 8);
}

static int walk_next(struct walk *w, const struct logic *l, uint32_t *out)
{
	if (!w->nr)
		return 0;
	uint32_t n = w->stack[--w->nr];
	const struct node *nd = &l->nodes[n];
	if (nd->op != OP_VAR && nd->op != OP_CONST) {
		for (uint32_t i = 0; i < nd->nargs; i++) {
			uint32_t c = NODE(l->args[nd->arg + i]);
			if (w->seen[c / 8] & (1 << (c % 8)))
				continue;
			w->seen[c / 8] |= 1 << (c % 8);
			ALLOC_GROW(w->stack, w->nr + 1, w->alloc);
			w->stack[w->nr++] = c;
		}
	}
	*out = n;
	return 1;
}

static void walk_release(struct walk *w)
{
	free(w->stack);
	free(w->seen);
}

void logic_vars_of(struct logic *l, formula f, int **vars, size_t *nr, size_t *alloc)
{
	struct walk w;
	uint32_t n;
	walk_init(&w, l, f);
	while (walk_next(&w, l, &n)) {
		if (l->nodes[n].op != OP_VAR)
			continue;
		ALLOC_GROW(*vars, *nr + 1, *alloc);
		(*vars)[(*nr)++] = l->nodes[n].arg;
	}
	walk_release(&w);
}

static void print_rec(const struct logic *l, formula f, struct strbuf *out, int depth)
{
	const struct node *nd = &l->nodes[NODE(f)];
	const formula *a = l->args + nd->arg;
	if (depth > 200) {
		strbuf_addstr(out, "...");
		return;
	}
	switch (nd->op) {
	case OP_CONST:
		strbuf_addstr(out, NEG(f) ? "true" : "false");
		return;
	case OP_VAR:
		if (NEG(f))
			strbuf_addch(out, '!');
		if (l->var_names[nd->arg])
			strbuf_addstr(out, l->var_names[nd->arg]);
		else
			strbuf_addf(out, "_%u", nd->arg);
		return;
	case OP_AND:
		/* A negated AND reads better as an OR of negations. */
		strbuf_addch(out, '(');
		for (uint32_t i = 0; i < nd->nargs; i++) {
			if (i)
				strbuf_addstr(out, NEG(f) ? " || " : " && ");
			print_rec(l, a[i] ^ NEG(f), out, depth + 1);
		}
		strbuf_addch(out, ')');
		return;
	case OP_XOR:
		strbuf_addch(out, '(');
		print_rec(l, a[0], out, depth + 1);
		strbuf_addstr(out, NEG(f) ? " <-> " : " ^ ");
		print_rec(l, a[1], out, depth + 1);
		strbuf_addch(out, ')');
		return;
	case OP_ITE:
		strbuf_addstr(out, NEG(f) ? "!(" : "(");
		print_rec(l, a[0], out, depth + 1);
		strbuf_addstr(out, " ? ");
		print_rec(l, a[1], out, depth + 1);
		strbuf_addstr(out, " : ");
		print_rec(l, a[2], out, depth + 1);
		strbuf_addch(out, ')');
		return;
	}
}

void logic_print(const struct logic *l, formula f, struct strbuf *out)
{
	print_rec(l, f, out, 0);
}

struct logic_eval {
	struct logic *l;
	const int8_t *values;
	int nr_values;
	int8_t *memo;		/* per node: 0 not computed, else value + 2 */
	size_t nr_memo;
	uint32_t *stack;
	size_t alloc_stack;
	uint32_t *touched;	/* nodes with a memo entry, to forget them cheaply */
	size_t nr_touched, alloc_touched;
};

void logic_eval_set_values(struct logic_eval *ev, const int8_t *values, int nr_values)
{
	for (size_t i = 0; i < ev->nr_touched; i++)
		ev->memo[ev->touched[i]] = 0;
	ev->nr_touched = 0;
	ev->values = values;
	ev->nr_values = nr_values;
}

struct logic_eval *logic_eval_new(struct logic *l, const int8_t *values, int nr_values)
{
	struct logic_eval *ev = xcalloc(1, sizeof(*ev));
	ev->l = l;
	ev->values = values;
	ev->nr_values = nr_values;
	return ev;
}

void logic_eval_free(struct logic_eval *ev)
{
	if (!ev)
		return;
	free(ev->memo);
	free(ev->stack);
	free(ev->touched);
	free(ev);
}

/* The value of a node whose arguments are computed. */
static int eval_node(struct logic_eval *ev, const struct node *nd)
{
	const formula *a = ev->l->args + nd->arg;
#define ARGV(i) ((ev->memo[NODE(a[i])] - 2) * (NEG(a[i]) ? -1 : 1))
	switch (nd->op) {
	case OP_CONST:
		return -1;
	case OP_VAR:
		return (int)nd->arg <= ev->nr_values ? ev->values[nd->arg] : 0;
	case OP_AND: {
		int r = 1;
		for (uint32_t i = 0; i < nd->nargs; i++) {
			int v = ARGV(i);
			if (v < 0)
				return -1;
			if (!v)
				r = 0;
		}
		return r;
	}
	case OP_XOR:
		return ARGV(0) * ARGV(1) * -1;
	case OP_ITE: {
		int c = ARGV(0), t = ARGV(1), e = ARGV(2);
		if (c)
			return c > 0 ? t : e;
		return t == e ? t : 0;
	}
	}
#undef ARGV
	return 0;
}

int logic_eval(struct logic_eval *ev, formula f)
{
	struct logic *l = ev->l;
	size_t nr = 0;
	if (ev->nr_memo < l->nr_nodes) {
		size_t cap = logic_grown(ev->nr_memo, l->nr_nodes);

		ev->memo = xrealloc(ev->memo, cap);
		memset(ev->memo + ev->nr_memo, 0, cap - ev->nr_memo);
		ev->nr_memo = cap;
	}
	/* Post-order without recursion: a node is computed once its arguments are. */
	ALLOC_GROW(ev->stack, 1, ev->alloc_stack);
	ev->stack[nr++] = NODE(f);
	while (nr) {
		uint32_t n = ev->stack[nr - 1];
		const struct node *nd = &l->nodes[n];
		int pending = 0;
		if (ev->memo[n]) {
			nr--;
			continue;
		}
		if (nd->op != OP_VAR && nd->op != OP_CONST) {
			for (uint32_t i = 0; i < nd->nargs; i++) {
				uint32_t c = NODE(l->args[nd->arg + i]);
				if (ev->memo[c])
					continue;
				ALLOC_GROW(ev->stack, nr + 1, ev->alloc_stack);
				ev->stack[nr++] = c;
				pending = 1;
			}
		}
		if (pending)
			continue;
		ev->memo[n] = eval_node(ev, nd) + 2;
		ALLOC_GROW(ev->touched, ev->nr_touched + 1, ev->alloc_touched);
		ev->touched[ev->nr_touched++] = n;
		nr--;
	}
	return (ev->memo[NODE(f)] - 2) * (NEG(f) ? -1 : 1);
}

struct logic_bits {
	struct logic *l;
	uint32_t *stamp;	/* per node: the epoch that computed it */
	uint32_t *at;		/* per node: its words' offset in `words` */
	uint8_t *used_free;	/* per node: a free variable below it */
	size_t nr_nodes;
	uint32_t epoch;		/* 0: nothing computed */
	/* What the computed rows were computed with. */
	size_t row_words;
	uint64_t free_value;
	const uint64_t *(*column)(void *data, int var);
	void *data;
	uint64_t *words;
	size_t nr_words, alloc_words;
	uint32_t *stack;
	size_t alloc_stack;
};

struct logic_bits *logic_bits_new(struct logic *l)
{
	struct logic_bits *b = xcalloc(1, sizeof(*b));

	b->l = l;
	return b;
}

void logic_bits_free(struct logic_bits *b)
{
	if (!b)
		return;
	free(b->stamp);
	free(b->at);
	free(b->used_free);
	free(b->words);
	free(b->stack);
	free(b);
}

/* The words of argument f (computed), complemented when f is negated, into out. */
static void bits_arg(const struct logic_bits *b, formula f, size_t words, uint64_t *out)
{
	const uint64_t *w = b->words + b->at[NODE(f)];
	uint64_t neg = NEG(f) ? ~(uint64_t)0 : 0;

	for (size_t i = 0; i < words; i++)
		out[i] = w[i] ^ neg;
}

/* Node n's words (its arguments' computed), its used_free. */
static void bits_node(struct logic_bits *b, uint32_t n, size_t words,
		      const uint64_t *(*column)(void *data, int var), void *data,
		      uint64_t free_value)
{
	struct logic *l = b->l;
	const struct node *nd = &l->nodes[n];
	uint64_t *out;

	ALLOC_GROW(b->words, b->nr_words + words, b->alloc_words);
	b->at[n] = (uint32_t)b->nr_words;
	b->nr_words += words;
	out = b->words + b->at[n];
	b->used_free[n] = 0;
	switch (nd->op) {
	case OP_CONST:
		memset(out, 0, words * sizeof(*out));
		break;
	case OP_VAR: {
		const uint64_t *col = column(data, (int)nd->arg);

		if (col) {
			memcpy(out, col, words * sizeof(*out));
		} else {
			b->used_free[n] = 1;
			for (size_t i = 0; i < words; i++)
				out[i] = free_value;
		}
		break;
	}
	case OP_AND: {
		uint64_t *arg = b->words + words;

		bits_arg(b, l->args[nd->arg], words, out);
		for (uint32_t k = 1; k < nd->nargs; k++) {
			bits_arg(b, l->args[nd->arg + k], words, arg);
			for (size_t i = 0; i < words; i++)
				out[i] &= arg[i];
		}
		break;
	}
	case OP_XOR: {
		uint64_t *arg = b->words + words;

		bits_arg(b, l->args[nd->arg], words, out);
		bits_arg(b, l->args[nd->arg + 1], words, arg);
		for (size_t i = 0; i < words; i++)
			out[i] ^= arg[i];
		break;
	}
	case OP_ITE: {
		uint64_t *arg = b->words + words, *c = b->words;

		bits_arg(b, l->args[nd->arg], words, c);
		bits_arg(b, l->args[nd->arg + 1], words, out);
		bits_arg(b, l->args[nd->arg + 2], words, arg);
		for (size_t i = 0; i < words; i++)
			out[i] = (c[i] & out[i]) | (~c[i] & arg[i]);
		break;
	}
	}
	if (nd->op != OP_VAR && nd->op != OP_CONST)
		for (uint32_t i = 0; i < nd->nargs; i++)
			b->used_free[n] |= b->used_free[NODE(l->args[nd->arg + i])];
}

const uint64_t *logic_bits_eval(struct logic_bits *b, formula f, size_t words,
				const uint64_t *(*column)(void *data, int var), void *data,
				uint64_t free_value, int *used_free)
{
	struct logic *l = b->l;
	size_t nr = 0;

	if (b->nr_nodes < l->nr_nodes) {
		size_t cap = logic_grown(b->nr_nodes, l->nr_nodes);

		b->stamp = xrealloc(b->stamp, cap * sizeof(*b->stamp));
		b->at = xrealloc(b->at, cap * sizeof(*b->at));
		b->used_free = xrealloc(b->used_free, cap);
		memset(b->stamp + b->nr_nodes, 0, (cap - b->nr_nodes) * sizeof(*b->stamp));
		b->nr_nodes = cap;
	}
	if (!b->epoch || words != b->row_words || free_value != b->free_value ||
	    column != b->column || data != b->data) {
		b->row_words = words;
		b->free_value = free_value;
		b->column = column;
		b->data = data;
		logic_bits_forget(b);
	}
	ALLOC_GROW(b->stack, 1, b->alloc_stack);
	b->stack[nr++] = NODE(f);
	while (nr) {
		uint32_t n = b->stack[nr - 1];
		const struct node *nd = &l->nodes[n];
		int pending = 0;

		if (b->stamp[n] == b->epoch) {
			nr--;
			continue;
		}
		if (nd->op != OP_VAR && nd->op != OP_CONST) {
			for (uint32_t i = 0; i < nd->nargs; i++) {
				uint32_t c = NODE(l->args[nd->arg + i]);

				if (b->stamp[c] == b->epoch)
					continue;
				ALLOC_GROW(b->stack, nr + 1, b->alloc_stack);
				b->stack[nr++] = c;
				pending = 1;
			}
		}
		if (pending)
			continue;
		bits_node(b, n, words, column, data, free_value);
		b->stamp[n] = b->epoch;
		nr--;
	}
	*used_free |= b->used_free[NODE(f)];
	bits_arg(b, f, words, b->words);
	return b->words;
}

void logic_bits_forget(struct logic_bits *b)
{
	if (!++b->epoch) {
		memset(b->stamp, 0, b->nr_nodes * sizeof(*b->stamp));
		b->epoch = 1;
	}
	/* Two scratch rows first (result, argument), then one row per node computed. */
	b->nr_words = 2 * b->row_words;
	ALLOC_GROW(b->words, b->nr_words, b->alloc_words);
}

/* See logic.h: the rewrites so far, by node. */
struct logic_restrict {
	struct logic *l;
	int (*value)(void *data, int var);
	void *data;
	formula *memo;		/* per node: its rewrite + 1, 0 not computed */
	size_t nr_memo;
	uint32_t *stack;
	size_t alloc_stack;
	formula *args;
	size_t alloc_args;
};

struct logic_restrict *logic_restrict_new(struct logic *l, int (*value)(void *data, int var),
					  void *data)
{
	struct logic_restrict *r = xcalloc(1, sizeof(*r));

	r->l = l;
	r->value = value;
	r->data = data;
	return r;
}

void logic_restrict_free(struct logic_restrict *r)
{
	if (!r)
		return;
	free(r->memo);
	free(r->stack);
	free(r->args);
	free(r);
}

static void restrict_fit(struct logic_restrict *r)
{
	size_t want = r->l->nr_nodes;

	if (r->nr_memo >= want)
		return;
	want += want / 2 + 64;
	r->memo = xrealloc(r->memo, want * sizeof(*r->memo));
	memset(r->memo + r->nr_memo, 0, (want - r->nr_memo) * sizeof(*r->memo));
	r->nr_memo = want;
}

/* The rewrite of node n, whose arguments are rewritten (memo). */
static formula restrict_node(struct logic_restrict *r, uint32_t n)
{
	struct logic *l = r->l;
	struct node nd = l->nodes[n];
	int changed = 0;

	if (nd.op == OP_CONST)
		return MKF(n, 0);
	if (nd.op == OP_VAR) {
		int v = r->value(r->data, (int)nd.arg);

		return v > 0 ? LOGIC_TRUE : v < 0 ? LOGIC_FALSE : MKF(n, 0);
	}
	ALLOC_GROW(r->args, nd.nargs, r->alloc_args);
	for (uint32_t i = 0; i < nd.nargs; i++) {
		formula a = l->args[nd.arg + i];

		r->args[i] = (r->memo[NODE(a)] - 1) ^ NEG(a);
		changed |= r->args[i] != a;
	}
	if (!changed)
		return MKF(n, 0);
	/* The constructors fold the constants; they may move l->nodes and l->args. */
	switch (nd.op) {
	case OP_AND:
		return logic_and_n(l, r->args, nd.nargs);
	case OP_XOR:
		return logic_xor(l, r->args[0], r->args[1]);
	default:
		return logic_ite(l, r->args[0], r->args[1], r->args[2]);
	}
}

formula logic_restrict(struct logic_restrict *r, formula f)
{
	struct logic *l = r->l;
	size_t nr = 0;

	restrict_fit(r);
	/* Post-order without recursion, as logic_eval. */
	ALLOC_GROW(r->stack, 1, r->alloc_stack);
	r->stack[nr++] = NODE(f);
	while (nr) {
		uint32_t n = r->stack[nr - 1];
		int pending = 0;

		if (r->memo[n]) {
			nr--;
			continue;
		}
		if (l->nodes[n].op != OP_VAR && l->nodes[n].op != OP_CONST) {
			for (uint32_t i = 0; i < l->nodes[n].nargs; i++) {
				uint32_t c = NODE(l->args[l->nodes[n].arg + i]);

				if (r->memo[c])
					continue;
				ALLOC_GROW(r->stack, nr + 1, r->alloc_stack);
				r->stack[nr++] = c;
				pending = 1;
			}
		}
		if (pending)
			continue;
		formula g = restrict_node(r, n);

		/* New nodes made by the rewrite: room for them (they need none). */
		restrict_fit(r);
		r->memo[n] = g + 1;
		nr--;
	}
	return (r->memo[NODE(f)] - 1) ^ NEG(f);
}

/*
 * Two-valued evaluation of a small formula with values from a callback, no
 * memo: for presence conditions (trees of a few nodes) checked against many
 * assignments, where a memo over the whole store would cost more than it saves.
 */
int logic_eval_with(const struct logic *l, formula f, int (*value)(void *data, int var), void *data)
{
	const struct node *nd = &l->nodes[NODE(f)];
	const formula *a = l->args + nd->arg;
	int r = 0;

	switch (nd->op) {
	case OP_CONST:
		r = 0;
		break;
	case OP_VAR:
		r = value(data, (int)nd->arg) > 0;
		break;
	case OP_AND:
		r = 1;
		for (uint32_t i = 0; i < nd->nargs && r; i++)
			r = logic_eval_with(l, a[i], value, data);
		break;
	case OP_XOR:
		r = logic_eval_with(l, a[0], value, data) ^ logic_eval_with(l, a[1], value, data);
		break;
	case OP_ITE:
		r = logic_eval_with(l, a[0], value, data) ? logic_eval_with(l, a[1], value, data)
							   : logic_eval_with(l, a[2], value, data);
		break;
	}
	return NEG(f) ? !r : r;
}
