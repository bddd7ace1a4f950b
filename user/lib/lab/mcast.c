// SPDX-License-Identifier: GPL-2.0
/*
 * A lab host's IP multicast groups, parsed from its kernel's
 * /proc/net/igmp and /proc/net/igmp6, and their IPoIB MGIDs (mcast.h).
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "lab/mcast.h"
#include "util/parse.h"

bool lab_mgroup_eq(const struct lab_mgroup *a, const struct lab_mgroup *b)
{
	return a->family == b->family &&
	       !memcmp(a->addr, b->addr, a->family == 4 ? 4 : 16);
}

/* n hex digits at s into bytes (n / 2 of them): whether all were hex. */
static bool hexbytes(const char *s, size_t n, uint8_t *out)
{
	size_t i;

	for (i = 0; i < n; i += 2) {
		int h = ftsw_hex_digit(s[i]), l = ftsw_hex_digit(s[i + 1]);

		if (h < 0 || l < 0)
			return false;
		out[i / 2] = (uint8_t)(h << 4 | l);
	}
	return true;
}

/* The next whitespace-separated word of line [*p, end): its length. */
static size_t word(const char **p, const char *end)
{
	const char *s = *p;

	while (s < end && isspace((unsigned char)*s))
		s++;
	*p = s;
	while (s < end && !isspace((unsigned char)*s))
		s++;
	return (size_t)(s - *p);
}

static int add(const struct lab_mgroup *g, struct lab_mgroup *out,
	       size_t max, size_t *n, struct ftsw_err *err)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (lab_mgroup_eq(&out[i], g))
			return 0;
	if (*n >= max) {
		ftsw_err_set(err, "more than %zu multicast groups", max);
		return -EINVAL;
	}
	out[(*n)++] = *g;
	return 0;
}

/*
 * One line of /proc/net/igmp: a device line sets *mine (is it dev's?), a
 * group line of dev's adds its group.
 */
static int igmp_line(const char *s, const char *end, const char *dev,
		     bool *mine, struct lab_mgroup *out, size_t max, size_t *n,
		     struct ftsw_err *err)
{
	struct lab_mgroup g = { .family = 4 };
	const char *p = s;
	size_t w, dl = strlen(dev);
	uint32_t v = 0;
	int i;

	if (s == end || (end - s >= 3 && !memcmp(s, "Idx", 3)))
		return 0;
	if (isdigit((unsigned char)*s)) {
		/* "IDX\tNAME      :  COUNT VERSION" */
		w = word(&p, end);
		if (!w)
			return -EINVAL;
		p += w;
		w = word(&p, end);
		if (w && p[w - 1] == ':')
			w--;
		*mine = w == dl && !memcmp(p, dev, dl);
		return 0;
	}
	/* "\t\t\t\tGROUP USERS TIMER REPORTER" */
	w = word(&p, end);
	if (w != 8)
		return -EINVAL;
	for (i = 0; i < 8; i++) {
		int h = ftsw_hex_digit(p[i]);

		if (h < 0)
			return -EINVAL;
		v = v << 4 | (uint32_t)h;
	}
	if (!*mine)
		return 0;
	/* the network-order address, printed as a host-order number */
	memcpy(g.addr, &v, 4);
	if ((g.addr[0] & 0xf0) != 0xe0)
		return 0;
	return add(&g, out, max, n, err) ? -ENOSPC : 0;
}

/* One line of /proc/net/igmp6: "IFINDEX NAME ADDR USERS FLAGS TIMER". */
static int igmp6_line(const char *s, const char *end, const char *dev,
		      struct lab_mgroup *out, size_t max, size_t *n,
		      struct ftsw_err *err)
{
	struct lab_mgroup g = { .family = 6 };
	const char *p = s;
	size_t w, dl = strlen(dev);
	bool mine;

	w = word(&p, end);
	if (!w)
		return p == end ? 0 : -EINVAL;
	p += w;
	w = word(&p, end);
	if (!w)
		return -EINVAL;
	mine = w == dl && !memcmp(p, dev, dl);
	p += w;
	w = word(&p, end);
	if (w != 32 || !hexbytes(p, 32, g.addr))
		return -EINVAL;
	if (!mine || g.addr[0] != 0xff || (g.addr[1] & 0x0f) == 1)
		return 0;
	return add(&g, out, max, n, err) ? -ENOSPC : 0;
}

int lab_mcast_parse(const char *text, size_t len, bool v6, const char *dev,
		    struct lab_mgroup *out, size_t max, size_t *n,
		    struct ftsw_err *err)
{
	const char *s = text, *end = text + len, *nl;
	const char *file = v6 ? "/proc/net/igmp6" : "/proc/net/igmp";
	bool mine = false;
	unsigned line = 0;
	int rc;

	*n = 0;
	while (s < end) {
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			nl = end;
		line++;
		rc = v6 ? igmp6_line(s, nl, dev, out, max, n, err) :
			  igmp_line(s, nl, dev, &mine, out, max, n, err);
		if (rc == -ENOSPC) {
			ftsw_err_set(err, "%s:%u: %s has more than %zu multicast groups",
				     file, line, dev, max);
			return -EINVAL;
		}
		if (rc) {
			ftsw_err_set(err, "%s:%u: not a line of its format: \"%.*s\"",
				     file, line,
				     (int)(nl - s > 80 ? 80 : nl - s), s);
			return -EINVAL;
		}
		s = nl + 1;
	}
	return 0;
}

void lab_mcast_mgid(const struct lab_mgroup *g, uint16_t pkey,
		    uint8_t mgid[16])
{
	memset(mgid, 0, 16);
	mgid[0] = 0xff;
	mgid[1] = 0x10 | LAB_MCAST_SCOPE;
	mgid[2] = g->family == 4 ? 0x40 : 0x60;
	mgid[3] = 0x1b;
	mgid[4] = (uint8_t)((pkey | 0x8000) >> 8);
	mgid[5] = (uint8_t)pkey;
	if (g->family == 4) {
		memcpy(mgid + 12, g->addr, 4);
		mgid[12] &= 0x0f;	/* the low 28 bits */
	} else {
		memcpy(mgid + 6, g->addr + 6, 10);
	}
}

void lab_mcast_bcast_mgid(uint16_t pkey, uint8_t mgid[16])
{
	struct lab_mgroup g = { .family = 4,
				.addr = { 0xff, 0xff, 0xff, 0xff } };

	lab_mcast_mgid(&g, pkey, mgid);
	mgid[12] = 0xff;
}
