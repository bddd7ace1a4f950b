// SPDX-License-Identifier: GPL-2.0
/*
 * Adaptive routing groups (routing.h, Documentation/routing.md "Adaptive
 * routing"): the sets, the engines' groups and their proof, the text
 * format.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "route/routing.h"
#include "util/parse.h"
#include "util/text.h"

int ftsw_ar_alloc(struct ftsw_routing *r, struct ftsw_err *err)
{
	struct ftsw_ar *ar;

	if (r->ar)
		return 0;
	ar = calloc(1, sizeof(*ar));
	if (ar) {
		ar->grp = calloc((size_t)r->nswitches * r->lft_size + 1,
				 sizeof(*ar->grp));
		ar->cap = 16;
		ar->sets = calloc(ar->cap, sizeof(*ar->sets));
		ar->nsets = 1;
	}
	if (!ar || !ar->grp || !ar->sets) {
		ftsw_ar_free(ar);
		ftsw_err_errno(err, ENOMEM, "out of memory for the adaptive "
			       "groups (%u switches x %zu LIDs)", r->nswitches,
			       r->lft_size);
		return -1;
	}
	r->ar = ar;
	return 0;
}

void ftsw_ar_free(struct ftsw_ar *ar)
{
	if (!ar)
		return;
	free(ar->grp);
	free(ar->sets);
	free(ar);
}

static unsigned set_count(const uint64_t set[4])
{
	return (unsigned)(__builtin_popcountll(set[0]) +
			  __builtin_popcountll(set[1]) +
			  __builtin_popcountll(set[2]) +
			  __builtin_popcountll(set[3]));
}

/* The index of set in ar->sets, added when new: > 0, or 0 when full. */
static uint32_t set_id(struct ftsw_ar *ar, const uint64_t set[4])
{
	uint32_t i;

	/* consecutive LIDs of a switch mostly share a set: newest first */
	for (i = ar->nsets; i-- > 1;)
		if (!memcmp(ar->sets[i], set, sizeof(ar->sets[i])))
			return i;
	if (ar->nsets > FTSW_AR_MAX_SETS)
		return 0;
	if (ar->nsets == ar->cap) {
		uint32_t nc = ar->cap * 2;
		uint64_t (*ns)[4] = realloc(ar->sets, nc * sizeof(*ns));

		if (!ns)
			return 0;
		ar->sets = ns;
		ar->cap = nc;
	}
	memcpy(ar->sets[ar->nsets], set, sizeof(ar->sets[0]));
	return ar->nsets++;
}

int ftsw_ar_set(struct ftsw_routing *r, uint32_t sw, uint32_t lid,
		const uint64_t set[4], struct ftsw_err *err)
{
	uint8_t st = ftsw_lft(r, sw)[lid];
	uint16_t *g = &r->ar->grp[(size_t)sw * r->lft_size + lid];
	uint64_t s[4];
	uint32_t id;

	memcpy(s, set, sizeof(s));
	if (st != FTSW_PORT_NONE)
		s[st / 64] |= 1ULL << (st % 64);
	if (set_count(s) <= 1) {
		r->ar->entries -= *g != 0;
		*g = 0;
		return 0;
	}
	id = set_id(r->ar, s);
	if (!id) {
		ftsw_err_errno(err, ERANGE, "adaptive groups: more than %u "
			       "distinct port sets", FTSW_AR_MAX_SETS);
		return -1;
	}
	r->ar->entries += *g == 0;
	*g = (uint16_t)id;
	return 0;
}

unsigned ftsw_ar_ports(const struct ftsw_routing *r, uint32_t sw,
		       uint32_t lid, uint8_t *ports)
{
	uint8_t st = ftsw_lft(r, sw)[lid];
	const uint64_t *s;
	unsigned p, n = 0;

	if (!ftsw_ar_has(r, sw, lid)) {
		if (st == FTSW_PORT_NONE || st == 0)
			return 0;
		ports[0] = st;
		return 1;
	}
	s = r->ar->sets[r->ar->grp[(size_t)sw * r->lft_size + lid]];
	for (p = 1; p < 255; p++)
		if (s[p / 64] >> (p % 64) & 1)
			ports[n++] = (uint8_t)p;
	return n;
}

