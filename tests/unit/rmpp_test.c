// SPDX-License-Identifier: GPL-2.0
/*
 * RMPP in the gateway (gw/rmpp.h) and the long-MAD datagram
 * (gw/simproto.h section 3). Expected values worked out by hand from IBA
 * 13.6 and the segment layout the Linux MAD layer uses: an SA message
 * repeats its 56-byte header in every segment and carries 200 bytes of
 * the rest; PayloadLength counts the 220 bytes after the RMPP header.
 */
#include "common.h"
#include "gw/rmpp.h"
#include "gw/simproto.h"

/* An SA GetTableResp of len bytes: base version 1, class 3, method 0x92,
 * TID 0x1122, Active, record bytes i & 0xff from byte 56 on. */
static void sa_msg(uint8_t *m, size_t len)
{
	size_t i;

	memset(m, 0, len);
	m[0] = 1;
	m[1] = 0x03;
	m[2] = 2;
	m[3] = 0x92;
	m[14] = 0x11;
	m[15] = 0x22;
	m[24] = 1;
	m[26] = GW_RMPP_F_ACTIVE;
	for (i = 56; i < len; i++)
		m[i] = (uint8_t)i;
}

static uint32_t be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

TEST(segments_by_hand)
{
	/* 506 bytes: 450 after the SA header, 3 segments of 200, pad 150 */
	uint8_t m[506], s[3][256];
	unsigned pad, i;

	sa_msg(m, sizeof(m));
	ASSERT_EQ(56, gw_rmpp_class_hdr(0x03));
	ASSERT_EQ(40, gw_rmpp_class_hdr(0x30));
	ASSERT_EQ(64, gw_rmpp_class_hdr(0x06));
	ASSERT_EQ(0, gw_rmpp_class_hdr(0x81));
	ASSERT_EQ(3, gw_rmpp_nseg(56, sizeof(m), &pad));
	EXPECT_EQ(150, pad);
	for (i = 0; i < 3; i++)
		gw_rmpp_segment(m, sizeof(m), i + 1, s[i]);
	/* byte 26: RRespTime 0x1f << 3 | flags */
	EXPECT_EQ(0xfb, s[0][26]);		/* Active | First */
	EXPECT_EQ(0xf9, s[1][26]);		/* Active */
	EXPECT_EQ(0xfd, s[2][26]);		/* Active | Last */
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(1, s[i][24]);		/* version */
		EXPECT_EQ(GW_RMPP_DATA, s[i][25]);
		EXPECT_EQ(i + 1, be32_at(s[i] + 28));
		EXPECT_EQ(0, memcmp(s[i], m, 24));	/* MAD header */
		EXPECT_EQ(0, memcmp(s[i] + 36, m + 36, 20));	/* SA header */
	}
	EXPECT_EQ(3 * 220 - 150, be32_at(s[0] + 32));	/* 510 */
	EXPECT_EQ(0, be32_at(s[1] + 32));
	EXPECT_EQ(220 - 150, be32_at(s[2] + 32));	/* 70 */
	EXPECT_EQ(0, memcmp(s[0] + 56, m + 56, 200));
	EXPECT_EQ(0, memcmp(s[1] + 56, m + 256, 200));
	EXPECT_EQ(0, memcmp(s[2] + 56, m + 456, 50));
	EXPECT_EQ(0, s[2][106]);
	EXPECT_EQ(0, s[2][255]);
}

