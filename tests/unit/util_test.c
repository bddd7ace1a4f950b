// SPDX-License-Identifier: GPL-2.0
/*
 * util/output (one call prints a field as text or as JSON) and util/parse
 * (the one number parser). Expected strings are written out by hand from
 * RFC 8259 and the parser's documented rules; every JSON document is also
 * checked by python3's json module, independently of ftsw.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>

#include <fcntl.h>
#include <sys/stat.h>

#include "common.h"
#include "nl/ns.h"
#include "util/output.h"
#include "util/parse.h"

/* Run fn(arg) with the writer on a memory stream; returns what it wrote. */
static char *capture(bool json, void (*fn)(const void *arg), const void *arg)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return NULL;
	ftsw_out_begin(f, json);
	fn(arg);
	ftsw_out_end();
	fclose(f);
	return buf;
}

static void json_write(FILE *f, const void *s)
{
	ftsw_json_write_str(f, s);
}

static char *json_str(const char *s)
{
	return ut_text(json_write, s);
}

TEST(escape_specials_and_controls)
{
	char *s = json_str("a\"b\\c\nd\te\rf\x01g\x1f/");

	ASSERT_NE(NULL, s);
	EXPECT_STREQ("\"a\\\"b\\\\c\\nd\\te\\rf\\u0001g\\u001f/\"", s);
	EXPECT_TRUE(ut_json_valid(s));
	free(s);
	s = json_str(NULL);
	EXPECT_STREQ("\"\"", s);
	free(s);
}

TEST(escape_utf8_valid_passes_through)
{
	/* e-acute (2 bytes), euro sign (3), U+1F600 (4) */
	char *s = json_str("\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");

	EXPECT_STREQ("\"\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"", s);
	EXPECT_TRUE(ut_json_valid(s));
	free(s);
}

TEST(escape_invalid_utf8_replaced)
{
	static const struct {
		const char *in, *out;
	} c[] = {
		{ "a\xff" "b", "\"a\\ufffdb\"" },		/* never a lead */
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },	/* overlong '/' */
		{ "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"" },/* overlong 3 */
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },/* surrogate */
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
		{ "x\xe2\x82", "\"x\\ufffd\\ufffd\"" },	/* cut at the end */
		{ "\x80", "\"\\ufffd\"" },		/* lone continuation */
	};
	const unsigned n = sizeof(c) / sizeof(c[0]);
	char *s[sizeof(c) / sizeof(c[0])];
	bool ok[sizeof(c) / sizeof(c[0])];
	unsigned i;

	for (i = 0; i < n; i++) {
		s[i] = json_str(c[i].in);
		EXPECT_STREQ(c[i].out, s[i]) TH_LOG("case %u", i);
	}
	/* one python3 for all: its start-up is slow on a loaded machine */
	ASSERT_TRUE(ut_json_valid_all(s, n, ok));
	for (i = 0; i < n; i++) {
		EXPECT_TRUE(ok[i]) TH_LOG("case %u", i);
		free(s[i]);
	}
}

TEST(double_nonfinite_is_null)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	ftsw_json_write_double(f, NAN);
	fputc(' ', f);
	ftsw_json_write_double(f, INFINITY);
	fputc(' ', f);
	ftsw_json_write_double(f, -INFINITY);
	fputc(' ', f);
	ftsw_json_write_double(f, -0.0);
	fputc(' ', f);
	ftsw_json_write_double(f, 0.1);
	fputc(' ', f);
	ftsw_json_write_double(f, 1e300);
	fclose(f);
	EXPECT_STREQ("null null null 0 0.1 1e+300", buf);
	free(buf);
}

/* One description of a report, printed both ways. */
static void report(const void *arg)
{
	(void)arg;
	ftsw_out_open_object(NULL);
	ftsw_out_str("engine", "%s:", "dmodk");
	ftsw_out_uint("hosts", " %" PRIu64 " hosts", 16);
	ftsw_out_int("delta", " delta %" PRId64, -3);
	ftsw_out_float("mean", " mean %.2f", 1.5);
	ftsw_out_float("ratio", " ratio %.2f", NAN);
	ftsw_out_bool("ok", " ok %s", true);
	ftsw_out_null("link", " no link");
	ftsw_out_text("\n");
	ftsw_out_str("name", NULL, "json only");
	ftsw_out_str(NULL, "text only\n", NULL);
	ftsw_out_open_array("levels");
	ftsw_out_open_object(NULL);
	ftsw_out_int("from", "  %" PRId64, 0);
	ftsw_out_int("to", "->%" PRId64 "\n", 1);
	ftsw_out_close_object();
	ftsw_out_open_object(NULL);
	ftsw_out_int("from", "  %" PRId64, 1);
	ftsw_out_int("to", "->%" PRId64 "\n", 2);
	ftsw_out_close_object();
	ftsw_out_close_array();
	ftsw_out_open_array("empty");
	ftsw_out_close_array();
	ftsw_out_open_array("nums");
	ftsw_out_uint(NULL, " %" PRIu64, 1);
	ftsw_out_uint(NULL, " %" PRIu64, 2);
	ftsw_out_open_array(NULL);
	ftsw_out_uint(NULL, " %" PRIu64, 3);
	ftsw_out_close_array();
	ftsw_out_close_array();
	ftsw_out_text("\n");
	ftsw_out_close_object();
}

