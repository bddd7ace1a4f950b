// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw lab: all-pairs ICMP echo, fabric counters, path trace, status.
 *
 * Ping opens one raw ICMP socket inside each source host's namespace (a
 * socket stays in the namespace it was created in), then a single thread
 * sends echo requests to every destination, paced by a window of
 * outstanding requests so the veth backlog never overflows, and matches the
 * replies by (source, destination, round) carried in the payload.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <linux/icmp.h>

#include "lab/lab.h"
#include "lab/lab_int.h"

#define PING_MAGIC	0x66747377u	/* "ftsw" */
#define PING_WINDOW	64

struct ping_payload {
	uint32_t magic, src, dst, round;
	uint64_t sent_us;
};

static uint16_t csum(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint32_t s = 0;

	for (; n > 1; n -= 2, b += 2)
		s += (uint32_t)b[0] << 8 | b[1];
	if (n)
		s += (uint32_t)b[0] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return htons((uint16_t)~s);
}

void ftsw_lab_raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

struct host_socket {
	uint32_t h;
	int type, proto, fd;
};

static int host_socket_in(void *arg, struct ftsw_err *err)
{
	struct host_socket *s = arg;

	s->fd = socket(AF_INET, s->type | SOCK_NONBLOCK | SOCK_CLOEXEC,
		       s->proto);
	if (s->fd >= 0)
		return 0;
	ftsw_err_errno(err, errno, "host %" PRIu32 ": socket: %s", s->h,
		       strerror(errno));
	return -1;
}

/* A socket of (AF_INET, type, proto) made in host h's namespace, where it
 * stays, used from anywhere. The namespace is open for the call only: the
 * host's socket is the one file a lab's traffic keeps open per host. */
int ftsw_lab_host_socket(struct ftsw_lab *lab, uint32_t h, int type, int proto,
			 struct ftsw_err *err)
{
	struct host_socket s = { .h = h, .type = type, .proto = proto,
				 .fd = -1 };
	char ns[64];

	ftsw_lab_host_ns(lab->name, h, ns, sizeof(ns));
	if (ftsw_netns_run_name(ns, host_socket_in, &s, err)) {
		if (s.fd >= 0)
			close(s.fd);
		return -1;
	}
	return s.fd;
}

struct ping_state {
	struct ftsw_lab *lab;
	uint32_t nsrc, ndst;
	const uint32_t *srcs, *dsts;
	int *fd;		/* per source index */
	uint32_t *dpos;		/* host -> dst index + 1 (0: not a dst) */
	uint32_t *all;		/* every host, for NULL sources or dsts */
	uint16_t *got;		/* [si * ndst + di] replies */
	uint64_t outstanding, received;
	double rtt_sum, rtt_min, rtt_max;
};

static void ping_recv(struct ping_state *ps, uint32_t si)
{
	char buf[2048];

	for (;;) {
		ssize_t n = recv(ps->fd[si], buf, sizeof(buf), 0);
		const struct iphdr *ip = (const struct iphdr *)buf;
		const struct icmphdr *ic;
		const struct ping_payload *pl;
		size_t hl;
		uint32_t di;
		double rtt;

		if (n < 0)
			return;
		hl = (size_t)ip->ihl * 4;
		if ((size_t)n < hl + sizeof(*ic) + sizeof(*pl))
			continue;
		ic = (const struct icmphdr *)(buf + hl);
		pl = (const struct ping_payload *)(ic + 1);
		if (ic->type != ICMP_ECHOREPLY || pl->magic != PING_MAGIC ||
		    pl->src != ps->srcs[si] || pl->dst >= ps->lab->topo->nhosts)
			continue;
		di = ps->dpos[pl->dst];
		if (!di)
			continue;
		ps->got[(size_t)si * ps->ndst + di - 1]++;
		ps->received++;
		if (ps->outstanding)
			ps->outstanding--;
		rtt = (double)(ftsw_now_us() - pl->sent_us);
		ps->rtt_sum += rtt;
		if (rtt < ps->rtt_min)
			ps->rtt_min = rtt;
		if (rtt > ps->rtt_max)
			ps->rtt_max = rtt;
	}
}

/* Wait up to ms for replies on every socket. */
static void ping_wait(struct ping_state *ps, struct pollfd *pfd, int ms)
{
	uint32_t i;
	int n = poll(pfd, ps->nsrc, ms);

	if (n <= 0)
		return;
	for (i = 0; i < ps->nsrc; i++)
		if (pfd[i].revents & POLLIN)
			ping_recv(ps, i);
}