TEST(reassembly_acks_by_window)
{
	uint8_t m[506], s[3][256], dup[256];
	struct gw_rmpp_rx rx = { 0 };
	struct gw_rmpp_reply r;
	struct ftsw_err err;
	unsigned i;

	sa_msg(m, sizeof(m));
	for (i = 0; i < 3; i++)
		gw_rmpp_segment(m, sizeof(m), i + 1, s[i]);
	/* segment 1 closes the first window (1): ACK 1, new window 1 + 32 */
	ASSERT_EQ(0, gw_rmpp_rx_seg(&rx, s[0], &r, &err));
	EXPECT_EQ(GW_RMPP_SEND_ACK, r.kind);
	EXPECT_EQ(1, r.seg);
	EXPECT_EQ(33, r.newwin);
	/* segment 3 out of order: dropped, nothing said */
	ASSERT_EQ(0, gw_rmpp_rx_seg(&rx, s[2], &r, &err));
	EXPECT_EQ(GW_RMPP_NONE, r.kind);
	EXPECT_EQ(2, rx.expect);
	/* segment 2 inside the window: no ACK */
	ASSERT_EQ(0, gw_rmpp_rx_seg(&rx, s[1], &r, &err));
	EXPECT_EQ(GW_RMPP_NONE, r.kind);
	/* segment 1 again: ACK of what we have (2), window unchanged */
	memcpy(dup, s[0], 256);
	ASSERT_EQ(0, gw_rmpp_rx_seg(&rx, dup, &r, &err));
	EXPECT_EQ(GW_RMPP_SEND_ACK, r.kind);
	EXPECT_EQ(2, r.seg);
	EXPECT_EQ(33, r.newwin);
	/* Last: whole, 56 + 3 * 200 - 150 = 506 bytes, the final ACK 3/3 */
	ASSERT_EQ(1, gw_rmpp_rx_seg(&rx, s[2], &r, &err));
	EXPECT_EQ(GW_RMPP_SEND_ACK, r.kind);
	EXPECT_EQ(3, r.seg);
	EXPECT_EQ(3, r.newwin);
	ASSERT_EQ(506, rx.len);
	EXPECT_EQ(0, memcmp(rx.buf + 56, m + 56, 450));
	/* Last sent again (our ACK lost): ACK 3 again */
	ASSERT_EQ(0, gw_rmpp_rx_seg(&rx, s[2], &r, &err));
	EXPECT_EQ(GW_RMPP_SEND_ACK, r.kind);
	EXPECT_EQ(3, r.seg);
	gw_rmpp_rx_free(&rx);
}

TEST(one_segment_message)
{
	/* one NodeRecord: 56 + 112 = 168 bytes; pad 200 - 112 = 88 */
	uint8_t m[168], s[256];
	struct gw_rmpp_rx rx = { 0 };
	struct gw_rmpp_reply r;
	struct ftsw_err err;

	sa_msg(m, sizeof(m));
	ASSERT_EQ(1, gw_rmpp_nseg(56, sizeof(m), NULL));
	gw_rmpp_segment(m, sizeof(m), 1, s);
	EXPECT_EQ(0xff, s[26]);			/* Active | First | Last */
	EXPECT_EQ(220 - 88, be32_at(s + 32));	/* 132 */
	ASSERT_EQ(1, gw_rmpp_rx_seg(&rx, s, &r, &err));
	EXPECT_EQ(1, r.seg);
	EXPECT_EQ(1, r.newwin);
	EXPECT_EQ(168, rx.len);
	EXPECT_EQ(0, memcmp(rx.buf, s, 168));
	gw_rmpp_rx_free(&rx);
}

/* A DATA segment fed to a fresh receiver: its return, the reply. */
static int fresh(const uint8_t *s, struct gw_rmpp_reply *r)
{
	struct gw_rmpp_rx rx = { 0 };
	struct ftsw_err err;
	int rc = gw_rmpp_rx_seg(&rx, s, r, &err);

	if (rc < 0)
		fprintf(stderr, "# refused: %s\n", err.msg);
	gw_rmpp_rx_free(&rx);
	return rc;
}

static void set32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

