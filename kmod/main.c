// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: an emulated InfiniBand-style fat-tree switch fabric, one per
 * network namespace. Module init and exit: the GSO handler of fabric
 * frames (tx.c), the per-namespace fabric and the netdevice notifier
 * (fabric.c), the generic netlink family (netlink.c). Documentation/design.md
 * maps the files.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/net_namespace.h>
#include <linux/ftsw.h>
#include "fabric.h"
#include "netlink.h"
#include "tx.h"

static struct notifier_block ftsw_netdev_notifier = {
	.notifier_call = ftsw_netdev_event,
};

static struct pernet_operations ftsw_net_ops = {
	.init = ftsw_net_init,
	.exit = ftsw_net_exit,
	.id = &ftsw_net_id,
	.size = sizeof(struct ftsw_net),
};

static int __init ftsw_init(void)
{
	int err;

	ftsw_offload_register();
	err = register_pernet_subsys(&ftsw_net_ops);
	if (err)
		goto err_offload;
	err = register_netdevice_notifier(&ftsw_netdev_notifier);
	if (err)
		goto err_pernet;
	err = ftsw_nl_init();
	if (err)
		goto err_notifier;
	return 0;

err_notifier:
	unregister_netdevice_notifier(&ftsw_netdev_notifier);
err_pernet:
	unregister_pernet_subsys(&ftsw_net_ops);
err_offload:
	ftsw_offload_unregister();
	return err;
}

static void __exit ftsw_exit(void)
{
	ftsw_nl_exit();
	/* Unbinds every port of every fabric: no rx handler is left. */
	unregister_pernet_subsys(&ftsw_net_ops);
	unregister_netdevice_notifier(&ftsw_netdev_notifier);
	ftsw_offload_unregister();
	/* Wait for the call_rcu() callbacks freeing tables (module code). */
	rcu_barrier();
}

module_init(ftsw_init);
module_exit(ftsw_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ftsw: emulated fat-tree switch fabric");
MODULE_ALIAS_GENL_FAMILY(FTSW_GENL_NAME);