/* One echo request from source index si (host s) to host d. */
static bool ping_send(struct ping_state *ps, struct pollfd *pfd, uint32_t si,
		      uint32_t s, uint32_t d, unsigned round)
{
	struct {
		struct icmphdr ic;
		struct ping_payload pl;
	} pkt;
	struct sockaddr_in to = { .sin_family = AF_INET };

	while (ps->outstanding >= PING_WINDOW) {
		uint64_t before = ps->received;

		ping_wait(ps, pfd, 20);
		if (ps->received == before)
			ps->outstanding -= ps->outstanding / 8;
	}
	memset(&pkt, 0, sizeof(pkt));
	pkt.ic.type = ICMP_ECHO;
	pkt.ic.un.echo.id = htons((uint16_t)s);
	pkt.ic.un.echo.sequence = htons((uint16_t)round);
	pkt.pl.magic = PING_MAGIC;
	pkt.pl.src = s;
	pkt.pl.dst = d;
	pkt.pl.round = round;
	pkt.pl.sent_us = ftsw_now_us();
	pkt.ic.checksum = csum(&pkt, sizeof(pkt));
	to.sin_addr.s_addr = ftsw_lab_host_ip(d);
	if (sendto(ps->fd[si], &pkt, sizeof(pkt), 0, (struct sockaddr *)&to,
		   sizeof(to)) != (ssize_t)sizeof(pkt))
		return false;
	ps->outstanding++;
	if ((ps->received & 31) == 0)
		ping_wait(ps, pfd, 0);
	return true;
}

/* Sources and destinations (NULL: every host), one raw socket per source. */
static int ping_setup(struct ping_state *ps, struct pollfd **pfdp,
		      const uint32_t *srcs, size_t nsrcs, const uint32_t *dsts,
		      size_t ndsts, struct ftsw_err *err)
{
	const struct ftsw_topo *t = ps->lab->topo;
	struct pollfd *pfd;
	uint32_t i, si;

	ps->all = malloc(sizeof(uint32_t) * t->nhosts);
	ps->dpos = calloc(t->nhosts, sizeof(uint32_t));
	if (!ps->all || !ps->dpos)
		goto nomem;
	for (i = 0; i < t->nhosts; i++)
		ps->all[i] = i;
	ps->srcs = srcs ? srcs : ps->all;
	ps->nsrc = srcs ? (uint32_t)nsrcs : t->nhosts;
	ps->dsts = dsts ? dsts : ps->all;
	ps->ndst = dsts ? (uint32_t)ndsts : t->nhosts;
	for (i = 0; i < ps->ndst; i++) {
		if (ps->dsts[i] >= t->nhosts) {
			ftsw_err_set(err, "host %" PRIu32 ": no such host",
				     ps->dsts[i]);
			return -1;
		}
		ps->dpos[ps->dsts[i]] = i + 1;
	}
	ps->fd = malloc(sizeof(int) * (ps->nsrc + 1));
	if (!ps->fd)
		goto nomem;
	for (si = 0; si < ps->nsrc; si++)
		ps->fd[si] = -1;
	*pfdp = pfd = calloc(ps->nsrc + 1, sizeof(*pfd));
	ps->got = calloc((size_t)ps->nsrc * ps->ndst + 1, sizeof(uint16_t));
	if (!pfd || !ps->got)
		goto nomem;
	for (si = 0; si < ps->nsrc; si++) {
		struct icmp_filter f = { ~(1u << ICMP_ECHOREPLY) };
		int bufsz = 1 << 20;

		if (ps->srcs[si] >= t->nhosts) {
			ftsw_err_set(err, "host %" PRIu32 ": no such host",
				     ps->srcs[si]);
			return -1;
		}
		ps->fd[si] = ftsw_lab_host_socket(ps->lab, ps->srcs[si],
						  SOCK_RAW, IPPROTO_ICMP, err);
		if (ps->fd[si] < 0)
			return -1;
		setsockopt(ps->fd[si], SOL_RAW, ICMP_FILTER, &f, sizeof(f));
		setsockopt(ps->fd[si], SOL_SOCKET, SO_RCVBUF, &bufsz,
			   sizeof(bufsz));
		pfd[si].fd = ps->fd[si];
		pfd[si].events = POLLIN;
	}
	return 0;
nomem:
	ftsw_err_errno(err, ENOMEM, "ping: out of memory");
	return -1;
}