TEST(hostile_segments_refused)
{
	uint8_t m[168], s[256], b[256];
	struct gw_rmpp_reply r;

	sa_msg(m, sizeof(m));
	gw_rmpp_segment(m, sizeof(m), 1, s);
	/* version 2: ABORT unsupported version */
	memcpy(b, s, 256);
	b[24] = 2;
	EXPECT_EQ(-EINVAL, fresh(b, &r));
	EXPECT_EQ(GW_RMPP_SEND_ABORT, r.kind);
	EXPECT_EQ(125, r.status);
	/* type 7: bad type */
	memcpy(b, s, 256);
	b[25] = 7;
	EXPECT_EQ(-EINVAL, fresh(b, &r));
	EXPECT_EQ(121, r.status);
	/* a first segment without First, or numbered 0 or 2 */
	memcpy(b, s, 256);
	b[26] &= ~GW_RMPP_F_FIRST;
	EXPECT_EQ(-EINVAL, fresh(b, &r));
	EXPECT_EQ(120, r.status);
	memcpy(b, s, 256);
	set32(b + 28, 0);
	EXPECT_EQ(-EINVAL, fresh(b, &r));
	EXPECT_EQ(120, r.status);
	set32(b + 28, 2);
	EXPECT_EQ(-EINVAL, fresh(b, &r));
	EXPECT_EQ(120, r.status);
	/* Last's PayloadLength 0, 221, 19 (less than the SA header) */
	memcpy(b, s, 256);
	set32(b + 32, 0);
	EXPECT_EQ(-EINVAL, fresh(b, &r));
	EXPECT_EQ(119, r.status);
	set32(b + 32, 221);
	EXPECT_EQ(-EINVAL, fresh(b, &r));
	EXPECT_EQ(119, r.status);
	set32(b + 32, 19);
	EXPECT_EQ(-EINVAL, fresh(b, &r));
	EXPECT_EQ(119, r.status);
	/* one segment of the SA header alone (no records): 20, pad 200 */
	set32(b + 32, 20);
	EXPECT_EQ(1, fresh(b, &r));
	set32(b + 32, 21);			/* pad 199: one byte */
	EXPECT_EQ(1, fresh(b, &r));
	/* First alone saying 4 GiB: STOP, resources */
	memcpy(b, s, 256);
	b[26] = 0xfb;				/* Active | First */
	set32(b + 32, 0xffffffff);
	EXPECT_EQ(-EINVAL, fresh(b, &r));
	EXPECT_EQ(GW_RMPP_SEND_STOP, r.kind);
	EXPECT_EQ(1, r.status);
}

TEST(first_and_last_disagree)
{
	uint8_t m[506], s[3][256];
	struct gw_rmpp_rx rx = { 0 };
	struct gw_rmpp_reply r;
	struct ftsw_err err;
	unsigned i;

	sa_msg(m, sizeof(m));
	for (i = 0; i < 3; i++)
		gw_rmpp_segment(m, sizeof(m), i + 1, s[i]);
	set32(s[2] + 32, 71);	/* 3 * 220 - 149 = 511, First said 510 */
	ASSERT_EQ(0, gw_rmpp_rx_seg(&rx, s[0], &r, &err));
	ASSERT_EQ(0, gw_rmpp_rx_seg(&rx, s[1], &r, &err));
	EXPECT_EQ(-EINVAL, gw_rmpp_rx_seg(&rx, s[2], &r, &err));
	EXPECT_EQ(GW_RMPP_SEND_ABORT, r.kind);
	EXPECT_EQ(119, r.status);
	gw_rmpp_rx_free(&rx);
}

/*
 * An SA answer of no records is the 56-byte header alone: one segment,
 * First and Last, PayloadLength 20 (the SA header's 20 bytes after the
 * RMPP header; pad 200), reassembled to the 56 bytes. A second segment
 * with no data (PayloadLength 20 after a full first one) is refused:
 * the sender would have sent one segment less.
 */
TEST(empty_sa_answer)
{
	uint8_t m[56], s[2][256], big[256 + 200];
	struct gw_rmpp_rx rx = { 0 };
	struct gw_rmpp_reply r;
	struct ftsw_err err;

	sa_msg(m, sizeof(m));
	gw_rmpp_segment(m, sizeof(m), 1, s[0]);
	EXPECT_EQ(GW_RMPP_F_ACTIVE | GW_RMPP_F_FIRST | GW_RMPP_F_LAST,
		  s[0][26] & 7);
	EXPECT_EQ(20, s[0][35]);
	ASSERT_EQ(1, gw_rmpp_rx_seg(&rx, s[0], &r, &err));
	EXPECT_EQ(56, rx.len);
	/* the MAD and SA headers; the RMPP header is the segment's */
	EXPECT_EQ(0, memcmp(rx.buf, m, 24));
	EXPECT_EQ(0, memcmp(rx.buf + 36, m + 36, 20));
	gw_rmpp_rx_free(&rx);

	sa_msg(big, sizeof(big));		/* 2 segments, the 2nd full */
	gw_rmpp_segment(big, sizeof(big), 1, s[0]);
	gw_rmpp_segment(big, sizeof(big), 2, s[1]);
	set32(s[0] + 32, 240);			/* First agrees: 2 * 220 - 200 */
	set32(s[1] + 32, 20);
	memset(&rx, 0, sizeof(rx));
	ASSERT_EQ(0, gw_rmpp_rx_seg(&rx, s[0], &r, &err));
	EXPECT_EQ(-EINVAL, gw_rmpp_rx_seg(&rx, s[1], &r, &err));
	EXPECT_EQ(119, r.status);
	gw_rmpp_rx_free(&rx);
}

