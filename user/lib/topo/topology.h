/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw topology model: a general graph of switches and hosts (channel
 * adapters), their numbered ports and the links between them, with optional
 * PGFT coordinates. Memory is linear in ports: one node record per node and
 * one port record per port; parallel links are simply several ports of the
 * same node pair.
 *
 * Node ids are indices into topo->nodes. Switches and hosts also have their
 * own dense indices (node->index), in topology order: topo->switches[i] and
 * topo->hosts[n] give the node id. Host n's base LID is (n + 1) << LMC.
 *
 * Ports are numbered 1..nports as on InfiniBand (port 0 of a switch is its
 * management port and is not modelled). A port record tells what the port is
 * cabled to: peer node id (FTSW_NONE when unconnected) and peer port number.
 *
 * A topology (ftsw_topo_new, the generators, the net file readers) is the
 * caller's, freed by ftsw_topo_free; once finished it is only read, so
 * threads may share it.
 */
#ifndef LIBFTSW_TOPOLOGY_H
#define LIBFTSW_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/util.h"

/* What follows is libftsw's API: exported (Documentation/libftsw.md). */
#pragma GCC visibility push(default)

#define FTSW_NONE	UINT32_MAX
#define FTSW_PGFT_MAX_H	8	/* PGFT levels supported */
#define FTSW_TOPO_MAX_PORTS 254	/* as FTSW_MAX_PORTS in the UAPI */

enum ftsw_node_kind {
	FTSW_SWITCH = 1,
	FTSW_HOST = 2,
};

struct ftsw_port {
	uint32_t peer;		/* peer node id, FTSW_NONE if not cabled */
	uint8_t peer_port;	/* peer's port number (1..254) */
};

struct ftsw_node {
	uint64_t guid;		/* node GUID (0 = none given) */
	char *desc;		/* node description / name, may be NULL */
	uint32_t first_port;	/* topo->ports index of port 1 */
	uint32_t index;		/* index among switches or among hosts */
	uint8_t kind;		/* enum ftsw_node_kind */
	uint8_t nports;		/* ports 1..nports */
	int8_t level;		/* PGFT level (hosts 0, leaves 1, ...); -1 unknown */
	uint8_t flags;
};

/* PGFT(h; m_1..m_h; w_1..w_h; p_1..p_h), index 0 = level 1. */
struct ftsw_pgft {
	unsigned h;
	unsigned m[FTSW_PGFT_MAX_H];
	unsigned w[FTSW_PGFT_MAX_H];
	unsigned p[FTSW_PGFT_MAX_H];
};

struct ftsw_topo {
	uint32_t nnodes, nswitches, nhosts;
	struct ftsw_node *nodes;
	uint32_t *switches;	/* switch index -> node id */
	uint32_t *hosts;	/* host index -> node id (topology order) */
	uint32_t nports;	/* total port records */
	struct ftsw_port *ports;
	uint64_t *port_guids;	/* optional per-port GUID (CA ports), or NULL */

	/*
	 * PGFT coordinates, when the fabric is (a degraded) PGFT: pgft_h > 0,
	 * pgft holds the parameters and digits[node * h + (i - 1)] is digit
	 * a_i of the node's tuple (l, a_h..a_1), l = node->level.
	 */
	bool is_pgft;
	bool degraded;		/* links, switches or hosts missing */
	struct ftsw_pgft pgft;
	uint16_t *digits;
	char spec[128];		/* generator spec, "" when unknown */

	uint32_t cap_nodes, cap_ports;	/* builder capacity */
};

static inline struct ftsw_port *ftsw_port(const struct ftsw_topo *t,
					  uint32_t node, unsigned port)
{
	return &t->ports[t->nodes[node].first_port + port - 1];
}

/*
 * The index (in switches[]) of the switch cabled to port (1-based) of
 * node n, or FTSW_NONE when the port leads to no switch.
 */
static inline uint32_t ftsw_peer_switch(const struct ftsw_topo *t,
					const struct ftsw_node *n,
					unsigned port)
{
	uint32_t peer = t->ports[n->first_port + port - 1].peer;

	return peer != FTSW_NONE && t->nodes[peer].kind == FTSW_SWITCH ?
	       t->nodes[peer].index : FTSW_NONE;
}