/* ------------------------------------------------------ the engines' */

static int hop_up(const struct ftsw_routing *r, uint32_t u, uint32_t v)
{
	int hu = r->rank_from_top ? -r->rank[u] : r->rank[u];
	int hv = r->rank_from_top ? -r->rank[v] : r->rank[v];

	return hv > hu || (hv == hu && v > u);
}

#define LEN_UNK		0xffff
#define LEN_BAD		0xfffe
#define LEN_BUSY	0xfffd

/*
 * Switch hops of the static path from every switch to host LID lid's
 * delivery (1 at the destination's leaf), LEN_BAD where it fails.
 */
static void static_lengths(const struct ftsw_routing *r, uint32_t lid,
			   uint32_t dnode, uint16_t *len, uint32_t *stack)
{
	const struct ftsw_topo *t = r->topo;
	uint32_t ns = r->nswitches, s;

	for (s = 0; s < ns; s++)
		len[s] = LEN_UNK;
	for (s = 0; s < ns; s++) {
		uint32_t sp = 0, cur = s;
		uint16_t res;

		for (;;) {
			const struct ftsw_node *n = &t->nodes[t->switches[cur]];
			uint8_t p = ftsw_lft(r, cur)[lid];
			uint32_t peer = FTSW_NONE;

			if (len[cur] == LEN_BUSY) {
				res = LEN_BAD;		/* a loop */
				break;
			}
			if (len[cur] != LEN_UNK) {
				res = len[cur];
				break;
			}
			if (p != FTSW_PORT_NONE && p != 0 && p <= n->nports)
				peer = ftsw_port(t, t->switches[cur], p)->peer;
			if (peer == FTSW_NONE ||
			    t->nodes[peer].kind == FTSW_HOST) {
				res = peer == dnode ? 1 : LEN_BAD;
				len[cur] = res;
				break;
			}
			len[cur] = LEN_BUSY;
			stack[sp++] = cur;
			cur = t->nodes[peer].index;
		}
		while (sp) {
			res = res >= LEN_BUSY - 1 ? LEN_BAD : (uint16_t)(res + 1);
			len[stack[--sp]] = res;
		}
	}
}

/* The group of switch s for lid: ports as good as the static one. */
static void group_of(const struct ftsw_routing *r, uint32_t s, uint32_t lid,
		     const uint16_t *len, uint64_t set[4])
{
	const struct ftsw_topo *t = r->topo;
	const struct ftsw_node *n = &t->nodes[t->switches[s]];
	uint8_t st = ftsw_lft(r, s)[lid];
	uint32_t u;
	unsigned q;
	int up;

	memset(set, 0, 4 * sizeof(uint64_t));
	if (st == FTSW_PORT_NONE || st == 0 || st > n->nports)
		return;
	u = ftsw_peer_switch(t, n, st);
	if (u == FTSW_NONE || len[u] >= LEN_BUSY)
		return;
	up = r->rank ? hop_up(r, s, u) : 0;
	for (q = 1; q <= n->nports; q++) {
		uint32_t v = ftsw_peer_switch(t, n, q);

		if (v == FTSW_NONE || len[v] != len[u])
			continue;
		if (r->rank && hop_up(r, s, v) != up)
			continue;
		set[q / 64] |= 1ULL << (q % 64);
	}
}

/* ------------------------------------- layered engines: a greedy filter */

static const char *t_name(const struct ftsw_topo *t, uint32_t s)
{
	const char *d = t->nodes[t->switches[s]].desc;

	return d ? d : "?";
}

/*
 * For an engine whose deadlock freedom is its virtual layers (sssp,
 * dfsssp, lash, dor, minhop on one VL...), a group port joins only when
 * every channel dependency it adds keeps its VL's channel dependency
 * graph acyclic. The graph starts as the static tables' (every source's
 * path to every host LID on its pair's VL); per LID the switches are
 * taken upstream first (longest static path first: every switch feeding
 * another is one hop longer), so a switch's in-channels (the allowed ports
 * of the reached switches that lead to it) are known when its candidates
 * are tried. A candidate q at s adds, on each VL reaching s, in-channel ->
 * (s, q) and (s, q) -> the static port of the switch behind q; an edge
 * a -> b closes a cycle when a is reachable from b.
 */
