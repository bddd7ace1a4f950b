// SPDX-License-Identifier: GPL-2.0
/*
 * The command-line tables at work: parsing a command's words, its help,
 * and the bash completion generated from the same tables (see cli.h).
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "analyze/analyze.h"
#include "route/routing.h"
#include "topo/topology.h"
#include "util/parse.h"

void cli_err(const char *fmt, ...)
{
	va_list ap;

	fputs("ftsw: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_route_warning(const struct ftsw_routing *r)
{
	if (r->warning[0] && !cli.json)
		cli_err("%s%s", r->unroutable_pairs ? "" : "warning: ",
			r->warning);
}

void cli_progress(const char *what, uint64_t done, uint64_t total,
		  void *arg)
{
	if (!what)
		fprintf(stderr, "\r%60s\r", "");
	else if (!total)
		fprintf(stderr, "%s: %s\n", arg ? (const char *)arg : "ftsw",
			what);
	else
		fprintf(stderr, "\r  %s %" PRIu64 "/%" PRIu64 "   ", what,
			done, total);
}

/* "route check" / "route" / "topo gen": the command's name in messages. */
static void cmd_title(char *buf, size_t sz, const struct cli_object *obj,
		      const struct cli_cmd *cmd)
{
	snprintf(buf, sz, "%s%s%s", obj->name, cmd && cmd->name[0] ? " " : "",
		 cmd ? cmd->name : "");
}

static bool opt_is(const struct cli_opt *o, const char *word)
{
	return !strcmp(o->name, word) || (o->alias && !strcmp(o->alias, word));
}

static unsigned nopts(const struct cli_cmd *cmd)
{
	unsigned n = 0;

	while (cmd->opts && cmd->opts[n].name)
		n++;
	return n;
}

static int word_index(const char *const *words, const char *s)
{
	int i;

	for (i = 0; words && words[i]; i++)
		if (!strcmp(words[i], s))
			return i;
	return -1;
}

static void words_list(char *buf, size_t sz, const char *const *words)
{
	size_t n = 0;
	int i;

	buf[0] = 0;
	for (i = 0; words && words[i] && n < sz; i++)
		n += snprintf(buf + n, sz - n, "%s%s", i ? ", " : "", words[i]);
}

/*
 * A topology spec is checked before the command runs (its grammar, its
 * parameters, the size limit: nothing is generated), so a bad one is a
 * usage error as a bad number is. word is the option ("-t"), or NULL for
 * a positional argument. A net file is read by the command itself.
 */
static int check_topo(const char *title, const char *word, enum cli_kind k,
		      const char *s)
{
	struct ftsw_err err;

	if ((k != CLI_SPEC && k != CLI_TOPO) ||
	    (k == CLI_TOPO && !ftsw_topo_is_spec(s)) ||
	    !ftsw_topo_spec_check(s, &err))
		return 0;
	cli_err("%s: %s%s%s", title, word ? word : "", word ? ": " : "",
		err.msg);
	return -1;
}

/* Check and store one option's value. */
static int take_value(const char *title, const struct cli_opt *o,
		      const char *word, const char *s, struct cli_val *v)
{
	struct ftsw_err err;
	char list[256];
	int i;

	switch (o->kind) {
	case CLI_NUM:
		if (ftsw_parse_u64(word, s, o->min, o->max, &v->u, &err)) {
			cli_err("%s: %s", title, err.msg);
			return -1;
		}
		break;
	case CLI_WORD:
		i = word_index(o->words, s);
		if (i < 0) {
			words_list(list, sizeof(list), o->words);
			cli_err("%s: %s: '%s' is not one of %s", title, word, s,
				list);
			return -1;
		}
		v->u = (uint64_t)i;
		break;
	case CLI_ENGINE:
		if (!ftsw_engine_find(s)) {
			cli_err("%s: %s: no engine '%s' (ftsw route list)",
				title, word, s);
			return -1;
		}
		break;
	default:
		if (!*s) {
			cli_err("%s: %s: empty %s", title, word,
				o->arg ? o->arg : "value");
			return -1;
		}
		if (check_topo(title, word, o->kind, s))
			return -1;
		/* a pattern or order refused as such: a usage error too */
		if ((o->kind == CLI_PATTERN && ftsw_pattern_check(s, &err)) ||
		    (o->kind == CLI_ORDER && ftsw_order_check(s, &err))) {
			cli_err("%s: %s: %s", title, word, err.msg);
			return -1;
		}
		break;
	}
	if (o->repeat) {
		const char **all = realloc(v->all, (v->n + 1) * sizeof(*all));

		if (!all) {
			cli_err("out of memory");
			return -1;
		}
		all[v->n] = s;
		v->all = all;
	}
	v->s = s;
	v->n++;
	return 0;
}

