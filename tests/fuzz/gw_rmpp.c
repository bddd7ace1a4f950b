// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: RMPP in the gateway (gw/rmpp.h) and the long-MAD datagram
 * (gw/simproto.h). The input, cut into 256-byte segments, is fed to a
 * receiver as the fabric would bring it (a chunk ending in 0xff stands
 * for an earlier one coming again, its byte 254 picking which, so
 * duplicates and gaps happen); whatever it reassembles is bounded, and sent again by
 * the sender side and received by a second receiver it comes out the same.
 * The same input is then taken as ACKs by a sender, and as a long MAD.
 */
#include "fuzz.h"
#include "gw/rmpp.h"
#include "gw/simproto.h"

#define SEG 256

/* msg[len] segmented and acknowledged in full must reassemble to itself. */
static void round_trip(const uint8_t *msg, size_t len)
{
	struct gw_rmpp_rx rx = { 0 };
	struct gw_rmpp_tx tx;
	struct gw_rmpp_reply r;
	struct ftsw_err err;
	uint8_t s[SEG], a[SEG], *copy = malloc(len);
	uint32_t seg;
	int rc = 0;

	FUZZ_ASSERT(copy);
	memcpy(copy, msg, len);
	FUZZ_ASSERT(gw_rmpp_tx_init(&tx, copy, len, &err) == 0);
	while (rc != 1) {
		FUZZ_ASSERT(gw_rmpp_tx_next(&tx, &seg));
		gw_rmpp_segment(tx.msg, tx.len, seg, s);
		rc = gw_rmpp_rx_seg(&rx, s, &r, &err);
		FUZZ_ASSERT(rc >= 0);
		if (r.kind == GW_RMPP_SEND_ACK) {
			gw_rmpp_reply_mad(s, &r, a);
			FUZZ_ASSERT(gw_rmpp_tx_ack(&tx, a, &r, &err) == rc);
		}
	}
	/* all but the RMPP header, which each segment sets anew */
	FUZZ_ASSERT(rx.len == len && !memcmp(rx.buf, msg, 24) &&
		    !memcmp(rx.buf + GW_RMPP_HDR, msg + GW_RMPP_HDR,
			    len - GW_RMPP_HDR));
	gw_rmpp_rx_free(&rx);
	gw_rmpp_tx_free(&tx);
}

static void receive(const uint8_t *data, size_t size)
{
	struct gw_rmpp_rx rx = { 0 };
	struct gw_rmpp_reply r;
	struct ftsw_err err;
	uint8_t s[SEG];
	size_t off, n = size / SEG;
	int rc = 0;

	for (off = 0; off < n && rc == 0; off++) {
		const uint8_t *c = data + off * SEG;
		size_t pick = c[255] == 0xff ? c[254] % (off + 1) : off;

		memcpy(s, data + pick * SEG, SEG);
		rc = gw_rmpp_rx_seg(&rx, s, &r, &err);
		FUZZ_ASSERT(rx.len <= GW_RMPP_MAX_BYTES);
		if (rc < 0)
			FUZZ_ASSERT(r.kind == GW_RMPP_SEND_ABORT ||
				    r.kind == GW_RMPP_SEND_STOP);
	}
	if (rc == 1) {
		FUZZ_ASSERT(rx.done && rx.len >= rx.hdr && rx.len <= rx.hdr +
			    (size_t)(rx.expect - 1) * (SEG - rx.hdr));
		if (gw_rmpp_active(rx.buf))
			round_trip(rx.buf, rx.len);
	}
	gw_rmpp_rx_free(&rx);
}

static void send_acks(const uint8_t *data, size_t size)
{
	struct gw_rmpp_tx tx;
	struct gw_rmpp_reply r;
	struct ftsw_err err;
	uint8_t *msg = malloc(4000);
	uint32_t seg, sent = 0;
	size_t off;

	FUZZ_ASSERT(msg);
	memset(msg, 0, 4000);
	msg[0] = 1;
	msg[1] = 3;
	msg[26] = 1;
	FUZZ_ASSERT(gw_rmpp_tx_init(&tx, msg, 4000, &err) == 0);
	for (off = 0; off + SEG <= size; off += SEG) {
		while (gw_rmpp_tx_next(&tx, &seg)) {
			FUZZ_ASSERT(seg >= 1 && seg <= tx.nseg);
			sent = seg > sent ? seg : sent;
		}
		if (gw_rmpp_tx_ack(&tx, data + off, &r, &err) != 0)
			break;
		FUZZ_ASSERT(tx.acked <= tx.nseg && tx.acked <= sent);
		if (data[off] & 1)
			gw_rmpp_tx_rewind(&tx);
	}
	gw_rmpp_tx_free(&tx);
}

static void long_mad(const uint8_t *data, size_t size)
{
	struct ftsw_err err;
	struct gw_umad u;
	uint8_t *out;

	if (gw_umad_decode(data, size, GW_RMPP_MAX_BYTES, &u, &err) < 0)
		return;
	FUZZ_ASSERT(u.len == size - GW_UMAD_HDR && u.qpn <= 1);
	out = malloc(size);
	FUZZ_ASSERT(out);
	FUZZ_ASSERT(gw_umad_encode(&u, out) == size);
	FUZZ_ASSERT(!memcmp(out + GW_UMAD_HDR, data + GW_UMAD_HDR, u.len));
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	receive(data, size);
	send_acks(data, size);
	long_mad(data, size);
	return 0;
}