/*
 * Every port of every switch, in switch then port order, those flags keep:
 *
 *	struct ftsw_sw_port it;
 *
 *	ftsw_for_each_switch_port(t, &it, FTSW_SWP_CABLED)
 *		... it.sw (index in switches[]), it.node, it.port, it.x ...
 *
 * FTSW_SWP_CABLED: ports with a cable; FTSW_SWP_TO_SWITCH: cables to a
 * switch; FTSW_SWP_ONCE: each cable between switches once, from its lower
 * end (lower node, or on one node the lower port). break leaves the loop.
 */
enum {
	FTSW_SWP_CABLED		= 1 << 0,
	FTSW_SWP_TO_SWITCH	= 1 << 1 | FTSW_SWP_CABLED,
	FTSW_SWP_ONCE		= 1 << 2 | FTSW_SWP_TO_SWITCH,
};

struct ftsw_sw_port {
	uint32_t sw;			/* the switch's index */
	uint32_t node;			/* its node */
	unsigned port;			/* 1..nports */
	const struct ftsw_port *x;	/* the port's cable */
};

/* The next port after it's (it->port 0: the first): true, or false past
 * the last switch. */
static inline bool ftsw_sw_port_next(const struct ftsw_topo *t,
				     struct ftsw_sw_port *it, unsigned flags)
{
	for (; it->sw < t->nswitches; it->sw++, it->port = 0) {
		it->node = t->switches[it->sw];
		while (++it->port <= t->nodes[it->node].nports) {
			it->x = ftsw_port(t, it->node, it->port);
			if ((flags & FTSW_SWP_CABLED) && it->x->peer == FTSW_NONE)
				continue;
			if ((flags & FTSW_SWP_TO_SWITCH & ~FTSW_SWP_CABLED) &&
			    t->nodes[it->x->peer].kind != FTSW_SWITCH)
				continue;
			if ((flags & FTSW_SWP_ONCE & ~FTSW_SWP_TO_SWITCH) &&
			    (it->x->peer < it->node ||
			     (it->x->peer == it->node &&
			      it->x->peer_port < it->port)))
				continue;
			return true;
		}
	}
	return false;
}

#define ftsw_for_each_switch_port(t, it, flags)				\
	for ((it)->sw = 0, (it)->port = 0;				\
	     ftsw_sw_port_next((t), (it), (flags)); )

/* GUIDs of generated nodes: "ft" tag, level, index; CA port p: guid | p. */
#define FTSW_GEN_GUID(level, index) \
	(0x6674000000000000ULL | ((uint64_t)(level) << 40) | \
	 ((uint64_t)(index) << 4))
#define FTSW_GEN_GUID_TAG(g)	((g) >> 48)
#define FTSW_GEN_GUID_LEVEL(g)	((unsigned)(((g) >> 40) & 0xff))
#define FTSW_GEN_GUID_INDEX(g)	(((g) & 0xffffffffffULL) >> 4)

/*
 * Largest generated fabric, for every generator: 4 Mi nodes, 32 Mi ports
 * (node and port records about 0.5 GB, the names as much again), refused
 * before anything is allocated. The largest fabric of the papers, 65,536
 * hosts, is about 1/60 of it.
 */
#define FTSW_GEN_MAX_NODES	(4u << 20)
#define FTSW_GEN_MAX_PORTS	(32u << 20)

/* Builder. add_node returns the node id or FTSW_NONE (err set). */
struct ftsw_topo *ftsw_topo_new(void);
void ftsw_topo_free(struct ftsw_topo *t);
uint32_t ftsw_topo_add_node(struct ftsw_topo *t, enum ftsw_node_kind kind,
			    unsigned nports, uint64_t guid, const char *desc,
			    struct ftsw_err *err);
int ftsw_topo_connect(struct ftsw_topo *t, uint32_t a, unsigned pa,
		      uint32_t b, unsigned pb, struct ftsw_err *err);
