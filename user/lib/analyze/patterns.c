// SPDX-License-Identifier: GPL-2.0
/*
 * Traffic patterns: traffic matrices and multi-stage permutation sequences.
 *
 * Collective permutation sequences follow paper 003 Table 2 over N ranks;
 * every stage is a set of (source rank, destination rank) pairs, each one
 * unit. Sequences defined for powers of two get MPI's "pre" and "post"
 * stages for other N (003 §VI): with P the largest power of two <= N, rank
 * i + P first sends to proxy i (pre), the proxies run the sequence among
 * ranks 0..P-1, and finally send back to i + P (post).
 *
 * The topology-aware recursive doubling of 003 §VI groups stages by tree
 * level (eqs. 3-7); at level l it exchanges along digit a_l of the host
 * index, flipping bit s of that digit (the XOR of eq. 7 is on the level's
 * digit, which is what keeps every pair inside one level-l subtree for
 * switch arities that are not powers of two).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "util/parse.h"
#include "util/text.h"

void ftsw_tm_init(struct ftsw_tm *tm, uint32_t n)
{
	memset(tm, 0, sizeof(*tm));
	tm->n = n;
}

void ftsw_tm_free(struct ftsw_tm *tm)
{
	free(tm->f);
	memset(tm, 0, sizeof(*tm));
}

void ftsw_tm_clear(struct ftsw_tm *tm)
{
	tm->nflows = 0;
	tm->all_to_all = false;
}

int ftsw_tm_add(struct ftsw_tm *tm, uint32_t src, uint32_t dst, double amount)
{
	if (tm->nflows == tm->cap) {
		size_t cap = tm->cap ? tm->cap * 2 : 64;
		struct ftsw_flow *f = realloc(tm->f, cap * sizeof(*f));

		if (!f)
			return -ENOMEM;
		tm->f = f;
		tm->cap = cap;
	}
	tm->f[tm->nflows++] = (struct ftsw_flow){ src, dst, amount };
	return 0;
}

void ftsw_tm_apply_order(struct ftsw_tm *tm, const uint32_t *order,
			 uint32_t nhosts)
{
	size_t i;

	for (i = 0; i < tm->nflows; i++) {
		tm->f[i].src = order[tm->f[i].src];
		tm->f[i].dst = order[tm->f[i].dst];
	}
	if (tm->all_to_all) {
		/* expand: the implicit form is over hosts 0..n-1 only */
		uint32_t s, d, n = tm->n;
		double a = tm->a2a;

		for (s = 0; s < n && order[s] == s; s++)
			;
		if (s == n)	/* identity on 0..n-1: stays implicit */
			return;

		tm->all_to_all = false;
		for (s = 0; s < n; s++)
			for (d = 0; d < n; d++)
				if (s != d)
					ftsw_tm_add(tm, order[s], order[d], a);
	}
	tm->n = nhosts;
}

void ftsw_pattern_free(struct ftsw_pattern *p)
{
	unsigned i;

	for (i = 0; i < p->nstages; i++) {
		ftsw_tm_free(&p->stages[i]);
		if (p->stage_names)
			free(p->stage_names[i]);
	}
	free(p->stages);
	free(p->stage_names);
	memset(p, 0, sizeof(*p));
}


double ftsw_rand_unit(uint64_t *state)
{
	return (ftsw_rand_next(state) >> 11) * (1.0 / 9007199254740992.0);
}

static uint64_t rand_below(uint64_t *state, uint64_t n)
{
	/* rejection sampling: unbiased */
	uint64_t lim = UINT64_MAX - UINT64_MAX % n, x;

	do
		x = ftsw_rand_next(state);
	while (x >= lim);
	return x % n;
}

void ftsw_shuffle(uint32_t *a, uint32_t n, uint64_t *state)
{
	uint32_t i;

	for (i = n; i > 1; i--) {
		uint32_t j = (uint32_t)rand_below(state, i), x = a[i - 1];

		a[i - 1] = a[j];
		a[j] = x;
	}
}

/* 0..n-1 in the random order seed gives (malloc'd), or NULL. */
static uint32_t *random_perm(uint32_t n, uint64_t seed)
{
	uint32_t *a = malloc(n * sizeof(*a)), i;

	if (!a)
		return NULL;
	for (i = 0; i < n; i++)
		a[i] = i;
	ftsw_shuffle(a, n, &seed);
	return a;
}