TEST(message_size_cap)
{
	/* PayloadLength untold (0): segments pile up until the next would
	 * pass 1 MiB. After segment s the message holds 256 + (s-1)*200
	 * bytes: s = 5242 gives 1048456, s = 5243 would give 1048656. */
	uint8_t m[168], s[256];
	struct gw_rmpp_rx rx = { 0 };
	struct gw_rmpp_reply r;
	struct ftsw_err err;
	uint32_t n;

	sa_msg(m, sizeof(m));
	gw_rmpp_segment(m, sizeof(m), 1, s);
	s[26] = 0xfb;
	set32(s + 32, 0);
	ASSERT_EQ(0, gw_rmpp_rx_seg(&rx, s, &r, &err));
	s[26] = 0xf9;				/* Active: middle segments */
	for (n = 2; n <= 5242; n++) {
		set32(s + 28, n);
		ASSERT_EQ(0, gw_rmpp_rx_seg(&rx, s, &r, &err));
	}
	EXPECT_EQ(1048456, rx.len);
	set32(s + 28, 5243);
	EXPECT_EQ(-EINVAL, gw_rmpp_rx_seg(&rx, s, &r, &err));
	EXPECT_EQ(GW_RMPP_SEND_STOP, r.kind);
	EXPECT_EQ(1, r.status);
	gw_rmpp_rx_free(&rx);
}

/* An ACK (or STOP/ABORT) MAD for the sender. */
static void ack(uint8_t *a, uint8_t type, uint32_t seg, uint32_t win)
{
	memset(a, 0, 256);
	a[0] = 1;
	a[1] = 3;
	a[3] = 0x12;
	a[24] = 1;
	a[25] = type;
	a[26] = 0xf9;
	set32(a + 28, seg);
	set32(a + 32, win);
}

TEST(sender_windows)
{
	struct gw_rmpp_tx tx;
	struct gw_rmpp_reply r;
	struct ftsw_err err;
	uint8_t *m = malloc(506), a[256];
	uint32_t seg;

	ASSERT_NE(NULL, m);
	sa_msg(m, 506);
	ASSERT_EQ(0, gw_rmpp_tx_init(&tx, m, 506, &err));
	EXPECT_EQ(3, tx.nseg);
	/* a window of one until the receiver grants more */
	ASSERT_TRUE(gw_rmpp_tx_next(&tx, &seg));
	EXPECT_EQ(1, seg);
	EXPECT_FALSE(gw_rmpp_tx_next(&tx, &seg));
	ack(a, GW_RMPP_ACK, 1, 2);
	ASSERT_EQ(0, gw_rmpp_tx_ack(&tx, a, &r, &err));
	ASSERT_TRUE(gw_rmpp_tx_next(&tx, &seg));
	EXPECT_EQ(2, seg);
	EXPECT_FALSE(gw_rmpp_tx_next(&tx, &seg));
	/* timeout: from the last acknowledged again */
	gw_rmpp_tx_rewind(&tx);
	ASSERT_TRUE(gw_rmpp_tx_next(&tx, &seg));
	EXPECT_EQ(2, seg);
	/* an ACK past what was sent: ABORT segment number too big */
	ack(a, GW_RMPP_ACK, 3, 3);
	EXPECT_EQ(-EINVAL, gw_rmpp_tx_ack(&tx, a, &r, &err));
	EXPECT_EQ(123, r.status);
	/* NewWindowLast below the segment: ABORT window too small */
	ack(a, GW_RMPP_ACK, 2, 1);
	EXPECT_EQ(-EINVAL, gw_rmpp_tx_ack(&tx, a, &r, &err));
	EXPECT_EQ(122, r.status);
	/* ACK 2, window to 40; then an old ACK 1 changes nothing */
	ack(a, GW_RMPP_ACK, 2, 40);
	ASSERT_EQ(0, gw_rmpp_tx_ack(&tx, a, &r, &err));
	ack(a, GW_RMPP_ACK, 1, 2);
	ASSERT_EQ(0, gw_rmpp_tx_ack(&tx, a, &r, &err));
	EXPECT_EQ(2, tx.acked);
	ASSERT_TRUE(gw_rmpp_tx_next(&tx, &seg));
	EXPECT_EQ(3, seg);
	ack(a, GW_RMPP_ACK, 3, 3);
	EXPECT_EQ(1, gw_rmpp_tx_ack(&tx, a, &r, &err));
	/* a STOP ends it */
	ack(a, GW_RMPP_STOP, 0, 0);
	EXPECT_EQ(-EINVAL, gw_rmpp_tx_ack(&tx, a, &r, &err));
	gw_rmpp_tx_free(&tx);
	/* not an RMPP class, or past the cap */
	m = calloc(1, 300);
	ASSERT_NE(NULL, m);
	m[1] = 0x81;
	EXPECT_EQ(-EINVAL, gw_rmpp_tx_init(&tx, m, 300, &err));
	free(m);
}

