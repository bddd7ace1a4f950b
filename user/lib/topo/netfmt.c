// SPDX-License-Identifier: GPL-2.0
/*
 * The ibnetdiscover / ibsim "net" topology text format, read and written.
 *
 *   switchguid=0x...            optional GUID line before a node
 *   Switch 36 "S-<guid>"  # "description" ...
 *   [1]  "H-<guid>"[1](<port guid>)   # comment
 *   Ca 1 "H-<guid>"  # "description"
 *   [1](<port guid>)  "S-<guid>"[1]   # lid 5 lmc 0 ...
 *
 * Nodes are referred to by their quoted id; links may be listed from one or
 * both ends and must agree. Comments, vendid/devid/sysimgguid lines and the
 * trailing lid/lmc/speed remarks of real ibnetdiscover dumps are accepted.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "topo/topology.h"

struct pnode {
	char *id;
	uint32_t node;
};

struct plink {
	uint32_t node;		/* parse-order node */
	unsigned port;
	char *peer;
	unsigned peer_port;
	unsigned line;
};

struct parser {
	const char *name;
	unsigned line;
	struct ftsw_err *err;
	struct pnode *nodes;
	size_t nnodes, cap;
	struct plink *links;
	size_t nlinks, lcap;
	/* hash of node ids */
	uint32_t *hash;
	size_t hsize;
};

static uint64_t strhash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static void hash_build(struct parser *p)
{
	size_t i;

	p->hsize = 16;
	while (p->hsize < p->nnodes * 2)
		p->hsize *= 2;
	p->hash = malloc(p->hsize * sizeof(uint32_t));
	if (!p->hash)
		return;
	memset(p->hash, 0xff, p->hsize * sizeof(uint32_t));
	for (i = 0; i < p->nnodes; i++) {
		size_t h = strhash(p->nodes[i].id) & (p->hsize - 1);

		while (p->hash[h] != FTSW_NONE)
			h = (h + 1) & (p->hsize - 1);
		p->hash[h] = (uint32_t)i;
	}
}

static uint32_t hash_find(const struct parser *p, const char *id)
{
	size_t h = strhash(id) & (p->hsize - 1);

	while (p->hash[h] != FTSW_NONE) {
		if (!strcmp(p->nodes[p->hash[h]].id, id))
			return p->hash[h];
		h = (h + 1) & (p->hsize - 1);
	}
	return FTSW_NONE;
}

static const char *skipws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Parse "..." at s into a malloc'ed string; returns the end or NULL. */
static const char *quoted(const char *s, char **out)
{
	const char *e;

	if (*s != '"')
		return NULL;
	e = strchr(s + 1, '"');
	if (!e)
		return NULL;
	*out = strndup(s + 1, (size_t)(e - s - 1));
	return *out ? e + 1 : NULL;
}

/* "[N]" -> N */
static const char *bracket(const char *s, unsigned *n)
{
	char *e;
	unsigned long v;

	if (*s != '[')
		return NULL;
	v = strtoul(s + 1, &e, 10);
	if (e == s + 1 || *e != ']' || v < 1 || v > FTSW_TOPO_MAX_PORTS)
		return NULL;
	*n = (unsigned)v;
	return e + 1;
}

/* "(hex)" -> value */
static const char *paren_guid(const char *s, uint64_t *g)
{
	char *e;

	if (*s != '(')
		return s;
	*g = strtoull(s + 1, &e, 16);
	if (*e != ')')
		return NULL;
	return e + 1;
}

static int perr(struct parser *p, const char *fmt, const char *arg)
{
	char buf[256];

	snprintf(buf, sizeof(buf), fmt, arg);
	ftsw_err_set(p->err, "%s:%u: %s", p->name, p->line, buf);
	return -EINVAL;
}

static uint64_t guid_from_id(const char *id)
{
	char *e;
	uint64_t g;

	if ((id[0] == 'S' || id[0] == 'H') && id[1] == '-' && isxdigit((unsigned char)id[2])) {
		g = strtoull(id + 2, &e, 16);
		if (!*e)
			return g;
	}
	return 0;
}