static struct ftsw_tm *new_stage(struct ftsw_pattern *p, const char *fmt,
				 long a, long b)
{
	struct ftsw_tm *s = realloc(p->stages, (p->nstages + 1) * sizeof(*s));
	char **nm;
	char buf[48];

	if (!s)
		return NULL;
	p->stages = s;
	nm = realloc(p->stage_names, (p->nstages + 1) * sizeof(*nm));
	if (!nm)
		return NULL;
	p->stage_names = nm;
	snprintf(buf, sizeof(buf), fmt, a, b);
	nm[p->nstages] = strdup(buf);
	ftsw_tm_init(&s[p->nstages], p->n);
	return &s[p->nstages++];
}

static unsigned floor_log2(uint32_t n)
{
	unsigned l = 0;

	while ((2ull << l) <= n)
		l++;
	return l;
}

static unsigned ceil_log2(uint32_t n)
{
	unsigned l = 0;

	while ((1ull << l) < n)
		l++;
	return l;
}

/* Pre (i + P -> i) or post (i -> i + P) stage for non-powers of two. */
static int proxy_stage(struct ftsw_pattern *p, bool pre)
{
	uint32_t n = p->n, P = 1u << floor_log2(n), i;
	struct ftsw_tm *s;

	if (P == n)
		return 0;
	s = new_stage(p, pre ? "pre" : "post", 0, 0);
	if (!s)
		return -ENOMEM;
	for (i = 0; i + P < n; i++)
		if ((pre ? ftsw_tm_add(s, i + P, i, 1) :
			   ftsw_tm_add(s, i, i + P, 1)))
			return -ENOMEM;
	return 0;
}

/* Recursive doubling (halving = reversed) among ranks 0..P-1. */
static int recdbl(struct ftsw_pattern *p, bool halving)
{
	uint32_t P = 1u << floor_log2(p->n), i;
	unsigned L = floor_log2(p->n), k;

	if (proxy_stage(p, true))
		return -ENOMEM;
	for (k = 0; k < L; k++) {
		unsigned s = halving ? L - 1 - k : k;
		struct ftsw_tm *st = new_stage(p, "s=%ld", s, 0);

		if (!st)
			return -ENOMEM;
		for (i = 0; i < P; i++)
			if (ftsw_tm_add(st, i, i ^ (1u << s), 1))
				return -ENOMEM;
	}
	return proxy_stage(p, false);
}

/*
 * Eqs. (4) and (5) of paper 003 §VI: rank j = i + E past E in its block of
 * Ml sends to i (in) or i to j (out).
 */
static int fold_stage(struct ftsw_pattern *p, const char *name, long l,
		      uint64_t E, uint64_t Ml, bool in)
{
	struct ftsw_tm *st = new_stage(p, name, l, 0);
	uint32_t i;

	if (!st)
		return -ENOMEM;
	for (i = 0; i + E < p->n; i++) {
		uint32_t j = (uint32_t)(i + E);

		if ((i + E) % Ml >= E && ftsw_tm_add(st, in ? j : i, in ? i : j, 1))
			return -ENOMEM;
	}
	return 0;
}

/* Topology-aware recursive doubling, paper 003 §VI eqs. (3)-(7). */
static int topo_recdbl(struct ftsw_pattern *p, const struct ftsw_topo *t,
		       struct ftsw_err *err)
{
	const struct ftsw_pgft *g = &t->pgft;
	uint64_t M[FTSW_PGFT_MAX_H + 1];
	uint32_t n = p->n, i;
	unsigned l;

	if (!t->is_pgft) {
		ftsw_err_set(err, "topo-recdbl: the topology is not a PGFT");
		return -EINVAL;
	}
	M[0] = 1;
	for (l = 1; l <= g->h; l++)
		M[l] = M[l - 1] * g->m[l - 1];
	for (l = 1; l <= g->h; l++) {
		unsigned ml = g->m[l - 1], L = floor_log2(ml), s;
		uint64_t E = M[l - 1] << L;
		struct ftsw_tm *st;

		/* eq. (4): j -> i, j = i + E */
		if (E != M[l] && fold_stage(p, "%ld.-1", l, E, M[l], true))
			return -ENOMEM;
		for (s = 0; s < L; s++) {	/* eqs. (6), (7) */
			st = new_stage(p, "%ld.%ld", l, s);
			if (!st)
				return -ENOMEM;
			for (i = 0; i < n; i++) {
				uint64_t low = i % M[l - 1];
				uint64_t digit = (i / M[l - 1]) % ml;
				uint64_t high = i / M[l];
				uint64_t j;

				if (i % M[l] >= E)
					continue;
				j = (high * ml + (digit ^ (1u << s))) * M[l - 1] +
				    low;
				if (j < n && ftsw_tm_add(st, i, (uint32_t)j, 1))
					return -ENOMEM;
			}
		}
		/* eq. (5): i -> j, j = i + E */
		if (E != M[l] && fold_stage(p, "%ld.+1", l, E, M[l], false))
			return -ENOMEM;
	}
	return 0;
}

