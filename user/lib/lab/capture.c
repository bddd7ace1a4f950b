// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw lab: tcpdump on a cable, named by one of its ends (lab_tools.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int ftsw_lab_capture(struct ftsw_lab *lab, const char *link, const char *file,
		     unsigned count, char **extra, struct ftsw_err *err)
{
	char dev[64], cnt[16];
	char *argv[64];
	size_t n = 0, i;

	if (ftsw_lab_capture_dev(lab, link, dev, sizeof(dev), err))
		return -1;
	argv[n++] = "tcpdump";
	argv[n++] = "-i";
	argv[n++] = dev;
	argv[n++] = "-nn";
	argv[n++] = "-e";
	if (file) {
		argv[n++] = "-U";
		argv[n++] = "-w";
		argv[n++] = (char *)file;
	}
	if (count) {
		snprintf(cnt, sizeof(cnt), "%u", count);
		argv[n++] = "-c";
		argv[n++] = cnt;
	}
	for (i = 0; extra && extra[i]; i++) {
		if (n + 2 > sizeof(argv) / sizeof(argv[0])) {
			ftsw_err_set(err, "capture: too many tcpdump arguments");
			return -1;
		}
		argv[n++] = extra[i];
	}
	argv[n] = NULL;
	if (ftsw_netns_enter_fd(lab->fabric_fd, lab->name, err))
		return -1;
	fflush(NULL);
	execvp(argv[0], argv);
	ftsw_err_errno(err, errno, "capture: tcpdump: %s%s", strerror(errno),
		       errno == ENOENT ? " (Debian: apt-get install tcpdump)" : "");
	return -1;
}