static bool is_help(const char *w)
{
	return !strcmp(w, "-h") || !strcmp(w, "--help") || !strcmp(w, "help");
}

int cli_parse(const struct cli_object *obj, const struct cli_cmd *cmd,
	      int argc, char **argv, struct cli_args *a)
{
	unsigned no = nopts(cmd), k;
	char title[64];
	int i;

	memset(a, 0, sizeof(*a));
	a->cmd = cmd;
	cmd_title(title, sizeof(title), obj, cmd);
	if (no > CLI_MAX_OPTS)
		abort();	/* a table too large: a programming error */
	for (i = 0; i < argc; i++) {
		const char *w = argv[i];
		const struct cli_opt *o = NULL;

		if (is_help(w)) {
			cli_usage(stdout, obj, cmd);
			return CLI_HELP;
		}
		for (k = 0; k < no; k++)
			if (opt_is(&cmd->opts[k], w)) {
				o = &cmd->opts[k];
				break;
			}
		if (!o) {
			if ((w[0] != '-' || !strcmp(w, "-")) &&
			    a->npos < cmd->pos_max && a->npos < CLI_MAX_POS) {
				if (check_topo(title, NULL, cmd->pos_kind, w))
					return CLI_USAGE;
				a->pos[a->npos++] = w;
				continue;
			}
			if (!strcmp(w, "-j") || !strcmp(w, "-s") ||
			    !strcmp(w, "-v") || !strcmp(w, "--json")) {
				cli_err("%s: %s is an option of ftsw itself: it "
					"goes before the object (ftsw %s %s ...)",
					title, w, w, obj->name);
				return CLI_USAGE;
			}
			cli_err("%s: unknown %s '%s' (ftsw %s help)", title,
				w[0] == '-' ? "option" : "argument", w, title);
			return CLI_USAGE;
		}
		if (o->kind == CLI_FLAG) {
			a->v[k].n++;
			continue;
		}
		if (i + 1 >= argc) {
			cli_err("%s: %s: %s expected", title, w, o->arg ?
				o->arg : "a value");
			return CLI_USAGE;
		}
		if (take_value(title, o, w, argv[++i], &a->v[k]))
			return CLI_USAGE;
	}
	for (k = 0; k < no; k++)
		if (cmd->opts[k].required && !a->v[k].n) {
			cli_err("%s: %s %s is required (ftsw %s help)", title,
				cmd->opts[k].name, cmd->opts[k].arg ?
				cmd->opts[k].arg : "", title);
			return CLI_USAGE;
		}
	if (a->npos < cmd->pos_min) {
		cli_err("%s: %s expected (ftsw %s help)", title,
			cmd->synopsis ? cmd->synopsis : "an argument", title);
		return CLI_USAGE;
	}
	return 0;
}

void cli_args_free(struct cli_args *a)
{
	unsigned k;

	for (k = 0; k < CLI_MAX_OPTS; k++) {
		free(a->v[k].all);
		a->v[k].all = NULL;
	}
}

