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
/*
 * The PathRecords from slid, asked of the SA at sm_lid: *recs (malloc'ed,
 * the caller frees) and *n. 0, or -1 with err (no answer within the
 * timeout, the gateway gave the request up, an SA status, a malformed
 * answer).
 */
int ftsw_sa_paths(struct ftsw_sa_client *c, uint16_t sm_lid, uint16_t slid,
		  struct ftsw_sa_path_rec **recs, size_t *n,
		  struct ftsw_err *err);
void ftsw_sa_close(struct ftsw_sa_client *c);

#endif
