// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: an emulated InfiniBand-style fat-tree switch fabric.
 */
#include <linux/module.h>
#include <net/genetlink.h>
#include <linux/ftsw.h>

static const struct nla_policy ftsw_policy[FTSW_ATTR_MAX + 1] = {
	[FTSW_ATTR_GENERATION] = { .type = NLA_U64 },
};

static int ftsw_fabric_get(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, info->family, 0, FTSW_CMD_FABRIC_GET);
	if (!hdr || nla_put_u64_64bit(msg, FTSW_ATTR_GENERATION, 0,
				      FTSW_ATTR_UNSPEC)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static const struct genl_small_ops ftsw_ops[] = {
	{
		.cmd = FTSW_CMD_FABRIC_GET,
		.validate = GENL_DONT_VALIDATE_STRICT | GENL_DONT_VALIDATE_DUMP,
		.doit = ftsw_fabric_get,
	},
};

static struct genl_family ftsw_family __ro_after_init = {
	.name = FTSW_GENL_NAME,
	.version = FTSW_GENL_VERSION,
	.maxattr = FTSW_ATTR_MAX,
	.policy = ftsw_policy,
	.netnsok = true,
	.module = THIS_MODULE,
	.small_ops = ftsw_ops,
	.n_small_ops = ARRAY_SIZE(ftsw_ops),
};

static int __init ftsw_init(void)
{
	return genl_register_family(&ftsw_family);
}

static void __exit ftsw_exit(void)
{
	genl_unregister_family(&ftsw_family);
}

module_init(ftsw_init);
module_exit(ftsw_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ftsw: emulated fat-tree switch fabric");
MODULE_ALIAS_GENL_FAMILY(FTSW_GENL_NAME);
