// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw gateway: RMPP segmentation and reassembly (rmpp.h). Bytes and
 * counters only; the gateway does the sending.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gw/rmpp.h"
#include "util/bytes.h"

#define MAD	256

unsigned gw_rmpp_class_hdr(uint8_t c)
{
	if (c == 0x03)				/* subnet administration */
		return 56;
	if (c == 0x05 || c == 0x06 || c == 0x10)	/* BIS, DevMgt, DevAdm */
		return 64;
	if (c >= 0x30 && c <= 0x4f)		/* vendor range 2 */
		return 40;
	return 0;
}

bool gw_rmpp_active(const uint8_t *mad)
{
	return gw_rmpp_class_hdr(mad[1]) && (mad[26] & GW_RMPP_F_ACTIVE);
}

void gw_rmpp_get(const uint8_t *mad, struct gw_rmpp_hdr *h)
{
	h->version = mad[24];
	h->type = mad[25];
	h->flags = mad[26] & 0x07;
	h->rtime = mad[26] >> 3;
	h->status = mad[27];
	h->seg = ftsw_get_be32(mad + 28);
	h->paylen = ftsw_get_be32(mad + 32);
}

void gw_rmpp_put(uint8_t *mad, const struct gw_rmpp_hdr *h)
{
	mad[24] = h->version;
	mad[25] = h->type;
	mad[26] = (uint8_t)(h->rtime << 3 | (h->flags & 0x07));
	mad[27] = h->status;
	ftsw_put_be32(mad + 28, h->seg);
	ftsw_put_be32(mad + 32, h->paylen);
}

uint32_t gw_rmpp_nseg(unsigned hdr, size_t len, unsigned *pad)
{
	size_t per = MAD - hdr, data = len > hdr ? len - hdr : 0;
	size_t n = data ? (data + per - 1) / per : 1;

	if (pad)
		*pad = (unsigned)(n * per - data);
	return (uint32_t)n;
}

void gw_rmpp_segment(const uint8_t *msg, size_t len, uint32_t seg,
		     uint8_t out[256])
{
	unsigned hdr = gw_rmpp_class_hdr(msg[1]), pad;
	uint32_t n = gw_rmpp_nseg(hdr, len, &pad);
	size_t per = MAD - hdr, off = hdr + (size_t)(seg - 1) * per;
	struct gw_rmpp_hdr h = {
		.version = GW_RMPP_VERSION, .type = GW_RMPP_DATA,
		.flags = GW_RMPP_F_ACTIVE, .rtime = GW_RMPP_NO_RESPTIME,
		.seg = seg,
	};

	memset(out, 0, MAD);
	memcpy(out, msg, hdr);
	if (off < len)
		memcpy(out + hdr, msg + off, len - off < per ? len - off : per);
	if (seg == 1) {
		h.flags |= GW_RMPP_F_FIRST;
		h.paylen = n * GW_RMPP_SEG_PAYLOAD - pad;
	}
	if (seg == n) {
		h.flags |= GW_RMPP_F_LAST;
		h.paylen = GW_RMPP_SEG_PAYLOAD - pad;
	}
	gw_rmpp_put(out, &h);
}

void gw_rmpp_reply_mad(const uint8_t *mad, const struct gw_rmpp_reply *r,
		       uint8_t out[256])
{
	struct gw_rmpp_hdr h = {
		.version = GW_RMPP_VERSION, .flags = GW_RMPP_F_ACTIVE,
		.rtime = GW_RMPP_NO_RESPTIME,
	};

	memset(out, 0, MAD);
	memcpy(out, mad, 24);
	out[3] ^= 0x80;			/* the method's response bit */
	out[4] = out[5] = 0;		/* MAD status */
	switch (r->kind) {
	case GW_RMPP_SEND_ACK:
		h.type = GW_RMPP_ACK;
		h.seg = r->seg;
		h.paylen = r->newwin;
		break;
	case GW_RMPP_SEND_STOP:
		h.type = GW_RMPP_STOP;
		h.status = r->status;
		break;
	default:
		h.type = GW_RMPP_ABORT;
		h.status = r->status;
		break;
	}
	gw_rmpp_put(out, &h);
}

