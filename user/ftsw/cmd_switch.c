// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw switch add id ID ports N [guid G] [name NAME] [lid LID] [inband-sm on|off]
 * ftsw switch set id ID [life V] [inband-sm on|off]
 * ftsw switch del id ID
 * ftsw switch show [id ID]
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "nlcli.h"
#include "util/output.h"
#include "util/parse.h"

enum { W_ID, W_PORTS, W_GUID, W_NAME, W_LID, W_INBAND, W_N };
static const char *const onoff[] = { "off", "on", NULL };
#define OPT_INBAND \
	{ "inband-sm", NULL, CLI_WORD, "on|off", .words = onoff, \
	  .help = "port states driven by an in-band SM (links come up in " \
		  "Init), or by ftsw (off: Active)" }
static const struct cli_opt add_opts[W_N + 1] = {
	[W_ID] = NLCLI_OPT_SWITCH(false),
	[W_PORTS] = { "ports", NULL, CLI_NUM, "N", 0, 255,
		      .help = "ports 1..N" },
	[W_GUID] = { "guid", NULL, CLI_NUM, "GUID", 0, UINT64_MAX,
		     .help = "node GUID (default id + 1)" },
	[W_NAME] = { "name", NULL, CLI_STR, "NAME",
		     .help = "node description" },
	[W_LID] = { "lid", NULL, CLI_NUM, "LID", 1, FTSW_MAX_LID,
		    .help = "the switch's own LID" },
	[W_INBAND] = OPT_INBAND,
};
static const struct cli_opt id_opts[2] = {
	[W_ID] = NLCLI_OPT_SWITCH(false),
};
static const struct cli_opt set_opts[4] = {
	[W_ID] = NLCLI_OPT_SWITCH(false),
	{ "life", NULL, CLI_NUM, "V", 0, FTSW_LIFE_MAX,
	  .help = "lossless: switch lifetime, 4.096 us * 2^V, 20..31 none" },
	OPT_INBAND,
};

static int switch_print(const struct ftsw_switch_info *si, void *arg)
{
	char guid[24];
	int i;

	(void)arg;
	snprintf(guid, sizeof(guid), "0x%016" PRIx64, si->guid);
	ftsw_out_open_object(NULL);
	ftsw_out_uint("id", "switch %" PRIu64, si->id);
	ftsw_out_str("guid", " guid %s", guid);
	ftsw_out_str("name", NULL, si->name);
	ftsw_out_str(NULL, " name %s", si->name[0] ? si->name : "-");
	ftsw_out_uint("ports", " ports %" PRIu64, si->nports);
	ftsw_out_uint("bound", " bound %" PRIu64, si->nbound);
	ftsw_out_uint("lid", si->lid ? " lid %" PRIu64 : NULL, si->lid);
	ftsw_out_uint("lft_size", " lft %" PRIu64, si->lft_size);
	ftsw_out_uint("life", " life %" PRIu64, si->life);
	ftsw_out_bool("inband_sm", NULL, si->inband_sm);
	ftsw_out_text("%s", si->inband_sm ? " inband-sm" : "");
	ftsw_out_bool("staged", NULL, si->staged);
	ftsw_out_text("%s\n", si->staged ? " staged" : "");
	ftsw_out_open_array("sl2vl");
	for (i = 0; i < FTSW_NUM_SL; i++)
		ftsw_out_uint(NULL, NULL, si->sl2vl[i]);
	ftsw_out_close_array();
	ftsw_out_close_object();
	return 0;
}

/* The switch a command names: "id ID" or the bare ID. 0, or exit status. */
static int switch_id(const char *cmd, const struct cli_args *a,
		     struct ftsw_switch_info *si, bool *have_id)
{
	struct ftsw_err err;
	uint64_t x;

	*have_id = a->v[W_ID].n || a->npos;
	if (a->v[W_ID].n && a->npos) {
		cli_err("switch %s: '%s': the id is given already", cmd,
			a->pos[0]);
		return 2;
	}
	if (a->npos) {
		if (ftsw_parse_u64("id", a->pos[0], 0, UINT32_MAX, &x, &err)) {
			cli_err("switch %s: %s", cmd, err.msg);
			return 2;
		}
		si->id = (uint32_t)x;
	} else {
		si->id = (uint32_t)a->v[W_ID].u;
	}
	return 0;
}

