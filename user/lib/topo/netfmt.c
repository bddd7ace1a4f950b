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
#include "util/parse.h"
#include "util/text.h"

struct pnode {
	char *id;
	uint32_t node;
	unsigned line;
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
	struct ftsw_topo *t;
	uint64_t pending_guid;	/* from a switchguid= line */
	uint32_t cur;		/* node of the port lines, FTSW_NONE outside */
	char *spec;		/* "# ftsw-topology:" comment */
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

/* "[N]" -> N (1..254) */
static const char *bracket(const char *s, unsigned *n)
{
	const char *e;
	uint64_t v;

	if (*s != '[' || ftsw_parse_u64_prefix("port", s + 1, 1,
					       FTSW_TOPO_MAX_PORTS, &v, &e,
					       NULL) || *e != ']')
		return NULL;
	*n = (unsigned)v;
	return e + 1;
}

/* "(hex)" -> value; no parenthesis: s unchanged */
static const char *paren_guid(const char *s, uint64_t *g)
{
	const char *e;

	if (*s != '(')
		return s;
	if (ftsw_parse_hex_prefix("GUID", s + 1, g, &e, NULL) || *e != ')')
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

/* "S-<hex>" / "H-<hex>" ids name their GUID; 0 when not of that form */
static uint64_t guid_from_id(const char *id)
{
	const char *e;
	uint64_t g;

	if ((id[0] == 'S' || id[0] == 'H') && id[1] == '-' &&
	    !ftsw_parse_hex_prefix("id", id + 2, &g, &e, NULL) && !*e)
		return g;
	return 0;
}

/* switchguid=0x...[(hex)]: the GUID of the next node */
static int parse_guid_line(struct parser *p, const char *s)
{
	const char *v = strchr(s, '=') + 1, *e;
	struct ftsw_err e2;

	if (ftsw_parse_hex_prefix("GUID", v, &p->pending_guid, &e, &e2)) {
		ftsw_err_set(p->err, "%s:%u: %.200s", p->name, p->line, e2.msg);
		return -EINVAL;
	}
	e = paren_guid(e, &(uint64_t){ 0 });
	if (!e || *skipws(e))
		return perr(p, "unexpected text in GUID line '%s'", s);
	return 0;
}

static int add_pnode(struct parser *p, char *id, uint32_t n)
{
	if (p->nnodes == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 256;
		struct pnode *x = realloc(p->nodes, cap * sizeof(*x));

		if (!x)
			return -ENOMEM;
		p->nodes = x;
		p->cap = cap;
	}
	p->nodes[p->nnodes].id = id;
	p->nodes[p->nnodes].node = n;
	p->nodes[p->nnodes].line = p->line;
	p->nnodes++;
	return 0;
}

/* Switch N "id" [(guid)] [# "desc" ...] */
static int parse_node_line(struct parser *p, const char *s)
{
	int sw = s[0] == 'S';
	const char *q, *e;
	char *id = NULL, *desc = NULL;
	uint64_t np, guid;
	uint32_t n;

	if (s[0] == 'R')
		return perr(p, "%s", "routers (Rt) are not supported");
	q = s + (sw ? 6 : s[0] == 'H' ? 3 : 2);
	if (*q != ' ' && *q != '\t')
		return perr(p, "unknown line '%s'", s);
	q = skipws(q);
	if (ftsw_parse_u64_prefix("ports", q, 1, FTSW_TOPO_MAX_PORTS, &np, &e,
				  NULL))
		return perr(p, "bad port count in '%s' (1..254)", s);
	q = quoted(skipws(e), &id);
	if (!q)
		return perr(p, "expected a quoted node id in '%s'", s);
	q = skipws(q);
	if (*q == '(') {	/* some dumps put the GUID here */
		uint64_t g2 = 0;

		q = paren_guid(q, &g2);
		if (!q) {
			free(id);
			return perr(p, "%s", "bad (GUID)");
		}
		if (!p->pending_guid)
			p->pending_guid = g2;
		q = skipws(q);
	}
	if (*q == '#') {
		const char *d = skipws(q + 1);

		if (*d == '"')
			quoted(d, &desc);
	} else if (*q) {
		free(id);
		return perr(p, "unexpected '%s' after node id", q);
	}
	guid = p->pending_guid ? p->pending_guid : guid_from_id(id);
	if (!guid)
		guid = 0x00667473ff000000ULL + p->nnodes;
	p->pending_guid = 0;
	n = ftsw_topo_add_node(p->t, sw ? FTSW_SWITCH : FTSW_HOST,
			       (unsigned)np, guid, desc ? desc : id, p->err);
	free(desc);
	if (n == FTSW_NONE) {
		free(id);
		return perr(p, "%s", "cannot add node");
	}
	if (add_pnode(p, id, n)) {
		free(id);
		return -ENOMEM;
	}
	p->cur = n;
	return 0;
}

/* [port](portguid) "peer"[port](guid) # ... */
static int parse_port_line(struct parser *p, const char *s)
{
	struct ftsw_topo *t = p->t;
	unsigned port, pport = 0;
	uint64_t pg = 0, dummy = 0;
	char *peer = NULL;
	const char *q = bracket(s, &port);

	if (p->cur == FTSW_NONE)
		return perr(p, "port line '%s' outside a node", s);
	if (!q)
		return perr(p, "bad port number in '%s'", s);
	if (port > t->nodes[p->cur].nports)
		return perr(p, "port %s beyond the node's port count", s);
	q = paren_guid(q, &pg);
	if (!q)
		return perr(p, "bad port GUID in '%s'", s);
	q = quoted(skipws(q), &peer);
	if (!q)
		return perr(p, "expected a quoted peer id in '%s'", s);
	q = bracket(q, &pport);
	if (!q) {
		free(peer);
		return perr(p, "expected the peer port [N] in '%s'", s);
	}
	q = paren_guid(q, &dummy);
	if (!q || (*(q = skipws(q)) && *q != '#')) {
		free(peer);
		return perr(p, "unexpected text in '%s'", s);
	}
	if (p->nlinks == p->lcap) {
		size_t cap = p->lcap ? 2 * p->lcap : 1024;
		struct plink *x = realloc(p->links, cap * sizeof(*x));

		if (!x) {
			free(peer);
			return -ENOMEM;
		}
		p->links = x;
		p->lcap = cap;
	}
	p->links[p->nlinks++] = (struct plink){ p->cur, port, peer, pport,
						p->line };
	if (pg)
		t->port_guids[t->nodes[p->cur].first_port + port - 1] = pg;
	return 0;
}

/* One line (NUL-free, newline stripped). */
static int parse_line(struct parser *p, const char *line)
{
	const char *s = skipws(line);

	if (!*s) {
		p->cur = FTSW_NONE;
		return 0;
	}
	if (*s == '#') {
		const char *k = skipws(s + 1);

		if (!strncmp(k, "ftsw-topology:", 14)) {
			free(p->spec);
			p->spec = strdup(skipws(k + 14));
			if (!p->spec)
				return -ENOMEM;
		}
		return 0;
	}
	if (!strncmp(s, "switchguid=", 11) || !strncmp(s, "caguid=", 7) ||
	    !strncmp(s, "rtguid=", 7))
		return parse_guid_line(p, s);
	if (!strncmp(s, "vendid=", 7) || !strncmp(s, "devid=", 6) ||
	    !strncmp(s, "sysimgguid=", 11))
		return 0;
	if (!strncmp(s, "Switch", 6) || !strncmp(s, "Ca", 2) ||
	    !strncmp(s, "Hca", 3) || !strncmp(s, "Rt", 2))
		return parse_node_line(p, s);
	if (*s == '[')
		return parse_port_line(p, s);
	return perr(p, "unknown line '%s'", s);
}

static int cmp_guid_line(const void *x, const void *y)
{
	const uint64_t *a = x, *b = y;

	return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1];
}

/*
 * Node ids and GUIDs are unique: "H-5" and "H-05" are different ids for
 * one GUID, which the writer would turn into two identical ids.
 */
static int check_unique(struct parser *p)
{
	uint64_t (*g)[2];
	size_t i;

	for (i = 0; i < p->nnodes; i++)
		if (hash_find(p, p->nodes[i].id) != i) {
			ftsw_err_set(p->err, "%s:%u: node id \"%s\" defined twice "
				     "(first at line %u)", p->name,
				     p->nodes[i].line, p->nodes[i].id,
				     p->nodes[hash_find(p, p->nodes[i].id)].line);
			return -EINVAL;
		}
	g = malloc((p->nnodes + 1) * sizeof(*g));
	if (!g)
		return -ENOMEM;
	for (i = 0; i < p->nnodes; i++) {
		g[i][0] = p->t->nodes[p->nodes[i].node].guid;
		g[i][1] = p->nodes[i].line;
	}
	qsort(g, p->nnodes, sizeof(*g), cmp_guid_line);
	for (i = 1; i < p->nnodes; i++)
		if (g[i][0] == g[i - 1][0]) {
			ftsw_err_set(p->err, "%s:%u: node GUID 0x%016" PRIx64
				     " already used by the node of line %u",
				     p->name, (unsigned)g[i][1], g[i][0],
				     (unsigned)g[i - 1][1]);
			free(g);
			return -EINVAL;
		}
	free(g);
	return 0;
}

/* Every link line, from either end, applied and checked against the other. */
static int resolve_links(struct parser *p)
{
	struct ftsw_topo *t = p->t;
	size_t i;

	for (i = 0; i < p->nlinks; i++) {
		struct plink *l = &p->links[i];
		uint32_t peer = hash_find(p, l->peer), pn;
		struct ftsw_port *x, *y;

		if (peer == FTSW_NONE) {
			ftsw_err_set(p->err, "%s:%u: unknown node \"%s\"", p->name,
				     l->line, l->peer);
			return -EINVAL;
		}
		pn = p->nodes[peer].node;
		if (l->peer_port > t->nodes[pn].nports) {
			ftsw_err_set(p->err, "%s:%u: \"%s\" has no port %u",
				     p->name, l->line, l->peer, l->peer_port);
			return -EINVAL;
		}
		x = ftsw_port(t, l->node, l->port);
		y = ftsw_port(t, pn, l->peer_port);
		if ((x->peer != FTSW_NONE && (x->peer != pn || x->peer_port != l->peer_port)) ||
		    (y->peer != FTSW_NONE && (y->peer != l->node || y->peer_port != l->port))) {
			ftsw_err_set(p->err, "%s:%u: link to \"%s\"[%u] contradicts "
				     "another line for one of its ends", p->name,
				     l->line, l->peer, l->peer_port);
			return -EINVAL;
		}
		if (pn == l->node && l->peer_port == l->port) {
			ftsw_err_set(p->err, "%s:%u: port linked to itself",
				     p->name, l->line);
			return -EINVAL;
		}
		x->peer = pn;
		x->peer_port = (uint8_t)l->peer_port;
		y->peer = l->node;
		y->peer_port = (uint8_t)l->port;
	}
	return 0;
}

/*
 * The "# ftsw-topology:" comment names the PGFT the file is (a degraded
 * copy of), or the switch graph (torus:, mesh:, ...) it is exactly:
 * matched only when that fabric is not much larger than the file (a PGFT)
 * or as large (a graph), so a comment never makes the reader build a
 * huge fabric.
 */
static void match_spec(struct parser *p)
{
	struct ftsw_pgft g;
	struct ftsw_err e2;
	uint64_t n = 0;
	unsigned l;

	if (p->spec && ftsw_graph_kind(p->spec)) {
		ftsw_topo_match_graph(p->t, p->spec, &e2);
		return;
	}
	if (!p->spec || ftsw_pgft_parse(p->spec, &g, NULL, 0, &e2))
		return;
	for (l = 0; l <= g.h; l++) {
		n += ftsw_pgft_level_size(&g, l);
		if (n > 2 * (uint64_t)p->t->nnodes + 64)
			return;
	}
	ftsw_topo_match_pgft(p->t, &g, &e2);
}

static void parser_free(struct parser *p)
{
	size_t i;

	for (i = 0; i < p->nnodes; i++)
		free(p->nodes[i].id);
	for (i = 0; i < p->nlinks; i++)
		free(p->links[i].peer);
	free(p->nodes);
	free(p->links);
	free(p->hash);
	free(p->spec);
}

/* The file of x into a topology (x's lines bounded by util/text.h). */
static struct ftsw_topo *net_read_text(struct ftsw_text *x,
				       struct ftsw_err *err)
{
	struct parser p = { .name = x->path, .err = err, .cur = FTSW_NONE };
	int rc = -ENOMEM, got;