bool ftsw_pattern_is_random(const char *spec)
{
	return !strncmp(spec, "perm", 4) || !strncmp(spec, "uniform", 7) ||
	       !strncmp(spec, "cluster", 7) || !strncmp(spec, "bisect", 6);
}

/*
 * Traffic file: "SRC DST [AMOUNT]" per line, '#' comments. Ranks decimal
 * (a leading zero is not octal), amounts finite and >= 0; lines longer
 * than FTSW_TM_MAX_LINE, files larger than FTSW_TM_MAX_FILE, anything but
 * a regular file, binary input, a file with no traffic line and anything
 * else are refused with file:line.
 */
int ftsw_tm_read(const char *path, uint32_t n, struct ftsw_tm *tm,
		 struct ftsw_err *err)
{
	struct ftsw_text x;
	char what[64], *line;
	unsigned ln = 0, flows = 0;
	int got;

	if (ftsw_text_open(&x, path, FTSW_TM_MAX_LINE, FTSW_TM_MAX_FILE, err))
		return -1;
	ftsw_tm_init(tm, n);
	while ((got = ftsw_text_line(&x, err)) > 0) {
		char *c, *w[3];
		unsigned nw;
		uint64_t s, d;
		double a = 1;
		struct ftsw_err e2;

		line = x.line;
		ln = x.ln;
		c = strchr(line, '#');
		if (c)
			*c = 0;
		nw = ftsw_split_words(line, w, 3, NULL);
		if (!nw)
			continue;
		if (nw < 2 || nw > 3) {
			ftsw_err_set(err, "%s:%u: expected 'SRC DST [AMOUNT]'",
				     path, ln);
			goto fail;
		}
		snprintf(what, sizeof(what), "%s:%u", path, ln);
		if (ftsw_parse_u64(what, w[0], 0, UINT64_MAX, &s, &e2) ||
		    ftsw_parse_u64(what, w[1], 0, UINT64_MAX, &d, &e2) ||
		    (nw == 3 && ftsw_parse_double(what, w[2], 0, 1e300, &a, &e2))) {
			ftsw_err_set(err, "%s:%u: expected 'SRC DST [AMOUNT]' "
				     "(ranks, amount finite and >= 0): %.300s",
				     path, ln, e2.msg + strlen(what) + 2);
			goto fail;
		}
		if (s >= n || d >= n) {
			ftsw_err_errno(err, ERANGE,
				       "%s:%u: rank outside 0..%u: %.40s",
				       path, ln, n - 1, s >= n ? w[0] : w[1]);
			goto fail;
		}
		if (ftsw_tm_add(tm, (uint32_t)s, (uint32_t)d, a)) {
			ftsw_err_errno(err, ENOMEM, "%s:%u: out of memory",
				       path, ln);
			goto fail;
		}
		flows++;
	}
	if (got < 0)
		goto fail;
	if (!flows) {
		ftsw_err_set(err, "%s:%u: no 'SRC DST [AMOUNT]' line in the file",
			     path, x.ln);
		goto fail;
	}
	ftsw_text_close(&x);
	return 0;
fail:
	ftsw_text_close(&x);
	ftsw_tm_free(tm);
	return -1;
}

/* Optional ":SEED" (decimal or 0x hex); absent keeps *seed. */
static int parse_seed(const char *a, uint64_t *seed)
{
	if (!a)
		return 0;
	return ftsw_parse_u64("seed", a, 0, UINT64_MAX, seed, NULL) ? -1 : 0;
}