/*
 * Round `count + k` re-sends what is still missing after round k's wait,
 * twice at most: a transient drop (a full backlog on a loaded machine) is
 * not a broken path; a broken path never answers. The retries are counted
 * in the result.
 */
static void ping_rounds(struct ping_state *ps, struct pollfd *pfd,
			unsigned count, unsigned timeout_ms,
			struct ftsw_ping_result *res)
{
	uint64_t sent = 0, first_sent = 0, deadline;
	unsigned round, attempt;
	uint32_t si, di;

	for (attempt = 0; attempt < 3; attempt++) {
		for (round = 0; round < count; round++) {
			for (si = 0; si < ps->nsrc; si++) {
				for (di = 0; di < ps->ndst; di++) {
					uint32_t s = ps->srcs[si], d = ps->dsts[di];

					if (s == d)
						continue;
					if (attempt && ps->got[(size_t)si * ps->ndst + di] +
					    round >= count)
						continue;
					if (ping_send(ps, pfd, si, s, d,
						      attempt * count + round))
						sent++;
				}
			}
		}
		deadline = ftsw_now_us() + (uint64_t)timeout_ms * 1000;
		while (ps->received < sent && ftsw_now_us() < deadline)
			ping_wait(ps, pfd, 10);
		if (!attempt)
			first_sent = sent;
		if (ps->received >= sent)
			break;
		ps->outstanding = 0;
	}
	res->retried = sent - first_sent;
	res->sent = sent;
	res->received = ps->received;
}

/* Pairs, failures and round-trip times into res. */
static int ping_collect(const struct ping_state *ps, unsigned count,
			struct ftsw_ping_result *res, struct ftsw_err *err)
{
	uint32_t si, di;

	for (si = 0; si < ps->nsrc; si++)
		for (di = 0; di < ps->ndst; di++) {
			unsigned g = ps->got[(size_t)si * ps->ndst + di];

			if (ps->srcs[si] == ps->dsts[di])
				continue;
			res->pairs++;
			if (g >= count) {
				res->ok++;
				continue;
			}
			res->failed++;
			if (!(res->nfails & (res->nfails + 1)) || !res->fails) {
				void *p = realloc(res->fails,
						  sizeof(*res->fails) *
						  (2 * res->nfails + 2));

				if (!p) {
					ftsw_err_errno(err, ENOMEM,
						       "ping: out of memory");
					return -1;
				}
				res->fails = p;
			}
			res->fails[res->nfails].src = ps->srcs[si];
			res->fails[res->nfails].dst = ps->dsts[di];
			res->fails[res->nfails].sent = count;
			res->fails[res->nfails].received = g;
			res->nfails++;
		}
	if (ps->received) {
		res->min_us = ps->rtt_min;
		res->max_us = ps->rtt_max;
		res->avg_us = ps->rtt_sum / (double)ps->received;
	}
	return 0;
}

int ftsw_lab_ping(struct ftsw_lab *lab, const uint32_t *srcs, size_t nsrcs,
		  const uint32_t *dsts, size_t ndsts, unsigned count,
		  unsigned timeout_ms, struct ftsw_ping_result *res,
		  struct ftsw_err *err)
{
	struct ping_state ps = { .lab = lab, .rtt_min = 1e18 };
	struct pollfd *pfd = NULL;
	uint64_t t0 = ftsw_now_us();
	uint32_t si;
	int rc = -1;

	memset(res, 0, sizeof(*res));
	if (!count)
		count = 1;
	/* OpenSM swept since the hosts' path SLs were set: ask again */
	if (ftsw_lab_path_sl_refresh(lab, err))
		return -1;
	ftsw_lab_raise_nofile();
	if (!ping_setup(&ps, &pfd, srcs, nsrcs, dsts, ndsts, err)) {
		ping_rounds(&ps, pfd, count, timeout_ms, res);
		rc = ping_collect(&ps, count, res, err);
		res->elapsed_s = (double)(ftsw_now_us() - t0) / 1e6;
	}
	if (ps.fd)
		for (si = 0; si < ps.nsrc; si++)
			if (ps.fd[si] >= 0)
				close(ps.fd[si]);
	free(ps.fd);
	free(pfd);
	free(ps.got);
	free(ps.dpos);
	free(ps.all);
	return rc;
}

void ftsw_ping_result_free(struct ftsw_ping_result *res)
{
	free(res->fails);
	res->fails = NULL;
}

/* ------------------------------------------------------------ counters */

struct cnt_arg {
	struct ftsw_lab_counters *c;
};