static int rx_abort(struct gw_rmpp_reply *r, enum gw_rmpp_reply_kind k,
		    uint8_t status)
{
	*r = (struct gw_rmpp_reply){ .kind = k, .status = status };
	return -EINVAL;
}

/* The first segment: bounds from First's PayloadLength, the buffer. */
static int rx_first(struct gw_rmpp_rx *rx, const uint8_t *mad,
		    const struct gw_rmpp_hdr *h, struct gw_rmpp_reply *r,
		    struct ftsw_err *err)
{
	size_t per;

	rx->hdr = gw_rmpp_class_hdr(mad[1]);
	if (!rx->hdr) {
		ftsw_err_set(err, "RMPP: class 0x%02x has no RMPP", mad[1]);
		return rx_abort(r, GW_RMPP_SEND_ABORT, GW_RMPP_ST_BADT);
	}
	per = MAD - rx->hdr;
	/* First's PayloadLength (0: not told) bounds the whole message */
	if (h->paylen && rx->hdr + (uint64_t)h->paylen / GW_RMPP_SEG_PAYLOAD *
	    per + per > GW_RMPP_MAX_BYTES) {
		ftsw_err_set(err, "RMPP: PayloadLength %u is more than the %u bytes a message may have",
			     h->paylen, GW_RMPP_MAX_BYTES);
		return rx_abort(r, GW_RMPP_SEND_STOP, GW_RMPP_ST_RESX);
	}
	rx->first_paylen = h->paylen;
	rx->buf = malloc(MAD);
	if (!rx->buf) {
		ftsw_err_set(err, "RMPP: out of memory");
		return rx_abort(r, GW_RMPP_SEND_STOP, GW_RMPP_ST_RESX);
	}
	memcpy(rx->buf, mad, MAD);
	rx->len = MAD;
	rx->expect = 2;
	rx->win_last = 1;
	return 0;
}

/* A following segment's data appended. */
static int rx_append(struct gw_rmpp_rx *rx, const uint8_t *mad,
		     struct gw_rmpp_reply *r, struct ftsw_err *err)
{
	size_t per = MAD - rx->hdr;
	uint8_t *nb;

	if (rx->len + per > GW_RMPP_MAX_BYTES) {
		ftsw_err_set(err, "RMPP: segment %u makes the message longer than %u bytes",
			     rx->expect, GW_RMPP_MAX_BYTES);
		return rx_abort(r, GW_RMPP_SEND_STOP, GW_RMPP_ST_RESX);
	}
	nb = realloc(rx->buf, rx->len + per);
	if (!nb) {
		ftsw_err_set(err, "RMPP: out of memory");
		return rx_abort(r, GW_RMPP_SEND_STOP, GW_RMPP_ST_RESX);
	}
	rx->buf = nb;
	memcpy(rx->buf + rx->len, mad + rx->hdr, per);
	rx->len += per;
	rx->expect++;
	return 0;
}

/* Last: the pad from its PayloadLength, checked against First's. */
static int rx_last(struct gw_rmpp_rx *rx, const struct gw_rmpp_hdr *h,
		   struct gw_rmpp_reply *r, struct ftsw_err *err)
{
	size_t per = MAD - rx->hdr;
	uint32_t n = h->seg, pad;