/* perm[:SEED], bisect[:SEED] */
static int pat_perm(struct ftsw_pattern *p, const char *kind, const char *arg)
{
	uint32_t n = p->n, i, *a;
	uint64_t seed = 1;
	struct ftsw_tm *st;
	int rc = 0;

	if (parse_seed(arg, &seed))
		return -EINVAL;
	a = random_perm(n, seed);
	if (!a)
		return -ENOMEM;
	st = new_stage(p, kind[0] == 'p' ? "perm" : "bisect", 0, 0);
	if (!st)
		rc = -ENOMEM;
	else if (kind[0] == 'p') {
		for (i = 0; i < n && !rc; i++)
			rc = ftsw_tm_add(st, i, a[i], 1);
	} else {
		/* first half matched to the second, both ways */
		for (i = 0; i < n / 2 && !rc; i++)
			rc = ftsw_tm_add(st, a[i], a[n / 2 + i], 1) ||
			     ftsw_tm_add(st, a[n / 2 + i], a[i], 1);
	}
	free(a);
	return rc ? -ENOMEM : 0;
}

/* shift[:K], ring, dissemination, tournament, binomial[-gather] */
static int pat_stages(struct ftsw_pattern *p, const char *kind,
		      const char *arg)
{
	uint32_t n = p->n, i, s;
	struct ftsw_tm *st;
	int rc = 0;

	if (!strcmp(kind, "shift") && arg) {
		uint64_t k;

		if (ftsw_parse_u64("shift", arg, 0, n - 1, &k, NULL))
			return -EINVAL;
		st = new_stage(p, "s=%ld", (long)k, 0);
		for (i = 0; st && i < n && !rc; i++)
			rc = ftsw_tm_add(st, i, (uint32_t)((i + k) % n), 1);
		return st && !rc ? 0 : -ENOMEM;
	}
	if (arg)
		return -EINVAL;
	if (!strcmp(kind, "shift")) {
		for (s = 1; s < n && !rc; s++) {
			st = new_stage(p, "s=%ld", s, 0);
			for (i = 0; st && i < n && !rc; i++)
				rc = ftsw_tm_add(st, i, (i + s) % n, 1);
			rc = st ? rc : -ENOMEM;
		}
	} else if (!strcmp(kind, "ring")) {
		st = new_stage(p, "ring", 0, 0);
		for (i = 0; st && i < n && !rc; i++)
			rc = ftsw_tm_add(st, i, (i + 1) % n, 1);
		rc = st ? rc : -ENOMEM;
	} else if (!strcmp(kind, "dissemination")) {
		for (s = 0; s < ceil_log2(n) && !rc; s++) {
			st = new_stage(p, "s=%ld", s, 0);
			for (i = 0; st && i < n && !rc; i++)
				rc = ftsw_tm_add(st, i, (i + (1u << s)) % n, 1);
			rc = st ? rc : -ENOMEM;
		}
	} else if (!strcmp(kind, "tournament")) {
		for (s = 0; s < ceil_log2(n) && !rc; s++) {
			st = new_stage(p, "s=%ld", s, 0);
			for (i = 0; st && i + (1u << s) < n && !rc;
			     i += 2u << s)
				rc = ftsw_tm_add(st, i + (1u << s), i, 1);
			rc = st ? rc : -ENOMEM;
		}
	} else {	/* binomial, binomial-gather */
		bool gather = kind[8] == '-';
		unsigned L = ceil_log2(n), k;

		for (k = 0; k < L && !rc; k++) {
			/* gather runs the scatter's stages backwards */
			s = gather ? L - 1 - k : k;
			st = new_stage(p, "s=%ld", s, 0);
			for (i = 0; st && i < (1u << s) && i + (1u << s) < n &&
			     !rc; i++)
				rc = gather ? ftsw_tm_add(st, i + (1u << s), i, 1) :
					      ftsw_tm_add(st, i, i + (1u << s), 1);
			rc = st ? rc : -ENOMEM;
		}
	}
	return rc ? -ENOMEM : 0;
}

/* uniform:P[:SEED] */
static int pat_uniform(struct ftsw_pattern *p, const char *arg,
		       const char *arg2)
{
	uint64_t seed = 1;
	double prob;
	struct ftsw_tm *st;
	uint32_t i, d;
	int rc = 0;

	if (!arg || ftsw_parse_double("uniform", arg, 0, 1, &prob, NULL) ||
	    parse_seed(arg2, &seed))
		return -EINVAL;
	st = new_stage(p, "uniform", 0, 0);
	for (i = 0; st && i < p->n && !rc; i++)
		for (d = 0; d < p->n && !rc; d++)
			if (d != i && ftsw_rand_unit(&seed) < prob)
				rc = ftsw_tm_add(st, i, d, 1);
	return st && !rc ? 0 : -ENOMEM;
}

