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

int ftsw_route_adaptive(struct ftsw_routing *r, unsigned threads,
			struct ftsw_err *err)
{
	const struct ftsw_topo *t = r->topo;
	uint32_t ns = r->nswitches, lid, s;
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
	for (lid = 1; lid <= r->max_lid; lid++) {
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