static int cnt_cb(const struct ftsw_port_info *pi, void *arg)
{
	struct ftsw_lab_counters *c = arg;
	size_t k;
	int i;

	if (pi->switch_id >= c->nswitches || pi->port > c->maxports ||
	    !pi->has_stats)
		return 0;
	k = (size_t)pi->switch_id * (c->maxports + 1) + pi->port;
	/*
	 * Data only: the SMPs on VL15 (an SM's sweeps, a diagnostic tool)
	 * are not the traffic being measured. GMPs travel on data VLs
	 * and count, as on InfiniBand's PortXmitPkts.
	 */
	c->tx[k] = pi->stats.tx_packets - pi->stats.tx_vl[FTSW_NUM_DATA_VL];
	c->rx[k] = pi->stats.rx_packets;
	for (i = 1; i <= FTSW_DROP_MAX; i++)
		c->drops += pi->stats.drops[i];
	for (i = 0; pi->ll.has_vl && i < FTSW_NUM_DATA_VL; i++) {
		c->hoq_discards += pi->ll.vl[i].hoq_discards;
		c->life_discards += pi->ll.vl[i].life_discards;
		c->in_wait_ns += pi->ll.vl[i].in_wait_ns;
		c->out_wait_ns += pi->ll.vl[i].out_wait_ns;
	}
	return 0;
}

int ftsw_lab_counters(struct ftsw_lab *lab, struct ftsw_lab_counters *c,
		      struct ftsw_err *err)
{
	const struct ftsw_topo *t = lab->topo;
	uint32_t i;

	memset(c, 0, sizeof(*c));
	c->nswitches = t->nswitches;
	for (i = 0; i < t->nswitches; i++)
		if (t->nodes[t->switches[i]].nports > c->maxports)
			c->maxports = t->nodes[t->switches[i]].nports;
	c->tx = calloc((size_t)c->nswitches * (c->maxports + 1) + 1, 8);
	c->rx = calloc((size_t)c->nswitches * (c->maxports + 1) + 1, 8);
	if (!c->tx || !c->rx) {
		ftsw_lab_counters_free(c);
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	if (ftsw_nl_port_dump(lab->nl, -1, cnt_cb, c)) {
		ftsw_err_errno(err, ftsw_nl_errno(lab->nl),
			       "lab %s: port counters: %s", lab->name,
			       ftsw_nl_error(lab->nl));
		ftsw_lab_counters_free(c);
		return -1;
	}
	return 0;
}

void ftsw_lab_counters_free(struct ftsw_lab_counters *c)
{
	free(c->tx);
	free(c->rx);
	c->tx = c->rx = NULL;
}

/* ------------------------------------------------------------ trace */

/*
 * The hops of one path (h: ftsw_trace()'s return) with the packets each
 * port sent between the two counter snapshots. A broken path is listed as
 * far as it goes: until it loops back to its first switch, reaches a port
 * without a route, or 8 hops.
 */
static void trace_hops(struct ftsw_lab_trace_path *p, int h,
		       const uint32_t *swp, const uint8_t *pp, unsigned maxh,
		       const struct ftsw_lab_counters *c0,
		       const struct ftsw_lab_counters *c1)
{
	int i;

	p->min_delta = UINT64_MAX;
	for (i = 0; i < (h < 0 ? (int)maxh : h) && i < (int)maxh; i++) {
		size_t k = (size_t)swp[i] * (c1->maxports + 1) + pp[i];
		uint64_t d = pp[i] <= c1->maxports && pp[i] ?
			     c1->tx[k] - c0->tx[k] : 0;

		if (h < 0 && i >= 1 && swp[i] == swp[0] && i > 1)
			break;
		if (d < p->min_delta)
			p->min_delta = d;
		p->hops[p->nhops].sw = swp[i];
		p->hops[p->nhops].port = pp[i];
		p->hops[p->nhops++].tx_delta = d;
		if (h < 0 && (pp[i] == FTSW_PORT_NONE || i + 1 >= 8))
			break;
	}
}

/* Counters before and after `probes` echoes from src to dst. */
static int trace_probe(struct ftsw_lab *lab, struct ftsw_lab_trace_result *res,
		       struct ftsw_lab_counters *c0,
		       struct ftsw_lab_counters *c1, struct ftsw_err *err)
{
	struct ftsw_ping_result pr;

