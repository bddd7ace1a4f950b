/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw gateway internals shared by gw.c (sockets, the loop, the
 * simulator protocol) and gw_rmpp.c (RMPP sessions and long MADs).
 */
#ifndef LIBFTSW_GW_GW_INT_H
#define LIBFTSW_GW_GW_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "gw/gw.h"
#include "gw/rmpp.h"
#include "gw/simproto.h"

#define OWNER_SELF	0xffffffffu
#define GW_RMPP_SESSIONS	32	/* each way */

struct gw_client {
	bool used, issm;
	/*
	 * agents_known: libftsw-umad.so told us the client's agents (a
	 * client without it gets requests by the older rule: the SM, else
	 * the only client); agents: how many it registered per class.
	 */
	bool agents_known;
	uint8_t agents[256];
	uint32_t pid, gen;
	int fd;
	uint64_t to_fabric, from_fabric;
};

/* A message being received: keyed by TID and the sender's LID; f holds
 * the first segment's addresses (where ACKs go). */
struct gw_rx_sess {
	bool used;
	uint64_t tid, last_us;
	struct gw_frame f;
	struct gw_rmpp_rx rx;
};

/* A message being sent: keyed by TID and the receiver's LID; f is the
 * frame template (addresses) of every segment. */
struct gw_tx_sess {
	bool used;
	uint64_t tid, due_us;
	unsigned tries;
	struct gw_frame f;
	struct gw_rmpp_tx tx;
};

struct gw {
	const struct ftsw_gw_opts *o;
	const char *base;
	FILE *log;
	int ctl, pkt, big, ifindex;
	struct gw_client cl[FTSW_GW_MAX_CLIENTS];
	struct gw_tids tids;
	struct gw_pends pend;
	struct gw_rx_sess rx[GW_RMPP_SESSIONS];
	struct gw_tx_sess tx[GW_RMPP_SESSIONS];
	uint64_t refused, dropped, timedout, rmpp_in, rmpp_out, rmpp_failed;
	bool cap_sm;		/* IsSM set in the port's CapabilityMask */
	uint64_t unmatched;	/* requests answered 0x0C: no client serves */
};

void gw_log(struct gw *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int gw_send_frame(struct gw *g, const struct gw_frame *f);
uint64_t gw_mad_timeout_us(const struct gw *g);
bool gw_to_client_status(struct gw *g, uint32_t i, const struct gw_frame *f,
			 uint32_t status);
bool gw_to_client_len(struct gw *g, uint32_t i, const struct gw_frame *f,
		      size_t len, uint32_t status);
int gw_request_client(struct gw *g, uint8_t mgmt_class);
/* An agent registration from client i's BASE:bigPID (section 4). */
void gw_on_agent(struct gw *g, uint32_t i, const uint8_t *buf, size_t n);
void gw_client_free(struct gw *g, uint32_t i, const char *why);

/* gw_rmpp.c */
int gwr_open(struct gw *g, struct ftsw_err *err);
void gwr_close(struct gw *g);
/* A long MAD waiting on the gateway's BASE:big socket. */
void gwr_on_big(struct gw *g);
/* A client's MAD (addresses in f, len bytes at mad) that RMPP carries: sent
 * as segments. Whether it was (false: not an RMPP MAD, send as is). */
bool gwr_send(struct gw *g, uint32_t client, const struct gw_frame *f,
	      const uint8_t *mad, size_t len);
/* A frame from the fabric that belongs to RMPP: handled, true. */
bool gwr_dispatch(struct gw *g, const struct gw_frame *f, uint64_t now);
/* Resends and timeouts due at now; the next time anything is due. */
void gwr_expire(struct gw *g, uint64_t now);
uint64_t gwr_next(const struct gw *g);

#endif
