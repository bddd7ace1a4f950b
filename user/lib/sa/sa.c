// SPDX-License-Identifier: GPL-2.0
/*
 * SA PathRecords: the query and the answer's parser (sa.h). Layouts from
 * IBA vol. 1: the MAD header (13.4.3), the RMPP header (13.6.2.1), the SA
 * header (15.2.1.1: SM_Key at 36, AttributeOffset at 44 in 8-byte
 * words, ComponentMask at 48, data at 56) and the PathRecord
 * (15.2.5.16: DLID at 40, SLID at 42, P_Key at 50, SL the low 4 bits of
 * byte 53, MTU and rate the low 6 bits of bytes 54 and 55).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "sa/sa.h"
#include "util/bytes.h"

void ftsw_sa_pr_query(uint8_t mad[256], uint64_t tid, uint16_t slid)
{
	memset(mad, 0, 256);
	mad[0] = 1;
	mad[1] = FTSW_SA_CLASS;
	mad[2] = FTSW_SA_CLASS_VERSION;
	mad[3] = FTSW_SA_METHOD_GET_TABLE;
	ftsw_put_be64(mad + 8, tid);
	mad[16] = FTSW_SA_ATTR_PATH_RECORD >> 8;
	mad[17] = FTSW_SA_ATTR_PATH_RECORD & 0xff;
	mad[24] = 1;		/* RMPPVersion; not Active: one MAD */
	ftsw_put_be64(mad + 48, FTSW_SA_PR_COMP_SLID);
	mad[FTSW_SA_HDR + 42] = (uint8_t)(slid >> 8);
	mad[FTSW_SA_HDR + 43] = (uint8_t)slid;
}

/* The header of an answer: 0 with the record size, or -EINVAL. */
static int check_hdr(const uint8_t *m, size_t len, uint64_t tid,
		     size_t *recsz, struct ftsw_err *err)
{
	uint16_t st;

	if (len < FTSW_SA_HDR) {
		ftsw_err_set(err, "SA answer of %zu bytes (its headers take %d)",
			     len, FTSW_SA_HDR);
		return -EINVAL;
	}
	if (m[0] != 1 || m[1] != FTSW_SA_CLASS ||
	    m[2] != FTSW_SA_CLASS_VERSION) {
		ftsw_err_set(err, "SA answer: base version %u, class 0x%02x version %u (want 1, 0x03, 2)",
			     m[0], m[1], m[2]);
		return -EINVAL;
	}
	if (m[3] != FTSW_SA_METHOD_GET_TABLE_RESP) {
		ftsw_err_set(err, "SA answer: method 0x%02x (want GetTableResp 0x92)",
			     m[3]);
		return -EINVAL;
	}
	if (ftsw_get_be64(m + 8) != tid) {
		ftsw_err_set(err, "SA answer: TID 0x%016" PRIx64 " (asked 0x%016" PRIx64 ")",
			     ftsw_get_be64(m + 8), tid);
		return -EINVAL;
	}
	st = ftsw_get_be16(m + 4);
	if (st) {
		ftsw_err_set(err, "SA answer: status 0x%04x%s", st,
			     (st & 0xff00) == 0x0300 ? " (no records)" : "");
		return -EINVAL;
	}
	if (ftsw_get_be16(m + 16) != FTSW_SA_ATTR_PATH_RECORD) {
		ftsw_err_set(err, "SA answer: attribute 0x%04x (want PathRecord 0x0035)",
			     ftsw_get_be16(m + 16));
		return -EINVAL;
	}
	*recsz = (size_t)ftsw_get_be16(m + 44) * 8;
	if (*recsz < FTSW_SA_PR_SIZE &&
	    (*recsz || len >= FTSW_SA_HDR + FTSW_SA_PR_SIZE)) {
		ftsw_err_set(err, "SA answer: AttributeOffset %zu bytes for %zu bytes of records (a PathRecord takes %d)",
			     *recsz, len - FTSW_SA_HDR, FTSW_SA_PR_SIZE);
		return -EINVAL;
	}
	return 0;
}

int ftsw_sa_pr_parse(const uint8_t *msg, size_t len, uint64_t tid,
		     uint16_t slid, struct ftsw_sa_path_rec *out, size_t max,
		     size_t *n, struct ftsw_err *err)
{
	size_t recsz, i, cnt;

	*n = 0;
	if (!msg) {
		ftsw_err_set(err, "no SA answer");
		return -EINVAL;
	}
	if (check_hdr(msg, len, tid, &recsz, err) < 0)
		return -EINVAL;
	cnt = recsz ? (len - FTSW_SA_HDR) / recsz : 0;
	if (cnt > max) {
		ftsw_err_set(err, "SA answer: %zu PathRecords (at most %zu taken)",
			     cnt, max);
		return -EINVAL;
	}
	for (i = 0; i < cnt; i++) {
		const uint8_t *r = msg + FTSW_SA_HDR + i * recsz;
		struct ftsw_sa_path_rec *p = &out[i];

		p->dlid = ftsw_get_be16(r + 40);
		p->slid = ftsw_get_be16(r + 42);
		p->pkey = ftsw_get_be16(r + 50);
		p->sl = r[53] & 0x0f;
		p->mtu = r[54] & 0x3f;
		p->rate = r[55] & 0x3f;
		if (p->slid != slid) {
			ftsw_err_set(err, "SA answer: PathRecord %zu has SLID %u (asked %u)",
				     i, p->slid, slid);
			return -EINVAL;
		}
		if (!p->dlid || p->dlid > 0xBFFF) {
			ftsw_err_set(err, "SA answer: PathRecord %zu has DLID 0x%04x (not a unicast LID)",
				     i, p->dlid);
			return -EINVAL;
		}
	}
	*n = cnt;
	return 0;
}