void ftsw_topo_disconnect(struct ftsw_topo *t, uint32_t a, unsigned pa);
/* Builds switches[]/hosts[] and per-kind indices; call after adding nodes. */
int ftsw_topo_finish(struct ftsw_topo *t, struct ftsw_err *err);

/* Number of cabled ports of a node; the port a host is attached through. */
unsigned ftsw_node_degree(const struct ftsw_topo *t, uint32_t node);
/* A host's first cabled port (0 if none) and the switch behind it. */
unsigned ftsw_host_port(const struct ftsw_topo *t, uint32_t host_node);
uint32_t ftsw_host_switch(const struct ftsw_topo *t, uint32_t host_node);
/* Number of links (each cabled port pair once). */
uint64_t ftsw_topo_nlinks(const struct ftsw_topo *t);

/*
 * Generators. SPEC strings (also what `ftsw topo gen` takes):
 *   pgft:H;M1,..,MH;W1,..,WH;P1,..,PH   also "PGFT(H;M..;W..;P..)"
 *   xgft:H;M..;W..                    XGFT, all p = 1
 *   rlft:H;M..;W..;P..                PGFT checked against the RLFT rules
 *   kary:K,N                          k-ary n-tree
 *   ftmn:M,N                          FT(m, n), m-port n-tree
 *   torus:K1,..,Kn[,hosts=H][,ports=P] k-ary n-cube; mesh: the same
 *                                     without wrap-around links
 *   kautz:B,N[,hosts=H|endpoints=E][,ports=P]  Kautz(b, n) switch graph
 *   random:SWITCHES,PORTS,HOSTS,LINKS,SEED     (ftsw_topo_gen_random)
 *   dragonfly:A,P,H[,groups=G]        dragonfly, consecutive global links
 *   deimos                            paper 001's Deimos cluster
 *   FATTREE@E                         a fat-tree spec as the switch
 *                                     topology of E endpoints (Table I)
 * (the last six in topo/graphs.c, Documentation/topology.md)
 */
struct ftsw_topo *ftsw_topo_gen(const char *spec, struct ftsw_err *err);
struct ftsw_topo *ftsw_topo_gen_pgft(const struct ftsw_pgft *g,
				     struct ftsw_err *err);
/*
 * What ftsw_topo_gen(spec) would refuse, found without generating: the
 * spec's grammar, its parameters and the size limit. 0, -EINVAL (a bad
 * spec) or -ERANGE (too large), err naming the spec and why.
 */
int ftsw_topo_spec_check(const char *spec, struct ftsw_err *err);
/* The same for one kind: a PGFT's size, a switch graph, SPEC@E. */
int ftsw_pgft_check_size(const struct ftsw_pgft *g, struct ftsw_err *err);
int ftsw_graph_check(const char *spec, struct ftsw_err *err);
int ftsw_endpoints_check(const char *spec, struct ftsw_err *err);
/* 1 when spec is one of the graph kinds (torus .. deimos) above. */
int ftsw_graph_kind(const char *spec);
struct ftsw_topo *ftsw_topo_gen_graph(const char *spec, struct ftsw_err *err);
/* "SPEC@E": fat-tree SPEC as a switch topology with E endpoints (graphs.c). */
struct ftsw_topo *ftsw_topo_gen_endpoints(const char *spec,
					  struct ftsw_err *err);
int ftsw_pgft_parse(const char *spec, struct ftsw_pgft *g, char *kind,
		    size_t kindsz, struct ftsw_err *err);
/* RLFT conditions: 0 when met, else -1 with the failing one in err. */
int ftsw_pgft_check_rlft(const struct ftsw_pgft *g, struct ftsw_err *err);
void ftsw_pgft_format(const struct ftsw_pgft *g, char *buf, size_t sz);
/* Node counts of a PGFT: hosts and switches at level l (0 = hosts). */
uint64_t ftsw_pgft_level_size(const struct ftsw_pgft *g, unsigned l);

/*
 * Degradations: each returns a new topology (the input is untouched), with
 * the host order of the input for the hosts that remain.
 */
