/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wire formats the gateway speaks (Documentation/sm.md, "The
 * gateway"), decoded and encoded with every length and field checked.
 * Nothing here opens a socket or a namespace: the fuzz target and the unit
 * tests drive it with bytes.
 *
 * 1. The simulator protocol of ibsim's libumad2sim.so (the library
 *    ibsim-run preloads under OpenSM and infiniband-diags). Datagrams on
 *    AF_UNIX sockets in the abstract namespace, named after a base name
 *    (environment IBSIM_SOCKNAME, default "sim"), each name counted with
 *    its trailing NUL:
 *      BASE:ctl        the server's control socket
 *      BASE:ctlPID     a client's control socket (replies go back there)
 *      BASE:inPID      a client's data socket
 *      BASE:outID      the server's data socket for client ID, connected
 *                      to BASE:inPID when the client connects
 *    A control message is 80 bytes in host byte order: magic 0xdeadbeef,
 *    client id, type, data length, 64 bytes of data; the answer is the
 *    same message with the data filled in, or type 0 (error). CONNECT
 *    carries {id = the client's pid, qp, issm, nodeid[32]} and gets back
 *    the client id and the node's name. GET_NODEINFO, GET_PORTINFO (data[0]
 *    the port) and GET_PKEYS answer the attribute as an SMP carries it
 *    (big endian); GET_VENDOR, GET_PORT, GET_GUID and GET_GID small host
 *    order structures.
 *    A MAD is one 288-byte datagram (struct sim_request): dlid, slid, dqp,
 *    sqp, status as 32-bit words holding the umad address' network-order
 *    values (the LID in the word's low 16 bits), 4 bytes of padding, the
 *    MAD's length as a big-endian 64-bit word, the 256-byte MAD. The
 *    client puts its agent's number in bits 32..47 of a request's TID and
 *    finds the agent of a response there.
 * 2. The in-band frame between a host and its edge port
 *    (include/uapi/linux/ftsw.h): struct ftsw_mad_hdr then the MAD.
 * 3. Long MADs, ftsw's own addition for libftsw-umad.so (the small
 *    library preloaded before libumad2sim.so, user/umad): a datagram of
 *    the kernel's umad ABI, struct ib_user_mad_hdr (64 bytes, host order
 *    but the address, which is in network order) then the MAD, as a tool
 *    writes it to and reads it from /dev/infiniband/umadN. The tool sends
 *    from BASE:bigPID to the gateway's BASE:big; the gateway answers to
 *    BASE:bigPID. libumad2sim.so carries at most 224 bytes of a MAD (its
 *    288-byte buffer holds the 64-byte umad header too), so RMPP messages
 *    longer than that travel here, whole.
 * 4. Agent registrations, ftsw's own too: libftsw-umad.so sees a tool's
 *    REGISTER_AGENT and UNREGISTER_AGENT ioctls (which libumad2sim keeps
 *    to itself) and tells the gateway in a 16-byte datagram on the same
 *    sockets: "ftsw-agt", the operation (1 register, 2 unregister, 3
 *    "serves no class": a client that only asks), the class, its
 *    version, the QP, the agent id (host order). The gateway hands a
 *    request from the fabric to a client that registered its class, and
 *    answers one nobody registered as Linux's MAD layer does (a Get or
 *    Set: GetResp, status 0x0C; any other method: dropped).
 */
#ifndef LIBFTSW_GW_SIMPROTO_H
#define LIBFTSW_GW_SIMPROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <linux/ftsw.h>

#include "util/util.h"


#define GW_SIM_MAGIC		0xdeadbeefu
#define GW_SIM_CTL_SIZE		80
#define GW_SIM_CTL_DATA		64
#define GW_SIM_REQ_SIZE		288
#define GW_SIM_REQ_HDR		32	/* before the MAD */
#define GW_SIM_INFO_SIZE	44	/* struct sim_client_info */
#define GW_SIM_NODEID		32
#define GW_MAD_SIZE		256
#define GW_FRAME_SIZE		(FTSW_MAD_HLEN + GW_MAD_SIZE)

