// SPDX-License-Identifier: GPL-2.0
/*
 * Node order (MPI rank -> host) and MPI rankfiles / hostfiles.
 *
 * Topology order is the fabric's host numbering, which for generated PGFTs
 * is the RLFT node indexing of paper 003 (digit a_1 least significant):
 * with D-Mod-K it makes every shift stage contention free (Theorems 1-2).
 * Partial allocations keep topology order among the hosts used; paper 003
 * §V.B keeps contention freedom for N = i * prod(w) hosts.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "util/parse.h"
#include "util/text.h"

const char *ftsw_host_name(const struct ftsw_topo *t, uint32_t host,
			   char *buf, size_t sz)
{
	const char *d = t->nodes[t->hosts[host]].desc;

	if (d && *d) {
		/* first word of the description: MPI host names have no blanks */
		size_t n = strcspn(d, " \t");

		snprintf(buf, sz, "%.*s", (int)n, d);
	} else {
		snprintf(buf, sz, "H%u", host);
	}
	return buf;
}

uint64_t ftsw_order_cf_unit(const struct ftsw_topo *t)
{
	uint64_t u = 1;
	unsigned i;

	if (!t->is_pgft)
		return 1;
	for (i = 0; i < t->pgft.h; i++)
		u *= t->pgft.w[i];
	return u;
}

/* A host by index (decimal; "010" is ten) or by name. */
static int host_by_name(const struct ftsw_topo *t, const char *s, uint32_t *h)
{
	char buf[128];
	uint64_t x;
	uint32_t i;

	if (*s >= '0' && *s <= '9') {
		if (ftsw_parse_u64("host", s, 0, t->nhosts ? t->nhosts - 1 : 0,
				   &x, NULL) || !t->nhosts)
			return -1;
		*h = (uint32_t)x;
		return 0;
	}
	for (i = 0; i < t->nhosts; i++)
		if (!strcmp(ftsw_host_name(t, i, buf, sizeof(buf)), s)) {
			*h = i;
			return 0;
		}
	return -1;
}

/*
 * The MPI file format a line is written in, when it is not an order
 * file's: what `ftsw order -f rankfile|hostfile|mpich` writes, which
 * --order file: does not read.
 */
static const char *other_format(const struct ftsw_topo *t, char *const *w,
				unsigned nw)
{
	uint32_t h;

	if (nw >= 2 && !strcmp(w[0], "rank") && strchr(w[1], '='))
		return "an Open MPI rankfile line ('rank N=HOST slot=S')";
	if (nw >= 2 && strchr(w[1], '='))
		return "an Open MPI hostfile line ('HOST slots=N')";
	if (nw == 1 && strchr(w[0], ':') && host_by_name(t, w[0], &h))
		return "an MPICH machinefile line ('HOST:N')";
	return NULL;
}

/*
 * Order file: "HOST" or "RANK HOST" per line ('#' comments); every rank
 * 0..nranks-1 exactly once, each host at most once; file:line for every
 * error (long lines, binary input and empty files included).
 */
static int order_line(const char *path, unsigned ln, char *line,
		      const struct ftsw_topo *t, uint32_t nranks, uint32_t *next,
		      bool *seen_rank, bool *used, uint32_t *order,
		      struct ftsw_err *err)
{
	char *c = strchr(line, '#'), *w[2], *name, buf[128];
	const char *hint;
	uint32_t rank = *next, host;
	unsigned nw;