	p.t = ftsw_topo_new();
	if (!p.t)
		goto out;
	p.t->port_guids = calloc(1, sizeof(uint64_t));
	if (!p.t->port_guids)
		goto out;
	while ((got = ftsw_text_line(x, err)) > 0) {
		p.line = x->ln;
		rc = parse_line(&p, x->line);
		if (rc)
			goto out;
	}
	p.line = x->ln;
	rc = -EINVAL;
	if (got < 0)
		goto out;
	if (!p.nnodes) {
		ftsw_err_set(err, "%s:%u: no nodes in file", x->path, p.line);
		goto out;
	}
	hash_build(&p);
	if (!p.hash) {
		rc = -ENOMEM;
		goto out;
	}
	rc = check_unique(&p);
	if (!rc)
		rc = resolve_links(&p);
	if (!rc && ftsw_topo_finish(p.t, err))
		rc = -EINVAL;
	if (!rc)
		match_spec(&p);
out:
	if (rc == -ENOMEM)
		ftsw_err_errno(err, ENOMEM, "%s:%u: out of memory", x->path,
			       p.line);
	parser_free(&p);
	if (rc) {
		ftsw_topo_free(p.t);
		return NULL;
	}
	return p.t;
}

struct ftsw_topo *ftsw_net_read_file(FILE *f, const char *name,
				     struct ftsw_err *err)
{
	struct ftsw_text x;
	struct ftsw_topo *t;

