// SPDX-License-Identifier: GPL-2.0
/* The simulator's phased engine on several threads (--phased). */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "sim/sim_int.h"
#include "util/parse.h"

/* ------------------------------------------------- the phased engine */

/* A bucket's events sorted, repeats removed (ids and types < 2^30). */
static void sort_bucket(struct sim *s, struct bucket *b)
{
	uint32_t n = b->n, i, j, *a = b->ev, *t;
	unsigned shift;

	if (n < 2)
		return;
	if (n <= 48) {
		for (i = 1; i < n; i++) {
			uint32_t x = a[i];

			for (j = i; j > 0 && a[j - 1] > x; j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
	} else {
		if (s->tmp_cap < b->cap) {
			uint32_t *nt = realloc(s->tmp, b->cap * sizeof(*nt));

			if (!nt) {
				s->failed = 1;
				return;
			}
			s->tmp = nt;
			s->tmp_cap = b->cap;
		}
		t = s->tmp;
		for (shift = 0; shift < 30; shift += 10) {
			uint32_t cnt[1024], sum = 0, *x;

			memset(cnt, 0, sizeof(cnt));
			for (i = 0; i < n; i++)
				cnt[a[i] >> shift & 1023]++;
			for (i = 0; i < 1024; i++) {
				uint32_t c = cnt[i];

				cnt[i] = sum;
				sum += c;
			}
			for (i = 0; i < n; i++)
				t[cnt[a[i] >> shift & 1023]++] = a[i];
			x = a;
			a = t;
			t = x;
		}
		/* three passes: the sorted copy is the spare buffer */
		{
			uint32_t c = b->cap;

			s->tmp = b->ev;
			b->ev = a;
			b->cap = s->tmp_cap;
			s->tmp_cap = c;
		}
	}
	for (i = 1, j = 1; i < n; i++)
		if (a[i] != a[j - 1])
			a[j++] = a[i];
	b->n = j;
}

static void ph_barrier(struct phased *g)
{
	unsigned gen, spins = 0;

	if (g->T == 1)
		return;
	gen = atomic_load_explicit(&g->gen, memory_order_acquire);
	if (atomic_fetch_add_explicit(&g->cnt, 1, memory_order_acq_rel) + 1 ==
	    g->T) {
		atomic_store_explicit(&g->cnt, 0, memory_order_relaxed);
		atomic_fetch_add_explicit(&g->gen, 1, memory_order_release);
		return;
	}
	while (atomic_load_explicit(&g->gen, memory_order_acquire) == gen) {
		if (++spins > 256)
			sched_yield();
#if defined(__x86_64__) || defined(__i386__)
		else
			__builtin_ia32_pause();
#endif
	}
}

/* Phase B: the mails for this thread's ports, from every thread. */
static void apply_mail(struct sim *s)
{
	struct phased *g = s->g;
	unsigned u;
	uint32_t i;

	s->in_b = true;
	for (u = 0; u < g->T; u++) {
		struct mbox *x = &g->box[u * g->T + s->tid];

		for (i = 0; i < x->n; i++) {
			const struct mail *m = &x->m[i];

			switch (m->kind) {
			case M_ARRIVE:
				sim_arrive(s, m->a, div_v(s, m->b), mod_v(s, m->b));
				break;
			case M_CREDIT:
				sim_cred_return(s, m->a, m->b);
				break;
			case M_DROP:
				sim_drop(s, m->a);
				break;
			case M_FREE_PKT:
				pool_free(&s->pkp, m->a);
				break;
			case M_FREE_MSG:
				pool_free(&s->msp, m->a);
				break;
			}
		}
		x->n = 0;
	}
	s->in_b = false;
}

/* Phase A's start: the frees phase B could not send. */
static void send_deferred(struct sim *s)
{
	struct mbox *d = &s->g->defer[s->tid];
	uint32_t i;

	for (i = 0; i < d->n; i++)
		sim_mail(s, d->m[i].b, d->m[i].kind, d->m[i].a, 0);
	d->n = 0;
}

/* The run's counters summed over the threads into a (a copy of one). */
static void ph_totals(const struct phased *g, struct sim *a)
{
	struct sim z;
	unsigned t;

	memset(&z, 0, sizeof(z));
	for (t = 0; t < g->T; t++) {
		const struct sim *x = g->th[t];

		z.flits_offered += x->flits_offered;
		z.flits_accepted += x->flits_accepted;
		z.flit_hops += x->flit_hops;
		z.pk_injected += x->pk_injected;
		z.pk_delivered += x->pk_delivered;
		z.pk_dropped += x->pk_dropped;
		z.pk_in_net += x->pk_in_net;
		z.msgs_measured += x->msgs_measured;
		z.msgs_done += x->msgs_done;
		z.msgs_total += x->msgs_total;
		z.msgs_left += x->msgs_left;
		z.net_sum += x->net_sum;
		z.net_n += x->net_n;
		z.nheap += x->nheap;
		if (x->last_move > z.last_move)
			z.last_move = x->last_move;
	}
	a->flits_offered = z.flits_offered;
	a->flits_accepted = z.flits_accepted;
	a->flit_hops = z.flit_hops;
	a->pk_injected = z.pk_injected;
	a->pk_delivered = z.pk_delivered;
	a->pk_dropped = z.pk_dropped;
	a->pk_in_net = z.pk_in_net;
	a->msgs_measured = z.msgs_measured;
	a->msgs_done = z.msgs_done;
	a->msgs_total = z.msgs_total;
	a->msgs_left = z.msgs_left;
	a->net_sum = z.net_sum;
	a->net_n = z.net_n;
	a->nheap = z.nheap;
	a->last_move = z.last_move;
}

/*
 * Thread 0, the others waiting: verification and the periodic checks on
 * the whole fabric, as run_loop does them.
 */
static int ph_checks(struct sim *s, bool verify, bool sample, uint32_t end)
{
	struct phased *g = s->g;
	struct sim a = *s;

	ph_totals(g, &a);
	if (verify && sim_verify_idle(&a))
		return -1;
	if (sample)
		return sim_run_sample(&a, g->o, g->load, end, &g->last_progress);
	return 0;
}

static void *ph_thread(void *arg)
{
	struct sim *s = arg;
	struct phased *g = s->g;
	const struct ftsw_sim_opts *o = g->o;
	uint32_t end, sample_every, next_sample;
	struct timespec c0, c1;
	int go;

	while (!(go = atomic_load(&g->go)))
		sched_yield();
	if (go < 0)
		return NULL;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
	end = o->count ? UINT32_MAX - 2 * s->wmask - 2 :
	      s->win1 + s->o.drain;
	sample_every = s->o.deadlock_cycles / 2 ? s->o.deadlock_cycles / 2 : 1;
	next_sample = sample_every;
	for (s->now = 0; s->now < end; s->now++) {
		struct phpub *pb = g->pub[s->now & 1], sum;
		struct bucket *b = &s->wheel[s->now & s->wmask];
		unsigned t;

		send_deferred(s);
		sim_run_arrivals(s);
		/* one VL, FIFO inputs: the order does not matter (order_free) */
		if (s->V > 1 || s->o.voq)
			sort_bucket(s, b);
		sim_run_events(s, b);
		ph_barrier(g);
		apply_mail(s);
		pb[s->tid].msgs_done = s->msgs_done;
		pb[s->tid].msgs_measured = s->msgs_measured;
		pb[s->tid].msgs_left = s->msgs_left;
		pb[s->tid].nheap = s->nheap;
		pb[s->tid].failed = s->failed;
		ph_barrier(g);
		memset(&sum, 0, sizeof(sum));
		for (t = 0; t < g->T; t++) {
			sum.msgs_done += pb[t].msgs_done;
			sum.msgs_measured += pb[t].msgs_measured;
			sum.msgs_left += pb[t].msgs_left;
			sum.nheap += pb[t].nheap;
			sum.failed |= pb[t].failed;
		}
		if (sum.failed) {
			if (!s->tid) {
				ftsw_err_errno(s->err, ENOMEM,
					       "out of memory during the "
					       "simulation");
				g->rc = -1;
			}
			break;
		}
		if (o->verify || s->now == next_sample) {
			bool smp = s->now == next_sample;
			int v;

			if (!s->tid)
				g->verdict = ph_checks(s, o->verify, smp, end);
			ph_barrier(g);
			v = g->verdict;
			if (smp)
				next_sample += sample_every;
			if (v < 0 && !s->tid)
				g->rc = -1;
			if (v)
				break;
		}
		if (o->count && !sum.nheap && !sum.msgs_left)
			break;
		/* measured messages all delivered: stop draining */
		if (!o->count && s->now >= s->win1 &&
		    sum.msgs_done == sum.msgs_measured)
			break;
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
	g->cpu[s->tid] = (c1.tv_sec - c0.tv_sec) +
			 (c1.tv_nsec - c0.tv_nsec) * 1e-9;
	return NULL;
}

/*
 * Address space for a pool of fixed ranges, per items per thread:
 * reserved, not committed; NULL when there is none.
 */
static void *ph_reserve(const struct pool *p, uint32_t per, unsigned T,
			size_t *bytes)
{
	void *m;

	*bytes = (size_t)per * T * (p->size + sizeof(uint32_t));
	m = mmap(NULL, *bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return m == MAP_FAILED ? NULL : m;
}

/* Pool p becomes the reservation m (ph_reserve's, same per and T). */
static void ph_pool(struct pool *p, void *m, uint32_t per, unsigned T)
{
	free(p->items);
	free(p->next);
	p->items = m;
	p->next = (uint32_t *)((char *)m + (size_t)per * T * p->size);
	p->fixed = true;
}

static void ph_thread_init(struct sim *x, struct phased *g, unsigned t)
{
	x->g = g;
	x->tid = t;
	x->pkp.free = x->msp.free = NO_PKT;
	x->pkp.n = t * g->pk_per;
	x->pkp.cap = (t + 1) * g->pk_per;
	x->msp.n = t * g->ms_per;
	x->msp.cap = (t + 1) * g->ms_per;
}

/*
 * T threads for one point: the port ranges, the pools, the copies of the
 * run state (own wheel, heap of own hosts, counters, histograms).
 */
static int ph_setup(struct sim *s0, struct phased *g, unsigned T,
		    struct ftsw_err *err)
{
	uint64_t pk_per = (uint64_t)s0->nports * s0->V *
			  (s0->Bin + s0->Bout) + 64;
	struct hent *all = s0->heap;
	uint32_t nall = s0->nheap, i;
	void *pk, *ms;
	unsigned t;

	if (T > PH_MAXT)
		T = PH_MAXT;
	if (T > s0->t->nnodes)
		T = s0->t->nnodes;
	if (!T)
		T = 1;
	g->T = T;
	g->th[0] = s0;
	g->pstart[0] = 0;
	for (t = 1; t < T; t++) {
		uint32_t p = (uint32_t)((uint64_t)s0->nports * t / T);

		if (p < g->pstart[t - 1])
			p = g->pstart[t - 1];
		while (p < s0->nports && s0->pt[p].plocal != 1)
			p++;
		g->pstart[t] = p;
	}
	g->pstart[T] = s0->nports;
	if (pk_per * T >= NO_PKT) {
		ftsw_err_errno(err, ERANGE,
			       "fabric too large for the phased engine");
		return -1;
	}
	g->pk_per = (uint32_t)pk_per;
	g->ms_per = (1u << 26) / T;
	/* The reservations first: without them s0 is left as it was. */
	pk = ph_reserve(&s0->pkp, g->pk_per, T, &g->pk_bytes);
	ms = pk ? ph_reserve(&s0->msp, g->ms_per, T, &g->ms_bytes) : NULL;
	if (!ms) {
		if (pk)
			munmap(pk, g->pk_bytes);
		ftsw_err_errno(err, ENOMEM,
			       "out of memory for the phased engine (it "
			       "reserves address space for %u threads' packets "
			       "and messages: see ulimit -v)", T);
		return PH_NOMEM;
	}
	ph_pool(&s0->pkp, pk, g->pk_per, T);
	ph_pool(&s0->msp, ms, g->ms_per, T);
	g->box = calloc((size_t)T * T, sizeof(*g->box));
	g->defer = calloc(T, sizeof(*g->defer));
	s0->heap = malloc((nall + 1) * sizeof(*s0->heap));
	if (!g->box || !g->defer || !s0->heap) {
		free(all);
		ftsw_err_errno(err, ENOMEM, "out of memory for the simulation");
		return -1;
	}
	s0->pk = s0->pkp.items;
	s0->ms = s0->msp.items;
	for (t = 1; t < T; t++) {
		struct sim *x = malloc(sizeof(*x));

		if (!x) {
			free(all);
			ftsw_err_errno(err, ENOMEM,
				       "out of memory for the simulation");
			return -1;
		}
		*x = *s0;
		x->tmp = NULL;
		x->tmp_cap = 0;
		x->dropq = NULL;
		x->hmsg.fine = x->hmsg.coarse = NULL;
		x->hpkt.fine = x->hpkt.coarse = NULL;
		x->wheel = calloc(s0->wmask + 1, sizeof(*x->wheel));
		x->heap = malloc((nall + 1) * sizeof(*x->heap));
		g->th[t] = x;
		if (!x->wheel || !x->heap || sim_hist_init(&x->hmsg) ||
		    sim_hist_init(&x->hpkt)) {
			free(all);
			ftsw_err_errno(err, ENOMEM,
				       "out of memory for the simulation");
			return -1;
		}
	}
	for (t = 0; t < T; t++) {
		struct sim *x = g->th[t];

		ph_thread_init(x, g, t);
		x->nheap = 0;
		for (i = 0; i < nall; i++)
			if (owner(g, s0->hport[all[i].h]) == t)
				x->heap[x->nheap++] = all[i];
		for (i = x->nheap; i-- > 0;)
			sim_heap_down(x, i);
	}
	free(all);
	return 0;
}

static void ph_free(struct sim *s0, struct phased *g)
{
	unsigned t;

	for (t = 1; t < g->T; t++) {
		struct sim *x = g->th[t];

		if (!x)
			continue;
		sim_wheel_free(x);
		free(x->heap);
		free(x->tmp);
		sim_hist_free(&x->hmsg);
		sim_hist_free(&x->hpkt);
		free(x);
	}
	if (g->box)
		for (t = 0; t < g->T * g->T; t++)
			free(g->box[t].m);
	if (g->defer)
		for (t = 0; t < g->T; t++)
			free(g->defer[t].m);
	free(g->box);
	free(g->defer);
	if (s0->pkp.fixed && s0->pkp.items)
		munmap(s0->pkp.items, g->pk_bytes);
	if (s0->msp.fixed && s0->msp.items)
		munmap(s0->msp.items, g->ms_bytes);
	if (s0->pkp.fixed)
		s0->pkp.items = s0->pkp.next = NULL;
	if (s0->msp.fixed)
		s0->msp.items = s0->msp.next = NULL;
	free(s0->tmp);
	s0->tmp = NULL;
	free(g);
}

/* The threads' counters and histograms into thread 0's. */
static void ph_merge(struct phased *g)
{
	struct sim *s0 = g->th[0];
	unsigned t;
	uint32_t i;

	ph_totals(g, s0);
	for (t = 1; t < g->T; t++) {
		struct hist *a[2] = { &s0->hmsg, &s0->hpkt };
		struct hist *b[2] = { &g->th[t]->hmsg, &g->th[t]->hpkt };
		unsigned k;

		for (k = 0; k < 2; k++) {
			for (i = 0; i < HFINE; i++) {
				a[k]->fine[i] += b[k]->fine[i];
				a[k]->coarse[i] += b[k]->coarse[i];
			}
			a[k]->n += b[k]->n;
			a[k]->sum += b[k]->sum;
		}
	}
}

/*
 * The event engine's numbers do not depend on the order of a cycle's
 * events when no two of them compete for one resource: with FIFO inputs
 * and one VL an input's only head packet requests one output, so no two
 * outputs want the same input in a cycle; what a link or a crossbar does
 * in a cycle reads no state another event of the cycle changes in a way
 * that matters (a packet joins a buffer L >= 1 cycles after it left, a
 * credit comes back at least a cycle after it was freed, drops count at
 * the cycle's end). The phased engine then gives the event engine's
 * numbers, bit for bit (tests/bench/sim-same), on any number of threads:
 * a point given several threads uses them when the fabric is large enough
 * for the barriers to pay (Documentation/sim.md).
 */
#define PH_AUTO_PORTS	16384
bool sim_phased_auto(const struct sim *s)
{
	return s->V == 1 && !s->o.voq && !s->cm && s->nports >= PH_AUTO_PORTS;
}

/*
 * One point on o->point_threads threads; *cpu: their loop CPU seconds.
 * PH_NOMEM: no address space for the engine's pools; nothing ran and *s
 * is as it came, ready for the event engine.
 */
int sim_run_phased(struct sim *s, const struct ftsw_sim_opts *o,
		      double load, struct ftsw_err *err, double *cpu,
		      unsigned *nthreads)
{
	struct phased *g = calloc(1, sizeof(*g));
	pthread_t th[PH_MAXT];
	unsigned t, started;
	int rc;

	if (!g) {
		ftsw_err_errno(err, ENOMEM, "out of memory for the simulation");
		return -1;
	}
	g->o = o;
	g->load = load;
	g->last_progress = ftsw_now_us();
	rc = ph_setup(s, g, o->point_threads ? o->point_threads : 1, err);
	if (rc) {
		ph_free(s, g);
		return rc;
	}
	for (started = 1; started < g->T; started++)
		if (pthread_create(&th[started], NULL, ph_thread,
				   g->th[started]))
			break;
	if (started < g->T) {
		atomic_store(&g->go, -1);
		for (t = 1; t < started; t++)
			pthread_join(th[t], NULL);
		ftsw_err_set(err, "cannot start the simulation's threads");
		ph_free(s, g);
		return -1;
	}
	atomic_store(&g->go, 1);
	ph_thread(s);
	for (t = 1; t < g->T; t++)
		pthread_join(th[t], NULL);
	ph_merge(g);
	*cpu = 0;
	for (t = 0; t < g->T; t++)
		*cpu += g->cpu[t];
	*nthreads = g->T;
	rc = g->rc;
	ph_free(s, g);
	return rc;
}