void ftsw_sa_mcm_encode(const struct ftsw_sa_mcm *m,
			uint8_t rec[FTSW_SA_MCM_SIZE])
{
	memset(rec, 0, FTSW_SA_MCM_SIZE);
	memcpy(rec, m->mgid, 16);
	memcpy(rec + 16, m->port_gid, 16);
	ftsw_put_be32(rec + 32, m->qkey);
	rec[36] = (uint8_t)(m->mlid >> 8);
	rec[37] = (uint8_t)m->mlid;
	rec[38] = m->mtu;
	rec[39] = m->tclass;
	rec[40] = (uint8_t)(m->pkey >> 8);
	rec[41] = (uint8_t)m->pkey;
	rec[42] = m->rate;
	rec[43] = m->life;
	ftsw_put_be32(rec + 44, (uint32_t)(m->sl & 0xf) << 28 |
			       (m->flow_label & 0xfffff) << 8 | m->hop_limit);
	rec[48] = (uint8_t)((m->scope & 0xf) << 4 | (m->join_state & 0xf));
	rec[49] = m->proxy_join ? 0x80 : 0;
}

void ftsw_sa_mcm_decode(const uint8_t rec[FTSW_SA_MCM_SIZE],
			struct ftsw_sa_mcm *m)
{
	uint32_t w = ftsw_get_be32(rec + 44);

	memcpy(m->mgid, rec, 16);
	memcpy(m->port_gid, rec + 16, 16);
	m->qkey = ftsw_get_be32(rec + 32);
	m->mlid = ftsw_get_be16(rec + 36);
	m->mtu = rec[38];
	m->tclass = rec[39];
	m->pkey = ftsw_get_be16(rec + 40);
	m->rate = rec[42];
	m->life = rec[43];
	m->sl = (uint8_t)(w >> 28);
	m->flow_label = (w >> 8) & 0xfffff;
	m->hop_limit = (uint8_t)w;
	m->scope = rec[48] >> 4;
	m->join_state = rec[48] & 0xf;
	m->proxy_join = rec[49] >> 7;
}

void ftsw_sa_mcm_request(uint8_t mad[256], uint64_t tid, uint8_t method,
			 uint64_t comp, const struct ftsw_sa_mcm *m)
{
	memset(mad, 0, 256);
	mad[0] = 1;
	mad[1] = FTSW_SA_CLASS;
	mad[2] = FTSW_SA_CLASS_VERSION;
	mad[3] = method;
	ftsw_put_be64(mad + 8, tid);
	mad[16] = FTSW_SA_ATTR_MCMEMBER_RECORD >> 8;
	mad[17] = FTSW_SA_ATTR_MCMEMBER_RECORD & 0xff;
	mad[24] = 1;		/* RMPPVersion; not Active: one MAD */
	mad[45] = (FTSW_SA_MCM_SIZE + 7) / 8;	/* AttributeOffset */
	ftsw_put_be64(mad + 48, comp);
	ftsw_sa_mcm_encode(m, mad + FTSW_SA_HDR);
}

int ftsw_sa_mcm_parse(const uint8_t *msg, size_t len, uint64_t tid,
		      uint8_t method, struct ftsw_sa_mcm *out,
		      uint16_t *status, struct ftsw_err *err)
{
	uint8_t want = method == FTSW_SA_METHOD_DELETE ?
		       FTSW_SA_METHOD_DELETE_RESP : FTSW_SA_METHOD_GET_RESP;

	*status = 0;
	if (!msg || len < FTSW_SA_HDR + FTSW_SA_MCM_SIZE) {
		ftsw_err_set(err, "SA answer of %zu bytes (an MCMemberRecord answer takes %d)",
			     msg ? len : 0, FTSW_SA_HDR + FTSW_SA_MCM_SIZE);
		return -EINVAL;
	}
	if (msg[0] != 1 || msg[1] != FTSW_SA_CLASS ||
	    msg[2] != FTSW_SA_CLASS_VERSION || msg[3] != want) {
		ftsw_err_set(err, "SA answer: base version %u, class 0x%02x version %u, method 0x%02x (want 1, 0x03, 2, 0x%02x)",
			     msg[0], msg[1], msg[2], msg[3], want);
		return -EINVAL;
	}
	if (ftsw_get_be64(msg + 8) != tid) {
		ftsw_err_set(err, "SA answer: TID 0x%016" PRIx64 " (asked 0x%016" PRIx64 ")",
			     ftsw_get_be64(msg + 8), tid);
		return -EINVAL;
	}
	if (ftsw_get_be16(msg + 16) != FTSW_SA_ATTR_MCMEMBER_RECORD) {
		ftsw_err_set(err, "SA answer: attribute 0x%04x (want MCMemberRecord 0x0038)",
			     ftsw_get_be16(msg + 16));
		return -EINVAL;
	}
	*status = ftsw_get_be16(msg + 4);
	if (*status)
		return 0;
	ftsw_sa_mcm_decode(msg + FTSW_SA_HDR, out);
	/* a leave's answer echoes the request, whose MLID OpenSM leaves 0 */
	if ((out->mlid < 0xC000 || out->mlid == 0xFFFF) &&
	    (method != FTSW_SA_METHOD_DELETE || out->mlid)) {
		ftsw_err_set(err, "SA answer: MLID 0x%04x is not a multicast LID",
			     out->mlid);
		return -EINVAL;
	}
	return 0;
}
