// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the gateway's decoders (gw/simproto.h) on any bytes, as a
 * control message, a CONNECT's data, a MAD datagram, an in-band frame and
 * an agent registration. What decodes must encode back to the same bytes
 * (but a datagram's padding) and decode again to the same values; the
 * answer to an unmatched request changes the method and status alone.
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

static void agent(const uint8_t *data, size_t size)
{
	uint8_t out[GW_AGENT_SIZE];
	struct ftsw_err err;
	struct gw_agent a;

	if (gw_agent_decode(data, size, &a, &err) < 0)
		return;
	FUZZ_ASSERT(size == GW_AGENT_SIZE && a.op >= GW_AGENT_REGISTER &&
		    a.op <= GW_AGENT_NONE);
	FUZZ_ASSERT(a.op == GW_AGENT_NONE ||
		    (a.mgmt_class && a.qpn <= 1 && a.id < GW_AGENT_MAX_ID));
	gw_agent_encode(&a, out);
	FUZZ_ASSERT(!memcmp(out, data, GW_AGENT_SIZE));
}

static void unmatched(const uint8_t *data, size_t size)
{
	uint8_t m[GW_MAD_SIZE];

	if (size < GW_MAD_SIZE)
		return;
	memcpy(m, data, GW_MAD_SIZE);
	if (!gw_mad_unmatched_resp(m)) {
		FUZZ_ASSERT(!memcmp(m, data, GW_MAD_SIZE));
		return;
	}
	FUZZ_ASSERT(data[3] == GW_METHOD_GET || data[3] == GW_METHOD_SET);
	FUZZ_ASSERT(m[3] == GW_METHOD_GET_RESP && (m[4] & 0x7f) == 0 &&
		    m[5] == GW_STATUS_UNSUP_ATTR);
	FUZZ_ASSERT(!memcmp(m, data, 3) &&
		    !memcmp(m + 6, data + 6, GW_MAD_SIZE - 6));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ctl(data, size);
	req(data, size);
	frame(data, size);
	agent(data, size);
	unmatched(data, size);
	return 0;
}
