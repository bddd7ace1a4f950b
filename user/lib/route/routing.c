// SPDX-License-Identifier: GPL-2.0
/*
 * Routing result, LID plan, engine registry and the helpers engines share
 * (thread pool loop, switch-LID routes).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "route/routing.h"
#include "route/engines.h"

static const struct ftsw_engine engines[] = {
	{ "dmodk", "D-Mod-K closed-form routing for complete PGFTs",
	  "Zahavi 2011, Fat-trees routing and node ordering, eq. (1)",
	  FTSW_RT_MINIMAL | FTSW_RT_UPDOWN | FTSW_ENGINE_INITS_LFTS,
	  ftsw_route_dmodk },
	{ "dmodc", "Dmodc fault-resilient routing for (degraded) PGFTs",
	  "Gliksberg et al. 2020, High-quality fault resiliency in fat trees",
	  FTSW_RT_UPDOWN | FTSW_ENGINE_INITS_LFTS, ftsw_route_dmodc },
	{ "minhop", "shortest paths, balanced by port use (OpenSM's default)",
	  "classic min-hop", FTSW_RT_MINIMAL, ftsw_route_minhop },
	{ "updn", "Up*/Down* shortest legal paths from BFS ranking of roots",
	  "classic Up*/Down*", FTSW_RT_UPDOWN, ftsw_route_updn },
	{ "sssp", "single-source shortest paths, globally balanced (any topology)",
	  "Domke, Hoefler, Nagel 2011, Alg. 1", FTSW_RT_MINIMAL,
	  ftsw_route_sssp },
	{ "dfsssp", "SSSP with virtual layers breaking CDG cycles, weakest edge",
	  "Domke, Hoefler, Nagel 2011, Alg. 2", FTSW_RT_MINIMAL,
	  ftsw_route_dfsssp },
	{ "dfsssp-strongest", "dfsssp breaking the strongest edge of each cycle",
	  "Domke, Hoefler, Nagel 2011, §IV heuristics", FTSW_RT_MINIMAL,
	  ftsw_route_dfsssp_strongest },
	{ "dfsssp-first", "dfsssp breaking the first edge of each cycle",
	  "Domke, Hoefler, Nagel 2011, §IV heuristics", FTSW_RT_MINIMAL,
	  ftsw_route_dfsssp_first },
	{ "lash", "shortest paths on virtual layers assigned online (LASH)",
	  "Skeie, Lysne, Theiss 2002, as compared by Domke et al. 2011, §V",
	  FTSW_RT_MINIMAL, ftsw_route_lash },
	{ "dor", "dimension-order routing for meshes and tori, dateline VLs",
	  "OpenSM's dor, as compared by Domke et al. 2011, §V", FTSW_RT_MINIMAL,
	  ftsw_route_dor },
	{ "shift1", "XGFT limited multipath: K consecutive paths from d-mod-k's",
	  "Mahapatra, Yuan, Nienaber 2012, §4.2.2",
	  FTSW_RT_MINIMAL | FTSW_RT_UPDOWN, ftsw_route_shift1 },
	{ "disjoint", "XGFT limited multipath: K paths forking lowest first",
	  "Mahapatra, Yuan, Nienaber 2012, §4.2.3",
	  FTSW_RT_MINIMAL | FTSW_RT_UPDOWN, ftsw_route_disjoint },
	{ "random", "XGFT limited multipath: K random paths (seeded)",
	  "Mahapatra, Yuan, Nienaber 2012, §4.2.1",
	  FTSW_RT_MINIMAL | FTSW_RT_UPDOWN, ftsw_route_random },
	{ "umulti", "XGFT multipath over all shortest paths",
	  "Mahapatra, Yuan, Nienaber 2012, §4.1",
	  FTSW_RT_MINIMAL | FTSW_RT_UPDOWN, ftsw_route_umulti },
	{ "osrm2", "optimal oblivious single-path routing on FT(m, 2)",
	  "Yuan, Nienaber, Duan, Melhem 2007, Fig. 8",
	  FTSW_RT_MINIMAL | FTSW_RT_UPDOWN, ftsw_route_osrm2 },
	{ "osrm3", "optimal oblivious single-path routing on FT(m, 3)",
	  "Yuan, Nienaber, Duan, Melhem 2007, Fig. 9",
	  FTSW_RT_MINIMAL | FTSW_RT_UPDOWN, ftsw_route_osrm3 },
	{ "mlid", "Multiple LID routing on FT(m, n): one LID per root switch",
	  "Lin, Chung, Huang 2004, as in Yuan et al. 2007, §5",
	  FTSW_RT_MINIMAL | FTSW_RT_UPDOWN, ftsw_route_mlid },
	{ "wsr", "widest shortest routing on XGFTs, per-pair paths",
	  "Yuan et al. 2007, §5", FTSW_RT_MINIMAL | FTSW_RT_UPDOWN, ftsw_route_wsr },
};