/* The fields of switch add. */
static int switch_fields(const struct cli_args *a,
			 struct ftsw_switch_info *si)
{
	si->nports = (uint8_t)a->v[W_PORTS].u;
	si->guid = a->v[W_GUID].u;
	si->lid = (uint16_t)a->v[W_LID].u;
	si->inband_sm = a->v[W_INBAND].n && a->v[W_INBAND].u;
	if (a->v[W_NAME].n) {
		if (strlen(a->v[W_NAME].s) >= sizeof(si->name)) {
			cli_err("switch: name must be 1..%d characters",
				FTSW_NAME_MAX - 1);
			return 2;
		}
		strcpy(si->name, a->v[W_NAME].s);
	}
	return 0;
}

/* The switch id add and del need: 0, or the exit status of a refusal. */
static int switch_needed(const char *cmd, const struct cli_args *a,
			 struct ftsw_switch_info *si)
{
	bool have_id;
	int rc = switch_id(cmd, a, si, &have_id);

	if (!rc && !have_id)
		rc = nlcli_usage_err("switch", NULL);
	return rc;
}

static int switch_add(const struct cli_args *a)
{
	struct ftsw_switch_info si = { 0 };
	struct ftsw_nl *nl;
	int rc;

	rc = switch_needed("add", a, &si);
	if (!rc)
		rc = switch_fields(a, &si);
	if (rc)
		return rc;
	nl = nlcli_open();
	if (!nl)
		return 1;
	if (ftsw_nl_switch_new(nl, &si))
		return nlcli_fail(nl, "switch add");
	ftsw_nl_close(nl);
	return 0;
}

static int switch_del(const struct cli_args *a)
{
	struct ftsw_switch_info si = { 0 };
	struct ftsw_nl *nl;
	int rc;

	rc = switch_needed("del", a, &si);
	if (rc)
		return rc;
	nl = nlcli_open();
	if (!nl)
		return 1;
	if (ftsw_nl_switch_del(nl, si.id))
		return nlcli_fail(nl, "switch del");
	ftsw_nl_close(nl);
	return 0;
}

static int switch_set(const struct cli_args *a)
{
	struct ftsw_switch_info si = { 0 };
	struct ftsw_nl *nl;
	int rc;

	rc = switch_needed("set", a, &si);
	if (!rc && !a->v[1].n && !a->v[2].n) {
		cli_err("switch set: nothing to set (life V, inband-sm on|off)");
		rc = 2;
	}
	if (rc)
		return rc;
	nl = nlcli_open();
	if (!nl)
		return 1;
	if (a->v[1].n && ftsw_nl_switch_set_life(nl, si.id, (uint8_t)a->v[1].u))
		return nlcli_fail(nl, "switch set");
	if (a->v[2].n && ftsw_nl_switch_set_inband_sm(nl, si.id, a->v[2].u))
		return nlcli_fail(nl, "switch set");
	ftsw_nl_close(nl);
	return 0;
}

static int switch_show(const struct cli_args *a)
{
	struct ftsw_switch_info si = { 0 };
	struct ftsw_nl *nl;
	bool have_id;
	int rc;

	rc = switch_id("show", a, &si, &have_id);
	if (rc)
		return rc;
	nl = nlcli_open();
	if (!nl)
		return 1;
	if (nlcli_switch_show(nl, have_id, si.id, switch_print))
		return nlcli_fail(nl, "switch show");
	ftsw_nl_close(nl);
	return 0;
}

const struct cli_cmd cli_cmds_switch[] = {
	{ "add", "id ID ports N [guid GUID] [name NAME] [lid LID] "
	  "[inband-sm on|off]",
	  "create a switch", CLI_STR, 0, 1, .opts = add_opts,
	  .run = switch_add },
	{ "del", "id ID", "delete a switch (and unbind its ports)", CLI_STR,
	  0, 1, .opts = id_opts, .run = switch_del },
	{ "set", "id ID [life V] [inband-sm on|off]",
	  "a switch's lifetime (lossless mode), who drives its port states",
	  CLI_STR, 0, 1, .opts = set_opts, .run = switch_set },
	{ "show", "[id ID]", "every switch, or one", CLI_STR, 0, 1,
	  .opts = id_opts, .run = switch_show, .def = true },
	{ NULL }
};
