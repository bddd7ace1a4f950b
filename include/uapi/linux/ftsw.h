/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * ftsw: an emulated InfiniBand-style fat-tree switch fabric.
 *
 * The one UAPI shared by kmod/ftsw.ko and userspace (libftsw). See
 * Documentation/netlink.rst for the commands and attributes.
 */
#ifndef _UAPI_LINUX_FTSW_H
#define _UAPI_LINUX_FTSW_H

#include <linux/types.h>

#define FTSW_GENL_NAME		"ftsw"
#define FTSW_GENL_VERSION	1
#define FTSW_MCGRP_EVENTS	"events"

/* Fabric header ethertype (IEEE 802 local experimental 1). */
#define FTSW_ETH_P		0x88B5

#define FTSW_MAX_LID		0xBFFF
#define FTSW_MAX_PORTS		254
#define FTSW_NO_ROUTE		255

enum ftsw_cmd {
	FTSW_CMD_UNSPEC,
	FTSW_CMD_FABRIC_GET,
	__FTSW_CMD_MAX,
};
#define FTSW_CMD_MAX (__FTSW_CMD_MAX - 1)

enum ftsw_attr {
	FTSW_ATTR_UNSPEC,
	FTSW_ATTR_GENERATION,		/* u64 */
	__FTSW_ATTR_MAX,
};
#define FTSW_ATTR_MAX (__FTSW_ATTR_MAX - 1)

#endif /* _UAPI_LINUX_FTSW_H */
