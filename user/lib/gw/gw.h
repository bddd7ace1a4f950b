/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw gateway: the server side of ibsim's simulator protocol
 * (simproto.h) in front of one lab host's channel adapter, so that
 * unmodified OpenSM and infiniband-diags, with ibsim-utils'
 * libumad2sim.so preloaded, manage and query the emulated fabric in band
 * (Documentation/sm.md, "The gateway").
 *
 * The gateway runs in the host's network namespace: its sockets are in
 * that namespace's abstract AF_UNIX namespace, so every host of a lab can
 * have one under the same name and a tool reaches the gateway of the
 * namespace it runs in. A client's MAD leaves as a frame on the host's
 * device (AF_PACKET, ethertype FTSW_ETH_P_MAD) and enters the fabric at the
 * host's edge port; a frame coming back is a response (found by the TID
 * the gateway gave the request) or a request for the subnet manager
 * client. The gateway keeps no fabric state: each control question
 * (NodeInfo, PortInfo, LID, GUIDs) is answered by a directed-route SMP with
 * hop count 0, which the kernel's CA agent of the host's port answers.
 */
#ifndef LIBFTSW_GW_GW_H
#define LIBFTSW_GW_GW_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "util/util.h"

#define FTSW_GW_SOCKNAME	"sim"	/* umad2sim's default base name */
#define FTSW_GW_MAX_CLIENTS	32
#define FTSW_GW_NAME_MAX	80
#define FTSW_GW_MAD_TIMEOUT_MS	1000	/* a software fabric, maybe in a VM */
#define FTSW_GW_MAD_TRIES	4

struct ftsw_gw_opts {
	const char *dev;	/* the host's device: "eth0" */
	const char *sockname;	/* base name (IBSIM_SOCKNAME); NULL: "sim" */
	const char *node;	/* node name CONNECT answers (the host's) */
	unsigned timeout_ms;	/* own SMPs: wait per try (0: 500) */
	unsigned tries;		/* own SMPs: tries (0: 4) */
	/* A client's request without a response is sent again after
	 * mad_timeout_ms, mad_tries times in all, then given back to the
	 * client with status ETIMEDOUT, as the kernel's MAD layer does. */
	unsigned mad_timeout_ms;	/* 0: FTSW_GW_MAD_TIMEOUT_MS */
	unsigned mad_tries;		/* 0: FTSW_GW_MAD_TRIES */
	FILE *log;		/* connections, refusals; NULL: stderr */
	bool verbose;		/* log every MAD */
	int ready_fd;		/* >= 0: one byte written once serving */
};

/*
 * Serve until *stop becomes non-zero (checked twice a second) or a fatal
 * error (socket, device): 0, or -errno with err set. A malformed client
 * message or frame is refused, logged with its reason, and never stops
 * the gateway.
 */
int ftsw_gw_serve(const struct ftsw_gw_opts *o, volatile sig_atomic_t *stop,
		  struct ftsw_err *err);

/* Whether s is a usable base name (1..FTSW_GW_NAME_MAX printable bytes,
 * no ':'). */
bool ftsw_gw_name_ok(const char *s);

#endif
