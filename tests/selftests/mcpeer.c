// SPDX-License-Identifier: GPL-2.0
/*
 * mcpeer: an IP multicast receiver and sender for the lab selftests
 * (154-lab-multicast), what a host's application does: a UDP socket that
 * joins a group on an interface (IP_ADD_MEMBERSHIP / IPV6_JOIN_GROUP, so
 * the host's kernel lists the group in /proc/net/igmp or igmp6), and one
 * that sends to it. A C program, not a python one: in the TCG test VM a
 * python process costs seconds to start and to end, eight of them more.
 *
 *   mcpeer recv GROUP PORT DEV FILE
 *	joins GROUP on DEV, binds PORT, creates FILE.ready once joined, and
 *	appends "SOURCE PAYLOAD" for every datagram to FILE until killed;
 *   mcpeer send GROUP PORT DEV TAG COUNT
 *	sends COUNT datagrams "TAG0".."TAG<COUNT-1>" to GROUP:PORT out of
 *	DEV, 100 ms apart, its own loopback off.
 *
 * Exit 0; 1 on a system call's failure (named), 2 on usage.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "mcpeer: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void usage(void)
{
	fputs("usage: mcpeer recv GROUP PORT DEV FILE\n"
	      "       mcpeer send GROUP PORT DEV TAG COUNT\n", stderr);
	exit(2);
}

/* GROUP:PORT on DEV as a socket address; the family. */
static int group_addr(const char *group, const char *port, unsigned int ifx,
		      struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *a4 = (struct sockaddr_in *)ss;
	char *end;
	long p = strtol(port, &end, 10);

	if (!*port || *end || p < 1 || p > 65535)
		usage();
	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET6, group, &a6->sin6_addr) == 1) {
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons((uint16_t)p);
		a6->sin6_scope_id = ifx;
		*len = sizeof(*a6);
		return AF_INET6;
	}
	if (inet_pton(AF_INET, group, &a4->sin_addr) == 1) {
		a4->sin_family = AF_INET;
		a4->sin_port = htons((uint16_t)p);
		*len = sizeof(*a4);
		return AF_INET;
	}
	usage();
	return -1;
}

static void __attribute__((noreturn))
do_recv(const char *group, const char *port, const char *file,
	unsigned int ifx)
{
	struct sockaddr_storage ss, from;
	socklen_t len, fl;
	int fam = group_addr(group, port, ifx, &ss, &len), one = 1, fd, out;
	char buf[2048], src[INET6_ADDRSTRLEN], ready[4096];
	ssize_t n;

	fd = socket(fam, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one,
				 sizeof(one)) < 0)
		die("socket");
	if (fam == AF_INET6) {
		struct sockaddr_in6 any = { .sin6_family = AF_INET6,
			.sin6_port = ((struct sockaddr_in6 *)&ss)->sin6_port };
		struct ipv6_mreq m = { .ipv6mr_interface = ifx };

		m.ipv6mr_multiaddr = ((struct sockaddr_in6 *)&ss)->sin6_addr;
		if (bind(fd, (struct sockaddr *)&any, sizeof(any)) < 0)
			die("bind");
		if (setsockopt(fd, IPPROTO_IPV6, IPV6_JOIN_GROUP, &m,
			       sizeof(m)) < 0)
			die("IPV6_JOIN_GROUP");
	} else {
		struct sockaddr_in any = { .sin_family = AF_INET,
			.sin_port = ((struct sockaddr_in *)&ss)->sin_port };
		struct ip_mreqn m = { .imr_ifindex = (int)ifx };

		m.imr_multiaddr = ((struct sockaddr_in *)&ss)->sin_addr;
		if (bind(fd, (struct sockaddr *)&any, sizeof(any)) < 0)
			die("bind");
		if (setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &m,
			       sizeof(m)) < 0)
			die("IP_ADD_MEMBERSHIP");
	}
	out = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (out < 0)
		die(file);
	/* joined: the kernel lists the group now */
	snprintf(ready, sizeof(ready), "%s.ready", file);
	n = open(ready, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (n < 0)
		die(ready);
	close((int)n);
	for (;;) {
		fl = sizeof(from);
		n = recvfrom(fd, buf, sizeof(buf) - 1, 0,
			     (struct sockaddr *)&from, &fl);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("recvfrom");
		}
		buf[n] = '\0';
		if (from.ss_family == AF_INET6)
			inet_ntop(AF_INET6,
				  &((struct sockaddr_in6 *)&from)->sin6_addr,
				  src, sizeof(src));
		else
			inet_ntop(AF_INET,
				  &((struct sockaddr_in *)&from)->sin_addr,
				  src, sizeof(src));
		/* one write per line: the file reads whole lines */
		if (dprintf(out, "%s %s\n", src, buf) < 0)
			die(file);
	}
}

static int do_send(const char *group, const char *port, const char *tag,
		   const char *count, unsigned int ifx)
{
	struct sockaddr_storage ss;
	struct timespec gap = { 0, 100 * 1000 * 1000 };
	socklen_t len;
	int fam = group_addr(group, port, ifx, &ss, &len), zero = 0, fd;
	char *end, buf[256];
	long i, n = strtol(count, &end, 10);

	if (!*count || *end || n < 1 || n > 1000)
		usage();
	fd = socket(fam, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		die("socket");
	if (fam == AF_INET6) {
		if (setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_IF, &ifx,
			       sizeof(ifx)) < 0 ||
		    setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_LOOP, &zero,
			       sizeof(zero)) < 0)
			die("IPV6_MULTICAST_IF");
	} else {
		struct ip_mreqn m = { .imr_ifindex = (int)ifx };
		unsigned char off = 0;

		if (setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &m,
			       sizeof(m)) < 0 ||
		    setsockopt(fd, IPPROTO_IP, IP_MULTICAST_LOOP, &off,
			       sizeof(off)) < 0)
			die("IP_MULTICAST_IF");
	}
	for (i = 0; i < n; i++) {
		int k = snprintf(buf, sizeof(buf), "%s%ld", tag, i);

		if (sendto(fd, buf, (size_t)k, 0, (struct sockaddr *)&ss,
			   len) != k)
			die("sendto");
		if (i + 1 < n)
			nanosleep(&gap, NULL);
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int ifx;

	if (argc < 6)
		usage();
	ifx = if_nametoindex(argv[4]);
	if (!ifx)
		die(argv[4]);
	if (!strcmp(argv[1], "recv") && argc == 6)
		do_recv(argv[2], argv[3], argv[5], ifx);
	if (!strcmp(argv[1], "send") && argc == 7)
		return do_send(argv[2], argv[3], argv[5], argv[6], ifx);
	usage();
	return 2;
}