struct arf {
	const struct ftsw_routing *r;
	const struct ftsw_topo *t;
	unsigned nvl;
	uint64_t *dep;		/* [v][channel][4]: next ports on the peer */
	uint32_t *stamp, cur, *stk;
	uint8_t *reach;		/* [v][switch] for the LID at hand */
	uint64_t kept, refused;
	char first[160];
};

static inline uint64_t *arf_dep(struct arf *f, unsigned v, uint32_t ch)
{
	return f->dep + ((size_t)v * f->t->nports + ch) * 4;
}

/* The channel out of switch s by port p (its global port id). */
static inline uint32_t arf_ch(const struct arf *f, uint32_t s, unsigned p)
{
	return f->t->nodes[f->t->switches[s]].first_port + p - 1;
}

/* The switch a channel leads to, or FTSW_NONE (a host, no cable). */
static uint32_t arf_to(const struct arf *f, uint32_t ch)
{
	uint32_t peer = f->t->ports[ch].peer;

	return peer != FTSW_NONE && f->t->nodes[peer].kind == FTSW_SWITCH ?
	       f->t->nodes[peer].index : FTSW_NONE;
}

/* Is channel `to` reachable from channel `from` on VL v? */
static bool arf_reaches(struct arf *f, unsigned v, uint32_t from, uint32_t to)
{
	uint32_t sp = 0;

	f->cur++;
	f->stk[sp++] = from;
	f->stamp[from] = f->cur;
	while (sp) {
		uint32_t ch = f->stk[--sp], peer = f->t->ports[ch].peer;
		const uint64_t *d = arf_dep(f, v, ch);
		unsigned w, q;

		if (ch == to)
			return true;
		for (w = 0; w < 4; w++) {
			uint64_t b = d[w];

			while (b) {
				uint32_t nx;

				q = w * 64 + (unsigned)__builtin_ctzll(b);
				b &= b - 1;
				nx = f->t->nodes[peer].first_port + q - 1;
				if (f->stamp[nx] != f->cur) {
					f->stamp[nx] = f->cur;
					f->stk[sp++] = nx;
				}
			}
		}
	}
	return false;
}

static inline void arf_set(struct arf *f, unsigned v, uint32_t ch, unsigned q)
{
	arf_dep(f, v, ch)[q / 64] |= 1ULL << (q % 64);
}

static inline bool arf_has(struct arf *f, unsigned v, uint32_t ch, unsigned q)
{
	return arf_dep(f, v, ch)[q / 64] >> (q % 64) & 1;
}

/* Add edge ch -> port q of its peer unless it closes a cycle. */
static bool arf_try(struct arf *f, unsigned v, uint32_t ch, unsigned q,
		    uint32_t *undo, unsigned *nundo)
{
	uint32_t peer = f->t->ports[ch].peer;

	if (arf_has(f, v, ch, q))
		return true;
	if (arf_reaches(f, v, f->t->nodes[peer].first_port + q - 1, ch))
		return false;
	arf_set(f, v, ch, q);
	undo[(*nundo)++] = (uint32_t)v << 24 | q << 16;
	undo[(*nundo)++] = ch;
	return true;
}

static unsigned pair_vl(const struct arf *f, uint32_t src, uint32_t dst)
{
	return f->r->sl ? f->r->sl[(size_t)src * f->r->nhosts + dst] % f->nvl : 0;
}

