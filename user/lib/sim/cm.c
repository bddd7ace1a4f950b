// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator's congestion management (Documentation/congestion.md,
 * Documentation/sim.md "Congestion control", "Adaptive routing"), with the
 * rules of cc/cc.h:
 *
 *  - congestion control: a switch port decides FECN as a packet starts on
 *    its link (sim_cc_link); a marked packet's destination sends a BECN,
 *    which reaches the source after the idle latency of a one-flit packet
 *    on a way back as long as the way there (sim_cm_deliver, then
 *    sim_cc_run_becns); the source's unit (an SL, or a destination host)
 *    raises its CCT index and the unit's packets keep their inter-packet
 *    delay (sim_cc_until, sim_cc_sent). Units are kept per host in a small
 *    open-addressing table, created by a BECN (or at once when CCTI_Min
 *    already delays).
 *  - adaptive routing: when a packet becomes the head of its input buffer,
 *    its switch chooses among the entry's allowed ports (sim_ar_choose),
 *    per packet or per flowlet (a table of 2^FTSW_AR_FLOWLET_BITS slots per
 *    switch, as the kernel keeps it).
 *  - order: every packet carries its place in its (source, destination)
 *    pair; one delivered after a later one of the pair is out of order,
 *    counted per destination.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

#define OOO_MAX_HOSTS	4096

struct ccu {			/* a source's unit: SL + 1 or dst + 1 */
	uint32_t key;
	struct ftsw_cc_flow f;
};

struct cctab {
	struct ccu *e;
	uint32_t cap, n;
};

struct becn {			/* a BECN on its way to host h's unit */
	uint32_t t, h, key;
	uint8_t sl;
};

struct cm {
	const struct ftsw_cc_params *cc;	/* NULL: CC off */
	struct ftsw_cc_sl sl[FTSW_CC_SLS];
	bool sl_based;		/* one unit per SL, else per destination */
	bool eager;		/* CCTI_Min delays: every unit at once */
	unsigned cap;		/* output queue's capacity, flits */
	struct cctab *tab;	/* per host */
	struct becn *heap;
	uint32_t nheap, capheap;
	/* adaptive routing */
	bool ar;
	struct ftsw_ar_flowlet *fl;	/* per switch, 2^FTSW_AR_FLOWLET_BITS */
	/* order */
	uint32_t *seq_tx, *seq_rx;	/* per (src, dst) pair */
	uint64_t *ooo;			/* per destination */
	/* counters */
	uint64_t marked, becns, triggers, waits, ar_choices, ar_moved;
	uint64_t ooo_total;
	unsigned max_ccti;
};

/* ------------------------------------------------------------ set-up */

static int cm_fail(struct ftsw_err *err, const char *what)
{
	ftsw_err_set(err, "%s", what);
	return -1;
}

int sim_cm_setup(struct sim *s, struct ftsw_err *err)
{
	const struct ftsw_sim_opts *o = &s->o;
	const struct ftsw_topo *t = s->t;
	bool cc = o->cc && o->cc->congestion_control;
	bool order = o->adaptive && t->nhosts <= OOO_MAX_HOSTS;
	struct cm *m;
	unsigned i;

	if (!cc && !o->adaptive && !order)
		return 0;
	if ((cc || o->adaptive) && (o->phased || o->voq))
		return cm_fail(err, "congestion control and adaptive routing "
			       "run on the event engine with FIFO inputs: not "
			       "with --phased or --voq");
	if (cc && !(o->cycle_ns > 0))
		return cm_fail(err, "--cc needs the lab's link rate (--rate, "
			       "--frame-bytes): CCTI_Timer counts time, not "
			       "cycles");
	if (o->adaptive && !s->r->ar)
		return cm_fail(err, "adaptive routing needs a routing with "
			       "groups (--adaptive or --groups)");
	m = calloc(1, sizeof(*m));
	if (!m)
		return cm_fail(err, "out of memory for the simulation");
	s->cm = m;
	s->cc_on = cc;
	s->ar_on = o->adaptive;
	if (cc) {
		m->cc = o->cc;
		m->sl_based = o->cc->cc_ca_cong_setting_port_control &
			      FTSW_CC_CA_SL_BASED;
		for (i = 0; i < FTSW_CC_SLS; i++) {
			ftsw_cc_sl_of(o->cc, i, o->cc->timer_unit_ns /
				      o->cycle_ns, &m->sl[i]);
			if (ftsw_cc_ipd(o->cc, m->sl[i].min, s->P))
				m->eager = true;
		}
		m->cap = o->out_cap_flits ? o->out_cap_flits : s->Bout * s->P;
		m->tab = calloc(t->nhosts + 1, sizeof(*m->tab));
		if (!m->tab)
			return cm_fail(err, "out of memory for the simulation");
	}
	if (o->adaptive) {
		m->ar = true;
		s->nomemo = true;
		m->fl = calloc(((size_t)t->nswitches << FTSW_AR_FLOWLET_BITS) + 1,
			       sizeof(*m->fl));
		if (!m->fl)
			return cm_fail(err, "out of memory for the simulation");
	}
	if (order) {
		size_t pairs = (size_t)t->nhosts * t->nhosts;

		m->seq_tx = calloc(pairs + 1, sizeof(uint32_t));
		m->seq_rx = calloc(pairs + 1, sizeof(uint32_t));
		m->ooo = calloc(t->nhosts + 1, sizeof(uint64_t));
		if (!m->seq_tx || !m->seq_rx || !m->ooo)
			return cm_fail(err, "out of memory for the simulation");
	}
	return 0;
}

