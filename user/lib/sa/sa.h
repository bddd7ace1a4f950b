/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small subnet administration (SA) client for libftsw: PathRecords
 * (IBA vol. 1, 15.2.5.16), asked of the SA (OpenSM's) through a lab
 * host's gateway (gw.h) as any libumad2sim.so tool asks it, so that the
 * lab can give hosts the SLs of the paths the SM computed
 * (Documentation/sm.md, "Path SLs").
 *
 * sa.c builds the query and parses the answer: bytes in, bytes out, every
 * field of the answer checked (it comes off the wire). sa_client.c is the
 * client side of ibsim's simulator protocol (simproto.h): its sockets in
 * the network namespace it is opened in, CONNECT, one MAD out, the whole
 * answer back (reassembled by the gateway's RMPP, delivered on the
 * client's long-MAD socket when longer than libumad2sim carries).
 *
 * A GetTable of PathRecords with only SLID in the component mask asks for
 * the paths from that LID to every LID the SA knows (every port's, with
 * the LMC's range of each): one query per source LID.
 */
#ifndef LIBFTSW_SA_SA_H
#define LIBFTSW_SA_SA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

#define FTSW_SA_CLASS			0x03
#define FTSW_SA_CLASS_VERSION		2
#define FTSW_SA_METHOD_GET_TABLE	0x12
#define FTSW_SA_METHOD_GET_TABLE_RESP	0x92
#define FTSW_SA_ATTR_PATH_RECORD	0x0035
#define FTSW_SA_HDR			56	/* MAD, RMPP and SA headers */
#define FTSW_SA_PR_SIZE			64
#define FTSW_SA_PR_COMP_SLID		(1ull << 5)
/* The most records an answer may hold: 1 MiB of RMPP message. */
#define FTSW_SA_MAX_RECORDS		((1u << 20) / FTSW_SA_PR_SIZE)

/* The fields of a PathRecord the lab uses. */
struct ftsw_sa_path_rec {
	uint16_t dlid, slid;
	uint8_t sl;		/* 0..15 */
	uint8_t mtu, rate;	/* the 6-bit codes */
	uint16_t pkey;
};

/* A GetTable of the PathRecords from slid, TID tid, into mad[256]. */
void ftsw_sa_pr_query(uint8_t mad[256], uint64_t tid, uint16_t slid);

/*
 * Parse the answer msg[len] to ftsw_sa_pr_query(tid, slid): a
 * GetTableResp of class 0x03 version 2, base version 1, TID tid, MAD
 * status 0, attribute PathRecord, AttributeOffset of at least one
 * PathRecord (64 bytes; 0 only with no records), each record's SLID
 * slid and DLID a unicast LID (1..0xBFFF). Bytes past the last whole
 * record are padding. At most max records go to out (more is an error).
 * 0 with *n records, or -EINVAL with err naming the field at fault.
 */
int ftsw_sa_pr_parse(const uint8_t *msg, size_t len, uint64_t tid,
		     uint16_t slid, struct ftsw_sa_path_rec *out, size_t max,
		     size_t *n, struct ftsw_err *err);

/*
 * MCMemberRecords (IBA vol. 1, 15.2.5.17): a port joins a multicast
 * group with a Set, leaves it with a Delete; the answer (GetResp,
 * DeleteResp) is the group's record, its MLID assigned by the SA. Layout:
 * MGID 0, PortGID 16, Q_Key 32, MLID 36, MTU 38 (selector << 6 | code),
 * TClass 39, P_Key 40, rate 42, packet lifetime 43 (selector << 6 |
 * value), SL << 28 | FlowLabel << 8 | HopLimit 44, Scope << 4 | JoinState
 * 48, ProxyJoin << 7 49; 52 bytes (AttributeOffset 7 words: 56).
 */
#define FTSW_SA_METHOD_SET		0x02
#define FTSW_SA_METHOD_GET_RESP		0x81
#define FTSW_SA_METHOD_DELETE		0x15
#define FTSW_SA_METHOD_DELETE_RESP	0x95
#define FTSW_SA_ATTR_MCMEMBER_RECORD	0x0038
#define FTSW_SA_MCM_SIZE		52

/* ComponentMask bits of an MCMemberRecord. */
#define FTSW_SA_MCM_MGID		(1ull << 0)
#define FTSW_SA_MCM_PORT_GID		(1ull << 1)
#define FTSW_SA_MCM_QKEY		(1ull << 2)
#define FTSW_SA_MCM_MLID		(1ull << 3)
#define FTSW_SA_MCM_MTU_SEL		(1ull << 4)
#define FTSW_SA_MCM_MTU			(1ull << 5)
#define FTSW_SA_MCM_TCLASS		(1ull << 6)
#define FTSW_SA_MCM_PKEY		(1ull << 7)
#define FTSW_SA_MCM_RATE_SEL		(1ull << 8)
#define FTSW_SA_MCM_RATE		(1ull << 9)
#define FTSW_SA_MCM_LIFE_SEL		(1ull << 10)
#define FTSW_SA_MCM_LIFE		(1ull << 11)
#define FTSW_SA_MCM_SL			(1ull << 12)
#define FTSW_SA_MCM_FLOW_LABEL		(1ull << 13)
#define FTSW_SA_MCM_HOP_LIMIT		(1ull << 14)
#define FTSW_SA_MCM_SCOPE		(1ull << 15)
#define FTSW_SA_MCM_JOIN_STATE		(1ull << 16)
#define FTSW_SA_MCM_PROXY_JOIN		(1ull << 17)

/* JoinState bits. */
#define FTSW_SA_JOIN_FULL		0x1
#define FTSW_SA_JOIN_NON		0x2
#define FTSW_SA_JOIN_SEND_ONLY		0x4

struct ftsw_sa_mcm {
	uint8_t mgid[16], port_gid[16];
	uint32_t qkey;
	uint16_t mlid, pkey;
	uint8_t mtu, tclass, rate, life;	/* selector << 6 | value */
	uint8_t sl;				/* 0..15 */
	uint32_t flow_label;			/* 20 bits */
	uint8_t hop_limit;
	uint8_t scope, join_state;		/* 4 bits each */
	bool proxy_join;
};

void ftsw_sa_mcm_encode(const struct ftsw_sa_mcm *m,
			uint8_t rec[FTSW_SA_MCM_SIZE]);
void ftsw_sa_mcm_decode(const uint8_t rec[FTSW_SA_MCM_SIZE],
			struct ftsw_sa_mcm *m);
/* An SA request (Set: join, Delete: leave) of m with ComponentMask comp. */
void ftsw_sa_mcm_request(uint8_t mad[256], uint64_t tid, uint8_t method,
			 uint64_t comp, const struct ftsw_sa_mcm *m);
/*
 * Parse the answer to ftsw_sa_mcm_request(tid, method): class 0x03
 * version 2, the response of method (GetResp to a Set, DeleteResp to a
 * Delete), TID tid, attribute MCMemberRecord, room for one record; a
 * non-zero MAD status is returned in *status (0 then) with the record
 * left unread, as the SA refused. The record's MLID must be multicast
 * (0xC000..0xFFFE) when the status is 0, or 0 in a DeleteResp (OpenSM
 * echoes a leave's request). 0 or -EINVAL with err.
 */
int ftsw_sa_mcm_parse(const uint8_t *msg, size_t len, uint64_t tid,
		      uint8_t method, struct ftsw_sa_mcm *out,
		      uint16_t *status, struct ftsw_err *err);

/* The client: sockets of the simulator protocol's client side. */
struct ftsw_sa_client {
	int ctl, data, big;
	uint32_t pid, id;	/* our name's number, the gateway's slot */
	char base[96];
	uint64_t next_tid;
	unsigned timeout_ms;	/* per query (0: 10000) */
	uint8_t *buf;		/* a long MAD's datagram */
};

/*
 * Connect to the gateway named base (FTSW_LAB_GW_SOCK for a lab) in the
 * current network namespace. 0, or -1 with err set (no gateway there,
 * refused).
 */
int ftsw_sa_open(struct ftsw_sa_client *c, const char *base,
		 struct ftsw_err *err);
/* The host port's LID and its master SM's LID (PortInfo). */
int ftsw_sa_port_lids(struct ftsw_sa_client *c, uint16_t *lid, uint16_t *sm_lid,
		      struct ftsw_err *err);
/* The host port's GID (its GID prefix and port GUID, wire order). */
int ftsw_sa_port_gid(struct ftsw_sa_client *c, uint8_t gid[16],
		     struct ftsw_err *err);
/*
 * The PathRecords from slid, asked of the SA at sm_lid: *recs (malloc'ed,
 * the caller frees) and *n. 0, or -1 with err (no answer within the
 * timeout, the gateway gave the request up, an SA status, a malformed
 * answer).
 */
int ftsw_sa_paths(struct ftsw_sa_client *c, uint16_t sm_lid, uint16_t slid,
		  struct ftsw_sa_path_rec **recs, size_t *n,
		  struct ftsw_err *err);
/*
 * One MCMemberRecord request (ftsw_sa_mcm_request) to the SA at sm_lid and
 * its answer in *out; *status is the SA's MAD status (0: done). 0, or -1
 * with err (no answer, a malformed one).
 */
int ftsw_sa_mcm(struct ftsw_sa_client *c, uint16_t sm_lid, uint8_t method,
		uint64_t comp, const struct ftsw_sa_mcm *in,
		struct ftsw_sa_mcm *out, uint16_t *status,
		struct ftsw_err *err);
/*
 * Many MCMemberRecord requests in flight at once, each through its own
 * client (several may share one: a host's joins), as the hosts of a
 * fabric join at the same time: all sent, then every answer taken as it
 * comes, whichever client it reaches. The caller fills c, sm_lid, method,
 * comp and in; out and status are the answer's (as ftsw_sa_mcm()). 0
 * once every request has its answer, or -1 with err (an answer malformed
 * or given back by a gateway; none for the clients' timeout, 10 s by
 * default, counted from the last answer).
 */
struct ftsw_sa_mcm_req {
	struct ftsw_sa_client *c;
	uint16_t sm_lid;
	uint8_t method;
	uint64_t comp;
	struct ftsw_sa_mcm in, out;
	uint16_t status;
	uint64_t tid;		/* the batch's */
	bool done;
};
int ftsw_sa_mcm_batch(struct ftsw_sa_mcm_req *reqs, size_t n,
		      struct ftsw_err *err);
void ftsw_sa_close(struct ftsw_sa_client *c);

#endif
