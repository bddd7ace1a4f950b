// SPDX-License-Identifier: GPL-2.0
/*
 * Deimos (paper 001 §VI, Fig. 11): three 288-port fat-tree switches joined
 * by 30 links, 724 nodes. Each 288-port chassis is the two-level fat-tree
 * of 24-port chips a DDR chassis of its time holds: 24 leaf chips with 12
 * external ports and 12 up-links each, 12 spine chips of 24 ports, one
 * cable between every leaf and every spine (PGFT(2; 12,24; 1,12; 1,1),
 * 24 * 12 = 288 external ports). Documentation/topology.md gives the
 * arrangement of the inter-chassis links and the hosts, which the paper
 * does not: 10 links between each pair of chassis, one per leaf on leaves
 * 0..19 (port 12), and 242, 241, 241 hosts spread evenly over the leaves.
 */
#include <stdio.h>

#include "topo/graphs.h"

#define CH	3	/* chassis */
#define LEAVES	24
#define SPINES	12
#define EXT	12	/* external ports of a leaf */
#define PERCH	(LEAVES + SPINES)
#define XLINKS	10	/* links per pair of chassis */
#define HOSTS	724

/* The leaf of chassis c carrying its t-th link to chassis d. */
static unsigned xleaf(unsigned c, unsigned d, unsigned t)
{
	return d == (c + 1) % CH ? t : XLINKS + t;
}

static int build_chassis(struct ftsw_gbuild *b, unsigned c,
			 struct ftsw_err *err)
{
	unsigned l, s, nh = HOSTS / CH + (c < HOSTS % CH);
	char desc[32];

	for (l = 0; l < LEAVES; l++) {
		snprintf(desc, sizeof(desc), "D%u.L%02u", c, l);
		if (ftsw_gbuild_switch(b, c * PERCH + l, 1, 2 * EXT, desc, err))
			return -1;
	}
	for (s = 0; s < SPINES; s++) {
		snprintf(desc, sizeof(desc), "D%u.S%02u", c, s);
		if (ftsw_gbuild_switch(b, c * PERCH + LEAVES + s, 2, LEAVES,
				       desc, err))
			return -1;
	}
	for (l = 0; l < LEAVES; l++)
		if (ftsw_gbuild_hosts(b, c * PERCH + l,
				      nh / LEAVES + (l < nh % LEAVES), err))
			return -1;
	/* leaf l's up-port EXT + 1 + s to spine s's port l + 1 */
	for (l = 0; l < LEAVES; l++)
		for (s = 0; s < SPINES; s++)
			if (ftsw_topo_connect(b->t, b->sw[c * PERCH + l],
					      EXT + 1 + s,
					      b->sw[c * PERCH + LEAVES + s],
					      l + 1, err))
				return -1;
	return 0;
}

struct ftsw_topo *ftsw_topo_gen_deimos(struct ftsw_err *err)
{
	struct ftsw_gbuild b;
	unsigned c, d, t;

	if (ftsw_gbuild_begin(&b, CH * PERCH, 2 * EXT, HOSTS, "deimos", err))
		return NULL;
	for (c = 0; c < CH; c++)
		if (build_chassis(&b, c, err))
			goto fail;
	for (c = 0; c < CH; c++)
		for (d = c + 1; d < CH; d++)
			for (t = 0; t < XLINKS; t++)
				if (ftsw_topo_connect(b.t,
						      b.sw[c * PERCH + xleaf(c, d, t)],
						      EXT,
						      b.sw[d * PERCH + xleaf(d, c, t)],
						      EXT, err))
					goto fail;
	return ftsw_gbuild_end(&b, "deimos", err);
fail:
	ftsw_gbuild_abort(&b);
	return NULL;
}
