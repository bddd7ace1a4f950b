/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RMPP, the Reliable Multi-Packet Protocol (IBA 13.6), as the gateway
 * speaks it for its clients: what the kernel's MAD layer does for a umad
 * agent registered with an RMPP version, since libumad2sim has no kernel
 * beneath it. Pure logic on bytes and counters, no I/O: the gateway
 * (gw.c) sends what these functions ask for.
 *
 * An RMPP MAD is a MAD of an RMPP class (SA, the device management and
 * BIS classes, vendor range 2) whose RMPP header (bytes 24..35) has the
 * Active flag:
 *    24 RMPPVersion (1)   25 RMPPType: 1 DATA, 2 ACK, 3 STOP, 4 ABORT
 *    26 RRespTime (5 bits) | RMPPFlags (3 bits: Active 1, First 2, Last 4)
 *    27 RMPPStatus        28 SegmentNumber (DATA, ACK), big endian
 *    32 PayloadLength (DATA) or NewWindowLast (ACK), big endian
 * A message of L bytes whose class header ends at byte H (SA 56, device
 * management 64, vendor 40) travels in N DATA segments of 256 bytes: each
 * repeats the first H bytes and carries 256 - H bytes of the rest; the
 * payload counted by PayloadLength is what follows the RMPP header, 220
 * bytes a segment. The first segment has First and PayloadLength
 * N * 220 - pad, the last has Last and 220 - pad, pad being the unused
 * bytes of the last segment (as the Linux MAD layer counts them).
 * The receiver acknowledges (ACK: the last segment received in order and
 * the last segment the sender may send, NewWindowLast); the sender starts
 * with a window of one segment and resends from the last acknowledged one
 * after a timeout. Either side may ABORT (or, the receiver, STOP) with a
 * status. An ACK, STOP or ABORT carries the DATA's header with the
 * method's response bit flipped.
 */
#ifndef LIBFTSW_GW_RMPP_H
#define LIBFTSW_GW_RMPP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

#define GW_RMPP_VERSION		1
#define GW_RMPP_HDR		36	/* MAD header + RMPP header */
#define GW_RMPP_SEG_PAYLOAD	220	/* 256 - GW_RMPP_HDR */
#define GW_RMPP_MAX_BYTES	(1u << 20)	/* largest message, either way */
#define GW_RMPP_WINDOW		32	/* segments a receiver grants */
#define GW_RMPP_NO_RESPTIME	0x1f

enum gw_rmpp_type {
	GW_RMPP_DATA = 1,
	GW_RMPP_ACK = 2,
	GW_RMPP_STOP = 3,
	GW_RMPP_ABORT = 4,
};

#define GW_RMPP_F_ACTIVE	0x1
#define GW_RMPP_F_FIRST		0x2
#define GW_RMPP_F_LAST		0x4

/* RMPPStatus values (IBA table 175). */
#define GW_RMPP_ST_NORMAL	0
#define GW_RMPP_ST_RESX		1	/* STOP: resources exhausted */
#define GW_RMPP_ST_T2L		118	/* total time too long */
#define GW_RMPP_ST_INC_LAST	119	/* inconsistent Last and PayloadLength */
#define GW_RMPP_ST_INC_FIRST	120	/* inconsistent First and segment */
#define GW_RMPP_ST_BADT		121	/* bad RMPPType */
#define GW_RMPP_ST_W2S		122	/* NewWindowLast too small */
#define GW_RMPP_ST_S2B		123	/* segment number too big */
#define GW_RMPP_ST_ILLEGAL	124	/* illegal status */
#define GW_RMPP_ST_UNV		125	/* unsupported version */
#define GW_RMPP_ST_TMR		126	/* too many retries */

struct gw_rmpp_hdr {
	uint8_t version, type, flags, rtime, status;
	uint32_t seg, paylen;	/* paylen: PayloadLength or NewWindowLast */
};