enum gw_ctl_type {
	GW_CTL_ERROR,
	GW_CTL_CONNECT,
	GW_CTL_DISCONNECT,
	GW_CTL_GET_PORT,
	GW_CTL_GET_VENDOR,
	GW_CTL_GET_GID,
	GW_CTL_GET_GUID,
	GW_CTL_GET_NODEINFO,
	GW_CTL_GET_PORTINFO,
	GW_CTL_SET_ISSM,
	GW_CTL_GET_PKEYS,
	GW_CTL_LAST
};

/* A control message, host order. */
struct gw_ctl {
	uint32_t magic, clientid, type, len;
	uint8_t data[GW_SIM_CTL_DATA];
};

/* CONNECT's data. nodeid NUL-terminated. */
struct gw_client_info {
	uint32_t id, qp, issm;
	char nodeid[GW_SIM_NODEID + 1];
};

/* A MAD datagram, decoded: LIDs and QPs as numbers. */
struct gw_req {
	uint16_t dlid, slid;
	uint32_t dqp, sqp, status;
	uint64_t length;
	uint8_t mad[GW_MAD_SIZE];
};

/* An agent registration (section 4). */
#define GW_AGENT_SIZE		16
#define GW_AGENT_MAGIC		"ftsw-agt"	/* 8 bytes, no NUL */
#define GW_AGENT_MAX_ID		1024

enum gw_agent_op {
	GW_AGENT_REGISTER = 1,
	GW_AGENT_UNREGISTER,
	GW_AGENT_NONE,		/* the client serves no class */
};

struct gw_agent {
	uint8_t op, mgmt_class, class_version, qpn;
	uint32_t id;
};

/*
 * Decode n bytes as an agent registration: exactly GW_AGENT_SIZE, the
 * magic, an operation 1..3, QP 0 for the subnet management classes (0x01,
 * 0x81) and 1 for every other, base version classes only (class 0 is no
 * class), an id below GW_AGENT_MAX_ID. 0 or -EINVAL with err set.
 */
int gw_agent_decode(const uint8_t *buf, size_t n, struct gw_agent *a,
		    struct ftsw_err *err);
void gw_agent_encode(const struct gw_agent *a, uint8_t out[GW_AGENT_SIZE]);

/* A frame's payload, decoded. */
struct gw_frame {
	uint16_t dlid, slid;
	uint32_t dqpn, sqpn;
	uint8_t sl, flags;
	uint16_t pkey;
	uint8_t mad[GW_MAD_SIZE];
};

/* The longest MAD libumad2sim.so hands a tool intact: its receive buffer
 * is GW_SIM_REQ_SIZE bytes, the umad header takes GW_UMAD_HDR of them. */
#define GW_UMAD_HDR		64
#define GW_SIM_MAD_INTACT	(GW_SIM_REQ_SIZE - GW_UMAD_HDR)

/* A long MAD's datagram, decoded (section 3). mad points into the buffer
 * decoded. */
struct gw_umad {
	uint32_t agent, status;
	uint32_t qpn;		/* the remote QP */
	uint16_t lid;		/* the remote LID */
	size_t len;		/* the MAD's bytes */
	const uint8_t *mad;
};

/*
 * The abstract address "\0BASE:WHAT\0" (with_num: "\0BASE:WHATnum\0")
 * of a socket of the protocol, as libumad2sim.so names them; its length
 * counting both NULs.
 */
socklen_t gw_sim_addr(struct sockaddr_un *a, const char *base,
		      const char *what, unsigned num, bool with_num);

/* The name of control message type t ("CONNECT"), or "?". */
const char *gw_ctl_name(uint32_t t);

/*
 * Decode n bytes as a control message: exactly GW_SIM_CTL_SIZE bytes,
 * the magic, a known type, len <= 64. 0, or -EINVAL with err set.
 */
int gw_ctl_decode(const void *buf, size_t n, struct gw_ctl *c,
		  struct ftsw_err *err);
void gw_ctl_encode(const struct gw_ctl *c, uint8_t out[GW_SIM_CTL_SIZE]);
/* CONNECT's data: len GW_SIM_INFO_SIZE, qp 0 or 1, issm 0 or 1, nodeid
 * printable. 0 or -EINVAL. */