	if (c)
		*c = 0;
	nw = ftsw_split_words(line, w, 2, &name);
	if (!nw)
		return 0;
	hint = other_format(t, w, nw);
	if (hint) {
		ftsw_err_set(err, "%s:%u: %s; --order file: reads 'HOST' or "
			     "'RANK HOST' lines (as ftsw order -f plain writes "
			     "them)", path, ln, hint);
		return -1;
	}
	if (nw >= 2) {
		uint64_t r;

		if (ftsw_parse_u64("rank", w[0], 0, UINT64_MAX, &r, NULL)) {
			ftsw_err_set(err, "%s:%u: expected 'HOST' or 'RANK "
				     "HOST': '%.40s' is not a rank number",
				     path, ln, w[0]);
			return -1;
		}
		if (r >= nranks) {
			ftsw_err_set(err, "%s:%u: rank '%.40s' not in 0..%u", path,
				     ln, w[0], nranks - 1);
			return -1;
		}
		rank = (uint32_t)r;
		w[0] = w[1];
	}
	if (rank >= nranks) {
		ftsw_err_set(err, "%s:%u: more than %u ranks", path, ln, nranks);
		return -1;
	}
	if (host_by_name(t, w[0], &host)) {
		ftsw_err_set(err, "%s:%u: no host '%.80s'", path, ln, w[0]);
		return -1;
	}
	if (name) {	/* "RANK INDEX NAME" as ftsw order writes it */
		size_t k = strlen(name);

		while (k && (name[k - 1] == ' ' || name[k - 1] == '\t'))
			name[--k] = 0;
		if (strcmp(name, ftsw_host_name(t, host, buf, sizeof(buf)))) {
			ftsw_err_set(err, "%s:%u: host %u is '%.60s', not "
				     "'%.60s'", path, ln, host, buf, name);
			return -1;
		}
	}
	if (seen_rank[rank] || used[host]) {
		ftsw_err_set(err, "%s:%u: rank %u or host '%.80s' given twice",
			     path, ln, rank, w[0]);
		return -1;
	}
	seen_rank[rank] = used[host] = true;
	order[rank] = host;
	*next = rank + 1;
	return 1;
}

static int order_file(const char *path, const struct ftsw_topo *t,
		      uint32_t nranks, uint32_t *order, struct ftsw_err *err)
{
	struct ftsw_text x;
	unsigned ln = 0, lines = 0;
	uint32_t next = 0, i;
	bool *seen_rank = NULL, *used = NULL;
	int rc = -1, got, r;

	if (ftsw_text_open(&x, path, FTSW_ORDER_MAX_LINE, FTSW_ORDER_MAX_FILE,
			   err))
		return -1;
	seen_rank = calloc(nranks, 1);
	used = calloc(t->nhosts + 1, 1);
	if (!seen_rank || !used) {
		ftsw_err_errno(err, ENOMEM, "%s: out of memory", path);
		goto out;
	}
	while ((got = ftsw_text_line(&x, err)) > 0) {
		ln = x.ln;
		r = order_line(path, ln, x.line, t, nranks, &next, seen_rank,
			       used, order, err);
		if (r < 0)
			goto out;
		lines += (unsigned)r;
	}
	if (got < 0)
		goto out;
	if (!lines) {
		ftsw_err_set(err, "%s:%u: no host in the file", path, ln);
		goto out;
	}
	for (i = 0; i < nranks; i++)
		if (!seen_rank[i]) {
			ftsw_err_set(err, "%s:%u: rank %u has no host (end of "
				     "file)", path, ln, i);
			goto out;
		}
	rc = 0;
out:
	ftsw_text_close(&x);
	free(seen_rank);
	free(used);
	return rc;
}

int ftsw_order_check(const char *spec, struct ftsw_err *err)
{
	const char *arg = strchr(spec, ':');
	size_t kl = arg ? (size_t)(arg - spec) : strlen(spec);
	uint64_t seed;

	if (arg)
		arg++;
	if (((kl == 4 && !strncmp(spec, "topo", 4)) ||
	     (kl == 8 && !strncmp(spec, "topology", 8))) && !arg)
		return 0;
	if (kl == 4 && !strncmp(spec, "file", 4) && arg && *arg)
		return 0;
	if ((kl == 6 && !strncmp(spec, "random", 6)) ||
	    (kl == 7 && !strncmp(spec, "shuffle", 7)) ||
	    (kl == 13 && !strncmp(spec, "contig-random", 13))) {
		if (!arg || !ftsw_parse_u64("seed", arg, 0, UINT64_MAX, &seed,
					    NULL))
			return 0;
		ftsw_err_set(err, "order '%.200s': bad seed", spec);
		return -EINVAL;
	}
	ftsw_err_set(err, "unknown order '%.200s' (topo, random[:SEED], "
		     "shuffle[:SEED], contig-random[:SEED], file:PATH)", spec);
	return -EINVAL;
}

