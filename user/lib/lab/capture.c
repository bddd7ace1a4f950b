// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw lab: tcpdump on a cable, named by one of its ends (lab_tools.h).
 *
 * Without root, tcpdump cannot run in the lab: run as root it switches to
 * its own user (or to the one -Z names), which calls setgroups(2), and a
 * user namespace that maps one user refuses that (setgroups is denied in
 * it, or its gid map could not have been written). So a rootless capture
 * runs tcpdump outside, as the user, reading a savefile stream on its
 * standard input (tcpdump -r -), with every option and filter it takes;
 * ftsw, inside, captures on the cable with a packet socket, as tcpdump
 * does (both directions, before the switch port sees a frame), and writes
 * each frame to it in pcap's format.
 */
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "lab/lab_tools.h"

int ftsw_lab_capture_dev(const struct ftsw_lab *lab, const char *link,
			 char *dev, size_t sz, struct ftsw_err *err)
{
	const struct ftsw_topo *t = lab->topo;
	char node[128], *c, *e;
	unsigned long p;
	uint32_t n, h;

	snprintf(node, sizeof(node), "%s", link);
	c = strrchr(node, ':');
	if (!c) {
		/* A host: its cable's switch end. */
		if (ftsw_lab_find_host(lab, link, &h, err))
			return -1;
		n = t->hosts[h];
		if (!t->nodes[n].nports || ftsw_port(t, n, 1)->peer == FTSW_NONE) {
			ftsw_err_set(err, "cable '%s': host h%" PRIu32
				     " is not cabled", link, h);
			return -1;
		}
		n = ftsw_port(t, t->hosts[h], 1)->peer;
		ftsw_lab_port_dev(t->nodes[n].index,
				  ftsw_port(t, t->hosts[h], 1)->peer_port, dev, sz);
		return 0;
	}
	*c++ = 0;
	p = strtoul(c, &e, 10);
	if (!*c || *e || !p || p > 254) {
		ftsw_err_set(err, "cable '%s': expected SWITCH:PORT with a port "
			     "number in 1..254, or a host", link);
		return -1;
	}
	if (ftsw_lab_find_node(lab, node, &n, err))
		return -1;
	if (t->nodes[n].kind != FTSW_SWITCH) {
		ftsw_err_set(err, "cable '%s': %s is not a switch (a host names "
			     "its cable without :PORT)", link, node);
		return -1;
	}
	if (p > t->nodes[n].nports || ftsw_port(t, n, (unsigned)p)->peer == FTSW_NONE) {
		ftsw_err_set(err, "cable '%s': switch %s (s%" PRIu32 ") has no "
			     "cable on port %lu", link, node, t->nodes[n].index, p);
		return -1;
	}
	if (lab->patch &&
	    t->nodes[ftsw_port(t, n, (unsigned)p)->peer].kind == FTSW_SWITCH) {
		ftsw_err_set(err, "cable '%s': a patch cable (lab up --patch) "
			     "has no device to capture on; capture on a host's "
			     "cable, or make the lab with veth cables", link);
		return -1;
	}
	ftsw_lab_port_dev(t->nodes[n].index, (unsigned)p, dev, sz);
	return 0;
}

/*
 * tcpdump's command line into v (max slots): -i DEV (or -r - for a savefile
 * stream), -nn -e, -U -w FILE if file, -c COUNT if cnt, the extra ones.
 */
static int tcpdump_argv(const char *in_opt, const char *in, const char *file,
			const char *cnt, char **extra, char **v, size_t max,
			struct ftsw_err *err)
{
	size_t n = 0, i;

	v[n++] = "tcpdump";
	v[n++] = (char *)in_opt;
	v[n++] = (char *)in;
	v[n++] = "-nn";
	v[n++] = "-e";
	if (file) {
		v[n++] = "-U";
		v[n++] = "-w";
		v[n++] = (char *)file;
	}
	if (cnt) {
		v[n++] = "-c";
		v[n++] = (char *)cnt;
	}
	for (i = 0; extra && extra[i]; i++) {
		if (n + 2 > max) {
			ftsw_err_set(err, "capture: too many tcpdump arguments");
			return -1;
		}
		v[n++] = extra[i];
	}
	v[n] = NULL;
	return 0;
}

int ftsw_lab_capture(struct ftsw_lab *lab, const char *link, const char *file,
		     unsigned count, char **extra, struct ftsw_err *err)
{
	char dev[64], cnt[16];
	char *argv[64];

	snprintf(cnt, sizeof(cnt), "%u", count);
	if (ftsw_lab_capture_dev(lab, link, dev, sizeof(dev), err) ||
	    tcpdump_argv("-i", dev, file, count ? cnt : NULL, extra, argv,
			 sizeof(argv) / sizeof(argv[0]), err))
		return -1;
	if (ftsw_netns_enter_fd(lab->fabric_fd, lab->name, err))
		return -1;
	fflush(NULL);
	execvp(argv[0], argv);
	ftsw_err_errno(err, errno, "capture: tcpdump: %s%s", strerror(errno),
		       errno == ENOENT ? " (Debian: apt-get install tcpdump)" : "");
	return -1;
}

/* ------------------------------------------------------------ rootless */