const struct ftsw_engine *ftsw_engines(size_t *n)
{
	*n = sizeof(engines) / sizeof(engines[0]);
	return engines;
}

const struct ftsw_engine *ftsw_engine_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (!strcmp(engines[i].name, name))
			return &engines[i];
	return NULL;
}

uint64_t ftsw_lid_need(const struct ftsw_topo *t, unsigned lmc)
{
	return (((uint64_t)t->nhosts + 1) << lmc) + t->nswitches - 1;
}

/*
 * The LFTs are one block of nswitches x (max LID + 1) bytes (362 MB for
 * 65,536 hosts), mapped directly so that freeing returns it at once. (Huge
 * pages were tried: with this kernel's direct compaction they cost more
 * system time than the page faults they save.)
 */
static uint8_t *lft_alloc(size_t sz)
{
	void *p;

	if (sz < (4u << 20))
		return malloc(sz ? sz : 1);
	p = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	return p;
}

static void lft_free(uint8_t *p, size_t sz)
{
	if (!p)
		return;
	if (sz < (4u << 20))
		free(p);
	else
		munmap(p, sz);
}

static void lft_init_one(size_t s, void *arg)
{
	struct ftsw_routing *r = arg;

	memset(ftsw_lft(r, (uint32_t)s), FTSW_PORT_NONE, r->lft_size);
}

void ftsw_routing_init_lfts(struct ftsw_routing *r, unsigned threads)
{
	ftsw_parallel_for(threads, r->nswitches, lft_init_one, r);
}

static struct ftsw_routing *routing_alloc(const struct ftsw_topo *t,
					  unsigned lmc, bool extended,
					  bool init, struct ftsw_err *err);

struct ftsw_routing *ftsw_routing_new(const struct ftsw_topo *t, unsigned lmc,
				      bool extended, struct ftsw_err *err)
{
	return routing_alloc(t, lmc, extended, true, err);
}