/* The header length H of an RMPP class, 0 for a class without RMPP. */
unsigned gw_rmpp_class_hdr(uint8_t mgmt_class);
/* Whether a 256-byte MAD takes part in RMPP: an RMPP class, Active set. */
bool gw_rmpp_active(const uint8_t *mad);
void gw_rmpp_get(const uint8_t *mad, struct gw_rmpp_hdr *h);
void gw_rmpp_put(uint8_t *mad, const struct gw_rmpp_hdr *h);

/* The segments a message of len bytes of class hdr length H needs (>= 1),
 * and the pad of its last segment. */
uint32_t gw_rmpp_nseg(unsigned hdr, size_t len, unsigned *pad);
/* DATA segment seg (1..N) of msg[len] into out[256]. */
void gw_rmpp_segment(const uint8_t *msg, size_t len, uint32_t seg,
		     uint8_t out[256]);

/* What a side answers: nothing, an ACK (seg, newwin), a STOP or an ABORT
 * (status). */
enum gw_rmpp_reply_kind { GW_RMPP_NONE, GW_RMPP_SEND_ACK, GW_RMPP_SEND_STOP,
			  GW_RMPP_SEND_ABORT };

struct gw_rmpp_reply {
	enum gw_rmpp_reply_kind kind;
	uint32_t seg, newwin;
	uint8_t status;
};

/* The ACK, STOP or ABORT r answering the segment mad, into out[256]. */
void gw_rmpp_reply_mad(const uint8_t *mad, const struct gw_rmpp_reply *r,
		       uint8_t out[256]);

/*
 * The receiving side of one message. gw_rmpp_rx_seg() takes each DATA
 * segment in turn: 0 with *r what to send back (an ACK on the first
 * segment, on the last of each window and on the last segment; nothing on
 * a segment out of order, which the sender's timeout sends again), 1 when
 * the message is whole (rx->buf, rx->len; *r the final ACK), or -EINVAL
 * with *r an ABORT or STOP and err the reason; the message is then dead.
 * Every field is bounded: the first segment must be segment 1 with First,
 * no message grows past GW_RMPP_MAX_BYTES, Last's PayloadLength must fit
 * the segment and agree with First's.
 */
struct gw_rmpp_rx {
	uint8_t *buf;
	size_t len;		/* bytes held */
	unsigned hdr;		/* the class header's length */
	uint32_t expect;	/* the next segment in order */
	uint32_t win_last;	/* the last segment the sender may send */
	uint32_t first_paylen;
	bool done;
};

int gw_rmpp_rx_seg(struct gw_rmpp_rx *rx, const uint8_t *mad,
		   struct gw_rmpp_reply *r, struct ftsw_err *err);
void gw_rmpp_rx_free(struct gw_rmpp_rx *rx);

/*
 * The sending side of one message (msg[len], owned by tx after init).
 * gw_rmpp_tx_next() gives the next segment the window allows;
 * gw_rmpp_tx_ack() takes an ACK, STOP or ABORT: 0, 1 when the last segment
 * is acknowledged, or -EINVAL (a STOP or ABORT, or an ACK out of bounds:
 * *r then the ABORT to send back) and the message is dead.
 * gw_rmpp_tx_rewind() starts again after the last acknowledged segment
 * (a timeout).
 */
struct gw_rmpp_tx {
	uint8_t *msg;
	size_t len;
	uint32_t nseg, acked, win_last, sent;
};

int gw_rmpp_tx_init(struct gw_rmpp_tx *tx, uint8_t *msg, size_t len,
		    struct ftsw_err *err);
bool gw_rmpp_tx_next(struct gw_rmpp_tx *tx, uint32_t *seg);
int gw_rmpp_tx_ack(struct gw_rmpp_tx *tx, const uint8_t *mad,
		   struct gw_rmpp_reply *r, struct ftsw_err *err);
void gw_rmpp_tx_rewind(struct gw_rmpp_tx *tx);
void gw_rmpp_tx_free(struct gw_rmpp_tx *tx);

#endif