int gw_info_decode(const struct gw_ctl *c, struct gw_client_info *ci,
		   struct ftsw_err *err);
void gw_info_encode(const struct gw_client_info *ci, struct gw_ctl *c);
/*
 * Whether the abstract socket address @name (@len bytes of sun_path, as
 * recvfrom() gave it) is "\0BASE:ctlPID", the control socket the tool
 * with process id @pid binds (with or without its trailing NUL): a control
 * message for a client slot must come from that slot's own tool.
 */
bool gw_ctl_sender_is(const char *base, uint32_t pid, const char *name,
		      size_t len);

/*
 * Decode a MAD datagram: exactly GW_SIM_REQ_SIZE bytes, QPs 0 or 1, the
 * MAD's base version 1, length <= 256. 0 or -EINVAL.
 */
int gw_req_decode(const void *buf, size_t n, struct gw_req *r,
		  struct ftsw_err *err);
void gw_req_encode(const struct gw_req *r, uint8_t out[GW_SIM_REQ_SIZE]);

/*
 * A frame's payload (after the Ethernet header): at least GW_FRAME_SIZE
 * bytes (Ethernet may pad), QPs 0 or 1, base version 1. 0 or -EINVAL.
 */
int gw_frame_decode(const void *buf, size_t n, struct gw_frame *f,
		    struct ftsw_err *err);
void gw_frame_encode(const struct gw_frame *f, uint8_t out[GW_FRAME_SIZE]);

/*
 * Decode n bytes as a long MAD: the 64-byte header, a length field equal
 * to n, a MAD of 24..max bytes with base version 1, QP 0 or 1. 0 or
 * -EINVAL with err set.
 */
int gw_umad_decode(const uint8_t *buf, size_t n, size_t max,
		   struct gw_umad *u, struct ftsw_err *err);
/* Encode u into out[GW_UMAD_HDR + u->len]; the bytes written. */
size_t gw_umad_encode(const struct gw_umad *u, uint8_t *out);

/* MAD header fields (IBA 13.4.3). */
static inline uint8_t gw_mad_class(const uint8_t *mad) { return mad[1]; }
static inline uint8_t gw_mad_method(const uint8_t *mad) { return mad[3]; }
static inline bool gw_mad_is_response(const uint8_t *mad)
{
	return mad[3] & 0x80;
}
uint64_t gw_mad_tid(const uint8_t *mad);
void gw_mad_set_tid(uint8_t *mad, uint64_t tid);
static inline uint16_t gw_mad_attr(const uint8_t *mad)
{
	return (uint16_t)(mad[16] << 8 | mad[17]);
}

#define GW_MGMT_CLASS_SMI_LR	0x01
#define GW_MGMT_CLASS_SMI_DR	0x81
#define GW_METHOD_GET		0x01
#define GW_METHOD_SET		0x02
#define GW_METHOD_GET_RESP	0x81
#define GW_STATUS_UNSUP_ATTR	0x000c	/* unsupported method/attribute */
#define GW_STATUS_DIRECTION	0x8000	/* a directed-route response */
#define GW_CAP_IS_SM		0x02	/* PortInfo CapabilityMask: IsSM */
#define GW_METHOD_TRAP_REPRESS	0x07
#define GW_ATTR_NODE_INFO	0x0011
#define GW_ATTR_PORT_INFO	0x0015
#define GW_ATTR_PKEY_TABLE	0x0016
#define GW_SMP_DATA		64	/* offset of an SMP's data */

/*
 * Turn request mad into the answer Linux's MAD layer gives a Get or Set
 * no agent registered (generate_unmatched_resp()): GetResp, status 0x0C,
 * the direction bit for a directed-route SMP, everything else as it came.
 * Whether it did (false: not a Get or Set, which is dropped unanswered).
 */
bool gw_mad_unmatched_resp(uint8_t *mad);

/* A directed-route SMP Get of attr/mod with hop count 0 (the host's own
 * port answers), TID tid; gw_smp_hop0() with the method given (a Set's
 * data, at GW_SMP_DATA, is the caller's to fill). */
void gw_smp_hop0_get(uint8_t mad[GW_MAD_SIZE], uint16_t attr, uint32_t mod,
		     uint64_t tid);