	if (ftsw_lab_counters(lab, c0, err))
		return -1;
	if (ftsw_lab_ping(lab, &res->src, 1, &res->dst, 1, res->probes, 2000,
			  &pr, err)) {
		ftsw_lab_counters_free(c0);
		return -1;
	}
	res->replies = pr.received;
	ftsw_ping_result_free(&pr);
	if (ftsw_lab_counters(lab, c1, err)) {
		ftsw_lab_counters_free(c0);
		return -1;
	}
	return 0;
}

struct dst_lid_arg {
	const struct ftsw_topo *t;
	uint32_t host, lid;
};

static int dst_lid_cb(const struct ftsw_port_info *pi, void *arg)
{
	struct dst_lid_arg *a = arg;

	if (lab_edge_host(a->t, pi) == a->host)
		a->lid = pi->base_lid;
	return 0;
}

int ftsw_lab_trace(struct ftsw_lab *lab, uint32_t src, uint32_t dst,
		   unsigned probes, struct ftsw_lab_trace_result *res,
		   struct ftsw_err *err)
{
	struct dst_lid_arg da = { 0 };
	uint32_t dlid;
	struct ftsw_routing *r;
	struct ftsw_lab_counters c0, c1;
	unsigned off, maxh = lab->topo->nswitches + 2;
	uint32_t *swp = NULL;
	uint8_t *pp = NULL;
	int rc = -1;

	memset(res, 0, sizeof(*res));
	res->src = src;
	res->dst = dst;
	res->probes = probes;
	if (src == dst) {
		ftsw_err_set(err, "trace: source and destination are both h%" PRIu32,
			     src);
		return -1;
	}
	r = ftsw_lab_read_routing(lab, err);
	if (!r)
		return -1;
	/* the LID the destination has (a subnet manager's, if one ran) */
	da.t = lab->topo;
	da.host = dst;
	if (ftsw_nl_port_dump(lab->nl, -1, dst_lid_cb, &da))
		da.lid = 0;
	dlid = da.lid;
	res->npaths = 1u << r->lmc;
	swp = malloc(sizeof(uint32_t) * maxh);
	pp = malloc(maxh);
	res->paths = calloc(res->npaths, sizeof(*res->paths));
	res->hops = calloc((size_t)res->npaths * maxh, sizeof(*res->hops));
	if (!swp || !pp || !res->paths || !res->hops) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		goto out;
	}
	if (trace_probe(lab, res, &c0, &c1, err))
		goto out;
	for (off = 0; off < res->npaths; off++) {
		struct ftsw_lab_trace_path *p = &res->paths[off];
		int h;

		p->dlid = (dlid ? dlid : ftsw_host_lid(r, dst)) + off;
		p->hops = res->hops + (size_t)off * maxh;
		h = ftsw_trace(r, src, ftsw_host_lid(r, dst) + off, swp, pp, maxh);
		p->status = h < 0 ? h : 0;
		trace_hops(p, h, swp, pp, maxh, &c0, &c1);
		p->confirmed = h > 0 && p->min_delta >= probes;
	}
	ftsw_lab_counters_free(&c0);
	ftsw_lab_counters_free(&c1);
	rc = 0;
out:
	if (rc)
		ftsw_lab_trace_result_free(res);
	free(swp);
	free(pp);
	ftsw_routing_free(r);
	return rc;
}

void ftsw_lab_trace_result_free(struct ftsw_lab_trace_result *res)
{
	free(res->paths);
	free(res->hops);
	res->paths = NULL;
	res->hops = NULL;
	res->npaths = 0;
}

/* ------------------------------------------------------------ status */

static int st_cb(const struct ftsw_port_info *pi, void *arg)
{
	struct ftsw_lab_status *s = arg;

	s->ports++;
	s->ports_edge += pi->kind == FTSW_PORT_EDGE;
	s->ports_down += !pi->oper_up || !pi->admin_up;
	return 0;
}

int ftsw_lab_status(struct ftsw_lab *lab, struct ftsw_lab_status *st,
		    struct ftsw_err *err)
{
	int i;

	memset(st, 0, sizeof(*st));
	if (ftsw_nl_fabric_get(lab->nl, &st->fabric) ||
	    ftsw_nl_port_dump(lab->nl, -1, st_cb, st)) {
		ftsw_err_errno(err, ftsw_nl_errno(lab->nl), "lab %s: %s",
			       lab->name, ftsw_nl_error(lab->nl));
		return -1;
	}
	for (i = 1; i <= FTSW_DROP_MAX; i++)
		st->drops += st->fabric.drops[i];
	return 0;
}