static struct ftsw_routing *routing_alloc(const struct ftsw_topo *t,
					  unsigned lmc, bool extended,
					  bool init, struct ftsw_err *err)
{
	struct ftsw_routing *r;
	uint64_t need = ftsw_lid_need(t, lmc);
	uint32_t i;

	if (lmc > FTSW_LMC_MAX) {
		ftsw_err_set(err, "--lmc %u: LMC is 0..%d", lmc, FTSW_LMC_MAX);
		return NULL;
	}
	if (need > (extended ? FTSW_LID_EXT_MAX : FTSW_LID_MAX)) {
		ftsw_err_errno(err, ERANGE,
			       "LID space exhausted: %u hosts and %u switches "
			       "at LMC %u need LIDs up to %llu (0x%llx), beyond "
			       "0x%X%s", t->nhosts, t->nswitches, lmc,
			       (unsigned long long)need,
			       (unsigned long long)need,
			       extended ? FTSW_LID_EXT_MAX : FTSW_LID_MAX,
			       extended ? "" : "; lower --lmc, or use "
			       "--extended-lids for analysis only");
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		goto oom;
	r->topo = t;
	r->lmc = (uint8_t)lmc;
	r->nvls = 1;
	r->nswitches = t->nswitches;
	r->nhosts = t->nhosts;
	r->max_lid = (uint32_t)need;
	r->lft_size = (size_t)need + 1;
	r->lft = lft_alloc(r->lft_size * t->nswitches);
	r->policy = calloc(t->nhosts + 1, sizeof(*r->policy));
	if (!r->lft || !r->policy)
		goto oom;
	if (init)
		ftsw_routing_init_lfts(r, 0);
	for (i = 0; i < t->nhosts; i++) {
		unsigned n = 1u << lmc;

		r->policy[i].allowed[0] = n >= 64 ? ~0ULL : (1ULL << n) - 1;
		r->policy[i].allowed[1] = n > 64 ? (n >= 128 ? ~0ULL :
				(1ULL << (n - 64)) - 1) : 0;
		r->policy[i].fixed_offset = FTSW_OFFSET_ANY;
	}
	return r;
oom:
	ftsw_err_errno(err, ENOMEM,
		       "out of memory for the routing tables (%u switches x "
		       "%llu LIDs)", t->nswitches, (unsigned long long)need + 1);
	ftsw_routing_free(r);
	return NULL;
}

void ftsw_routing_free(struct ftsw_routing *r)
{
	if (!r)
		return;
	lft_free(r->lft, r->lft_size * r->nswitches);
	free(r->policy);
	free(r->sl);
	free(r->rank);
	free(r->roots);
	ftsw_ar_free(r->ar);
	free(r);
}

int ftsw_lid_owner(const struct ftsw_routing *r, uint32_t lid, uint32_t *idx,
		   unsigned *offset)
{
	uint32_t base = (r->nhosts + 1) << r->lmc;

	if (lid >= (1u << r->lmc) && lid < base) {
		*idx = (lid >> r->lmc) - 1;
		if (offset)
			*offset = lid & ((1u << r->lmc) - 1);
		return FTSW_HOST;
	}
	if (lid >= base && lid - base < r->nswitches) {
		*idx = lid - base;
		if (offset)
			*offset = 0;
		return FTSW_SWITCH;
	}
	return 0;
}

unsigned ftsw_threads(unsigned asked)
{
	long n;

	if (asked)
		return asked > 256 ? 256 : asked;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
}

struct pfor {
	atomic_size_t next;
	size_t n, chunk;
	void (*fn)(size_t i, void *arg);
	void *arg;
};

static void *pfor_worker(void *a)
{
	struct pfor *p = a;

	for (;;) {
		size_t i = atomic_fetch_add(&p->next, p->chunk), e;

		if (i >= p->n)
			break;
		e = i + p->chunk < p->n ? i + p->chunk : p->n;
		for (; i < e; i++)
			p->fn(i, p->arg);
	}
	return NULL;
}

void ftsw_parallel_for(unsigned threads, size_t n,
		       void (*fn)(size_t i, void *arg), void *arg)
{
	struct pfor p = { .n = n, .fn = fn, .arg = arg };
	pthread_t tid[256];
	unsigned i, started = 0;

	atomic_init(&p.next, 0);
	threads = ftsw_threads(threads);
	if (threads > n)
		threads = n ? (unsigned)n : 1;
	p.chunk = n / (threads * 16) + 1;
	for (i = 1; i < threads; i++)
		if (!pthread_create(&tid[started], NULL, pfor_worker, &p))
			started++;
	pfor_worker(&p);
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
}

/*
 * Switch LIDs: a BFS from each destination switch over switches. With a
 * height (rank: larger = higher, ties broken by switch index) only
 * up*down* paths are used: a reverse BFS over two states per switch,
 * D(v) "v reaches the destination going only down" and A(v) "v reaches it
 * by some up*down* path".
 */
struct swl {
	const struct ftsw_topo *t;
	struct ftsw_routing *r;
	const int *height;
	/* switch-only adjacency (CSR): neighbour, this end's port, up flag */
	uint32_t *first, *nbr;
	uint8_t *port, *peer_port, *up;
};

static inline int is_up(const int *h, uint32_t u, uint32_t v)
{
	return h[v] > h[u] || (h[v] == h[u] && v > u);
}

/*
 * Bit-parallel, level-synchronous BFS for a block of up to 64 * SWL_W
 * destination switches at once: per switch, bitsets of the destinations
 * it reaches by a legal path (A) and by an all-down path (D). At each
 * level a switch u pulls from its neighbours v: over an up hop u -> v the
 * new A bits of v, over a down hop the new D bits of v (which give u both
 * D and A). The LFT entry of u for destination t is the lowest-numbered
 * port that brought t's D bit at the first level it arrived, if any (a
 * switch that can reach t going only down does, so that a path entering
 * it by a down hop never turns up), else the one that first brought its
 * A bit.
 */
#define SWL_W 16	/* 64-bit words per destination block */

/* row[b] = port for every bit b set in bits. */
static inline void lft_set_bits(uint8_t *row, uint64_t bits, uint8_t port)
{
	while (bits) {
		row[__builtin_ctzll(bits)] = port;
		bits &= bits - 1;
	}
}

/*
 * Switches with no legal path (degraded fabrics): unrestricted shortest
 * paths fill the entries still empty (see the comment inside).
 */
static void swl_fallback(struct swl *a, uint32_t d0, uint32_t nd, uint32_t nw,
			 uint64_t *av, uint64_t *dv, uint64_t *af, uint64_t *an)
{
	struct ftsw_routing *r = a->r;
	uint32_t ns = a->t->nswitches, u, e, i, lid0 = ftsw_switch_lid(r, d0);
	size_t sz = (size_t)ns * nw;
	uint8_t *lft = r->lft;
	size_t lsz = r->lft_size;
	int more;

	/*
	 * Switches with no legal path (degraded fabrics): fall back to
	 * unrestricted shortest paths, filling only the entries still
	 * empty. Such a switch points to one closer to the destination,
	 * either legal (whose path stays legal) or another fallback
	 * one, so no loop can form. Switch LIDs carry management
	 * traffic, outside the data VLs.
	 */
	uint64_t *legal = dv;	/* reuse: legal set = av */

	memcpy(legal, av, sz * 8);
	memset(av, 0, sz * 8);
	memset(af, 0, sz * 8);
	for (i = 0; i < nd; i++) {
		size_t k = (size_t)(d0 + i) * nw + i / 64;

		av[k] = af[k] = 1ULL << (i % 64);
	}
	more = 1;
	while (more) {
		more = 0;
		for (u = 0; u < ns; u++) {
			uint64_t *pa = &an[(size_t)u * nw];
			const uint64_t *uav = &av[(size_t)u * nw];
			const uint64_t *ulg = &legal[(size_t)u * nw];

			memset(pa, 0, nw * 8);
			for (e = a->first[u]; e < a->first[u + 1]; e++) {
				const uint64_t *src = &af[(size_t)a->nbr[e] * nw];
				uint32_t w;

				for (w = 0; w < nw; w++) {
					uint64_t bits = src[w] & ~uav[w] & ~pa[w] &
							~ulg[w];

					lft_set_bits(&lft[u * lsz + lid0 + w * 64],
						     bits, a->port[e]);
					pa[w] |= src[w] & ~uav[w];
				}
			}
		}
		for (i = 0; i < sz; i++) {
			if (an[i])
				more = 1;
			av[i] |= an[i];
		}
		{
			uint64_t *x = af;

			af = an;
			an = x;
		}
	}
}

static void swl_block(size_t blk, void *arg)
{
	struct swl *a = arg;
	struct ftsw_routing *r = a->r;
	uint32_t ns = a->t->nswitches, d0 = (uint32_t)blk * 64 * SWL_W;
	uint32_t nd = ns - d0 < 64 * SWL_W ? ns - d0 : 64 * SWL_W;
	uint32_t nw = (nd + 63) / 64, u, e, i, lid0 = ftsw_switch_lid(r, d0);
	size_t sz = (size_t)ns * nw;
	uint64_t *av = calloc(sz, 8), *dv = calloc(sz, 8);
	uint64_t *af = calloc(sz, 8), *df = calloc(sz, 8);
	uint64_t *an = calloc(sz, 8), *dn = calloc(sz, 8);
	uint8_t *lft = r->lft;
	size_t lsz = r->lft_size;
	uint64_t total = 0;
	int more = 1, restricted = a->height != NULL;

	if (!av || !dv || !af || !df || !an || !dn)
		goto out;
	for (i = 0; i < nd; i++) {
		size_t k = (size_t)(d0 + i) * nw + i / 64;

		av[k] = dv[k] = af[k] = df[k] = 1ULL << (i % 64);
	}
	total = nd;
	while (more) {
		more = 0;
		for (u = 0; u < ns; u++) {
			uint64_t *pa = &an[(size_t)u * nw], *pd = &dn[(size_t)u * nw];
			const uint64_t *uav = &av[(size_t)u * nw];
			const uint64_t *udv = &dv[(size_t)u * nw];

			memset(pa, 0, nw * 8);
			memset(pd, 0, nw * 8);
			for (e = a->first[u]; e < a->first[u + 1]; e++) {
				uint32_t v = a->nbr[e], w;
				const uint64_t *src;
				int up = restricted ? a->up[e] : 1;

				src = up ? &af[(size_t)v * nw] : &df[(size_t)v * nw];
				for (w = 0; w < nw; w++) {
					uint64_t bits = src[w] & ~uav[w] & ~pa[w];

					if (!up) {
						/*
						 * A switch that can go down does:
						 * the first down port bringing D
						 * overrides an up entry, so no path
						 * entering u by a down hop turns up.
						 */
						uint64_t db = df[(size_t)v * nw + w] &
							      ~udv[w] & ~pd[w];

						pd[w] |= db;
						if (restricted)
							lft_set_bits(&lft[u * lsz + lid0 + w * 64],
								     db, a->port[e]);
					}
					lft_set_bits(&lft[u * lsz + lid0 + w * 64],
						     bits, a->port[e]);
					pa[w] |= src[w] & ~uav[w];
				}
			}
		}
		for (i = 0; i < sz; i++) {
			if (an[i] | dn[i])
				more = 1;
			av[i] |= an[i];
			dv[i] |= dn[i];
			total += (uint64_t)__builtin_popcountll(an[i]);
		}
		{
			uint64_t *x = af;

			af = an;
			an = x;
			x = df;
			df = dn;
			dn = x;
		}
	}
	if (restricted && total < (uint64_t)nd * ns)
		swl_fallback(a, d0, nd, nw, av, dv, af, an);
out:
	free(av);
	free(dv);
	free(af);
	free(df);
	free(an);
	free(dn);
}

void ftsw_routing_own_lids(struct ftsw_routing *r)
{
	uint32_t s, lid;

	for (s = 0; s < r->nswitches; s++) {
		lid = ftsw_switch_lid(r, s);
		if (lid < r->lft_size && lid <= FTSW_LID_MAX)
			ftsw_lft(r, s)[lid] = 0;
	}
}

int ftsw_route_switch_lids(const struct ftsw_topo *t, struct ftsw_routing *r,
			   const int *height, unsigned threads,
			   struct ftsw_err *err)
{
	struct swl a = { .t = t, .r = r, .height = height };
	uint32_t ns = t->nswitches, s, n = 0;
	int rc = -1;

	a.first = malloc(((size_t)ns + 2) * sizeof(uint32_t));
	a.nbr = malloc(((size_t)t->nports + 1) * sizeof(uint32_t));
	a.port = malloc((size_t)t->nports + 1);
	a.peer_port = malloc((size_t)t->nports + 1);
	a.up = malloc((size_t)t->nports + 1);
	if (!a.first || !a.nbr || !a.port || !a.peer_port || !a.up) {
		ftsw_err_errno(err, ENOMEM, "switch LIDs: out of memory");
		goto out;
	}
	for (s = 0; s < ns; s++) {
		const struct ftsw_node *nd = &t->nodes[t->switches[s]];
		unsigned p;

		a.first[s] = n;
		for (p = 1; p <= nd->nports; p++) {
			uint32_t u = ftsw_peer_switch(t, nd, p);

			if (u == FTSW_NONE)
				continue;
			a.nbr[n] = u;
			a.port[n] = (uint8_t)p;		/* s's port towards u */
			a.peer_port[n] = ftsw_port(t, t->switches[s], p)->peer_port;
			a.up[n] = height ? (uint8_t)is_up(height, s, u) : 0;
			n++;
		}
	}
	a.first[ns] = n;
	ftsw_parallel_for(threads, (ns + 64 * SWL_W - 1) / (64 * SWL_W),
			  swl_block, &a);
	r->flags |= FTSW_RT_SWITCH_LIDS;
	rc = 0;
out:
	free(a.first);
	free(a.nbr);
	free(a.port);
	free(a.peer_port);
	free(a.up);
	return rc;
}

struct ftsw_routing *ftsw_route(const char *name, const struct ftsw_topo *t,
				const struct ftsw_route_opts *o,
				struct ftsw_err *err)
{
	const struct ftsw_engine *e = ftsw_engine_find(name);
	struct ftsw_routing *r;

	if (!e) {
		ftsw_err_set(err, "unknown routing engine '%s'", name);
		return NULL;
	}
	r = routing_alloc(t, o->lmc, o->extended_lids,
			  !(e->flags & FTSW_ENGINE_INITS_LFTS), err);
	if (!r)
		return NULL;
	snprintf(r->engine, sizeof(r->engine), "%s", e->name);
	r->flags = e->flags & ~FTSW_ENGINE_INITS_LFTS;
	if (e->route(t, o, r, err)) {
		ftsw_routing_free(r);
		return NULL;
	}
	ftsw_routing_count_unroutable(r, o->threads);
	return r;
}

/*
 * ftsw_route() at the smallest LMC from o->lmc up that the engine accepts;
 * with extend_lids, an LMC whose LIDs pass 0xBFFF is tried with extended
 * LIDs. On failure err holds the engine's complaint at o->lmc.
 */
static struct ftsw_routing *route_min_lmc(const char *name,
					  const struct ftsw_topo *t,
					  const struct ftsw_route_opts *o,
					  bool extend_lids,
					  struct ftsw_err *err)
{
	struct ftsw_route_opts ro = *o;
	struct ftsw_routing *r;
	struct ftsw_err later;

	r = ftsw_route(name, t, &ro, err);
	while (!r && ftsw_engine_find(name) && ro.lmc < FTSW_LMC_MAX) {
		ro.lmc++;
		if (extend_lids && ftsw_lid_need(t, ro.lmc) > FTSW_LID_MAX)
			ro.extended_lids = true;
		/* the error worth reporting is the one at the LMC asked for */
		r = ftsw_route(name, t, &ro, &later);
	}
	return r;
}

const char *ftsw_engine_default(const struct ftsw_topo *t)
{
	if (t->is_pgft && !t->degraded)
		return "dmodk";
	if (t->is_pgft)
		return "dmodc";
	if (ftsw_engine_find("dfsssp"))
		return "dfsssp";
	return "updn";
}

struct ftsw_routing *ftsw_route_make(const struct ftsw_topo *t,
				     const struct ftsw_route_req *q,
				     struct ftsw_err *err)
{
	const char *eng = q->engine ? q->engine : ftsw_engine_default(t);
	struct ftsw_routing *r;

	if (q->lfts)
		r = ftsw_lfts_read(t, q->lfts, q->o.lmc, q->o.extended_lids,
				   err);
	else if (q->lmc_given)
		r = ftsw_route(eng, t, &q->o, err);
	else
		r = route_min_lmc(eng, t, &q->o, q->extend_lids, err);
	if (r && q->groups && ftsw_ar_read(r, q->groups, err)) {
		ftsw_routing_free(r);
		return NULL;
	}
	if (r && q->o.adaptive && !q->groups &&
	    ftsw_route_adaptive(r, q->o.threads, err)) {
		ftsw_routing_free(r);
		return NULL;
	}
	return r;
}

/*
 * Unroutable pairs, the same for every engine: per destination LID, follow
 * the tables from every switch with hosts, memoised over switches (each
 * switch is judged once per LID: 1 delivers, 2 does not, 3 on the walk).
 */
struct unr {
	const struct ftsw_routing *r;
	const uint32_t *hosts_at;	/* hosts per switch */
	uint32_t detached;		/* hosts cabled to no switch */
	uint32_t *first_src;		/* per destination: first failing switch */
	uint32_t *portcode;		/* per port: peer switch, host or FAIL */
	uint32_t *src, nsrc;		/* switches with hosts */
	size_t per_block;		/* destinations per unr_block */
	_Atomic uint64_t bad;
	atomic_bool oom;
};

#define UNR_OK	0xFFFFFFFEu	/* delivered to the LID's host */
#define UNR_FAIL 0xFFFFFFFFu	/* no route, dead port, wrong host */
#define UNR_HOST 0x80000000u	/* portcode: a host's index | UNR_HOST */

/* Follow col (next switch per switch, LID j) from s, memoised. */
static int unr_walk(const uint32_t *col, uint32_t j, uint8_t *st, uint32_t s,
		    uint32_t *stack)
{
	uint32_t n = 0, i, cur = s;
	int verdict;

	for (;;) {
		if (st[cur] == 1 || st[cur] == 2) {
			verdict = st[cur];
			break;
		}
		if (st[cur] == 3) {	/* loop */
			verdict = 2;
			break;
		}
		st[cur] = 3;
		stack[n++] = cur;
		if (col[(size_t)cur * 64 + j] >= UNR_OK) {
			verdict = col[(size_t)cur * 64 + j] == UNR_OK ? 1 : 2;
			break;
		}
		cur = col[(size_t)cur * 64 + j];
	}
	for (i = 0; i < n; i++)
		st[stack[i]] = (uint8_t)verdict;
	return verdict;
}

/* col[s * 64 + j]: where switch s sends LID lid0 + j */
static void unr_columns(const struct unr *a, uint32_t lid0, uint32_t nlid,
			uint32_t *col)
{
	const struct ftsw_routing *r = a->r;
	const struct ftsw_topo *t = r->topo;
	uint32_t ns = r->nswitches, s, j;

	for (s = 0; s < ns; s++) {
		const struct ftsw_node *nd = &t->nodes[t->switches[s]];
		const uint32_t *pc = &a->portcode[nd->first_port];
		const uint8_t *l = ftsw_lft(r, s) + lid0;
		uint32_t *c = &col[(size_t)s * 64];

		for (j = 0; j < nlid; j++, c++) {
			uint8_t p = l[j];
			uint32_t v = p && p <= nd->nports ? pc[p - 1] : UNR_FAIL;

			if (v & UNR_HOST)
				v = v != UNR_FAIL &&
				    (v & ~UNR_HOST) == ((lid0 + j) >> r->lmc) - 1 ?
				    UNR_OK : UNR_FAIL;
			*c = v;
		}
	}
}

static void unr_dest(struct unr *a, size_t d, uint32_t lid0,
		     const uint32_t *col, uint8_t *st, uint8_t *fail,
		     uint32_t *stack)
{
	const struct ftsw_routing *r = a->r;
	const struct ftsw_topo *t = r->topo;
	uint32_t ns = r->nswitches, s, o, dsw, dsi = FTSW_NONE;
	uint64_t bad = 0;

	a->first_src[d] = FTSW_NONE;
	memset(fail, 0, ns);
	dsw = ftsw_host_switch(t, t->hosts[d]);
	if (dsw != FTSW_NONE)
		dsi = t->nodes[dsw].index;
	for (o = 0; dsi != FTSW_NONE && o < (1u << r->lmc); o++) {
		uint32_t j = ftsw_host_lid(r, (uint32_t)d) + o - lid0;

		uint32_t i;

		memset(st, 0, ns);
		for (i = 0; i < a->nsrc; i++)
			if (unr_walk(col, j, st, a->src[i], stack) != 1)
				fail[a->src[i]] = 1;
	}
	for (s = 0; s < ns; s++) {
		uint64_t n = a->hosts_at[s];

		if (!n || (dsi != FTSW_NONE && !fail[s]))
			continue;
		bad += n - (s == dsi);
		if (a->first_src[d] == FTSW_NONE)
			a->first_src[d] = s;
	}
	/* hosts attached to no switch reach nobody */
	bad += a->detached - (dsi == FTSW_NONE);
	if (a->detached > (dsi == FTSW_NONE) && a->first_src[d] == FTSW_NONE)
		a->first_src[d] = ns;	/* a detached host */
	atomic_fetch_add(&a->bad, bad);
}

/*
 * Destinations in blocks of 64 LIDs: each switch's slice of the block is
 * gathered once into columns (walking the tables one LID at a time would
 * fetch a cache line and a page per switch and LID).
 */
static void unr_block(size_t blk, void *arg)
{
	struct unr *a = arg;
	const struct ftsw_routing *r = a->r;
	uint32_t ns = r->nswitches;
	size_t d, d0 = blk * a->per_block, d1 = d0 + a->per_block;
	uint32_t lid0, nlid;
	uint8_t *st = malloc(ns + 1), *fail = malloc(ns + 1);
	uint32_t *stack = malloc((ns + 1) * sizeof(uint32_t));
	uint32_t *col = malloc(((size_t)ns * 64 + 1) * sizeof(uint32_t));

	if (d1 > r->nhosts)
		d1 = r->nhosts;
	lid0 = ftsw_host_lid(r, (uint32_t)d0);
	nlid = (uint32_t)(d1 - d0) << r->lmc;
	if (!st || !fail || !stack || !col) {
		atomic_store(&a->oom, true);
		goto out;
	}
	unr_columns(a, lid0, nlid, col);
	for (d = d0; d < d1; d++)
		unr_dest(a, d, lid0, col, st, fail, stack);
out:
	free(st);
	free(fail);
	free(stack);
	free(col);
}

/* r->warning = note (the count's, remembered as such) + the rest */
static void unr_note_join(struct ftsw_routing *r, const char *note,
			  const char *rest)
{
	size_t max = sizeof(r->warning) - 1, nl = strlen(note), rl = strlen(rest);

	if (nl > max)
		nl = max;
	if (rl > max - nl)
		rl = max - nl;
	memcpy(r->warning, note, nl);
	memcpy(r->warning + nl, rest, rl);
	r->warning[nl + rl] = 0;
	r->warning_unr = nl;
}

uint64_t ftsw_routing_count_unroutable(struct ftsw_routing *r,
				       unsigned threads)
{
	const struct ftsw_topo *t = r->topo;
	struct unr a = { .r = r };
	uint32_t h, *hosts_at = calloc(r->nswitches + 1, sizeof(uint32_t));
	char why[sizeof(r->warning)], note[sizeof(r->warning)];
	size_t own;

	/* a count's note from an earlier count goes: it is written again */
	own = strlen(r->warning);
	if (r->warning_unr <= own)
		memmove(r->warning, r->warning + r->warning_unr,
			own - r->warning_unr + 1);
	r->warning_unr = 0;
	a.first_src = malloc(((size_t)r->nhosts + 1) * sizeof(uint32_t));
	a.portcode = malloc(((size_t)t->nports + 1) * sizeof(uint32_t));
	atomic_init(&a.bad, 0);
	atomic_init(&a.oom, false);
	if (!hosts_at || !a.first_src || !a.portcode || r->nhosts != t->nhosts ||
	    t->nswitches >= UNR_HOST || t->nhosts >= UNR_HOST - 1) {
		free(hosts_at);
		free(a.first_src);
		free(a.portcode);
		return r->unroutable_pairs;
	}
	for (h = 0; h < t->nports; h++) {
		const struct ftsw_port *x = &t->ports[h];

		a.portcode[h] = x->peer == FTSW_NONE ? UNR_FAIL :
			t->nodes[x->peer].kind == FTSW_SWITCH ?
			t->nodes[x->peer].index :
			UNR_HOST | t->nodes[x->peer].index;
	}
	for (h = 0; h < r->nhosts; h++) {
		uint32_t sw = ftsw_host_switch(t, t->hosts[h]);

		if (sw == FTSW_NONE)
			a.detached++;
		else
			hosts_at[t->nodes[sw].index]++;
	}
	a.hosts_at = hosts_at;
	a.src = malloc(((size_t)r->nswitches + 1) * sizeof(uint32_t));
	if (!a.src) {
		atomic_store(&a.oom, true);
		goto out;
	}
	for (h = 0; h < r->nswitches; h++)
		if (hosts_at[h])
			a.src[a.nsrc++] = h;
	a.per_block = (64u >> r->lmc) ? (64u >> r->lmc) : 1;
	ftsw_parallel_for(threads, (r->nhosts + a.per_block - 1) / a.per_block,
			  unr_block, &a);
	if (!atomic_load(&a.oom)) {
		r->unroutable_pairs = atomic_load(&a.bad);
		for (h = 0; h < r->nhosts && r->unroutable_pairs; h++) {
			uint32_t s = a.first_src[h];

			if (s == FTSW_NONE)
				continue;
			snprintf(why, sizeof(why), "%s", r->warning);
			snprintf(note, sizeof(note),
				 "%s: %llu ordered host pairs unroutable, first: "
				 "to host '%.40s' from %s '%.40s'%s", r->engine,
				 (unsigned long long)r->unroutable_pairs,
				 t->nodes[t->hosts[h]].desc ?
				 t->nodes[t->hosts[h]].desc : "?",
				 s == r->nswitches ? "a host on no switch" :
				 "the hosts of switch",
				 s == r->nswitches ? "" :
				 (t->nodes[t->switches[s]].desc ?
				  t->nodes[t->switches[s]].desc : "?"),
				 why[0] ? "; " : "");
			unr_note_join(r, note, why);
			break;
		}
	}
out:
	free(hosts_at);
	free(a.first_src);
	free(a.portcode);
	free(a.src);
	return r->unroutable_pairs;
}