void gw_smp_hop0(uint8_t mad[GW_MAD_SIZE], uint8_t method, uint16_t attr,
		 uint32_t mod, uint64_t tid);
/*
 * Whether mad is the good response to gw_smp_hop0_get(attr, tid): class
 * 0x81, GetResp, same TID and attribute, status 0. 0 or -EINVAL with the
 * reason.
 */
int gw_smp_check_resp(const uint8_t *mad, uint16_t attr, uint64_t tid,
		      struct ftsw_err *err);

/*
 * Outstanding requests: each request a client sends gets a TID of the
 * gateway's own (so two clients' equal TIDs never meet); the response's
 * TID finds the client and the TID it chose. A slot is reused after
 * GW_TIDS requests; an entry older than GW_TID_TTL_US is forgotten.
 */
#define GW_TIDS		4096
#define GW_TID_TTL_US	(60ull * 1000 * 1000)
#define GW_TID_MARK	0x6674000000000000ull	/* "ft" in the top bits */

struct gw_tid_ent {
	uint64_t sent, orig, at_us;
	uint32_t owner;		/* client slot + 1; 0: free */
	uint32_t gen;		/* the slot's generation */
};

struct gw_tids {
	uint64_t next;
	struct gw_tid_ent e[GW_TIDS];
};

/* The TID to send for owner's request orig at now. */
uint64_t gw_tid_out(struct gw_tids *t, uint32_t owner, uint32_t gen,
		    uint64_t orig, uint64_t now_us);
/* The owner (0 none) of response TID sent; *orig, *gen filled. */
uint32_t gw_tid_in(const struct gw_tids *t, uint64_t sent, uint64_t now_us,
		   uint64_t *orig, uint32_t *gen);
/* Forget TID sent: a response coming later matches no request. */
void gw_tid_forget(struct gw_tids *t, uint64_t sent);

/*
 * Requests waiting for their response. The kernel's MAD layer resends a
 * umad request that got no response (timeout_ms, retries) and at last
 * hands it back to the tool with status ETIMEDOUT; libumad2sim leaves that
 * to the simulator (ibsim answers a MAD it cannot deliver at once with
 * status 110), and a tool such as OpenSM waits for ever for a request the
 * fabric lost. So the gateway keeps each request that expects a response
 * until it comes, resends it when it is due and gives it back timed out
 * after its last try.
 */
#define GW_PENDING		256
#define GW_STATUS_TIMEDOUT	110	/* ETIMEDOUT, as ibsim answers */

struct gw_pend {
	uint64_t tid;		/* the gateway's TID; 0: a free entry */
	uint64_t due_us;	/* when to resend or give up */
	uint32_t client, gen;	/* the client slot, its generation */
	unsigned sent;		/* times sent */
	struct gw_frame f;	/* the frame as sent */
};

struct gw_pends {
	struct gw_pend e[GW_PENDING];
};

/* Whether a MAD is a request its sender waits a response for (Get, Set,
 * Report, GetTable, GetTraceTable, GetMulti, Delete; not Send, Trap,
 * TrapRepress, nor a response). */
bool gw_mad_wants_response(const uint8_t *mad);
/* Whether a MAD a client sends keeps its TID: a response keeps its
 * request's, a TrapRepress the trap's it answers (as Linux's
 * ib_response_mad() counts it); a request gets the gateway's. */
bool gw_mad_keeps_tid(const uint8_t *mad);
/* Keep frame f (TID f's) of client/gen, due at due_us. 0, or -ENOSPC
 * when GW_PENDING requests are waiting already. */
int gw_pend_add(struct gw_pends *p, uint32_t client, uint32_t gen,
		const struct gw_frame *f, uint64_t due_us);
/* The response to TID tid came: forget its request. Whether it was kept. */
bool gw_pend_done(struct gw_pends *p, uint64_t tid);
/* A request due at now_us, or NULL; the caller resends it (moving
 * due_us on) or frees it (tid = 0). */
struct gw_pend *gw_pend_due(struct gw_pends *p, uint64_t now_us);
/* The earliest due time, UINT64_MAX when nothing waits. */
uint64_t gw_pend_next(const struct gw_pends *p);

#endif