/* The static tables' dependencies for host LID lid (host d). */
static void arf_static(struct arf *f, uint32_t lid, uint32_t d)
{
	const struct ftsw_routing *r = f->r;
	const struct ftsw_topo *t = f->t;
	uint32_t ns = r->nswitches, n, s;
	unsigned v;

	memset(f->reach, 0, (size_t)f->nvl * ns);
	for (n = 0; n < t->nhosts; n++) {
		uint32_t leaf = ftsw_host_switch(t, t->hosts[n]);

		if (n == d || leaf == FTSW_NONE)
			continue;
		s = t->nodes[leaf].index;
		v = pair_vl(f, n, d);
		/* the static path from the leaf, until it joins a known one */
		while (s != FTSW_NONE && !f->reach[(size_t)v * ns + s]) {
			uint8_t p = ftsw_lft(r, s)[lid];
			uint32_t u;

			f->reach[(size_t)v * ns + s] = 1;
			if (p == FTSW_PORT_NONE || !p ||
			    p > t->nodes[t->switches[s]].nports)
				break;
			u = arf_to(f, arf_ch(f, s, p));
			if (u != FTSW_NONE) {
				uint8_t q = ftsw_lft(r, u)[lid];

				if (q != FTSW_PORT_NONE && q &&
				    q <= t->nodes[t->switches[u]].nports &&
				    arf_to(f, arf_ch(f, u, q)) != FTSW_NONE)
					arf_set(f, v, arf_ch(f, s, p), q);
			}
			s = u;
		}
	}
}

/*
 * The static path of lid from switch x on, on VL v, to the first switch
 * already reached on v (whose path's dependencies are in): its
 * dependencies, unless one closes a cycle.
 */
static bool arf_chain(struct arf *f, unsigned v, uint32_t x, uint32_t lid,
		      uint32_t *undo, unsigned *nundo)
{
	uint32_t ns = f->r->nswitches, hops = 0;

	while (x != FTSW_NONE && hops++ < ns) {
		uint8_t p = ftsw_lft(f->r, x)[lid], q;
		uint32_t y;

		if (p == FTSW_PORT_NONE || !p ||
		    p > f->t->nodes[f->t->switches[x]].nports)
			return true;
		y = arf_to(f, arf_ch(f, x, p));
		if (y == FTSW_NONE)
			return true;
		q = ftsw_lft(f->r, y)[lid];
		if (q != FTSW_PORT_NONE && q &&
		    q <= f->t->nodes[f->t->switches[y]].nports &&
		    arf_to(f, arf_ch(f, y, q)) != FTSW_NONE &&
		    !arf_try(f, v, arf_ch(f, x, p), q, undo, nundo))
			return false;
		if (f->reach[(size_t)v * ns + y])
			return true;
		x = y;
	}
	return true;
}

/* Candidate q of switch s for lid: added, or refused and undone. */
static bool arf_candidate(struct arf *f, uint32_t s, uint32_t lid, unsigned q,
			  uint32_t *undo)
{
	const struct ftsw_topo *t = f->t;
	const struct ftsw_node *n = &t->nodes[t->switches[s]];
	uint32_t ns = f->r->nswitches, out = arf_ch(f, s, q);
	uint32_t u = arf_to(f, out);
	unsigned nundo = 0, v, i, k;
	uint8_t st_u = u != FTSW_NONE ? ftsw_lft(f->r, u)[lid] : 0;
	bool ok = true;

	for (v = 0; v < f->nvl && ok; v++) {
		if (!f->reach[(size_t)v * ns + s])
			continue;
		/* in-channels: allowed ports of reached switches into s */
		for (i = 1; i <= n->nports && ok; i++) {
			uint32_t w = ftsw_peer_switch(t, n, i), back;
			uint8_t ports[255];
			unsigned np;

			if (w == FTSW_NONE || !f->reach[(size_t)v * ns + w])
				continue;
			back = t->ports[n->first_port + i - 1].peer_port;
			np = ftsw_ar_ports(f->r, w, lid, ports);
			for (k = 0; k < np && ports[k] != back; k++)
				;
			if (k < np)
				ok = arf_try(f, v, arf_ch(f, w, back), q, undo,
					     &nundo);
		}
		if (ok && u != FTSW_NONE && st_u != FTSW_PORT_NONE && st_u &&
		    arf_to(f, arf_ch(f, u, st_u)) != FTSW_NONE)
			ok = arf_try(f, v, out, st_u, undo, &nundo);
		/* u newly reached on v: its static path's dependencies too */
		if (ok && u != FTSW_NONE && !f->reach[(size_t)v * ns + u])
			ok = arf_chain(f, v, u, lid, undo, &nundo);
	}
	if (ok)
		return true;
	while (nundo) {
		uint32_t ch = undo[--nundo], w = undo[--nundo];

		arf_dep(f, w >> 24, ch)[(w >> 16 & 0xff) / 64] &=
			~(1ULL << ((w >> 16 & 0xff) % 64));
	}
	return false;
}