	/*
	 * The last segment carries data, but for a one-segment message of
	 * the class header alone (an SA answer of no records: PayloadLength
	 * 20, pad 200, which the Linux MAD layer sends and takes).
	 */
	if (!h->paylen || h->paylen > GW_RMPP_SEG_PAYLOAD ||
	    GW_RMPP_SEG_PAYLOAD - h->paylen > per ||
	    (n > 1 && GW_RMPP_SEG_PAYLOAD - h->paylen == per)) {
		ftsw_err_set(err, "RMPP: last segment %u: PayloadLength %u is not %u..%u",
			     n, h->paylen,
			     GW_RMPP_SEG_PAYLOAD - (unsigned)per + (n > 1),
			     GW_RMPP_SEG_PAYLOAD);
		return rx_abort(r, GW_RMPP_SEND_ABORT, GW_RMPP_ST_INC_LAST);
	}
	pad = GW_RMPP_SEG_PAYLOAD - h->paylen;
	if (rx->first_paylen &&
	    rx->first_paylen != (uint64_t)n * GW_RMPP_SEG_PAYLOAD - pad) {
		ftsw_err_set(err, "RMPP: %u segments with Last's PayloadLength %u make %llu bytes, First said %u",
			     n, h->paylen,
			     (unsigned long long)n * GW_RMPP_SEG_PAYLOAD - pad,
			     rx->first_paylen);
		return rx_abort(r, GW_RMPP_SEND_ABORT, GW_RMPP_ST_INC_LAST);
	}
	rx->len = rx->hdr + (size_t)n * per - pad;
	rx->done = true;
	*r = (struct gw_rmpp_reply){ .kind = GW_RMPP_SEND_ACK, .seg = n,
				     .newwin = n };
	return 1;
}

int gw_rmpp_rx_seg(struct gw_rmpp_rx *rx, const uint8_t *mad,
		   struct gw_rmpp_reply *r, struct ftsw_err *err)
{
	struct gw_rmpp_hdr h;
	int rc;

	*r = (struct gw_rmpp_reply){ .kind = GW_RMPP_NONE };
	gw_rmpp_get(mad, &h);
	if (h.version != GW_RMPP_VERSION) {
		ftsw_err_set(err, "RMPP: version %u (1 is supported)", h.version);
		return rx_abort(r, GW_RMPP_SEND_ABORT, GW_RMPP_ST_UNV);
	}
	if (h.type != GW_RMPP_DATA) {
		ftsw_err_set(err, "RMPP: type %u where DATA was expected", h.type);
		return rx_abort(r, GW_RMPP_SEND_ABORT, GW_RMPP_ST_BADT);
	}
	if (rx->done || (rx->expect > 1 && h.seg < rx->expect)) {
		/* sent again: the ACK was lost; say again where we are */
		*r = (struct gw_rmpp_reply){ .kind = GW_RMPP_SEND_ACK,
			.seg = rx->expect - 1, .newwin = rx->win_last };
		if (rx->done)
			r->seg = r->newwin = rx->expect - 1;
		return 0;
	}
	if (!rx->expect || rx->expect == 1) {
		if (h.seg != 1 || !(h.flags & GW_RMPP_F_FIRST)) {
			ftsw_err_set(err, "RMPP: the first segment is %u with%s First",
				     h.seg, h.flags & GW_RMPP_F_FIRST ? "" : "out");
			return rx_abort(r, GW_RMPP_SEND_ABORT,
					GW_RMPP_ST_INC_FIRST);
		}
		rc = rx_first(rx, mad, &h, r, err);
	} else if (h.seg != rx->expect) {
		return 0;	/* out of order: dropped, the sender resends */
	} else if (h.flags & GW_RMPP_F_FIRST) {
		ftsw_err_set(err, "RMPP: segment %u has First", h.seg);
		return rx_abort(r, GW_RMPP_SEND_ABORT, GW_RMPP_ST_INC_FIRST);
	} else {
		rc = rx_append(rx, mad, r, err);
	}
	if (rc)
		return rc;
	if (h.flags & GW_RMPP_F_LAST) {
		rc = rx_last(rx, &h, r, err);
		if (rx->done)
			rx->expect = h.seg + 1;
		return rc;
	}
	if (h.seg >= rx->win_last) {
		rx->win_last = h.seg + GW_RMPP_WINDOW;
		*r = (struct gw_rmpp_reply){ .kind = GW_RMPP_SEND_ACK,
					     .seg = h.seg,
					     .newwin = rx->win_last };
	}
	return 0;
}