const struct cli_object *cli_find_object(const char *name)
{
	const struct cli_object *o;

	for (o = cli_objects; o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

/* An option of any of obj's commands spelled w, or NULL. */
static const struct cli_opt *any_opt(const struct cli_object *obj,
				     const char *w)
{
	const struct cli_cmd *c;
	const struct cli_opt *o;

	for (c = obj->cmds; c->name; c++)
		for (o = c->opts; o && o->name; o++)
			if (opt_is(o, w))
				return o;
	return NULL;
}

static bool named_cmd(const struct cli_object *obj, const char *w)
{
	const struct cli_cmd *c;

	for (c = obj->cmds; c->name; c++)
		if (c->name[0] && !strcmp(c->name, w))
			return true;
	return false;
}

/* Whether w is the name of one of cmd's options (a KEY of KEY VALUE). */
static bool is_opt(const struct cli_cmd *cmd, const char *w)
{
	const struct cli_opt *o;

	for (o = cmd->opts; o && o->name; o++)
		if (!strcmp(o->name, w))
			return true;
	return false;
}

void cli_cmd_word_first(const struct cli_object *obj, int argc, char **argv)
{
	const struct cli_opt *o;
	char *w;
	int i;

	if (!obj || !obj->cmds)
		return;
	for (i = 1; i < argc && argv[i][0] == '-' && strcmp(argv[i], "--");
	     i++) {
		o = any_opt(obj, argv[i]);
		if (!o)
			return;	/* unknown: the parser names it */
		if (o->kind != CLI_FLAG)
			i++;
	}
	if (i == 1 || i >= argc || !named_cmd(obj, argv[i]))
		return;
	w = argv[i];
	memmove(argv + 2, argv + 1, (size_t)(i - 1) * sizeof(*argv));
	argv[1] = w;
}

const struct cli_cmd *cli_find_cmd(const struct cli_object *obj, int argc,
				   char **argv, int *shift)
{
	const struct cli_cmd *c, *def = NULL;

	cli_cmd_word_first(obj, argc, argv);
	*shift = 0;
	for (c = obj->cmds; c->name; c++) {
		if (!c->name[0])
			def = c;
		if (argc < 2 && c->def) {
			*shift = 1;
			return c;
		}
	}
	if (argc >= 2 && (!strcmp(argv[1], "help") ||
			  (!def && is_help(argv[1])))) {
		cli_usage(stdout, obj, NULL);
		return NULL;
	}
	if (argc >= 2)
		for (c = obj->cmds; c->name; c++)
			if (c->name[0] && !strcmp(c->name, argv[1])) {
				*shift = 2;
				return c;
			}
	if (def && (argc < 2 || argv[1][0] == '-' || def->pos_max ||
		    is_opt(def, argv[1]))) {
		*shift = 1;
		return def;
	}
	*shift = -1;
	if (argc < 2) {
		cli_usage(stderr, obj, NULL);
		return NULL;
	}
	cli_err("%s: unknown command '%s' (ftsw %s help)", obj->name, argv[1],
		obj->name);
	return NULL;
}

static bool needs_options(const struct cli_cmd *cmd)
{
	const struct cli_opt *o;

	for (o = cmd->opts; o && o->name; o++)
		if (o->required)
			return true;
	return cmd->pos_min > 0;
}

const struct cli_val *cli_val_of(const struct cli_args *a, const char *name)
{
	static const struct cli_val none;
	const struct cli_opt *o;

	for (o = a->cmd->opts; o && o->name; o++)
		if (!strcmp(o->name, name))
			return &a->v[o - a->cmd->opts];
	return &none;
}

void cli_route_req(const struct cli_args *a, struct ftsw_route_req *q)
{
	struct ftsw_route_opts *ro = &q->o;

	q->engine = cli_val_of(a, "-a")->s;
	q->lfts = cli_val_of(a, "-r")->s;
	ro->lmc = (unsigned)cli_val_of(a, "--lmc")->u;
	ro->seed = cli_val_of(a, "--seed")->u;
	ro->paths = (unsigned)cli_val_of(a, "--paths")->u;
	ro->threads = (unsigned)cli_val_of(a, "--threads")->u;
	ro->max_vls = (unsigned)cli_val_of(a, "--max-vls")->u;
	ro->extended_lids = cli_val_of(a, "--extended-lids")->n;
	ro->adaptive = cli_val_of(a, "--adaptive")->n;
	q->groups = cli_val_of(a, "--groups")->s;
	q->lmc_given = cli_val_of(a, "--lmc")->n;
}

int cli_dispatch(const char *object, int argc, char **argv)
{
	const struct cli_object *obj = cli_find_object(object);
	const struct cli_cmd *cmd;
	struct cli_args a;
	int shift, rc;

	cmd = cli_find_cmd(obj, argc, argv, &shift);
	if (!cmd)
		return shift ? 2 : 0;
	if (argc < 2 && needs_options(cmd)) {
		cli_usage(stderr, obj, NULL);
		return 2;
	}
	if (cmd->raw)
		return cmd->raw(obj, cmd, argc - shift, argv + shift);
	rc = cli_parse(obj, cmd, argc - shift, argv + shift, &a);
	rc = rc ? cli_parse_exit(rc) : cmd->run(&a);
	cli_args_free(&a);
	return rc;
}

/* ---------------------------------------------------------------- help */

static void usage_opts(FILE *f, const struct cli_cmd *cmd)
{
	const struct cli_opt *o;
	char left[64], list[256];

	for (o = cmd->opts; o && o->name; o++) {
		snprintf(left, sizeof(left), "%s%s%s%s%s", o->name,
			 o->alias ? ", " : "", o->alias ? o->alias : "",
			 o->kind != CLI_FLAG ? " " : "",
			 o->kind != CLI_FLAG && o->arg ? o->arg : "");
		fprintf(f, "  %-24s %s", left, o->help ? o->help : "");
		if (o->kind == CLI_NUM && o->max != UINT64_MAX)
			fprintf(f, " [%llu..%llu]", (unsigned long long)o->min,
				(unsigned long long)o->max);
		if (o->kind == CLI_WORD) {
			words_list(list, sizeof(list), o->words);
			fprintf(f, " (%s)", list);
		}
		fprintf(f, "%s\n", o->required ? " (required)" : "");
	}
}

void cli_usage(FILE *f, const struct cli_object *obj,
	       const struct cli_cmd *cmd)
{
	const struct cli_cmd *c;
	bool first = true;

	for (c = obj->cmds; c->name; c++) {
		if ((cmd && c != cmd) || (!cmd && c->hidden))
			continue;
		fprintf(f, "%s ftsw %s%s%s%s%s\n", first ? "Usage:" : "      ",
			obj->name, c->name[0] ? " " : "", c->name,
			c->synopsis ? " " : "", c->synopsis ? c->synopsis : "");
		first = false;
	}
	for (c = obj->cmds; c->name; c++) {
		if ((cmd && c != cmd) || (!c->opts && !c->notes))
			continue;
		fprintf(f, "\nftsw %s%s%s: %s\n", obj->name,
			c->name[0] ? " " : "", c->name, c->summary);
		usage_opts(f, c);
		if (c->notes)
			fputs(c->notes, f);
	}
}

/* ---------------------------------------------------------- completion */

static const char *kind_name(enum cli_kind k)
{
	static const char *const names[] = {
		[CLI_FLAG] = "flag", [CLI_STR] = "str", [CLI_FILE] = "file",
		[CLI_ENGINE] = "engine", [CLI_TOPO] = "topo",
		[CLI_SPEC] = "spec", [CLI_PATTERN] = "pattern",
		[CLI_ORDER] = "order", [CLI_NUM] = "num", [CLI_WORD] = "word",
	};

	return names[k];
}

/* The words a spec-taking value starts with (completion hints). */
static const char spec_words[] = "pgft: xgft: rlft: kary: ftmn: torus: mesh: "
	"kautz: random: dragonfly: deimos";
static const char pattern_words[] =
	"perm perm: shift shift: ring dissemination tournament binomial "
	"binomial-gather recdbl rechalv topo-recdbl a2a uniform: cluster: "
	"bisect bisect: file:";
static const char order_words[] =
	"topo random random: shuffle shuffle: contig-random contig-random: "
	"file:";

/* One bash function: a case over every command of every object. */
static void bash_cases(FILE *f, const char *head,
		       void (*each)(FILE *f, const struct cli_object *obj,
				    const struct cli_cmd *c))
{
	const struct cli_object *obj;
	const struct cli_cmd *c;

	fputs(head, f);
	for (obj = cli_objects; obj->name; obj++)
		for (c = obj->cmds; c->name; c++)
			if (!c->hidden)
				each(f, obj, c);
	fputs("\tesac\n}\n\n", f);
}

/* _ftsw_opts OBJ CMD: every option name and alias (KEY words too). */
static void bash_opts(FILE *f, const struct cli_object *obj,
		      const struct cli_cmd *c)
{
	const struct cli_opt *o;

	fprintf(f, "\t%s:%s) echo \"", obj->name, c->name);
	for (o = c->opts; o && o->name; o++)
		fprintf(f, "%s%s%s%s", o == c->opts ? "" : " ", o->name,
			o->alias ? " " : "", o->alias ? o->alias : "");
	fputs("\" ;;\n", f);
}

static void bash_kind(FILE *f, enum cli_kind k, const char *const *words)
{
	int i;

	fputs(kind_name(k), f);
	for (i = 0; k == CLI_WORD && words && words[i]; i++)
		fprintf(f, " %s", words[i]);
}

/*
 * _ftsw_kind OBJ CMD OPT: what OPT's value is (OPT "": the positional
 * arguments').
 */
static void bash_kinds(FILE *f, const struct cli_object *obj,
		       const struct cli_cmd *c)
{
	const struct cli_opt *o;

	for (o = c->opts; o && o->name; o++) {
		if (o->kind == CLI_FLAG)
			continue;
		fprintf(f, "\t%s:%s:%s", obj->name, c->name, o->name);
		if (o->alias)
			fprintf(f, "|%s:%s:%s", obj->name, c->name, o->alias);
		fputs(") echo \"", f);
		bash_kind(f, o->kind, o->words);
		fputs("\" ;;\n", f);
	}
	if (c->pos_max)
		fprintf(f, "\t%s:%s:) echo \"%s\" ;;\n", obj->name, c->name,
			kind_name(c->pos_kind));
}

static void bash_cases_cmds(FILE *f)
{
	const struct cli_object *obj;
	const struct cli_cmd *c;

	fputs("_ftsw_cmds()\n{\n\tcase \"$1\" in\n", f);
	for (obj = cli_objects; obj->name; obj++) {
		fprintf(f, "\t%s) echo \"", obj->name);
		for (c = obj->cmds; c->name; c++)
			if (c->name[0] && !c->hidden)
				fprintf(f, "%s ", c->name);
		fputs("help\" ;;\n", f);
	}
	fputs("\tesac\n}\n\n", f);
}

/* The driver: finds object and command, then completes by kind. */
static const char bash_main[] =
"_ftsw_value()\n"
"{\n"
"\tlocal kind=$1 cur=$2\n"
"\tcase \"$kind\" in\n"
"\tfile) compopt -o filenames 2>/dev/null\n"
"\t\tCOMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
"\ttopo) compopt -o filenames 2>/dev/null\n"
"\t\tCOMPREPLY=($(compgen -f -- \"$cur\") $(compgen -W \"$_ftsw_specs\" -- \"$cur\")) ;;\n"
"\tspec) compopt -o nospace 2>/dev/null\n"
"\t\tCOMPREPLY=($(compgen -W \"$_ftsw_specs\" -- \"$cur\")) ;;\n"
"\tengine) COMPREPLY=($(compgen -W \"$_ftsw_engines\" -- \"$cur\")) ;;\n"
"\tpattern) COMPREPLY=($(compgen -W \"$_ftsw_patterns\" -- \"$cur\")) ;;\n"
"\torder) COMPREPLY=($(compgen -W \"$_ftsw_orders\" -- \"$cur\")) ;;\n"
"\tword\\ *) COMPREPLY=($(compgen -W \"${kind#word }\" -- \"$cur\")) ;;\n"
"\t*) COMPREPLY=() ;;\n"
"\tesac\n"
"}\n"
"\n"
"_ftsw()\n"
"{\n"
"\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
"\tlocal i=1 obj= cmd= kind cmds\n"
"\tCOMPREPLY=()\n"
"\twhile [[ $i -lt $COMP_CWORD && ${COMP_WORDS[i]} == -* ]]; do\n"
"\t\ti=$((i + 1))\n"
"\tdone\n"
"\tif [[ $i -eq $COMP_CWORD ]]; then\n"
"\t\tif [[ $cur == -* ]]; then\n"
"\t\t\tCOMPREPLY=($(compgen -W \"$_ftsw_global\" -- \"$cur\"))\n"
"\t\telse\n"
"\t\t\tCOMPREPLY=($(compgen -W \"$_ftsw_objects\" -- \"$cur\"))\n"
"\t\tfi\n"
"\t\treturn 0\n"
"\tfi\n"
"\tobj=${COMP_WORDS[i]}\n"
"\tcmds=$(_ftsw_cmds \"$obj\")\n"
"\ti=$((i + 1))\n"
"\tif [[ $i -eq $COMP_CWORD && $cur != -* ]]; then\n"
"\t\tCOMPREPLY=($(compgen -W \"$cmds\" -- \"$cur\"))\n"
"\t\treturn 0\n"
"\tfi\n"
"\tif [[ $i -lt $COMP_CWORD && \" $cmds \" == *\" ${COMP_WORDS[i]} \"* ]]; then\n"
"\t\tcmd=${COMP_WORDS[i]}\n"
"\tfi\n"
"\t# the value of the option (-x, --xy or a KEY word) before\n"
"\tkind=$(_ftsw_kind \"$obj\" \"$cmd\" \"$prev\")\n"
"\tif [[ -n $kind ]]; then\n"
"\t\t_ftsw_value \"$kind\" \"$cur\"\n"
"\t\treturn 0\n"
"\tfi\n"
"\tif [[ $cur == -* ]]; then\n"
"\t\tCOMPREPLY=($(compgen -W \"$(_ftsw_opts \"$obj\" \"$cmd\")\" -- \"$cur\"))\n"
"\t\treturn 0\n"
"\tfi\n"
"\tkind=$(_ftsw_kind \"$obj\" \"$cmd\" \"\")\n"
"\t[[ -n $kind ]] && _ftsw_value \"$kind\" \"$cur\"\n"
"\t# the KEY words of the low-level objects (port bind switch ID ...)\n"
"\tlocal w keys=\n"
"\tfor w in $(_ftsw_opts \"$obj\" \"$cmd\"); do\n"
"\t\t[[ $w == -* ]] || keys+=\" $w\"\n"
"\tdone\n"
"\t[[ -n $keys ]] && COMPREPLY+=($(compgen -W \"$keys\" -- \"$cur\"))\n"
"\treturn 0\n"
"}\n"
"\n"
"complete -F _ftsw ftsw\n";

void cli_completion_bash(FILE *f)
{
	const struct cli_object *obj;
	const struct ftsw_engine *e;
	size_t i, n;

	fputs("# bash completion for ftsw, generated by `ftsw completion bash`\n"
	      "# from the command tables of the ftsw binary itself.\n\n", f);
	fputs("_ftsw_global=\"-j --json -s -v --verbose -h --help -batch -force\"\n", f);
	fputs("_ftsw_objects=\"", f);
	for (obj = cli_objects; obj->name; obj++)
		fprintf(f, "%s%s", obj == cli_objects ? "" : " ", obj->name);
	fputs("\"\n_ftsw_engines=\"", f);
	e = ftsw_engines(&n);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " " : "", e[i].name);
	fprintf(f, "\"\n_ftsw_specs=\"%s\"\n_ftsw_patterns=\"%s\"\n"
		"_ftsw_orders=\"%s\"\n\n", spec_words, pattern_words,
		order_words);
	bash_cases_cmds(f);
	bash_cases(f, "_ftsw_opts()\n{\n\tcase \"$1:$2\" in\n", bash_opts);
	bash_cases(f, "_ftsw_kind()\n{\n\tcase \"$1:$2:$3\" in\n", bash_kinds);
	fputs(bash_main, f);
}

void cli_detach(const char *log)
{
	int fd;

	setsid();
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
	}
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0) {
		dup2(fd, 0);
		close(fd);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
}