/* cluster:G[:SEED] */
static int pat_cluster(struct ftsw_pattern *p, const char *arg,
		       const char *arg2)
{
	uint32_t n = p->n, *a, b, c, i;
	uint64_t seed = 1, g;
	struct ftsw_tm *st;
	int rc = 0;

	if (!arg || ftsw_parse_u64("cluster", arg, 1, n, &g, NULL) ||
	    parse_seed(arg2, &seed))
		return -EINVAL;
	a = random_perm(n, seed);
	if (!a)
		return -ENOMEM;
	st = new_stage(p, "cluster", 0, 0);
	/* groups of g consecutive shuffled ranks (last may be short) */
	for (i = 0; st && i < n && !rc; i += (uint32_t)g)
		for (b = i; b < i + g && b < n && !rc; b++)
			for (c = i; c < i + g && c < n && !rc; c++)
				if (b != c)
					rc = ftsw_tm_add(st, a[b], a[c], 1);
	free(a);
	return st && !rc ? 0 : -ENOMEM;
}

static const char *const pattern_kinds =
	"perm, shift, ring, dissemination, tournament, binomial, "
	"binomial-gather, recdbl, rechalv, topo-recdbl, a2a, uniform:P, "
	"cluster:G, bisect, file:PATH";

/* EINVAL after naming the pattern whose argument is wrong. */
static int bad_arg(const char *spec, struct ftsw_err *err)
{
	ftsw_err_set(err, "pattern '%.200s': bad argument (%s)", spec,
		     pattern_kinds);
	return EINVAL;
}

static int pat_dispatch(struct ftsw_pattern *p, const char *spec,
			const char *kind, const char *arg, const char *arg2,
			const struct ftsw_topo *t, struct ftsw_err *err)
{
	struct ftsw_tm *st;
	bool has2 = arg2 != NULL;

	if (!strcmp(kind, "perm") || !strcmp(kind, "bisect"))
		return has2 ? -EINVAL : pat_perm(p, kind, arg);
	if (!strcmp(kind, "all2all") || !strcmp(kind, "cps"))
		return has2 || arg ? -EINVAL : pat_stages(p, "shift", NULL);
	if (!strcmp(kind, "shift") || !strcmp(kind, "ring") ||
	    !strcmp(kind, "dissemination") || !strcmp(kind, "tournament") ||
	    !strcmp(kind, "binomial") || !strcmp(kind, "binomial-gather"))
		return has2 ? -EINVAL : pat_stages(p, kind, arg);
	if (!strcmp(kind, "uniform"))
		return pat_uniform(p, arg, arg2);
	if (!strcmp(kind, "cluster"))
		return pat_cluster(p, arg, arg2);
	if (!strcmp(kind, "file")) {
		if (!arg || !*arg)
			return -EINVAL;
		st = new_stage(p, "file", 0, 0);
		if (!st)
			return -ENOMEM;
		/* the path is the rest of the spec: it may contain ':' */
		return ftsw_tm_read(spec + 5, p->n, st, err) ? -EIO : 0;
	}
	if (arg)
		return -EINVAL;
	if (!strcmp(kind, "recdbl") || !strcmp(kind, "rechalv"))
		return recdbl(p, kind[3] == 'h') ? -ENOMEM : 0;
	if (!strcmp(kind, "topo-recdbl")) {
		if (!t) {
			ftsw_err_set(err, "topo-recdbl needs a topology");
			return -EIO;
		}
		return topo_recdbl(p, t, err) ? -EIO : 0;
	}
	if (!strcmp(kind, "a2a") || !strcmp(kind, "all-to-all")) {
		st = new_stage(p, "a2a", 0, 0);
		if (!st)
			return -ENOMEM;
		st->all_to_all = true;
		st->a2a = 1;
		return 0;
	}
	ftsw_err_set(err, "unknown pattern '%.200s' (%s)", spec, pattern_kinds);
	return -ENOENT;
}