/* Reach on from s over its allowed ports, for every VL reaching s. */
static void arf_spread(struct arf *f, uint32_t s, uint32_t lid)
{
	uint32_t ns = f->r->nswitches;
	uint8_t ports[255];
	unsigned np = ftsw_ar_ports(f->r, s, lid, ports), v, i;

	for (v = 0; v < f->nvl; v++) {
		if (!f->reach[(size_t)v * ns + s])
			continue;
		for (i = 0; i < np; i++) {
			uint32_t u = arf_to(f, arf_ch(f, s, ports[i]));

			if (u != FTSW_NONE)
				f->reach[(size_t)v * ns + u] = 1;
		}
	}
}

/* The leaves of host d's sources, on their pairs' VLs. */
static void arf_starts(struct arf *f, uint32_t d)
{
	const struct ftsw_topo *t = f->t;
	uint32_t ns = f->r->nswitches, n;

	memset(f->reach, 0, (size_t)f->nvl * ns);
	for (n = 0; n < t->nhosts; n++) {
		uint32_t leaf = ftsw_host_switch(t, t->hosts[n]);

		if (n != d && leaf != FTSW_NONE)
			f->reach[(size_t)pair_vl(f, n, d) * ns +
				 t->nodes[leaf].index] = 1;
	}
}