void sim_cm_free(struct sim *s)
{
	struct cm *m = s->cm;
	uint32_t h;

	if (!m)
		return;
	if (m->tab)
		for (h = 0; h < s->t->nhosts; h++)
			free(m->tab[h].e);
	free(m->tab);
	free(m->heap);
	free(m->fl);
	free(m->seq_tx);
	free(m->seq_rx);
	free(m->ooo);
	free(m);
	s->cm = NULL;
}

void sim_cm_results(struct sim *s, struct ftsw_sim_result *res)
{
	struct cm *m = s->cm;

	if (!m)
		return;
	res->cc_marked = m->marked;
	res->cc_becns = m->becns;
	res->cc_triggers = m->triggers;
	res->cc_waits = m->waits;
	res->cc_max_ccti = m->max_ccti;
	res->ar_choices = m->ar_choices;
	res->ar_moved = m->ar_moved;
	res->ooo_total = m->ooo_total;
	if (m->ooo) {
		res->ooo = malloc((s->t->nhosts + 1) * sizeof(uint64_t));
		if (res->ooo)
			memcpy(res->ooo, m->ooo, s->t->nhosts * sizeof(uint64_t));
	}
}

/* ------------------------------------------------- congestion control */

/* The unit of host h for key (SL + 1 or dst + 1), or NULL. */
static struct ccu *cc_find(const struct sim *s, uint32_t h, uint32_t key)
{
	const struct cctab *tb = &s->cm->tab[h];
	uint32_t i;

	if (!tb->cap)
		return NULL;
	for (i = (uint32_t)mix64(key) & (tb->cap - 1); tb->e[i].key;
	     i = (i + 1) & (tb->cap - 1))
		if (tb->e[i].key == key)
			return &tb->e[i];
	return NULL;
}

/* The unit of host h for key, created when asked. */
static struct ccu *cc_unit(struct sim *s, uint32_t h, uint32_t key,
			   unsigned sl, bool create)
{
	struct cctab *tb = &s->cm->tab[h];
	struct ccu *u = cc_find(s, h, key);
	uint32_t i;

	if (u || !create)
		return u;
	if (2 * (tb->n + 1) > tb->cap) {
		uint32_t nc = tb->cap ? 2 * tb->cap : 8, j;
		struct ccu *ne = calloc(nc, sizeof(*ne));

		if (!ne) {
			s->failed = 1;
			return NULL;
		}
		for (j = 0; j < tb->cap; j++) {
			if (!tb->e[j].key)
				continue;
			for (i = (uint32_t)mix64(tb->e[j].key) & (nc - 1);
			     ne[i].key; i = (i + 1) & (nc - 1))
				;
			ne[i] = tb->e[j];
		}
		free(tb->e);
		tb->e = ne;
		tb->cap = nc;
	}
	for (i = (uint32_t)mix64(key) & (tb->cap - 1); tb->e[i].key;
	     i = (i + 1) & (tb->cap - 1))
		;
	tb->e[i].key = key;
	ftsw_cc_flow_init(&tb->e[i].f, &s->cm->sl[sl]);
	tb->n++;
	return &tb->e[i];
}