TEST(text_and_json_from_one_description)
{
	char *text = capture(false, report, NULL);
	char *json = capture(true, report, NULL);

	ASSERT_NE(NULL, text);
	ASSERT_NE(NULL, json);
	EXPECT_STREQ("dmodk: 16 hosts delta -3 mean 1.50 ratio nan ok yes "
		     "no link\ntext only\n  0->1\n  1->2\n 1 2 3\n", text);
	EXPECT_STREQ("{\"engine\":\"dmodk\",\"hosts\":16,\"delta\":-3,"
		     "\"mean\":1.5,\"ratio\":null,\"ok\":true,\"link\":null,"
		     "\"name\":\"json only\",\"levels\":[{\"from\":0,\"to\":1},"
		     "{\"from\":1,\"to\":2}],\"empty\":[],\"nums\":[1,2,[3]]}\n",
		     json);
	EXPECT_TRUE(ut_json_valid(json));
	free(text);
	free(json);
}

/* Keys are escaped like values; containers left open are closed at end. */
static void unclosed(const void *arg)
{
	(void)arg;
	ftsw_out_open_object(NULL);
	ftsw_out_str("we\"ird\nkey", "%s", "v\xff");
	ftsw_out_open_object("inner");
	ftsw_out_open_array("a");
	ftsw_out_float(NULL, "%g", INFINITY);
}

TEST(keys_escaped_and_end_closes)
{
	char *json = capture(true, unclosed, NULL);

	EXPECT_STREQ("{\"we\\\"ird\\nkey\":\"v\\ufffd\",\"inner\":{\"a\":"
		     "[null]}}\n", json);
	EXPECT_TRUE(ut_json_valid(json));
	free(json);
}

/* The writer is reusable: a second document starts without a comma. */
TEST(two_documents)
{
	char *a = capture(true, unclosed, NULL);
	char *b = capture(true, unclosed, NULL);

	EXPECT_STREQ(a, b);
	free(a);
	free(b);
}

TEST(end_reports_write_errors)
{
	FILE *f = fopen("/dev/full", "w");

	ASSERT_NE(NULL, f);
	ftsw_out_begin(f, true);
	ftsw_out_open_object(NULL);
	ftsw_out_str("x", NULL, "y");
	EXPECT_EQ(-1, ftsw_out_end());
	fclose(f);
}

/* ---------------------------------------------------------------- parse */

/* ftsw -batch's words: blanks, both quotes, comments, the bounds. */
TEST(parse_words)
{
	char line[] = "  port bind\t'switch' \"a b\"c '' # x y";
	char two[] = "a b c", open1[] = "a 'b", open2[] = "\"", blank[] = " # c";
	struct ftsw_err err;
	char *w[8];

	ASSERT_EQ(5, ftsw_parse_words(line, w, 8, &err));
	EXPECT_STREQ("port", w[0]);
	EXPECT_STREQ("bind", w[1]);
	EXPECT_STREQ("switch", w[2]);
	EXPECT_STREQ("a bc", w[3]);
	EXPECT_STREQ("", w[4]);
	EXPECT_EQ(-E2BIG, ftsw_parse_words(two, w, 2, &err));
	EXPECT_STREQ("more than 2 words", err.msg);
	EXPECT_EQ(-EINVAL, ftsw_parse_words(open1, w, 8, &err));
	EXPECT_STREQ("unterminated ' quote", err.msg);
	EXPECT_EQ(-EINVAL, ftsw_parse_words(open2, w, 8, &err));
	EXPECT_EQ(0, ftsw_parse_words(blank, w, 8, &err));
}

