// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw-umad.so: long MADs for tools under libumad2sim.so.
 *
 * Preloaded before ibsim-utils' libumad2sim.so (LD_PRELOAD="this.so
 * libumad2sim.so"; `ftsw lab ib` and `lab up --sm` do it). libumad2sim
 * carries one 256-byte MAD per datagram and hands a tool at most 224 bytes
 * of it, so an RMPP message (an SA GetTable answer of many records) could
 * neither leave OpenSM whole nor reach saquery whole. The ftsw gateway
 * does RMPP as the kernel's MAD layer would (user/lib/gw/rmpp.h); this
 * library only moves the whole messages between the tool and the gateway,
 * as the kernel's umad device would hand them over: a datagram of struct
 * ib_user_mad_hdr and the MAD (Documentation/sm.md, "Long MADs"), from
 * @BASE:bigPID to the gateway's @BASE:big and back.
 *
 * - write() of more than 256 bytes of MAD on a umad descriptor goes to the
 *   gateway whole; anything shorter goes on to libumad2sim.
 * - read() on a umad descriptor takes a long MAD waiting for this process
 *   first (ENOSPC with the length needed when the buffer is short, as the
 *   kernel answers, so libibumad's umad_recv() grows its buffer), else
 *   goes on to libumad2sim.
 * - poll() on a umad descriptor also wakes for a waiting long MAD (it
 *   waits in slices of FTSW_UMAD_SLICE_MS on libumad2sim's poll).
 * - ioctl() REGISTER_AGENT is remembered: a long request is handed to the
 *   agent of its class. REGISTER_AGENT and UNREGISTER_AGENT are told to
 *   the gateway (a 16-byte datagram: "ftsw-agt", operation 1 or 2, class,
 *   class version, QP, agent id; user/lib/gw/simproto.h, section 4), so
 *   that it hands a request from the fabric to the tool that serves its
 *   class (an ibping server beside OpenSM) and answers the others as
 *   Linux's MAD layer does.
 * Everything else is libumad2sim's. No state is kept but the socket and
 * the agents.
 */
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <rdma/ib_user_mad.h>

#define UMAD_FD_MIN		1024	/* libumad2sim's umad descriptors */
#define UMAD_FD_END		2048
#define UMAD_HDR		64	/* struct ib_user_mad_hdr */
#define MAD_SIZE		256
#define LONG_MAX_BYTES		(1u << 20)	/* as the gateway's cap */
#define FTSW_UMAD_SLICE_MS	20

static ssize_t (*next_read)(int, void *, size_t);
static ssize_t (*next_write)(int, const void *, size_t);
static int (*next_poll)(struct pollfd *, nfds_t, int);
static int (*next_ioctl)(int, unsigned long, ...);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int big = -1;
static struct sockaddr_un gw_addr;
static socklen_t gw_len;
static uint32_t class_agent[256];	/* agent id + 1, by class */

static socklen_t name(struct sockaddr_un *a, const char *base,
		      const char *what)
{
	int n;

	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	n = snprintf(a->sun_path + 1, sizeof(a->sun_path) - 2, "%s:%s", base,
		     what);
	if (n < 0 || (size_t)n > sizeof(a->sun_path) - 2)
		return 0;
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n + 1);
}

static void init(void)
{
	const char *base = getenv("IBSIM_SOCKNAME");
	struct sockaddr_un me;
	char what[32];
	socklen_t ml;
	int sz = 4 << 20;

	next_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	next_write = (ssize_t (*)(int, const void *, size_t))
		     dlsym(RTLD_NEXT, "write");
	next_poll = (int (*)(struct pollfd *, nfds_t, int))
		    dlsym(RTLD_NEXT, "poll");
	next_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	if (!base || !*base)
		base = "sim";
	snprintf(what, sizeof(what), "big%d", (int)getpid());
	ml = name(&me, base, what);
	gw_len = name(&gw_addr, base, "big");
	if (!ml || !gw_len)
		return;
	big = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (big < 0)
		return;
	/* no output here: a write() would come back to setup() */
	if (bind(big, (struct sockaddr *)&me, ml) < 0) {
		close(big);
		big = -1;
		return;
	}
	if (setsockopt(big, SOL_SOCKET, SO_SNDBUFFORCE, &sz, sizeof(sz)) < 0)
		(void)setsockopt(big, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
}

static void setup(void)
{
	pthread_once(&once, init);
}

static int is_umad(int fd)
{
	return fd >= UMAD_FD_MIN && fd < UMAD_FD_END;
}

/* The length of the long MAD waiting, 0 if none. */
static size_t waiting(void)
{
	ssize_t n;

	if (big < 0)
		return 0;
	n = recv(big, NULL, 0, MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT);
	return n > UMAD_HDR ? (size_t)n : 0;
}

ssize_t read(int fd, void *buf, size_t count)
{
	struct ib_user_mad_hdr *h = buf;
	uint8_t *mad;
	size_t n;
	ssize_t got;

	setup();
	n = is_umad(fd) ? waiting() : 0;
	if (!n)
		return next_read(fd, buf, count);
	if (count < n) {
		/* as the kernel: the header, with the length needed */
		if (count >= UMAD_HDR &&
		    recv(big, buf, UMAD_HDR, MSG_PEEK | MSG_DONTWAIT) == UMAD_HDR) {
			h->length = (uint32_t)n;
			errno = ENOSPC;
			return -1;
		}
		errno = EINVAL;
		return -1;
	}
	got = recv(big, buf, count, MSG_DONTWAIT);
	if (got < (ssize_t)(UMAD_HDR + 24))
		return got < 0 ? -1 : next_read(fd, buf, count);
	mad = (uint8_t *)buf + UMAD_HDR;
	/* a request (no response bit) goes to the agent of its class */
	if (!(mad[3] & 0x80) && class_agent[mad[1]])
		h->id = class_agent[mad[1]] - 1;
	return got;
}

ssize_t write(int fd, const void *buf, size_t count)
{
	setup();
	if (!is_umad(fd) || count <= UMAD_HDR + MAD_SIZE || big < 0)
		return next_write(fd, buf, count);
	if (count > UMAD_HDR + LONG_MAX_BYTES) {
		errno = EMSGSIZE;
		return -1;
	}
	{
		/* the length field holds the whole datagram, as the gateway
		 * checks */
		uint8_t *copy = malloc(count);
		ssize_t n;

		if (!copy) {
			errno = ENOMEM;
			return -1;
		}
		memcpy(copy, buf, count);
		((struct ib_user_mad_hdr *)copy)->length = (uint32_t)count;
		n = sendto(big, copy, count, 0, (struct sockaddr *)&gw_addr,
			   gw_len);
		free(copy);
		return n == (ssize_t)count ? (ssize_t)count : -1;
	}
}

int poll(struct pollfd *p, nfds_t n, int timeout)
{
	nfds_t i, u = n;
	int rc, left = timeout, slice;

	setup();
	for (i = 0; i < n && u == n; i++)
		if (is_umad(p[i].fd) && (p[i].events & POLLIN))
			u = i;
	if (u == n || big < 0)
		return next_poll(p, n, timeout);
	for (;;) {
		if (waiting()) {
			for (i = 0; i < n; i++)
				p[i].revents = 0;
			p[u].revents = POLLIN;
			return 1;
		}
		slice = left < 0 || left > FTSW_UMAD_SLICE_MS ?
			FTSW_UMAD_SLICE_MS : left;
		rc = next_poll(p, n, slice);
		if (rc != 0 || left == 0)
			return rc;
		if (left > 0)
			left -= slice;
	}
}

/* Tell the gateway of an agent: op 1 registered, 2 unregistered. */
static void tell_agent(uint8_t op, uint8_t cls, uint8_t version, uint8_t qpn,
		       uint32_t id)
{
	uint8_t m[16];

	if (big < 0)
		return;
	memcpy(m, "ftsw-agt", 8);
	m[8] = op;
	m[9] = cls;
	m[10] = version;
	m[11] = qpn;
	memcpy(m + 12, &id, 4);		/* host order, as the umad header's */
	(void)sendto(big, m, sizeof(m), MSG_DONTWAIT,
		     (struct sockaddr *)&gw_addr, gw_len);
}

int ioctl(int fd, unsigned long req, ...)
{
	struct ib_user_mad_reg_req *r;
	uint32_t id = 0, i;
	va_list ap;
	void *arg;
	int rc;

	setup();
	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (is_umad(fd) && req == IB_USER_MAD_UNREGISTER_AGENT && arg)
		memcpy(&id, arg, sizeof(id));
	rc = next_ioctl(fd, req, arg);
	if (rc == 0 && is_umad(fd) && req == IB_USER_MAD_REGISTER_AGENT && arg) {
		r = arg;
		class_agent[r->mgmt_class] = r->id + 1;
		tell_agent(1, r->mgmt_class, r->mgmt_class_version,
			   (uint8_t)r->qpn, r->id);
	}
	if (rc == 0 && is_umad(fd) && req == IB_USER_MAD_UNREGISTER_AGENT &&
	    arg)
		for (i = 0; i < 256; i++)
			if (class_agent[i] == id + 1) {
				class_agent[i] = 0;
				tell_agent(2, (uint8_t)i, 0, i == 0x01 || i == 0x81 ?
					   0 : 1, id);
			}
	return rc;
}