struct ftsw_degrade {
	unsigned rand_links;		/* k random switch-switch links */
	unsigned rand_switches;		/* k random switches */
	unsigned rand_hosts;		/* k random hosts (partial tree) */
	uint64_t seed;
	/* explicit removals: node ids, and (node, port) link ends */
	const uint32_t *switches; size_t nswitch;
	const uint32_t *hostlist; size_t nhostlist;
	const uint32_t (*links)[2]; size_t nlinks;
};
struct ftsw_topo *ftsw_topo_degrade(const struct ftsw_topo *t,
				    const struct ftsw_degrade *d,
				    struct ftsw_err *err);
/* Copy of t keeping only nodes with keep[node] true. */
struct ftsw_topo *ftsw_topo_subset(const struct ftsw_topo *t, const bool *keep,
				   struct ftsw_err *err);

/*
 * ibnetdiscover / ibsim net format. Reading accepts real ibnetdiscover
 * output (comments, GUIDs in brackets, lid/lmc trailers); errors name
 * "file:line". Writing is atomic (temporary file, rename) when to a path.
 * A "# ftsw-topology: SPEC" comment marks a generated fabric; on reading,
 * the fabric is checked against SPEC and recognised as a (degraded) PGFT.
 * A net file is a regular file of at most FTSW_NET_MAX_FILE bytes and
 * lines of at most FTSW_NET_MAX_LINE bytes (util/text.h).
 */
#define FTSW_NET_MAX_LINE	4096
#define FTSW_NET_MAX_FILE	(1ULL << 30)
struct ftsw_topo *ftsw_net_read(const char *path, struct ftsw_err *err);
/*
 * What every -t takes: a net file, or (when no such file exists and the
 * argument has a ':') a generator spec such as "ftmn:8,2" or "pgft:...".
 */
struct ftsw_topo *ftsw_topo_open(const char *arg, struct ftsw_err *err);
/* Whether ftsw_topo_open takes arg as a spec (no such file, a ':'...). */
bool ftsw_topo_is_spec(const char *arg);
struct ftsw_topo *ftsw_net_read_file(FILE *f, const char *name,
				     struct ftsw_err *err);
int ftsw_net_write(const struct ftsw_topo *t, const char *path,
		   struct ftsw_err *err);
int ftsw_net_write_file(const struct ftsw_topo *t, FILE *f);

/*
 * Recognise t as the switch graph the spec (torus:, mesh:, kautz:,
 * random:, dragonfly:, deimos) generates: the same nodes in the same
 * order, cabled alike, as a net file written from it holds. 0 and
 * t->spec set (coordinates then come from it, as dor's), or -1 with err
 * set. The spec's size is checked first: nothing larger than t is
 * generated.
 */
int ftsw_topo_match_graph(struct ftsw_topo *t, const char *spec,
			  struct ftsw_err *err);

/*
 * What t is, for `topo show`: its family ("pgft", "torus", "mesh",
 * "kautz", "random", "dragonfly", "deimos"; "" when it is none ftsw
 * generates or recognised) and, in desc, its parameters in words (a
 * PGFT's other names: XGFT, k-ary n-tree, FT(m, n)).
 */
const char *ftsw_topo_family(const struct ftsw_topo *t, char *desc,
			     size_t sz);

/* Recognise t as a (degraded) PGFT of parameters g; sets is_pgft etc. */
int ftsw_topo_match_pgft(struct ftsw_topo *t, const struct ftsw_pgft *g,
			 struct ftsw_err *err);

/*
 * For a fabric without PGFT coordinates: 0 and g filled when its structure
 * is that of a complete PGFT (ranks from the leaves as levels, links only
 * between adjacent levels, every node of a level with the same numbers of
 * distinct parents/children and of links to each, level sizes as the PGFT
 * formulas give). Graph invariants only: not an isomorphism proof.
 */
int ftsw_topo_infer_pgft(const struct ftsw_topo *t, struct ftsw_pgft *g);

/*
 * Find a node by "0x<GUID>", by net-file id ("S-<guid>", "H-<guid>") or by
 * description; FTSW_NONE when absent.
 */
