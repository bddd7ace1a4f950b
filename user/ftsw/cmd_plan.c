// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw plan: the fabric's address plan, from which edge ports answer their
 * hosts' ARP requests and neighbour solicitations (staged; ftsw commit
 * publishes it with the LFTs).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "cli.h"
#include "nlcli.h"

static void plan_usage(FILE *f)
{
	fprintf(f,
		"Usage: ftsw plan set hosts N lid LID [lmc L] [ipv4 ADDR] [ipv6 ADDR]\n"
		"       ftsw plan clear\n"
		"       ftsw [-j] plan show [staged]\n"
		"Host n (0 <= n < N) owns base LID LID + (n << L), ADDR + n (IPv4) and\n"
		"ADDR + n (IPv6, low 32 bits); ADDR is host 0's. Staged: ftsw commit\n"
		"publishes it. clear stages \"no plan\".\n");
}

static int num(const char *opt, const char *s, unsigned long max,
	       unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	if (errno || !*s || *end || *v > max) {
		cli_err("plan: %s '%s': a number 0..%lu", opt, s, max);
		return -1;
	}
	return 0;
}

static int plan_set(int argc, char **argv)
{
	struct ftsw_plan_info p = { 0 };
	bool have_hosts = false, have_lid = false;
	struct ftsw_nl *nl;
	unsigned long v;
	int i;

	for (i = 2; i < argc; i++) {
		const char *o = argv[i];

		if (i + 1 >= argc) {
			cli_err("plan: '%s' needs a value", o);
			return 2;
		}
		if (!strcmp(o, "hosts")) {
			if (num(o, argv[++i], FTSW_MAX_LID, &v))
				return 2;
			p.hosts = (uint32_t)v;
			have_hosts = true;
		} else if (!strcmp(o, "lid")) {
			if (num(o, argv[++i], FTSW_MAX_LID, &v))
				return 2;
			p.lid = (uint16_t)v;
			have_lid = true;
		} else if (!strcmp(o, "lmc")) {
			if (num(o, argv[++i], FTSW_MAX_LMC, &v))
				return 2;
			p.lmc = (uint8_t)v;
		} else if (!strcmp(o, "ipv4")) {
			if (inet_pton(AF_INET, argv[++i], &p.ip4) != 1) {
				cli_err("plan: ipv4 '%s': not an IPv4 address",
					argv[i]);
				return 2;
			}
		} else if (!strcmp(o, "ipv6")) {
			if (inet_pton(AF_INET6, argv[++i], p.ip6) != 1) {
				cli_err("plan: ipv6 '%s': not an IPv6 address",
					argv[i]);
				return 2;
			}
		} else {
			return nlcli_usage_err("plan", o);
		}
	}
	if (!have_hosts || !have_lid || !p.hosts) {
		cli_err("plan set: hosts (at least 1) and lid are required");
		return 2;
	}
	nl = nlcli_open();
	if (!nl)
		return 1;
	if (ftsw_nl_plan_set(nl, &p))
		return nlcli_fail(nl, "plan set");
	ftsw_nl_close(nl);
	return 0;
}

static int plan_show(bool staged)
{
	static const uint8_t zero6[16];
	struct ftsw_plan_info p;
	char a4[INET_ADDRSTRLEN] = "", a6[INET6_ADDRSTRLEN] = "";
	struct ftsw_nl *nl;

	nl = nlcli_open();
	if (!nl)
		return 1;
	if (ftsw_nl_plan_get(nl, staged, &p))
		return nlcli_fail(nl, "plan show");
	ftsw_nl_close(nl);
	if (p.ip4)
		inet_ntop(AF_INET, &p.ip4, a4, sizeof(a4));
	if (memcmp(p.ip6, zero6, 16))
		inet_ntop(AF_INET6, p.ip6, a6, sizeof(a6));
	if (cli.json) {
		printf("{\"hosts\":%" PRIu32 ",\"lid\":%u,\"lmc\":%u,"
		       "\"ipv4\":\"%s\",\"ipv6\":\"%s\",\"staged\":%s}\n",
		       p.hosts, p.lid, p.lmc, a4, a6,
		       p.staged ? "true" : "false");
		return 0;
	}
	if (!p.hosts) {
		printf("no address plan%s\n", p.staged ? " (staged)" : "");
		return 0;
	}
	printf("%" PRIu32 " hosts from lid %u lmc %u%s%s%s%s%s\n", p.hosts,
	       p.lid, p.lmc, a4[0] ? " ipv4 " : "", a4, a6[0] ? " ipv6 " : "",
	       a6, p.staged ? " (staged)" : "");
	return 0;
}

int cmd_plan(int argc, char **argv)
{
	struct ftsw_nl *nl;
	struct ftsw_plan_info none = { 0 };

	if (argc < 2 || !strcmp(argv[1], "help")) {
		plan_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "set"))
		return plan_set(argc, argv);
	if (!strcmp(argv[1], "clear")) {
		if (argc > 2)
			return nlcli_usage_err("plan", argv[2]);
		nl = nlcli_open();
		if (!nl)
			return 1;
		if (ftsw_nl_plan_set(nl, &none))
			return nlcli_fail(nl, "plan clear");
		ftsw_nl_close(nl);
		return 0;
	}
	if (!strcmp(argv[1], "show")) {
		if (argc > 3 || (argc == 3 && strcmp(argv[2], "staged")))
			return nlcli_usage_err("plan", argv[2]);
		return plan_show(argc == 3);
	}
	return nlcli_usage_err("plan", argv[1]);
}
