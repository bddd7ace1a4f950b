// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the gateway's decoders (gw/simproto.h) on any bytes, as a
 * control message, a CONNECT's data, a MAD datagram and an in-band frame.
 * What decodes must encode back to the same bytes (but a datagram's
 * padding) and decode again to the same values.
 */
#include "fuzz.h"
#include "gw/simproto.h"

static void ctl(const uint8_t *data, size_t size)
{
	uint8_t out[GW_SIM_CTL_SIZE];
	struct gw_client_info ci, ci2;
	struct ftsw_err err;
	struct gw_ctl c, c2;

	if (gw_ctl_decode(data, size, &c, &err) < 0)
		return;
	FUZZ_ASSERT(size == GW_SIM_CTL_SIZE && c.len <= GW_SIM_CTL_DATA);
	gw_ctl_encode(&c, out);
	FUZZ_ASSERT(!memcmp(out, data, GW_SIM_CTL_SIZE));
	if (gw_info_decode(&c, &ci, &err) < 0)
		return;
	FUZZ_ASSERT(strlen(ci.nodeid) < GW_SIM_NODEID && ci.qp <= 1);
	c2 = c;
	gw_info_encode(&ci, &c2);
	FUZZ_ASSERT(gw_info_decode(&c2, &ci2, &err) == 0);
	FUZZ_ASSERT(ci.id == ci2.id && ci.qp == ci2.qp && ci.issm == ci2.issm &&
		    !strcmp(ci.nodeid, ci2.nodeid));
}

static void req(const uint8_t *data, size_t size)
{
	uint8_t out[GW_SIM_REQ_SIZE];
	struct ftsw_err err;
	struct gw_req r, r2;

	if (gw_req_decode(data, size, &r, &err) < 0)
		return;
	FUZZ_ASSERT(r.dqp <= 1 && r.sqp <= 1 && r.length <= GW_MAD_SIZE);
	gw_req_encode(&r, out);
	FUZZ_ASSERT(!memcmp(out, data, 20) &&
		    !memcmp(out + 24, data + 24, GW_SIM_REQ_SIZE - 24));
	FUZZ_ASSERT(gw_req_decode(out, sizeof(out), &r2, &err) == 0);
	FUZZ_ASSERT(r.dlid == r2.dlid && r.slid == r2.slid && r.dqp == r2.dqp &&
		    r.sqp == r2.sqp && r.status == r2.status &&
		    r.length == r2.length && !memcmp(r.mad, r2.mad, GW_MAD_SIZE));
}

static void frame(const uint8_t *data, size_t size)
{
	uint8_t out[GW_FRAME_SIZE];
	struct ftsw_err err;
	struct gw_frame f;

	if (gw_frame_decode(data, size, &f, &err) < 0)
		return;
	gw_frame_encode(&f, out);
	FUZZ_ASSERT(!memcmp(out, data, GW_FRAME_SIZE));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ctl(data, size);
	req(data, size);
	frame(data, size);
	return 0;
}
