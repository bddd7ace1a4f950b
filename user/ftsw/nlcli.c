// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers of the low-level CLI: netlink session, numbers, lists, JSON.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nlcli.h"

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

bool nlcli_num(const char *s, uint64_t max, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || *end || x > max)
		return false;
	*v = x;
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

int nlcli_list(const char *s, uint64_t max, uint8_t *out, int n_max)
{
	char *copy, *tok, *save = NULL;
	int n = 0;

	if (!s)
		return -1;
	copy = strdup(s);
	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (n >= n_max || !nlcli_num(tok, max, &v)) {
			free(copy);
			return -1;
		}
		out[n++] = (uint8_t)v;
	}
	free(copy);
	return n;
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

void nlcli_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

int nlcli_switch_arg(int argc, char **argv, int *i, uint32_t *sw)
{
	const char *v;
	uint64_t x;

	if (!nlcli_kv(argc, argv, i, "switch", &v) &&
	    !nlcli_kv(argc, argv, i, "id", &v))
		return 0;
	if (!v || !nlcli_num(v, UINT32_MAX, &x))
		return -1;
	*sw = (uint32_t)x;
	return 1;
}