TEST(parse_decimal_never_octal)
{
	struct ftsw_err err;
	uint64_t v = 0;
	unsigned u = 0;

	EXPECT_EQ(0, ftsw_parse_u64("--seed", "010", 0, UINT64_MAX, &v, &err));
	EXPECT_EQ(10, v);
	EXPECT_EQ(0, ftsw_parse_uint("--ranks", "08", 0, 100, &u, &err));
	EXPECT_EQ(8, u);
	EXPECT_EQ(0, ftsw_parse_u64("x", "18446744073709551615", 0,
				    UINT64_MAX, &v, &err));
	EXPECT_EQ(UINT64_MAX, v);
}

TEST(parse_hex)
{
	struct ftsw_err err;
	uint64_t v = 0;

	EXPECT_EQ(0, ftsw_parse_u64("guid", "0x1f", 0, UINT64_MAX, &v, &err));
	EXPECT_EQ(31, v);
	EXPECT_EQ(0, ftsw_parse_u64("guid", "0XAbC", 0, UINT64_MAX, &v, &err));
	EXPECT_EQ(0xabc, v);
	/* "0x" without a digit is the number 0 followed by text */
	EXPECT_EQ(-EINVAL, ftsw_parse_u64("guid", "0x", 0, 100, &v, &err));
	EXPECT_EQ(-EINVAL, ftsw_parse_u64("guid", "0xg", 0, 100, &v, &err));
	EXPECT_EQ(-ERANGE, ftsw_parse_u64("lid", "0x100000001", 0, 0xffff,
					  &v, &err));
}

TEST(parse_wrap_refused_for_32_bit)
{
	struct ftsw_err err;
	unsigned u = 7;

	EXPECT_EQ(-ERANGE, ftsw_parse_uint("--ranks", "4294967298", 2,
					   UINT_MAX, &u, &err));
	EXPECT_EQ(7, u);
	EXPECT_NE(NULL, strstr(err.msg, "--ranks")) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, "4294967298"));
	EXPECT_EQ(-ERANGE, ftsw_parse_uint("--threads", "4294967297", 0, 256,
					   &u, &err));
	EXPECT_NE(NULL, strstr(err.msg, "0..256")) TH_LOG("%s", err.msg);
	/* past 2^64 too */
	EXPECT_EQ(-ERANGE, ftsw_parse_uint("--seed", "18446744073709551616",
					   0, UINT_MAX, &u, &err));
	EXPECT_EQ(7, u);
}

TEST(parse_negative_refused_with_option_named)
{
	struct ftsw_err err;
	unsigned u = 7;

	EXPECT_EQ(-EINVAL, ftsw_parse_uint("--threads", "-1", 0, 256, &u,
					   &err));
	EXPECT_NE(NULL, strstr(err.msg, "--threads")) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, "-1"));
	EXPECT_EQ(-EINVAL, ftsw_parse_uint("--lmc", "+1", 0, 7, &u, &err));
	EXPECT_NE(NULL, strstr(err.msg, "--lmc"));
	EXPECT_EQ(7, u);
}

TEST(parse_trailing_empty_space_refused)
{
	static const char *const bad[] = { "", "12abc", "1 ", " 1", "1,2",
					   "abc", "1.0", "1e3", "0b1" };
	struct ftsw_err err;
	uint64_t v = 5;
	unsigned i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-EINVAL, ftsw_parse_u64("--samples", bad[i], 0,
						  UINT64_MAX, &v, &err))
			TH_LOG("'%s'", bad[i]);
		EXPECT_NE(NULL, strstr(err.msg, "--samples"));
	}
	EXPECT_EQ(-EINVAL, ftsw_parse_u64("--samples", NULL, 0, 9, &v, &err));
	EXPECT_EQ(5, v);
}

TEST(parse_range_named)
{
	struct ftsw_err err;
	unsigned u = 3;

	EXPECT_EQ(-ERANGE, ftsw_parse_uint("--max-vls", "0", 1, 15, &u, &err));
	EXPECT_NE(NULL, strstr(err.msg, "1..15")) TH_LOG("%s", err.msg);
	EXPECT_EQ(-ERANGE, ftsw_parse_uint("--max-vls", "16", 1, 15, &u, &err));
	EXPECT_EQ(0, ftsw_parse_uint("--max-vls", "15", 1, 15, &u, &err));
	EXPECT_EQ(15, u);
}

TEST(parse_prefix_for_specs)
{
	struct ftsw_err err;
	const char *end = NULL;
	uint64_t v = 0;

	EXPECT_EQ(0, ftsw_parse_u64_prefix("ftmn", "16,3", 1, 1000, &v, &end,
					   &err));
	EXPECT_EQ(16, v);
	EXPECT_STREQ(",3", end);
	EXPECT_EQ(-EINVAL, ftsw_parse_u64_prefix("ftmn", ",3", 1, 1000, &v,
						 &end, &err));
	EXPECT_EQ(-ERANGE, ftsw_parse_u64_prefix("ftmn", "0,3", 1, 1000, &v,
						 &end, &err));
}