int ftsw_pattern_check(const char *spec, struct ftsw_err *err)
{
	static const char *const plain[] = {
		"ring", "dissemination", "tournament", "binomial",
		"binomial-gather", "recdbl", "rechalv", "topo-recdbl", "a2a",
		"all-to-all", "all2all", "cps", NULL,
	};
	const char *arg = strchr(spec, ':'), *arg2;
	size_t kl = arg ? (size_t)(arg - spec) : strlen(spec);
	char kind[24], a1[64];
	uint64_t u;
	double d;
	unsigned i;

	if (kl >= sizeof(kind))
		goto unknown;
	memcpy(kind, spec, kl);
	kind[kl] = 0;
	if (arg)
		arg++;
	if (!strcmp(kind, "file")) {
		if (arg && *arg)
			return 0;
		ftsw_err_set(err, "pattern '%.200s': file:PATH needs a path",
			     spec);
		return -EINVAL;
	}
	arg2 = arg ? strchr(arg, ':') : NULL;
	a1[0] = 0;
	if (arg)
		snprintf(a1, sizeof(a1), "%.*s", (int)(arg2 ? (size_t)(arg2 - arg)
						      : strlen(arg)), arg);
	if (arg2)
		arg2++;
	for (i = 0; plain[i]; i++)
		if (!strcmp(kind, plain[i]))
			return arg ? -(bad_arg(spec, err)) : 0;
	if (!strcmp(kind, "perm") || !strcmp(kind, "bisect") ||
	    !strcmp(kind, "shift")) {
		if (arg2)
			goto bad;
		if (arg && ftsw_parse_u64(kind[0] == 's' ? "shift" :
					  "pattern seed", a1, 0, UINT64_MAX,
					  &u, err))
			return -EINVAL;
		return 0;
	}
	if (!strcmp(kind, "uniform") || !strcmp(kind, "cluster")) {
		if (!arg)	/* the simulator's uniform; cluster needs G */
			return kind[0] == 'u' ? 0 : -(bad_arg(spec, err));
		if (!(kind[0] == 'u' ? ftsw_parse_double(kind, a1, 0, 1, &d, NULL)
		      : ftsw_parse_u64(kind, a1, 1, UINT32_MAX, &u, NULL)) &&
		    !(arg2 && ftsw_parse_u64("seed", arg2, 0, UINT64_MAX, &u,
					     NULL)))
			return 0;
		if (kind[0] == 'u')
			ftsw_err_set(err, "pattern '%.200s': expected uniform:P"
				     "[:SEED], P a probability in 0..1", spec);
		else
			ftsw_err_set(err, "pattern '%.200s': expected cluster:G"
				     "[:SEED], G at least 1", spec);
		return -EINVAL;
	}
unknown:
	ftsw_err_set(err, "unknown pattern '%.200s' (%s)", spec, pattern_kinds);
	return -EINVAL;
bad:
	return -(bad_arg(spec, err));
}

int ftsw_pattern_make(const char *spec, uint32_t n, const struct ftsw_topo *t,
		      struct ftsw_pattern *p, struct ftsw_err *err)
{
	char buf[256], *arg = NULL, *arg2 = NULL;
	int rc;

	memset(p, 0, sizeof(*p));
	p->n = n;
	snprintf(p->name, sizeof(p->name), "%s", spec);
	if (n < 2) {
		ftsw_err_set(err, "pattern '%.200s': needs at least 2 ranks", spec);
		return -EINVAL;
	}
	if (strlen(spec) >= sizeof(buf)) {
		ftsw_err_set(err, "pattern '%.40s...': longer than %zu bytes",
			     spec, sizeof(buf) - 1);
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", spec);
	arg = strchr(buf, ':');
	if (arg) {
		*arg++ = 0;
		arg2 = strncmp(buf, "file", 5) ? strchr(arg, ':') : NULL;
		if (arg2)
			*arg2++ = 0;
	}
	rc = pat_dispatch(p, spec, buf, arg, arg2, t, err);
	if (!rc)
		return 0;
	ftsw_pattern_free(p);
	if (rc == -ENOMEM)
		ftsw_err_errno(err, ENOMEM, "pattern '%.200s': out of memory",
			       spec);
	else if (rc == -EINVAL && !strcmp(buf, "uniform"))
		ftsw_err_set(err, "pattern '%.200s': expected uniform:P[:SEED], "
			     "P a probability in 0..1", spec);
	else if (rc == -EINVAL && !strcmp(buf, "cluster"))
		ftsw_err_set(err, "pattern '%.200s': expected cluster:G[:SEED], "
			     "G in 1..%u (the ranks)", spec, n);
	else if (rc == -EINVAL)
		ftsw_err_set(err, "pattern '%.200s': bad argument (%s)", spec,
			     pattern_kinds);
	return rc == -ENOENT ? -EINVAL : rc;
}
