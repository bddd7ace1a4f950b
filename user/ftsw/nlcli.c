// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers of the low-level CLI: netlink session, numbers, lists, printing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nlcli.h"
#include "util/output.h"
#include "util/parse.h"

struct ftsw_nl *nlcli_open(void)
{
	struct ftsw_nl *nl = ftsw_nl_open();

	if (!nl)
		cli_err("cannot reach the ftsw kernel module: %s%s",
			strerror(errno),
			errno == ENOENT ? " (is ftsw.ko loaded?)" : "");
	return nl;
}

int nlcli_fail(struct ftsw_nl *nl, const char *what)
{
	cli_err("%s: %s", what, ftsw_nl_error(nl));
	ftsw_nl_close(nl);
	return 1;
}

bool nlcli_num(const char *obj, const char *key, const char *s, uint64_t min,
	       uint64_t max, uint64_t *v)
{
	struct ftsw_err err;

	if (!s) {
		cli_err("%s: %s: value expected (try ftsw %s help)", obj, key,
			obj);
		return false;
	}
	if (ftsw_parse_u64(key, s, min, max, v, &err)) {
		cli_err("%s: %s", obj, err.msg);
		return false;
	}
	return true;
}

bool nlcli_kv(int argc, char **argv, int *i, const char *key,
	      const char **val)
{
	if (strcmp(argv[*i], key))
		return false;
	if (*i + 1 >= argc) {
		*val = NULL;
		(*i)++;
		return true;
	}
	*val = argv[*i + 1];
	*i += 2;
	return true;
}

int nlcli_list(const char *obj, const char *key, const char *s, uint64_t max,
	       uint8_t *out, int n_max)
{
	char *copy, *tok, *save = NULL;
	int n = 0;

	if (!s) {
		cli_err("%s: %s: value expected (try ftsw %s help)", obj, key,
			obj);
		return -1;
	}
	copy = strdup(s);
	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (n >= n_max) {
			cli_err("%s: %s: more than %d values", obj, key, n_max);
			free(copy);
			return -1;
		}
		if (!nlcli_num(obj, key, tok, 0, max, &v)) {
			free(copy);
			return -1;
		}
		out[n++] = (uint8_t)v;
	}
	free(copy);
	if (!n)
		cli_err("%s: %s: '%s' holds no value", obj, key, s);
	return n ? n : -1;
}

int nlcli_usage_err(const char *obj, const char *arg)
{
	if (arg)
		cli_err("%s: bad or incomplete argument '%s' (try ftsw %s help)",
			obj, arg, obj);
	else
		cli_err("%s: missing arguments (try ftsw %s help)", obj, obj);
	return 2;
}

void nlcli_print_drops(const char *key, const uint64_t *drops,
		       const char *text_fmt, bool nonzero_only)
{
	int i;

	ftsw_out_open_object(key);
	for (i = 1; i <= FTSW_DROP_MAX; i++) {
		ftsw_out_uint(ftsw_drop_name(i), NULL, drops[i]);
		if (!nonzero_only || drops[i])
			ftsw_out_text(text_fmt, ftsw_drop_name(i), drops[i]);
	}
	ftsw_out_close_object();
}

int nlcli_switch_arg(const char *obj, int argc, char **argv, int *i,
		     uint32_t *sw)
{
	const char *v, *key = argv[*i];
	uint64_t x;

	if (!nlcli_kv(argc, argv, i, "switch", &v) &&
	    !nlcli_kv(argc, argv, i, "id", &v))
		return 0;
	if (!nlcli_num(obj, key, v, 0, UINT32_MAX, &x))
		return -1;
	*sw = (uint32_t)x;
	return 1;
}

int nlcli_switch_show(struct ftsw_nl *nl, bool have_id, uint32_t id,
		      ftsw_switch_cb print)
{
	struct ftsw_switch_info si;
	int err;

	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_open_array("switches");
	if (have_id) {
		err = ftsw_nl_switch_get(nl, id, &si);
		if (!err)
			print(&si, NULL);
	} else {
		err = ftsw_nl_switch_dump(nl, print, NULL);
	}
	ftsw_out_close_array();
	ftsw_out_close_object();
	ftsw_out_end();
	return err;
}