struct ftsw_topo *ftsw_net_read_file(FILE *f, const char *name,
				     struct ftsw_err *err)
{
	struct parser p = { .name = name, .err = err };
	struct ftsw_topo *t = ftsw_topo_new();
	char *line = NULL, *spec = NULL;
	size_t lsz = 0;
	uint64_t pending_guid = 0;
	uint32_t cur = FTSW_NONE;
	size_t i;
	int rc = -EINVAL;

	if (!t)
		goto oom;
	t->port_guids = calloc(1, sizeof(uint64_t));
	if (!t->port_guids)
		goto oom;
	while (getline(&line, &lsz, f) >= 0) {
		const char *s = skipws(line);
		char *nl = strpbrk(line, "\r\n");

		p.line++;
		if (nl)
			*nl = 0;
		if (!*s) {
			cur = FTSW_NONE;
			continue;
		}
		if (*s == '#') {
			const char *k = skipws(s + 1);

			if (!strncmp(k, "ftsw-topology:", 14)) {
				free(spec);
				spec = strdup(skipws(k + 14));
			}
			continue;
		}
		if (!strncmp(s, "switchguid=", 11) || !strncmp(s, "caguid=", 7) ||
		    !strncmp(s, "rtguid=", 7)) {
			const char *v = strchr(s, '=') + 1;
			char *e;

			pending_guid = strtoull(v, &e, 16);
			if (e == v)
				return perr(&p, "bad GUID '%s'", v), ftsw_topo_free(t),
					free(line), free(spec), NULL;
			continue;
		}
		if (!strncmp(s, "vendid=", 7) || !strncmp(s, "devid=", 6) ||
		    !strncmp(s, "sysimgguid=", 11))
			continue;
		if (!strncmp(s, "Switch", 6) || !strncmp(s, "Ca", 2) ||
		    !strncmp(s, "Hca", 3) || !strncmp(s, "Rt", 2)) {
			int sw = s[0] == 'S';
			const char *q;
			char *e, *id = NULL, *desc = NULL;
			unsigned long np;
			uint64_t guid;
			uint32_t n;

			if (s[0] == 'R') {
				perr(&p, "%s", "routers (Rt) are not supported");
				goto fail;
			}
			q = s + (sw ? 6 : s[0] == 'H' ? 3 : 2);
			if (*q != ' ' && *q != '\t') {
				perr(&p, "unknown line '%s'", s);
				goto fail;
			}
			np = strtoul(q, &e, 10);
			if (e == q || np < 1 || np > FTSW_TOPO_MAX_PORTS) {
				perr(&p, "bad port count in '%s' (1..254)", s);
				goto fail;
			}
			q = quoted(skipws(e), &id);
			if (!q) {
				perr(&p, "expected a quoted node id in '%s'", s);
				goto fail;
			}
			q = skipws(q);
			if (*q == '(') {	/* some dumps put the GUID here */
				uint64_t g2 = 0;

				q = paren_guid(q, &g2);
				if (!q) {
					free(id);
					perr(&p, "%s", "bad (GUID)");
					goto fail;
				}
				if (!pending_guid)
					pending_guid = g2;
				q = skipws(q);
			}
			if (*q == '#') {
				const char *d = skipws(q + 1);

				if (*d == '"')
					quoted(d, &desc);
			} else if (*q) {
				free(id);
				perr(&p, "unexpected '%s' after node id", q);
				goto fail;
			}
			guid = pending_guid ? pending_guid : guid_from_id(id);
			if (!guid)
				guid = 0x00667473ff000000ULL + p.nnodes;
			pending_guid = 0;
			n = ftsw_topo_add_node(t, sw ? FTSW_SWITCH : FTSW_HOST,
					       (unsigned)np, guid, desc ? desc : id,
					       err);
			free(desc);
			if (n == FTSW_NONE) {
				free(id);
				ftsw_err_set(err, "%s:%u: cannot add node", name,
					     p.line);
				goto fail;
			}
			if (p.nnodes == p.cap) {
				p.cap = p.cap ? 2 * p.cap : 256;
				p.nodes = realloc(p.nodes, p.cap * sizeof(*p.nodes));
				if (!p.nodes)
					goto oom;
			}
			p.nodes[p.nnodes].id = id;
			p.nodes[p.nnodes].node = n;
			p.nnodes++;
			cur = n;
			continue;
		}
		if (*s == '[') {
			unsigned port, pport = 0;
			uint64_t pg = 0, dummy = 0;
			char *peer = NULL;
			const char *q = bracket(s, &port);

			if (cur == FTSW_NONE) {
				perr(&p, "port line '%s' outside a node", s);
				goto fail;
			}
			if (!q) {
				perr(&p, "bad port number in '%s'", s);
				goto fail;
			}
			if (port > t->nodes[cur].nports) {
				perr(&p, "port %s beyond the node's port count", s);
				goto fail;
			}
			q = paren_guid(q, &pg);
			if (!q) {
				perr(&p, "bad port GUID in '%s'", s);
				goto fail;
			}
			q = skipws(q);
			q = quoted(q, &peer);
			if (!q) {
				perr(&p, "expected a quoted peer id in '%s'", s);
				goto fail;
			}
			q = bracket(q, &pport);
			if (!q) {
				free(peer);
				perr(&p, "expected the peer port [N] in '%s'", s);
				goto fail;
			}
			q = paren_guid(q, &dummy);
			if (!q || (*(q = skipws(q)) && *q != '#')) {
				free(peer);
				perr(&p, "unexpected text in '%s'", s);
				goto fail;
			}
			if (p.nlinks == p.lcap) {
				p.lcap = p.lcap ? 2 * p.lcap : 1024;
				p.links = realloc(p.links, p.lcap * sizeof(*p.links));
				if (!p.links) {
					free(peer);
					goto oom;
				}
			}
			p.links[p.nlinks++] = (struct plink){ cur, port, peer,
							      pport, p.line };
			if (pg)
				t->port_guids[t->nodes[cur].first_port + port - 1] = pg;
			continue;
		}
		perr(&p, "unknown line '%s'", s);
		goto fail;
	}
	if (ferror(f)) {
		ftsw_err_set(err, "%s: read error: %s", name, strerror(errno));
		goto fail;
	}
	if (!p.nnodes) {
		ftsw_err_set(err, "%s:%u: no nodes in file", name, p.line);
		goto fail;
	}
	hash_build(&p);
	if (!p.hash)
		goto oom;
	for (i = 0; i < p.nnodes; i++)
		if (hash_find(&p, p.nodes[i].id) != i) {
			ftsw_err_set(err, "%s: node id \"%s\" defined twice", name,
				     p.nodes[i].id);
			goto fail;
		}
	for (i = 0; i < p.nlinks; i++) {
		struct plink *l = &p.links[i];
		uint32_t peer = hash_find(&p, l->peer);
		struct ftsw_port *x, *y;
		uint32_t pn;

		if (peer == FTSW_NONE) {
			ftsw_err_set(err, "%s:%u: unknown node \"%s\"", name,
				     l->line, l->peer);
			goto fail;
		}
		pn = p.nodes[peer].node;
		if (l->peer_port > t->nodes[pn].nports) {
			ftsw_err_set(err, "%s:%u: \"%s\" has no port %u", name,
				     l->line, l->peer, l->peer_port);
			goto fail;
		}
		x = ftsw_port(t, l->node, l->port);
		y = ftsw_port(t, pn, l->peer_port);
		if ((x->peer != FTSW_NONE && (x->peer != pn || x->peer_port != l->peer_port)) ||
		    (y->peer != FTSW_NONE && (y->peer != l->node || y->peer_port != l->port))) {
			ftsw_err_set(err, "%s:%u: link to \"%s\"[%u] contradicts "
				     "another line for one of its ends", name,
				     l->line, l->peer, l->peer_port);
			goto fail;
		}
		if (pn == l->node && l->peer_port == l->port) {
			ftsw_err_set(err, "%s:%u: port linked to itself", name,
				     l->line);
			goto fail;
		}
		x->peer = pn;
		x->peer_port = (uint8_t)l->peer_port;
		y->peer = l->node;
		y->peer_port = (uint8_t)l->port;
	}
	if (ftsw_topo_finish(t, err))
		goto fail;
	if (spec) {
		struct ftsw_pgft g;
		struct ftsw_err e2;

		if (!ftsw_pgft_parse(spec, &g, NULL, 0, &e2))
			ftsw_topo_match_pgft(t, &g, &e2);
	}
	rc = 0;
	goto out;
oom:
	ftsw_err_set(err, "%s:%u: out of memory", name, p.line);
fail:
	rc = -EINVAL;
out:
	for (i = 0; i < p.nnodes; i++)
		free(p.nodes[i].id);
	for (i = 0; i < p.nlinks; i++)
		free(p.links[i].peer);
	free(p.nodes);
	free(p.links);
	free(p.hash);
	free(line);
	free(spec);
	if (rc) {
		ftsw_topo_free(t);
		return NULL;
	}
	return t;
}