static unsigned pair_sl(const struct sim *s, uint32_t src, uint32_t dst)
{
	return s->r->sl ? s->r->sl[(size_t)src * s->r->nhosts + dst] %
	       FTSW_CC_SLS : 0;
}

static uint32_t unit_key(const struct cm *m, unsigned sl, uint32_t dst)
{
	return (m->sl_based ? sl : dst) + 1;
}

void sim_cc_starved(struct sim *s, uint32_t o)
{
	unsigned w;

	for (w = 0; w < s->V; w++) {
		size_t idx = (size_t)o * s->V + w;

		if (PV(s, idx)->out_cnt && PV(s, idx)->out_ht <= s->now &&
		    !cred_avail(s, idx))
			PV(s, idx)->starved = 1;
	}
}

/*
 * Packet pi starts on switch port o's link on VL v, still counted in its
 * output queue: FECN or not.
 */
void sim_cc_link(struct sim *s, uint32_t o, unsigned v, uint32_t pi)
{
	struct spv *x = PV(s, (size_t)o * s->V + v);
	struct ftsw_cc_mark_state st = { x->mark_skip };

	sim_cc_starved(s, o);
	if (ftsw_cc_mark(s->cm->cc, &st, s->pt[o].plocal, s->P,
			 x->out_cnt * s->P, s->cm->cap, x->starved)) {
		s->pk[pi].fecn = 1;
		s->cm->marked++;
	}
	x->mark_skip = st.skip;
	x->starved = 0;
}

static void becn_push(struct sim *s, const struct becn *b)
{
	struct cm *m = s->cm;
	uint32_t i;

	if (m->nheap == m->capheap) {
		uint32_t nc = m->capheap ? 2 * m->capheap : 256;
		struct becn *nh = realloc(m->heap, nc * sizeof(*nh));

		if (!nh) {
			s->failed = 1;
			return;
		}
		m->heap = nh;
		m->capheap = nc;
	}
	for (i = m->nheap++; i; i = (i - 1) / 2) {
		if (m->heap[(i - 1) / 2].t <= b->t)
			break;
		m->heap[i] = m->heap[(i - 1) / 2];
	}
	m->heap[i] = *b;
}

static void becn_pop(struct cm *m)
{
	struct becn last = m->heap[--m->nheap];
	uint32_t i = 0;

	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= m->nheap)
			break;
		if (c + 1 < m->nheap && m->heap[c + 1].t < m->heap[c].t)
			c++;
		if (m->heap[c].t >= last.t)
			break;
		m->heap[i] = m->heap[c];
		i = c;
	}
	if (m->nheap)
		m->heap[i] = last;
}

/* The BECNs due: each raises its unit's CCT index. */
void sim_cc_run_becns(struct sim *s)
{
	struct cm *m = s->cm;

	while (m->nheap && m->heap[0].t <= s->now) {
		struct becn b = m->heap[0];
		struct ccu *u;

		becn_pop(m);
		u = cc_unit(s, b.h, b.key, b.sl, true);
		if (!u)
			return;
		m->becns++;
		if (ftsw_cc_becn(&u->f, &m->sl[b.sl], s->now))
			m->triggers++;
		if (u->f.ccti > m->max_ccti)
			m->max_ccti = u->f.ccti;
	}
}

/*
 * When host h may start message m's next packet (<= now: at once). A
 * unit without a record has sent nothing yet: at once.
 */
uint32_t sim_cc_until(const struct sim *s, uint32_t h, const struct msg *m)
{
	unsigned sl = pair_sl(s, h, m->dst);
	const struct ccu *u = cc_find(s, h, unit_key(s->cm, sl, m->dst));

	if (!u || u->f.next_send <= s->now)
		return s->now;
	return u->f.next_send > UINT32_MAX ? UINT32_MAX :
	       (uint32_t)u->f.next_send;
}