int ftsw_order_make(const char *spec, const struct ftsw_topo *t,
		    uint32_t nranks, uint32_t *order, struct ftsw_err *err)
{
	uint64_t seed = 1;
	const char *arg = strchr(spec, ':');
	size_t kl = arg ? (size_t)(arg - spec) : strlen(spec);
	uint32_t i;

	if (nranks == 0 || nranks > t->nhosts) {
		ftsw_err_set(err, "order: %u ranks for %u hosts", nranks,
			     t->nhosts);
		return -EINVAL;
	}
	if (arg)
		arg++;
	if ((kl == 4 && !strncmp(spec, "topo", 4)) ||
	    (kl == 8 && !strncmp(spec, "topology", 8))) {
		for (i = 0; i < nranks; i++)
			order[i] = i;
		return 0;
	}
	if (kl == 4 && !strncmp(spec, "file", 4) && arg)
		return order_file(arg, t, nranks, order, err);
	if ((kl == 6 && !strncmp(spec, "random", 6)) ||
	    (kl == 7 && !strncmp(spec, "shuffle", 7)) ||
	    (kl == 13 && !strncmp(spec, "contig-random", 13))) {
		uint32_t *all = malloc(t->nhosts * sizeof(*all));

		if (!all) {
			ftsw_err_errno(err, ENOMEM, "out of memory");
			return -ENOMEM;
		}
		if (arg) {
			if (ftsw_parse_u64("seed", arg, 0, UINT64_MAX, &seed,
					   NULL)) {
				free(all);
				ftsw_err_set(err, "order '%s': bad seed", spec);
				return -EINVAL;
			}
		}
		for (i = 0; i < t->nhosts; i++)
			all[i] = i;
		if (spec[0] == 's') {
			/* the first nranks hosts, ranks in random order */
			ftsw_shuffle(all, nranks, &seed);
			memcpy(order, all, nranks * sizeof(*order));
			free(all);
			return 0;
		}
		ftsw_shuffle(all, t->nhosts, &seed);
		if (spec[0] == 'r') {
			memcpy(order, all, nranks * sizeof(*order));
		} else {
			/* keep nranks random hosts, in topology order */
			bool *keep = calloc(t->nhosts, 1);
			uint32_t k = 0;

			if (!keep) {
				free(all);
				return -ENOMEM;
			}
			for (i = 0; i < nranks; i++)
				keep[all[i]] = true;
			for (i = 0; i < t->nhosts; i++)
				if (keep[i])
					order[k++] = i;
			free(keep);
		}
		free(all);
		return 0;
	}
	ftsw_err_set(err, "unknown order '%s' (topo, random[:SEED], "
		     "shuffle[:SEED], contig-random[:SEED], file:PATH)", spec);
	return -EINVAL;
}

int ftsw_order_write(const struct ftsw_topo *t, const uint32_t *order,
		     uint32_t nranks, enum ftsw_order_format fmt,
		     const char *path, struct ftsw_err *err)
{
	char *tmp = NULL, name[128];
	FILE *f;
	uint32_t i;

	if (path && strcmp(path, "-")) {
		f = ftsw_atomic_open(path, &tmp, err);
		if (!f)
			return -1;
	} else {
		f = stdout;
	}
	if (fmt == FTSW_ORDER_OMPI_RANKFILE)
		fprintf(f, "# Open MPI rankfile: mpirun --rankfile FILE "
			   "(ftsw order)\n");
	else if (fmt == FTSW_ORDER_OMPI_HOSTFILE)
		fprintf(f, "# Open MPI hostfile, one slot per host in rank "
			   "order: mpirun --hostfile FILE --map-by node\n");
	else if (fmt == FTSW_ORDER_MPICH_HOSTFILE)
		fprintf(f, "# MPICH/Hydra machinefile in rank order: mpiexec "
			   "-f FILE\n");
	for (i = 0; i < nranks; i++) {
		ftsw_host_name(t, order[i], name, sizeof(name));
		switch (fmt) {
		case FTSW_ORDER_OMPI_RANKFILE:
			fprintf(f, "rank %u=%s slot=0\n", i, name);
			break;
		case FTSW_ORDER_OMPI_HOSTFILE:
			fprintf(f, "%s slots=1\n", name);
			break;
		case FTSW_ORDER_MPICH_HOSTFILE:
			fprintf(f, "%s:1\n", name);
			break;
		case FTSW_ORDER_PLAIN:
			fprintf(f, "%u %u %s\n", i, order[i], name);
			break;
		}
	}
	if (tmp)
		return ftsw_atomic_commit(f, path, tmp, err);
	fflush(f);
	return 0;
}