struct ftsw_topo *ftsw_net_read(const char *path, struct ftsw_err *err)
{
	FILE *f = fopen(path, "r");
	struct ftsw_topo *t;

	if (!f) {
		ftsw_err_set(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	t = ftsw_net_read_file(f, path, err);
	fclose(f);
	return t;
}

struct ftsw_topo *ftsw_topo_open(const char *arg, struct ftsw_err *err)
{
	struct stat st;

	if (stat(arg, &st) && strchr(arg, ':'))
		return ftsw_topo_gen(arg, err);
	return ftsw_net_read(arg, err);
}

static void node_id(const struct ftsw_topo *t, uint32_t n, char *buf, size_t sz)
{
	snprintf(buf, sz, "%c-%016" PRIx64,
		 t->nodes[n].kind == FTSW_SWITCH ? 'S' : 'H', t->nodes[n].guid);
}

static uint64_t port_guid(const struct ftsw_topo *t, uint32_t n, unsigned p)
{
	uint64_t g = t->port_guids ?
		t->port_guids[t->nodes[n].first_port + p - 1] : 0;

	return g ? g : t->nodes[n].guid | p;
}

/* LID at LMC 0 in ftsw's plan, for the informative lid remarks */
static uint32_t plan_lid(const struct ftsw_topo *t, uint32_t n)
{
	return t->nodes[n].kind == FTSW_HOST ? t->nodes[n].index + 1 :
		t->nhosts + 1 + t->nodes[n].index;
}

/*
 * Written like ibnetdiscover: GUID line, node line with the description
 * and base LID remark, one line per cabled port with the peer's
 * description, LID and a link speed (ibsim reads these remarks).
 */
int ftsw_net_write_file(const struct ftsw_topo *t, FILE *f)
{
	uint32_t i;
	unsigned p;
	char id[40], pid[40];

	fprintf(f, "# ftsw topology: %u switches, %u hosts, %" PRIu64 " links\n",
		t->nswitches, t->nhosts, ftsw_topo_nlinks(t));
	if (t->spec[0] && t->is_pgft)
		fprintf(f, "# ftsw-topology: %s\n", t->spec);
	for (i = 0; i < t->nnodes; i++) {
		const struct ftsw_node *n = &t->nodes[i];
		int sw = n->kind == FTSW_SWITCH;

		node_id(t, i, id, sizeof(id));
		fprintf(f, "\n%s=0x%016" PRIx64 "\n", sw ? "switchguid" : "caguid",
			n->guid);
		if (sw)
			fprintf(f, "Switch\t%u \"%s\"\t\t# \"%s\" base port 0 lid %u "
				"lmc 0\n", n->nports, id, n->desc ? n->desc : id,
				plan_lid(t, i));
		else
			fprintf(f, "Ca\t%u \"%s\"\t\t# \"%s\"\n", n->nports, id,
				n->desc ? n->desc : id);
		for (p = 1; p <= n->nports; p++) {
			const struct ftsw_port *x = ftsw_port(t, i, p);

			if (x->peer == FTSW_NONE)
				continue;
			node_id(t, x->peer, pid, sizeof(pid));
			fprintf(f, "[%u]", p);
			if (!sw)
				fprintf(f, "(%" PRIx64 ")", port_guid(t, i, p));
			fprintf(f, "\t\"%s\"[%u]", pid, x->peer_port);
			if (t->nodes[x->peer].kind == FTSW_HOST)
				fprintf(f, "(%" PRIx64 ")",
					port_guid(t, x->peer, x->peer_port));
			fprintf(f, "\t\t# ");
			if (!sw)
				fprintf(f, "lid %u lmc 0 ", plan_lid(t, i));
			fprintf(f, "\"%s\" lid %u 4xEDR\n", t->nodes[x->peer].desc ?
				t->nodes[x->peer].desc : pid, plan_lid(t, x->peer));
		}
	}
	return ferror(f) ? -EIO : 0;
}

int ftsw_net_write(const struct ftsw_topo *t, const char *path,
		   struct ftsw_err *err)
{
	char *tmp;
	FILE *f;

	if (!path || !strcmp(path, "-")) {
		if (ftsw_net_write_file(t, stdout)) {
			ftsw_err_set(err, "stdout: write error");
			return -EIO;
		}
		return fflush(stdout) ? -EIO : 0;
	}
	f = ftsw_atomic_open(path, &tmp, err);
	if (!f)
		return -EIO;
	ftsw_net_write_file(t, f);
	return ftsw_atomic_commit(f, path, tmp, err);
}

int ftsw_topo_match_pgft(struct ftsw_topo *t, const struct ftsw_pgft *g,
			 struct ftsw_err *err)
{
	struct ftsw_topo *full = ftsw_topo_gen_pgft(g, err);
	uint32_t *map = NULL, i;
	uint64_t nlinks = 0;
	unsigned p, h = g->h;
	uint64_t base[FTSW_PGFT_MAX_H + 2];
	int rc = -1;

	if (!full)
		return -1;
	base[0] = 0;
	for (i = 1; i <= h + 1; i++)
		base[i] = base[i - 1] + ftsw_pgft_level_size(g, i - 1);
	map = malloc((t->nnodes + 1) * sizeof(uint32_t));
	if (!map)
		goto out;
	for (i = 0; i < t->nnodes; i++) {
		uint64_t gu = t->nodes[i].guid;
		unsigned l = FTSW_GEN_GUID_LEVEL(gu);
		uint64_t x = FTSW_GEN_GUID_INDEX(gu);

		if (FTSW_GEN_GUID_TAG(gu) != 0x6674 || l > h ||
		    x >= base[l + 1] - base[l] || (gu & 15)) {
			ftsw_err_set(err, "node %016" PRIx64 " is not part of %s",
				     gu, full->spec);
			goto out;
		}
		map[i] = (uint32_t)(base[l] + x);
		if (full->nodes[map[i]].kind != t->nodes[i].kind ||
		    full->nodes[map[i]].nports != t->nodes[i].nports) {
			ftsw_err_set(err, "node %016" PRIx64 " differs from %s",
				     gu, full->spec);
			goto out;
		}
	}
	for (i = 0; i < t->nnodes; i++)
		for (p = 1; p <= t->nodes[i].nports; p++) {
			const struct ftsw_port *x = ftsw_port(t, i, p);
			const struct ftsw_port *y = ftsw_port(full, map[i], p);

			if (x->peer == FTSW_NONE)
				continue;
			if (map[x->peer] != y->peer || x->peer_port != y->peer_port) {
				ftsw_err_set(err, "link %s[%u] is not in %s",
					     t->nodes[i].desc, p, full->spec);
				goto out;
			}
			nlinks++;
		}
	t->digits = malloc((size_t)t->nnodes * h * sizeof(uint16_t) + 2);
	if (!t->digits)
		goto out;
	for (i = 0; i < t->nnodes; i++) {
		memcpy(&t->digits[(size_t)i * h], &full->digits[(size_t)map[i] * h],
		       h * sizeof(uint16_t));
		t->nodes[i].level = full->nodes[map[i]].level;
	}
	t->is_pgft = true;
	t->pgft = *g;
	memcpy(t->spec, full->spec, sizeof(t->spec));
	t->degraded = t->nnodes != full->nnodes ||
		      nlinks != 2 * ftsw_topo_nlinks(full);
	rc = 0;
out:
	free(map);
	ftsw_topo_free(full);
	return rc;
}