	if (ftsw_text_attach(&x, f, name, FTSW_NET_MAX_LINE, FTSW_NET_MAX_FILE,
			     err))
		return NULL;
	t = net_read_text(&x, err);
	ftsw_text_close(&x);
	return t;
}

struct ftsw_topo *ftsw_net_read(const char *path, struct ftsw_err *err)
{
	struct ftsw_text x;
	struct ftsw_topo *t;

	if (ftsw_text_open(&x, path, FTSW_NET_MAX_LINE, FTSW_NET_MAX_FILE, err))
		return NULL;
	t = net_read_text(&x, err);
	ftsw_text_close(&x);
	return t;
}

bool ftsw_topo_is_spec(const char *arg)
{
	struct stat st;

	return stat(arg, &st) && (strchr(arg, ':') || ftsw_graph_kind(arg));
}

struct ftsw_topo *ftsw_topo_open(const char *arg, struct ftsw_err *err)
{
	if (ftsw_topo_is_spec(arg))
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
	if (t->spec[0] &&
	    (t->is_pgft || (ftsw_graph_kind(t->spec) && !t->degraded)))
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

static int net_writer(const void *t, FILE *f)
{
	return ftsw_net_write_file(t, f);
}

int ftsw_net_write(const struct ftsw_topo *t, const char *path,
		   struct ftsw_err *err)
{
	return ftsw_write_path(path, net_writer, t, err);
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