void sim_cc_waited(struct sim *s)
{
	s->cm->waits++;
}

/* Host h starts a packet of message m now: its unit's next start. */
void sim_cc_sent(struct sim *s, uint32_t h, const struct msg *m)
{
	unsigned sl = pair_sl(s, h, m->dst);
	struct ccu *u = cc_unit(s, h, unit_key(s->cm, sl, m->dst), sl,
			     s->cm->eager);

	if (u)
		ftsw_cc_sent(&u->f, s->cm->cc, &s->cm->sl[sl], s->now, s->P);
}

/* ------------------------------------------------------------ delivery */

void sim_cm_inject(struct sim *s, uint32_t h, struct pkt *p)
{
	struct cm *m = s->cm;

	p->fecn = 0;
	if (m->seq_tx)
		p->seq = ++m->seq_tx[(size_t)h * s->t->nhosts +
				     s->ms[p->msg].dst];
}

/*
 * Packet p reaches its destination host, its tail at `tail`: its order in
 * its pair, and a BECN on its way back when it carries FECN.
 */
void sim_cm_deliver(struct sim *s, struct pkt *p, uint32_t tail)
{
	struct cm *m = s->cm;
	const struct msg *g = &s->ms[p->msg];

	if (m->seq_rx) {
		uint32_t *last = &m->seq_rx[(size_t)g->src * s->t->nhosts +
					    g->dst];

		if ((int32_t)(p->seq - *last) < 0) {
			m->ooo[g->dst]++;
			m->ooo_total++;
		} else {
			*last = p->seq;
		}
	}
	if (p->fecn && m->cc) {
		/* h switches each way: (h + 1) L + h R + 1 flit */
		unsigned h = p->hops + 1u, sl = pair_sl(s, g->src, g->dst);
		struct becn b = {
			.t = tail + (h + 1) * s->L + h * s->R + 1,
			.h = g->src, .key = unit_key(m, sl, g->dst),
			.sl = (uint8_t)sl,
		};

		becn_push(s, &b);
	}
}

/* ---------------------------------------------------- adaptive routing */

/*
 * Packet p becomes the head of input buffer (pp, v): the local output
 * port its switch sends it to (p->out is the static port).
 */
uint8_t sim_ar_choose(struct sim *s, uint32_t pp, unsigned v,
		      const struct pkt *p)
{
	struct cm *m = s->cm;
	uint32_t sw = s->pt[pp].pidx, base = s->pt[pp].pbase;
	const struct msg *g = &s->ms[p->msg];
	struct ftsw_ar_cand c[255];
	uint8_t ports[255];
	unsigned n, i, k = 0, pick;
	struct ftsw_ar_flowlet *f = NULL;
	uint32_t slid, key;

	if (!ftsw_ar_has(s->r, sw, p->dlid))
		return p->out;
	slid = ftsw_host_lid(s->r, g->src);
	key = ftsw_ar_flowlet_key(slid, p->dlid);
	if (s->o.flowlet_gap) {
		f = &m->fl[((size_t)sw << FTSW_AR_FLOWLET_BITS) +
			   ftsw_ar_flowlet_slot(slid, p->dlid,
						FTSW_AR_FLOWLET_BITS)];
		pick = ftsw_ar_flowlet_keep(f, key, s->now, s->o.flowlet_gap);
		if (pick)
			return (uint8_t)pick;
	}
	n = ftsw_ar_ports(s->r, sw, p->dlid, ports);
	for (i = 0; i < n; i++) {
		uint32_t o = base + ports[i] - 1;
		size_t idx = (size_t)o * s->V + v;

		if (ports[i] > s->pt[pp].pnp || s->pt[o].peer == FTSW_NONE)
			continue;
		c[k].port = ports[i];
		c[k].queued = PV(s, idx)->out_cnt * s->P;
		c[k++].credit = (s->pt[o].pflags & PF_PEER_HOST ? 0 :
				 cred_avail(s, idx)) * s->P;
	}
	pick = ftsw_ar_pick(c, k, p->out);
	m->ar_choices++;
	m->ar_moved += pick != p->out;
	if (f)
		ftsw_ar_flowlet_take(f, key, pick, s->now);
	return (uint8_t)pick;
}