uint32_t ftsw_topo_find(const struct ftsw_topo *t, const char *name);
/*
 * A host by index ("3", "h3", "H3": the names ftsw prints) or by node
 * name, GUID or net-file id, as above: 0 and *host its index, or -EINVAL
 * with err naming it and the range.
 */
int ftsw_topo_find_host(const struct ftsw_topo *t, const char *name,
			uint32_t *host, struct ftsw_err *err);

/*
 * Two descriptions of one fabric compared node by node, by node GUID (as
 * ibnetdiscover --diff does): the planned topology and what a discovery
 * found, say. Each difference is one entry; a cable that differs is
 * reported at each end of it that is in the first topology, and at the
 * ends only the second has.
 */
enum ftsw_topo_delta_kind {
	FTSW_DELTA_ONLY_FIRST,	/* node in the first topology only */
	FTSW_DELTA_ONLY_SECOND,	/* node in the second only */
	FTSW_DELTA_KIND,	/* switch in one, host in the other */
	FTSW_DELTA_PORTS,	/* port counts differ */
	FTSW_DELTA_DESC,	/* node descriptions differ */
	FTSW_DELTA_PORT_GUID,	/* a port's GUID differs (hosts) */
	FTSW_DELTA_CABLE,	/* a port's far end differs */
};

struct ftsw_topo_delta {
	enum ftsw_topo_delta_kind kind;
	uint64_t guid;			/* the node */
	unsigned port;			/* PORT_GUID, CABLE: the port */
	const char *desc[2];		/* the node in each (NULL: none) */
	uint64_t val[2];		/* PORTS, PORT_GUID: each's; CABLE: far node's GUID (0: none) */
	unsigned peer_port[2];		/* CABLE: far port in each */
};

struct ftsw_topo_diff {
	uint64_t nodes_same, cables_same;	/* cables counted per end */
	uint64_t ndeltas;			/* all of them */
	struct ftsw_topo_delta *deltas;		/* the first max_deltas */
	size_t nkept;
};

/*
 * Compare a and b; at most max_deltas entries are kept (all are counted).
 * 0, or -1 with err set (out of memory, a node GUID twice in one of them).
 * The descriptions point into a and b, which must outlive d.
 */
int ftsw_topo_diff(const struct ftsw_topo *a, const struct ftsw_topo *b,
		   size_t max_deltas, struct ftsw_topo_diff *d,
		   struct ftsw_err *err);
void ftsw_topo_diff_free(struct ftsw_topo_diff *d);

/* Summary used by `ftsw topo show`. */
struct ftsw_topo_stats {
	unsigned nlevels;		/* by BFS ranking from leaves */
	uint32_t per_level[16];		/* switches per rank (0 = leaves) */
	uint64_t links, switch_links, host_links;
	unsigned min_deg, max_deg;	/* cabled ports of switches */
	uint32_t unconnected_hosts;
};
void ftsw_topo_stats(const struct ftsw_topo *t, struct ftsw_topo_stats *s);

/*
 * Ranking as in Dmodc: leaves (switches with hosts) rank 0, then BFS
 * upwards. rank[switch index]; -1 for switches not reached. Returns the
 * number of ranks.
 */
int ftsw_rank_from_leaves(const struct ftsw_topo *t, int *rank);
/* BFS ranking from roots (switch indices; NULL = none); rank 0 = roots. */
int ftsw_rank_from_roots(const struct ftsw_topo *t, const uint32_t *roots,
			 size_t nroots, int *rank);

/*
 * Random topology for the virtual-layer experiments (paper 001, Fig. 9):
 * nsw switches of `ports` ports, hosts_per_sw hosts on each, `links`
 * random switch-to-switch links (a random spanning tree first, so the
 * fabric is connected, then uniformly random pairs of switches with free
 * ports; no self links, parallel links allowed).
 */
struct ftsw_topo *ftsw_topo_gen_random(unsigned nsw, unsigned ports,
				       unsigned hosts_per_sw, unsigned links,
				       uint64_t seed, struct ftsw_err *err);

#pragma GCC visibility pop

#endif