TEST(parse_double)
{
	static const char *const bad[] = { "", "nan", "NaN", "inf", "-inf",
					   "infinity", "0x1p3", " 1", "1x",
					   "1.5.2", "e5" };
	struct ftsw_err err;
	double d = 9;
	unsigned i;

	EXPECT_EQ(0, ftsw_parse_double("amount", "1.5", 0, 10, &d, &err));
	EXPECT_EQ(1.5, d);
	EXPECT_EQ(0, ftsw_parse_double("amount", "2e1", 0, 100, &d, &err));
	EXPECT_EQ(20, d);
	EXPECT_EQ(0, ftsw_parse_double("p", "-.5", -1, 1, &d, &err));
	EXPECT_EQ(-0.5, d);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		d = 9;
		EXPECT_EQ(-EINVAL, ftsw_parse_double("amount", bad[i], -1e9,
						     1e9, &d, &err))
			TH_LOG("'%s'", bad[i]);
		EXPECT_EQ(9, d);
		EXPECT_NE(NULL, strstr(err.msg, "amount"));
	}
	EXPECT_EQ(-ERANGE, ftsw_parse_double("amount", "1e999", 0, INFINITY,
					     &d, &err));
	EXPECT_EQ(-ERANGE, ftsw_parse_double("p", "1.01", 0, 1, &d, &err));
	EXPECT_NE(NULL, strstr(err.msg, "p: 1.01")) TH_LOG("%s", err.msg);
}

struct ns_probe {
	int calls;
	bool fail;
	ino_t inside;		/* the namespace fn ran in */
};

static ino_t netns_ino(void)
{
	struct stat st;

	return stat("/proc/thread-self/ns/net", &st) ? 0 : st.st_ino;
}

static int ns_probe_fn(void *arg, struct ftsw_err *err)
{
	struct ns_probe *p = arg;

	p->calls++;
	p->inside = netns_ino();
	if (p->fail)
		ftsw_err_set(err, "inside failed");
	return p->fail ? -1 : 0;
}

/*
 * ftsw_netns_run: fn runs once in the namespace given, the thread comes
 * back; fn's failure is returned with its own message; a namespace that
 * cannot be entered is named and fn never runs. (The caller's own
 * namespace stands for "another" one: what is checked is the calling
 * sequence and the messages, not setns itself.)
 */
TEST(netns_run)
{
	int fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	struct ns_probe p = { 0 };
	struct ftsw_err err = { 0 };
	ino_t home = netns_ino();

	ASSERT_LE(0, fd);
	EXPECT_EQ(0, ftsw_netns_run(fd, "self", ns_probe_fn, &p, &err));
	EXPECT_EQ(1, p.calls);
	EXPECT_EQ(home, p.inside);
	EXPECT_EQ(home, netns_ino());
	p.fail = true;
	EXPECT_EQ(-1, ftsw_netns_run(fd, "self", ns_probe_fn, &p, &err));
	EXPECT_EQ(2, p.calls);
	EXPECT_STREQ("inside failed", err.msg);
	EXPECT_EQ(-1, ftsw_netns_run(-1, "nowhere", ns_probe_fn, &p, &err));
	EXPECT_EQ(2, p.calls);
	EXPECT_NE(NULL, strstr(err.msg, "namespace nowhere: setns"))
		TH_LOG("%s", err.msg);
	close(fd);
}

/*
 * ftsw_netns_run_name: no name runs fn here, where the thread is; a name
 * that is no namespace is named in the message and fn never runs.
 */
TEST(netns_run_name)
{
	struct ns_probe p = { 0 };
	struct ftsw_err err = { 0 };
	ino_t home = netns_ino();
	char name[64];

	EXPECT_EQ(0, ftsw_netns_run_name(NULL, ns_probe_fn, &p, &err));
	EXPECT_EQ(1, p.calls);
	EXPECT_EQ(home, p.inside);
	snprintf(name, sizeof(name), "ut-none-%d", (int)getpid());
	EXPECT_EQ(-1, ftsw_netns_run_name(name, ns_probe_fn, &p, &err));
	EXPECT_EQ(1, p.calls);
	EXPECT_NE(NULL, strstr(err.msg, "no such namespace"))
		TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, name)) TH_LOG("%s", err.msg);
	EXPECT_EQ(home, netns_ino());
}

TEST_HARNESS_MAIN