pid_t ftsw_lab_capture_reader(const char *file, unsigned count, char **extra,
			      int *fd, struct ftsw_err *err)
{
	char cnt[16], *argv[64];
	int sv[2];
	pid_t pid;

	snprintf(cnt, sizeof(cnt), "%u", count);
	if (tcpdump_argv("-r", "-", file, count ? cnt : NULL, extra, argv,
			 sizeof(argv) / sizeof(argv[0]), err))
		return -1;
	/* a socket, not a pipe: writes say EPIPE without a SIGPIPE */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		ftsw_err_errno(err, errno, "capture: socketpair: %s",
			       strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ftsw_err_errno(err, errno, "capture: fork: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if (pid == 0) {
		if (dup2(sv[1], 0) < 0)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "ftsw: lab capture: tcpdump: %s%s\n",
			strerror(errno), errno == ENOENT ?
			" (Debian: apt-get install tcpdump)" : "");
		_exit(127);
	}
	close(sv[1]);
	*fd = sv[0];
	return pid;
}

/* Reap the reader; its exit status (128 + signal when killed). */
static int reader_wait(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

void ftsw_lab_capture_abort(pid_t reader, int fd)
{
	/* before it reads a header that will never come (and says so) */
	kill(reader, SIGKILL);
	close(fd);
	reader_wait(reader);
}

static int send_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	ssize_t k;

	while (n) {
		k = send(fd, c, n, MSG_NOSIGNAL);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

/* pcap's savefile format: its header and each record's, host order. */
struct pcap_file_hdr {
	uint32_t magic;
	uint16_t major, minor;
	int32_t zone;
	uint32_t sigfigs, snaplen, linktype;
};

struct pcap_rec_hdr {
	uint32_t sec, usec, caplen, len;
};

#define PCAP_SNAPLEN	65536
#define PCAP_ETHERNET	1

/* The cable's frames to fd until the reader goes: 0, or -1 + err. */
static int pcap_loop(int s, int fd, struct ftsw_err *err)
{
	struct pcap_file_hdr fh = {
		.magic = 0xa1b2c3d4, .major = 2, .minor = 4,
		.snaplen = PCAP_SNAPLEN, .linktype = PCAP_ETHERNET,
	};
	unsigned char *buf = malloc(PCAP_SNAPLEN);
	struct pollfd p[2] = {
		{ .fd = s, .events = POLLIN },
		{ .fd = fd, .events = POLLIN | POLLRDHUP },
	};
	int rc = 0;

	if (!buf) {
		ftsw_err_errno(err, ENOMEM, "capture: out of memory");
		return -1;
	}
	if (send_all(fd, &fh, sizeof(fh)))
		goto out;
	for (;;) {
		struct pcap_rec_hdr rh;
		struct timespec ts;
		ssize_t n;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			ftsw_err_errno(err, errno, "capture: poll: %s",
				       strerror(errno));
			rc = -1;
			break;
		}
		/* the reader never writes: anything here is its end */
		if (p[1].revents)
			break;
		if (!(p[0].revents & POLLIN))
			continue;
		n = recv(s, buf, PCAP_SNAPLEN, MSG_TRUNC | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			ftsw_err_errno(err, errno, "capture: recv: %s",
				       strerror(errno));
			rc = -1;
			break;
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		rh.sec = (uint32_t)ts.tv_sec;
		rh.usec = (uint32_t)(ts.tv_nsec / 1000);
		rh.len = (uint32_t)n;
		rh.caplen = n > PCAP_SNAPLEN ? PCAP_SNAPLEN : (uint32_t)n;
		if (send_all(fd, &rh, sizeof(rh)) ||
		    send_all(fd, buf, rh.caplen))
			break;		/* the reader is done (-c) */
	}
out:
	free(buf);
	return rc;
}

struct packet_socket {
	const char *dev;
	int s;
};

/* The packet socket, bound to the cable's end dev in the fabric's
 * namespace (where it stays). */
static int packet_socket_in(void *arg, struct ftsw_err *err)
{
	struct packet_socket *ps = arg;
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL),
	};

	ps->s = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
	sll.sll_ifindex = (int)if_nametoindex(ps->dev);
	if (ps->s >= 0 && sll.sll_ifindex &&
	    !bind(ps->s, (struct sockaddr *)&sll, sizeof(sll)))
		return 0;
	ftsw_err_errno(err, errno, "capture: %s: packet socket: %s", ps->dev,
		       strerror(errno));
	return -1;
}

int ftsw_lab_capture_pcap(struct ftsw_lab *lab, const char *link, int fd,
			  pid_t reader, struct ftsw_err *err)
{
	char dev[64];
	struct packet_socket ps = { .dev = dev, .s = -1 };
	int rc;

	if (ftsw_lab_capture_dev(lab, link, dev, sizeof(dev), err) ||
	    ftsw_netns_run(lab->fabric_fd, lab->name, packet_socket_in, &ps,
			   err))
		goto fail;
	rc = pcap_loop(ps.s, fd, err);
	close(ps.s);
	close(fd);
	if (rc)
		kill(reader, SIGTERM);
	rc = rc ? -1 : reader_wait(reader);
	if (rc == 127) {
		ftsw_err_set(err, "capture: tcpdump could not be started");
		return -1;
	}
	return rc;
fail:
	if (ps.s >= 0)
		close(ps.s);
	ftsw_lab_capture_abort(reader, fd);
	return -1;
}