TEST(ack_mad_by_hand)
{
	uint8_t m[168], s[256], a[256];
	struct gw_rmpp_reply r = { .kind = GW_RMPP_SEND_ACK, .seg = 5,
				   .newwin = 37 };

	sa_msg(m, sizeof(m));
	m[3] = 0x93;			/* GetTableResp */
	gw_rmpp_segment(m, sizeof(m), 1, s);
	gw_rmpp_reply_mad(s, &r, a);
	EXPECT_EQ(0x13, a[3]);		/* the request's method */
	EXPECT_EQ(0x22, a[15]);		/* same TID */
	EXPECT_EQ(GW_RMPP_ACK, a[25]);
	EXPECT_EQ(0xf9, a[26]);
	EXPECT_EQ(5, be32_at(a + 28));
	EXPECT_EQ(37, be32_at(a + 32));
	EXPECT_TRUE(gw_rmpp_active(a));
	r = (struct gw_rmpp_reply){ .kind = GW_RMPP_SEND_ABORT, .status = 126 };
	gw_rmpp_reply_mad(s, &r, a);
	EXPECT_EQ(GW_RMPP_ABORT, a[25]);
	EXPECT_EQ(126, a[27]);
}

TEST(long_mad_datagram)
{
	uint8_t mad[300], out[GW_UMAD_HDR + 300];
	struct gw_umad u = { .agent = 3, .qpn = 1, .lid = 0x0102, .len = 300,
			     .mad = mad }, d;
	struct ftsw_err err;
	uint32_t v;

	memset(mad, 0x5a, sizeof(mad));
	mad[0] = 1;
	ASSERT_EQ(364, gw_umad_encode(&u, out));
	memcpy(&v, out, 4);
	EXPECT_EQ(3, v);			/* agent id, host order */
	memcpy(&v, out + 16, 4);
	EXPECT_EQ(364, v);			/* length: header + MAD */
	EXPECT_EQ(0, out[20]);			/* QP, network order */
	EXPECT_EQ(1, out[23]);
	EXPECT_EQ(0x80, out[24]);		/* Q_Key 0x80010000 */
	EXPECT_EQ(1, out[28]);			/* LID, network order */
	EXPECT_EQ(2, out[29]);
	ASSERT_EQ(0, gw_umad_decode(out, 364, 1024, &d, &err));
	EXPECT_EQ(3, d.agent);
	EXPECT_EQ(0x0102, d.lid);
	EXPECT_EQ(1, d.qpn);
	EXPECT_EQ(300, d.len);
	EXPECT_EQ(0, memcmp(d.mad, mad, 300));
	/* refused: the length field wrong, past max, QP 2, version 2 */
	EXPECT_EQ(-EINVAL, gw_umad_decode(out, 363, 1024, &d, &err));
	EXPECT_EQ(-EINVAL, gw_umad_decode(out, 364, 299, &d, &err));
	out[23] = 2;
	EXPECT_EQ(-EINVAL, gw_umad_decode(out, 364, 1024, &d, &err));
	out[23] = 1;
	out[GW_UMAD_HDR] = 2;
	EXPECT_EQ(-EINVAL, gw_umad_decode(out, 364, 1024, &d, &err));
	EXPECT_EQ(-EINVAL, gw_umad_decode(out, 80, 1024, &d, &err));
}

TEST_HARNESS_MAIN
