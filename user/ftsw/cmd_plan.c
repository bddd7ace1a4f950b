// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw plan: the fabric's address plan, from which edge ports answer their
 * hosts' ARP requests and neighbour solicitations (staged; ftsw commit
 * publishes it with the LFTs).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include "cli.h"
#include "util/output.h"
#include "nlcli.h"

enum { P_HOSTS, P_LID, P_LMC, P_IPV4, P_IPV6, P_N };

static const struct cli_opt set_opts[P_N + 1] = {
	[P_HOSTS] = { "hosts", NULL, CLI_NUM, "N", 0, FTSW_MAX_LID,
		      .required = true, .help = "hosts in the plan (at least 1)" },
	[P_LID] = { "lid", NULL, CLI_NUM, "LID", 1, FTSW_MAX_LID,
		    .required = true, .help = "host 0's base LID" },
	[P_LMC] = { "lmc", NULL, CLI_NUM, "L", 0, FTSW_MAX_LMC,
		    .help = "2^L LIDs per host (default 0)" },
	[P_IPV4] = { "ipv4", NULL, CLI_STR, "ADDR",
		     .help = "host 0's IPv4 address" },
	[P_IPV6] = { "ipv6", NULL, CLI_STR, "ADDR",
		     .help = "host 0's IPv6 address" },
};

enum { W_STAGED, W_N };

static const struct cli_opt show_opts[W_N + 1] = {
	[W_STAGED] = { "staged", NULL, CLI_FLAG,
		       .help = "the staged plan (default: the published one)" },
};

static const char set_notes[] =
"Host n (0 <= n < N) owns base LID LID + (n << L), ADDR + n (IPv4) and\n"
"ADDR + n (IPv6, low 32 bits); ADDR is host 0's. Staged: ftsw commit\n"
"publishes it.\n";

static const char clear_notes[] = "Staged: ftsw commit publishes it.\n";

/* Send p to the module (PLAN_SET); the exit status. */
static int plan_upload(const struct ftsw_plan_info *p, const char *what)
{
	struct ftsw_nl *nl = nlcli_open();

	if (!nl)
		return 1;
	if (ftsw_nl_plan_set(nl, p))
		return nlcli_fail(nl, what);
	ftsw_nl_close(nl);
	return 0;
}

static int plan_set(const struct cli_args *a)
{
	struct ftsw_plan_info p = { 0 };

	p.hosts = (uint32_t)a->v[P_HOSTS].u;
	p.lid = (uint16_t)a->v[P_LID].u;
	p.lmc = (uint8_t)a->v[P_LMC].u;
	if (a->v[P_IPV4].n && inet_pton(AF_INET, a->v[P_IPV4].s, &p.ip4) != 1) {
		cli_err("plan: ipv4 '%s': not an IPv4 address",
			a->v[P_IPV4].s);
		return 2;
	}
	if (a->v[P_IPV6].n && inet_pton(AF_INET6, a->v[P_IPV6].s, p.ip6) != 1) {
		cli_err("plan: ipv6 '%s': not an IPv6 address",
			a->v[P_IPV6].s);
		return 2;
	}
	if (!p.hosts) {
		cli_err("plan set: hosts (at least 1) and lid are required");
		return 2;
	}
	return plan_upload(&p, "plan set");
}

static int plan_clear(const struct cli_args *a)
{
	struct ftsw_plan_info none = { 0 };

	(void)a;
	return plan_upload(&none, "plan clear");
}

static int plan_show(const struct cli_args *a)
{
	static const uint8_t zero6[16];
	struct ftsw_plan_info p;
	char a4[INET_ADDRSTRLEN] = "", a6[INET6_ADDRSTRLEN] = "";
	struct ftsw_nl *nl;

	nl = nlcli_open();
	if (!nl)
		return 1;
	if (ftsw_nl_plan_get(nl, a->v[W_STAGED].n, &p))
		return nlcli_fail(nl, "plan show");
	ftsw_nl_close(nl);
	if (p.ip4)
		inet_ntop(AF_INET, &p.ip4, a4, sizeof(a4));
	if (memcmp(p.ip6, zero6, 16))
		inet_ntop(AF_INET6, p.ip6, a6, sizeof(a6));
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	if (!p.hosts && !cli.json) {
		ftsw_out_text("no address plan%s\n", p.staged ? " (staged)" : "");
		ftsw_out_close_object();
		return ftsw_out_end() ? 1 : 0;
	}
	ftsw_out_uint("hosts", "%" PRIu64 " hosts", p.hosts);
	ftsw_out_uint("lid", " from lid %" PRIu64, p.lid);
	ftsw_out_uint("lmc", " lmc %" PRIu64, p.lmc);
	ftsw_out_str("ipv4", a4[0] ? " ipv4 %s" : "%s", a4);
	ftsw_out_str("ipv6", a6[0] ? " ipv6 %s" : "%s", a6);
	ftsw_out_bool("staged", NULL, p.staged);
	ftsw_out_text("%s\n", p.staged ? " (staged)" : "");
	ftsw_out_close_object();
	return ftsw_out_end() ? 1 : 0;
}

const struct cli_cmd cli_cmds_plan[] = {
	{ "set", "hosts N lid LID [lmc L] [ipv4 ADDR] [ipv6 ADDR]",
	  "stage an address plan", .opts = set_opts, .notes = set_notes,
	  .run = plan_set },
	{ "clear", NULL, "stage \"no plan\"", .notes = clear_notes,
	  .run = plan_clear },
	{ "show", "[staged]", "the plan (-j: JSON)", .opts = show_opts,
	  .run = plan_show },
	{ NULL }
};