void gw_rmpp_rx_free(struct gw_rmpp_rx *rx)
{
	free(rx->buf);
	*rx = (struct gw_rmpp_rx){ 0 };
}

int gw_rmpp_tx_init(struct gw_rmpp_tx *tx, uint8_t *msg, size_t len,
		    struct ftsw_err *err)
{
	unsigned hdr;

	*tx = (struct gw_rmpp_tx){ 0 };
	hdr = len >= 24 ? gw_rmpp_class_hdr(msg[1]) : 0;
	if (!hdr || len < hdr || len > GW_RMPP_MAX_BYTES) {
		ftsw_err_set(err, "RMPP send: %zu bytes of class 0x%02x: not an RMPP message of %u..%u bytes",
			     len, len ? msg[1] : 0, hdr ? hdr : GW_RMPP_HDR,
			     GW_RMPP_MAX_BYTES);
		return -EINVAL;
	}
	tx->msg = msg;
	tx->len = len;
	tx->nseg = gw_rmpp_nseg(hdr, len, NULL);
	tx->win_last = 1;	/* until the receiver grants more */
	return 0;
}

bool gw_rmpp_tx_next(struct gw_rmpp_tx *tx, uint32_t *seg)
{
	uint32_t lim = tx->win_last < tx->nseg ? tx->win_last : tx->nseg;

	if (tx->sent >= lim)
		return false;
	*seg = ++tx->sent;
	return true;
}

int gw_rmpp_tx_ack(struct gw_rmpp_tx *tx, const uint8_t *mad,
		   struct gw_rmpp_reply *r, struct ftsw_err *err)
{
	struct gw_rmpp_hdr h;

	*r = (struct gw_rmpp_reply){ .kind = GW_RMPP_NONE };
	gw_rmpp_get(mad, &h);
	if (h.type == GW_RMPP_STOP || h.type == GW_RMPP_ABORT) {
		ftsw_err_set(err, "RMPP send: the receiver sent %s, status %u",
			     h.type == GW_RMPP_STOP ? "STOP" : "ABORT", h.status);
		return -EINVAL;
	}
	if (h.version != GW_RMPP_VERSION || h.type != GW_RMPP_ACK) {
		ftsw_err_set(err, "RMPP send: version %u type %u where an ACK was expected",
			     h.version, h.type);
		return rx_abort(r, GW_RMPP_SEND_ABORT, h.version !=
				GW_RMPP_VERSION ? GW_RMPP_ST_UNV :
				GW_RMPP_ST_BADT);
	}
	if (h.seg > tx->sent) {
		ftsw_err_set(err, "RMPP send: ACK of segment %u, only %u sent",
			     h.seg, tx->sent);
		return rx_abort(r, GW_RMPP_SEND_ABORT, GW_RMPP_ST_S2B);
	}
	if (h.paylen < h.seg) {
		ftsw_err_set(err, "RMPP send: NewWindowLast %u below the segment %u acknowledged",
			     h.paylen, h.seg);
		return rx_abort(r, GW_RMPP_SEND_ABORT, GW_RMPP_ST_W2S);
	}
	if (h.seg < tx->acked)
		return 0;	/* an old ACK */
	tx->acked = h.seg;
	tx->win_last = h.paylen;
	return tx->acked == tx->nseg ? 1 : 0;
}

void gw_rmpp_tx_rewind(struct gw_rmpp_tx *tx)
{
	tx->sent = tx->acked;
}

void gw_rmpp_tx_free(struct gw_rmpp_tx *tx)
{
	free(tx->msg);
	*tx = (struct gw_rmpp_tx){ 0 };
}