/* The groups of host LID lid, filtered; 0 or -1 (too many sets). */
static int arf_lid(struct arf *f, struct ftsw_routing *r, uint32_t lid,
		   uint32_t d, const uint16_t *len, uint32_t *order,
		   uint32_t *undo, struct ftsw_err *err)
{
	uint32_t ns = r->nswitches, s, i, n = 0;

	arf_starts(f, d);
	for (s = 0; s < ns; s++)
		if (len[s] < LEN_BUSY)
			order[n++] = s;
	/* upstream first: longest static path first (insertion, small n) */
	for (i = 1; i < n; i++) {
		uint32_t x = order[i], j = i;

		while (j && len[order[j - 1]] < len[x]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = x;
	}
	for (i = 0; i < n; i++) {
		uint64_t cand[4], keep[4] = { 0 };
		uint8_t st;
		unsigned q;

		s = order[i];
		st = ftsw_lft(r, s)[lid];
		if (len[s] > 1) {
			group_of(r, s, lid, len, cand);
			for (q = 1; q < 255; q++) {
				if (!(cand[q / 64] >> (q % 64) & 1) || q == st)
					continue;
				if (arf_candidate(f, s, lid, q, undo)) {
					keep[q / 64] |= 1ULL << (q % 64);
					f->kept++;
					continue;
				}
				if (!f->refused++)
					snprintf(f->first, sizeof(f->first),
						 "switch %s, LID %u, port %u",
						 t_name(r->topo, s), lid, q);
			}
			if (set_count(keep) && ftsw_ar_set(r, s, lid, keep, err))
				return -1;
		}
		arf_spread(f, s, lid);
	}
	return 0;
}

/* The check's first complaint, for the refusal. */
static const char *first_line(const char *rep, char *buf, size_t sz)
{
	size_t n;

	if (!rep)
		return "a cycle";
	n = strcspn(rep, "\n");
	snprintf(buf, sz, "%.*s", (int)(n < sz ? n : sz - 1), rep);
	return buf;
}

/*
 * Prove the groups: every VL's CDG acyclic over every path they allow.
 * When it is not, the complaint says whether the tables alone are.
 */
static int ar_prove(struct ftsw_routing *r, unsigned threads,
		    struct ftsw_err *err)
{
	struct ftsw_check_opts co = { .cdg = true, .threads = threads };
	struct ftsw_check_result res, st;
	struct ftsw_ar *ar = r->ar;
	char line[256];
	bool bare_bad;

	if (ftsw_routing_check(r, &co, &res, err))
		return -1;
	if (!res.cdg_cyclic_vls && !res.ar_bad) {
		ftsw_check_result_free(&res);
		return 0;
	}
	r->ar = NULL;
	if (ftsw_routing_check(r, &co, &st, err)) {
		r->ar = ar;
		ftsw_check_result_free(&res);
		return -1;
	}
	r->ar = ar;
	bare_bad = st.cdg_cyclic_vls != 0;
	ftsw_check_result_free(&st);
	if (bare_bad)
		ftsw_err_set(err, "--adaptive: %s's tables are not deadlock-"
			     "free without groups already (%s): adaptive "
			     "routing is refused", r->engine,
			     first_line(res.report, line, sizeof(line)));
	else
		ftsw_err_set(err, "--adaptive: groups of equally long paths "
			     "would break %s's %s (%s): adaptive routing is "
			     "refused", r->engine, r->nvls > 1 ?
			     "virtual layers" : "deadlock freedom",
			     first_line(res.report, line, sizeof(line)));
	ftsw_check_result_free(&res);
	return -1;
}

/*
 * Layered engines: the static tables must be deadlock-free already; then
 * every candidate is kept or refused by the greedy filter.
 */
static int ar_layered(struct ftsw_routing *r, uint16_t *len, uint32_t *stack,
		      unsigned threads, struct ftsw_err *err)
{
	const struct ftsw_topo *t = r->topo;
	struct ftsw_check_opts co = { .cdg = true, .threads = threads };
	struct ftsw_check_result res;
	struct arf f = { .r = r, .t = t, .nvl = r->nvls ? r->nvls : 1 };
	uint32_t ns = r->nswitches, lid, *order, *undo;
	char line[256];
	int rc = -1;

	if (ftsw_routing_check(r, &co, &res, err))
		return -1;
	if (res.cdg_cyclic_vls) {
		ftsw_err_set(err, "--adaptive: %s's tables are not deadlock-"
			     "free without groups already (%s): adaptive "
			     "routing is refused", r->engine,
			     first_line(res.report, line, sizeof(line)));
		ftsw_check_result_free(&res);
		return -1;
	}
	ftsw_check_result_free(&res);
	f.dep = calloc((size_t)f.nvl * t->nports * 4 + 1, sizeof(uint64_t));
	f.stamp = calloc(t->nports + 1, sizeof(uint32_t));
	f.stk = malloc((t->nports + 1) * sizeof(uint32_t));
	f.reach = malloc((size_t)f.nvl * ns + 1);
	order = malloc((ns + 1) * sizeof(*order));
	undo = malloc(((size_t)f.nvl * 256 * 2 + 8) * sizeof(*undo));
	if (!f.dep || !f.stamp || !f.stk || !f.reach || !order || !undo) {
		ftsw_err_errno(err, ENOMEM, "--adaptive: out of memory");
		goto out;
	}
	for (lid = 1; lid <= r->max_lid; lid++) {
		uint32_t idx;

		if (ftsw_lid_owner(r, lid, &idx, NULL) == FTSW_HOST)
			arf_static(&f, lid, idx);
	}
	for (lid = 1; lid <= r->max_lid; lid++) {
		uint32_t idx;

		if (ftsw_lid_owner(r, lid, &idx, NULL) != FTSW_HOST)
			continue;
		static_lengths(r, lid, t->hosts[idx], len, stack);
		if (arf_lid(&f, r, lid, idx, len, order, undo, err))
			goto out;
	}
	if (f.refused) {
		size_t l = strlen(r->info);

		snprintf(r->info + l, sizeof(r->info) - l, "%sadaptive: %llu "
			 "group ports kept, %llu refused (each would close a "
			 "cycle in its VL's CDG; first: %s)", l ? "; " : "",
			 (unsigned long long)f.kept,
			 (unsigned long long)f.refused, f.first);
	}
	rc = 0;
out:
	free(f.dep);
	free(f.stamp);
	free(f.stk);
	free(f.reach);
	free(order);
	free(undo);
	return rc;
}

int ftsw_route_adaptive(struct ftsw_routing *r, unsigned threads,
			struct ftsw_err *err)
{
	const struct ftsw_topo *t = r->topo;
	uint32_t ns = r->nswitches, lid = 0, s;
	uint16_t *len = malloc((ns + 1) * sizeof(*len));
	uint32_t *stack = malloc((ns + 1) * sizeof(*stack));
	int rc = -1;

	if (r->max_lid > FTSW_LID_MAX) {
		ftsw_err_set(err, "--adaptive: not with extended LIDs (the "
			     "kernel's groups, like its tables, end at 0x%X)",
			     FTSW_LID_MAX);
		goto out;
	}
	if (!len || !stack) {
		ftsw_err_errno(err, ENOMEM, "--adaptive: out of memory");
		goto out;
	}
	if (ftsw_ar_alloc(r, err))
		goto out;
	/* engines whose deadlock freedom is up*down*: every candidate */
	if (!(r->flags & FTSW_RT_UPDOWN) || !r->rank) {
		if (ar_layered(r, len, stack, threads, err))
			goto fail;
		lid = r->max_lid + 1;
	}
	for (lid = lid ? lid : 1; lid <= r->max_lid; lid++) {
		uint32_t idx;

		if (ftsw_lid_owner(r, lid, &idx, NULL) != FTSW_HOST)
			continue;
		static_lengths(r, lid, t->hosts[idx], len, stack);
		for (s = 0; s < ns; s++) {
			uint64_t set[4];

			if (len[s] >= LEN_BUSY || len[s] == 1)
				continue;
			group_of(r, s, lid, len, set);
			if (set_count(set) > 1 && ftsw_ar_set(r, s, lid, set, err))
				goto fail;
		}
	}
	if (ar_prove(r, threads, err))
		goto fail;
	rc = 0;
	goto out;
fail:
	ftsw_ar_free(r->ar);
	r->ar = NULL;
out:
	free(len);
	free(stack);
	return rc;
}

/* ------------------------------------------------------ the text format */

static void write_run(FILE *f, uint32_t lo, uint32_t hi, const uint64_t *set)
{
	unsigned p, k = 0;

	if (lo == hi)
		fprintf(f, "0x%04x ", lo);
	else
		fprintf(f, "0x%04x-0x%04x ", lo, hi);
	for (p = 1; p < 255; p++)
		if (set[p / 64] >> (p % 64) & 1)
			fprintf(f, "%s%u", k++ ? "," : "", p);
	fputc('\n', f);
}

int ftsw_ar_write_file(const struct ftsw_routing *r, FILE *f)
{
	const struct ftsw_topo *t = r->topo;
	uint32_t s, lid;

	fprintf(f, "# ftsw adaptive routing groups (Documentation/routing.md): "
		"per switch, LID runs and their allowed ports\n");
	for (s = 0; r->ar && s < r->nswitches; s++) {
		const struct ftsw_node *n = &t->nodes[t->switches[s]];
		const uint16_t *g = &r->ar->grp[(size_t)s * r->lft_size];
		uint32_t lo = 0;
		bool head = false;

		for (lid = 1; lid <= r->max_lid + 1; lid++) {
			bool end = lid > r->max_lid || g[lid] != g[lo];

			if (lo && end) {
				if (!head)
					fprintf(f, "switch 0x%016" PRIx64 " '%s'\n",
						n->guid, n->desc ? n->desc : "");
				head = true;
				write_run(f, lo, lid - 1, r->ar->sets[g[lo]]);
			}
			if (lid <= r->max_lid && (end || !lo))
				lo = g[lid] ? lid : 0;
		}
	}
	return ferror(f) ? -EIO : 0;
}

static int ar_writer(const void *r, FILE *f)
{
	return ftsw_ar_write_file(r, f);
}

int ftsw_ar_write(const struct ftsw_routing *r, const char *path,
		  struct ftsw_err *err)
{
	return ftsw_write_path(path, ar_writer, r, err);
}

/* "0xLID[-0xLID] P,P,..." of switch s */
static int read_run(struct ftsw_routing *r, uint32_t s, char *line,
		    const char *where, struct ftsw_err *err)
{
	const struct ftsw_node *n = &r->topo->nodes[r->topo->switches[s]];
	uint64_t lo, hi, set[4] = { 0 }, p;
	char *w[3], *tok, *save = NULL;
	const char *end;
	uint32_t lid;

	if (ftsw_split_words(line, w, 2, NULL) != 2) {
		ftsw_err_set(err, "%s: expected 'LID[-LID] PORT,PORT,...'", where);
		return -1;
	}
	if (ftsw_parse_u64_prefix(where, w[0], 1, r->max_lid, &lo, &end, err))
		return -1;
	hi = lo;
	if (*end == '-' &&
	    ftsw_parse_u64_prefix(where, end + 1, lo, r->max_lid, &hi, &end,
				  err))
		return -1;
	if (*end) {
		ftsw_err_set(err, "%s: '%s' is not a LID or a LID range", where,
			     w[0]);
		return -1;
	}
	for (tok = strtok_r(w[1], ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (ftsw_parse_u64(where, tok, 1, n->nports, &p, err))
			return -1;
		set[p / 64] |= 1ULL << (p % 64);
	}
	for (lid = (uint32_t)lo; lid <= hi; lid++) {
		uint8_t st = ftsw_lft(r, s)[lid];
		uint32_t idx;

		if (ftsw_lid_owner(r, lid, &idx, NULL) != FTSW_HOST) {
			ftsw_err_set(err, "%s: LID 0x%04x is not a host's (groups "
				     "are for hosts' LIDs)", where, lid);
			return -1;
		}
		if (st == FTSW_PORT_NONE || st == 0 ||
		    !(set[st / 64] >> (st % 64) & 1)) {
			ftsw_err_set(err, "%s: LID 0x%04x: the static port (%u) "
				     "is not in the group", where, lid, st);
			return -1;
		}
		if (ftsw_ar_set(r, s, lid, set, err))
			return -1;
	}
	return 0;
}

/* The switch of a "switch 0xGUID ..." line. */
static int read_switch(const struct ftsw_routing *r, char *line,
		       const char *where, uint32_t *sw, struct ftsw_err *err)
{
	const struct ftsw_topo *t = r->topo;
	const char *end;
	uint64_t g;
	uint32_t s;

	line += strlen("switch");
	line += strspn(line, " \t");
	if (ftsw_parse_hex_prefix(where, line, &g, &end, err))
		return -1;
	for (s = 0; s < t->nswitches; s++)
		if (t->nodes[t->switches[s]].guid == g) {
			*sw = s;
			return 0;
		}
	ftsw_err_set(err, "%s: no switch of GUID 0x%016" PRIx64 " in the "
		     "topology", where, g);
	return -1;
}

int ftsw_ar_read(struct ftsw_routing *r, const char *path,
		 struct ftsw_err *err)
{
	struct ftsw_text x;
	uint32_t sw = FTSW_NONE;
	int got;

	if (ftsw_ar_alloc(r, err))
		return -1;
	if (ftsw_text_open(&x, path, FTSW_TEXT_LINE, FTSW_LFTS_MAX_FILE, err))
		return -1;
	while ((got = ftsw_text_line(&x, err)) > 0) {
		char *l = x.line + strspn(x.line, " \t"), where[300];

		if (!*l || *l == '#')
			continue;
		snprintf(where, sizeof(where), "%s:%u", path, x.ln);
		if (!strncmp(l, "switch", 6) && (l[6] == ' ' || l[6] == '\t')) {
			if (read_switch(r, l, where, &sw, err))
				got = -1;
		} else if (sw == FTSW_NONE) {
			ftsw_err_set(err, "%s: a LID run before any 'switch' "
				     "line", where);
			got = -1;
		} else if (read_run(r, sw, l, where, err)) {
			got = -1;
		}
		if (got < 0)
			break;
	}
	ftsw_text_close(&x);
	return got < 0 ? -1 : 0;
}
