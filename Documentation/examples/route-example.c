// SPDX-License-Identifier: GPL-2.0
/*
 * A program linking libftsw (Documentation/libftsw.md): it shows the error
 * code of a failed call, then builds a fat-tree, routes it with the engine
 * ftsw would pick, and checks that every host's own switch delivers the
 * host's LID on the port that leads to it.
 *
 *   cc -std=c11 route-example.c $(pkg-config --cflags --libs ftsw)
 *   ./a.out [TOPO]          TOPO: a net file or a spec (default ftmn:4,2)
 *
 * Exit status 0 when everything came out as expected, 1 otherwise.
 */
#include <errno.h>
#include <stdio.h>

#include <libftsw.h>
#include <route/routing.h>
#include <topo/topology.h>

int main(int argc, char **argv)
{
	const char *spec = argc > 1 ? argv[1] : "ftmn:4,2";
	struct ftsw_route_req q = { 0 };	/* default engine, least LMC */
	struct ftsw_routing *r;
	struct ftsw_topo *t;
	struct ftsw_err err;	/* the caller's; the library fills it */
	unsigned bad = 0;
	uint32_t h;

	/* A failed call says why in err.msg and err.code (an errno value). */
	t = ftsw_net_read("/nonexistent/fabric.net", &err);
	if (t || err.code != ENOENT) {
		fprintf(stderr, "expected ENOENT, got code %d\n", err.code);
		return 1;
	}
	printf("libftsw %s; a missing net file: ENOENT (%s)\n",
	       ftsw_version(), err.msg);

	t = ftsw_topo_open(spec, &err);		/* freed by ftsw_topo_free */
	if (!t) {
		fprintf(stderr, "%s (errno %d)\n", err.msg, err.code);
		return 1;
	}
	r = ftsw_route_make(t, &q, &err);	/* freed by ftsw_routing_free */
	if (!r) {
		fprintf(stderr, "%s (errno %d)\n", err.msg, err.code);
		ftsw_topo_free(t);
		return 1;
	}
	printf("%s: %u hosts, %u switches, routed by %s at LMC %u\n", spec,
	       t->nhosts, t->nswitches, r->engine, r->lmc);
	for (h = 0; h < t->nhosts; h++) {
		/* the host's port 1 leads to its switch; the switch's LFT,
		 * indexed by the host's LID, names the port back */
		const struct ftsw_port *hp = ftsw_port(t, t->hosts[h], 1);
		uint32_t sw = t->nodes[hp->peer].index;
		uint32_t lid = ftsw_host_lid(r, h);
		unsigned port = ftsw_lft(r, sw)[lid];

		printf("host %u: LID %u, switch %u sends it on port %u%s\n", h,
		       lid, sw, port, port == hp->peer_port ? "" : " (WRONG)");
		bad += port != hp->peer_port;
	}
	ftsw_routing_free(r);
	ftsw_topo_free(t);
	return bad ? 1 : 0;
}
