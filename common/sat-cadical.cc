// SPDX-License-Identifier: GPL-2.0
/* CaDiCaL behind a C interface; see sat-cadical.h. */
#include <vector>
#include <cadical.hpp>
#include "sat-cadical.h"

namespace {

/* CaDiCaL asks its terminator during a solve; this one asks the callback. */
class stopper : public CaDiCaL::Terminator {
public:
	int (*stop)(void *data) = nullptr;
	void *data = nullptr;
	bool terminate() override { return stop && stop(data); }
};

}

/*
 * CaDiCaL answers val() and failed() only until the next clause: the
 * answers of the last solve are kept here, to be asked at any time (a
 * caller may add a question's definitions before it reads the model).
 */
struct sat_cadical {
	CaDiCaL::Solver solver;
	stopper stop;
	std::vector<int> assumed;	/* the next solve's assumptions */
	std::vector<signed char> model;	/* by variable, after 10 */
	std::vector<int> failed;	/* the assumptions in the refutation, after 20 */
};

extern "C" {

struct sat_cadical *sat_cadical_new(void)
{
	/* An allocation failure ends the program, as xmalloc() does. */
	sat_cadical *c = new sat_cadical;

	/*
	 * No variable elimination: every question's definitions name the
	 * symbols again, and each one eliminated before was restored for it.
	 * The x86 census of Linux 6.1 refuted its questions in 0.7 ms each
	 * with elimination, 0.07 ms without (3.6 s against 0.4 s in all).
	 */
	c->solver.set("elim", 0);
	/*
	 * Nor the lucky phases tried before each solve, nor inprocessing
	 * (probing, subsumption, vivification, equivalences, ternary
	 * resolution): a question is answered in milliseconds, and these paid
	 * off over a long solve. Linux 6.1, cold, the same listings: every
	 * architecture 61.0-64.4 s CPU in three runs against 63.2-64.7 s; x86
	 * 13.2-13.4 s against 13.7-14.4 s.
	 */
	static const char *const off[] = { "lucky", "probe", "subsume", "vivify", "decompose",
					   "ternary" };
	for (const char *o : off)
		c->solver.set(o, 0);
	/*
	 * Nor restarts: a question is a short search under assumptions, and
	 * CaDiCaL restarted it every few conflicts, the assumptions assigned
	 * again each time. Linux 6.1, every architecture, cold, the same
	 * listings: 45.3 and 47.7 s CPU against 55.7 and 58.2 s; without the
	 * Kconfig files and defconfigs, 36.4 s against 42.2 s. (Without stable
	 * mode, rephasing or compaction besides: no better.)
	 */
	c->solver.set("restart", 0);
	return c;
}

void sat_cadical_free(struct sat_cadical *c)
{
	delete c;
}

void sat_cadical_add(struct sat_cadical *c, int lit)
{
	c->solver.add(lit);
}

void sat_cadical_assume(struct sat_cadical *c, int lit)
{
	c->solver.assume(lit);
	c->assumed.push_back(lit);
}

int sat_cadical_solve(struct sat_cadical *c)
{
	int r = c->solver.solve();
	int n = c->solver.vars();

	c->model.clear();
	c->failed.clear();
	if (r == SAT_CADICAL_SAT) {
		c->model.resize((size_t)n + 1);
		for (int v = 1; v <= n; v++)
			c->model[(size_t)v] = c->solver.val(v) > 0 ? 1 : -1;
	} else if (r == SAT_CADICAL_UNSAT) {
		for (int lit : c->assumed)
			if (c->solver.failed(lit))
				c->failed.push_back(lit);
	}
	c->assumed.clear();
	return r;
}

int sat_cadical_val(struct sat_cadical *c, int lit)
{
	size_t v = (size_t)(lit < 0 ? -lit : lit);

	if (!v || v >= c->model.size())
		return 0;
	return lit < 0 ? -c->model[v] : c->model[v];
}

int sat_cadical_failed(struct sat_cadical *c, int lit)
{
	for (int f : c->failed)
		if (f == lit)
			return 1;
	return 0;
}

void sat_cadical_phase(struct sat_cadical *c, int lit)
{
	c->solver.phase(lit);
}

void sat_cadical_unphase(struct sat_cadical *c, int var)
{
	c->solver.unphase(var);
}

void sat_cadical_default_phase(struct sat_cadical *c, int value)
{
	c->solver.set("phase", value ? 1 : 0);
}

int sat_cadical_vars(struct sat_cadical *c)
{
	return c->solver.vars();
}

void sat_cadical_set_stop(struct sat_cadical *c, int (*stop)(void *data), void *data)
{
	c->stop.stop = stop;
	c->stop.data = data;
	if (stop)
		c->solver.connect_terminator(&c->stop);
	else
		c->solver.disconnect_terminator();
}

}
