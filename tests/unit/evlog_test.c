// SPDX-License-Identifier: GPL-2.0
/*
 * A lab's events file (util/evlog.h): lines written as JSON and parsed
 * back (python3's json reads them too), a FIFO in the file's place never
 * blocks the writer, rotation past FTSW_EVLOG_MAX, and following a file by
 * lines across partial writes, over-long lines and a rotation.
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>

#include "common.h"
#include "util/evlog.h"
#include "util/rundir.h"

struct got {
	char lines[8][FTSW_TAIL_LINE_MAX + 1];
	unsigned n;
};

static void got_line(const char *line, size_t len, void *arg)
{
	struct got *g = arg;

	if (g->n < 8) {
		memcpy(g->lines[g->n], line, len);
		g->lines[g->n++][len] = 0;
	}
}

TEST(parse)
{
	static const char ok[] =
		"{\"time\":1764393600.125,\"kind\":\"fail\",\"text\":\"cable "
		"s1:4 - h3 \\\"down\\\" \\u0041\\\\\"}";
	static const char *const bad[] = {
		"", "{}", "[\"time\"]",
		"{\"time\":\"x\",\"kind\":\"a\",\"text\":\"b\"}",
		"{\"time\":1,\"kind\":\"a\"}",
		"{\"time\":1,\"kind\":\"a\",\"text\":\"b}",
		"{\"time\":-1,\"kind\":\"a\",\"text\":\"b\"}",
		"{\"time\":1,\"kind\":\"a\",\"text\":\"\\q\"}",
		"{\"time\":1,\"kind\":\"a\",\"text\":\"\x01\"}",
	};
	struct ftsw_evlog_line e;
	unsigned i;

	ASSERT_EQ(0, ftsw_evlog_parse(ok, strlen(ok), &e));
	EXPECT_EQ(1764393600.125, e.time);
	EXPECT_STREQ("fail", e.kind);
	EXPECT_STREQ("cable s1:4 - h3 \"down\" A\\", e.text);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_EQ(-1, ftsw_evlog_parse(bad[i], strlen(bad[i]), &e))
			TH_LOG("bad line %u", i);
}

static void append(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);

	if (fd >= 0) {
		if (write(fd, s, strlen(s)) < 0)
			perror(path);
		close(fd);
	}
}

TEST(tail)
{
	char dir[] = "/tmp/ftsw-tail-XXXXXX", path[64], old[70];
	char longl[FTSW_TAIL_LINE_MAX + 40];
	struct ftsw_tail t;
	struct got g = { 0 };

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/log", dir);
	snprintf(old, sizeof(old), "%s.1", path);
	ftsw_tail_init(&t, path);
	EXPECT_EQ(-1, ftsw_tail_read(&t, true, 1 << 20, got_line, &g));
	append(path, "one\ntwo\nthr");
	EXPECT_EQ(2, ftsw_tail_read(&t, true, 1 << 20, got_line, &g));
	EXPECT_EQ(0, ftsw_tail_read(&t, true, 1 << 20, got_line, &g));
	append(path, "ee\n");
	EXPECT_EQ(1, ftsw_tail_read(&t, true, 1 << 20, got_line, &g));
	ASSERT_EQ(3, g.n);
	EXPECT_STREQ("one", g.lines[0]);
	EXPECT_STREQ("two", g.lines[1]);
	EXPECT_STREQ("three", g.lines[2]);
	/* a line longer than the buffer is dropped, the next one kept */
	memset(longl, 'x', sizeof(longl) - 2);
	longl[sizeof(longl) - 2] = '\n';
	longl[sizeof(longl) - 1] = 0;
	append(path, longl);
	append(path, "four\n");
	EXPECT_EQ(1, ftsw_tail_read(&t, true, 1 << 20, got_line, &g));
	EXPECT_STREQ("four", g.lines[3]);
	/* rotated: the old file's last line, then the new file's */
	append(path, "five\n");
	ASSERT_EQ(0, rename(path, old));
	append(path, "six\n");
	EXPECT_EQ(2, ftsw_tail_read(&t, true, 1 << 20, got_line, &g));
	EXPECT_STREQ("five", g.lines[4]);
	EXPECT_STREQ("six", g.lines[5]);
	ftsw_tail_close(&t);
	/* opened from its end: only what comes after */
	ftsw_tail_init(&t, path);
	EXPECT_EQ(0, ftsw_tail_read(&t, false, 1 << 20, got_line, &g));
	append(path, "seven\n");
	EXPECT_EQ(1, ftsw_tail_read(&t, false, 1 << 20, got_line, &g));
	EXPECT_STREQ("seven", g.lines[6]);
	ftsw_tail_close(&t);
	unlink(path);
	unlink(old);
	rmdir(dir);
}

static void alarmed(int sig)
{
	(void)sig;
	_exit(99);
}

/*
 * The writer: a lab's run directory FTSW_RUNDIR/NAME (made here), one
 * line per event; no directory: nothing; a FIFO with no reader where the
 * file should be: the writer returns at once; past FTSW_EVLOG_MAX the file
 * is renamed to events.1.
 */
TEST(writer)
{
	char lab[32], dir[64], path[96], old[100], buf[512];
	struct ftsw_evlog_line e;
	struct got g = { 0 };
	struct ftsw_tail t;
	struct stat st;
	int fd;

	snprintf(lab, sizeof(lab), "ut-evlog-%d", (int)getpid());
	snprintf(dir, sizeof(dir), FTSW_RUNDIR "/%s", lab);
	snprintf(path, sizeof(path), "%s/" FTSW_EVLOG_FILE, dir);
	snprintf(old, sizeof(old), "%s.1", path);
	mkdir(FTSW_RUNDIR, 0755);
	ftsw_evlog(lab, "fail", "nothing: no directory");
	EXPECT_NE(0, stat(path, &st));
	ASSERT_EQ(0, mkdir(dir, 0755));
	ftsw_evlog(lab, "fail", "cable s%u:%u - h%u %s", 1, 4, 3, "down \"x\"");
	ftsw_evlog(lab, "fm-sweep", "fm sweep %d", 2);
	ftsw_tail_init(&t, path);
	EXPECT_EQ(2, ftsw_tail_read(&t, true, 1 << 20, got_line, &g));
	ftsw_tail_close(&t);
	ASSERT_EQ(0, ftsw_evlog_parse(g.lines[0], strlen(g.lines[0]), &e));
	EXPECT_STREQ("fail", e.kind);
	EXPECT_STREQ("cable s1:4 - h3 down \"x\"", e.text);
	EXPECT_LT(1.7e9, e.time);
	EXPECT_TRUE(ut_json_valid(g.lines[1]));
	/* rotation */
	fd = open(path, O_WRONLY | O_APPEND);
	ASSERT_LE(0, fd);
	memset(buf, ' ', sizeof(buf));
	buf[sizeof(buf) - 1] = '\n';
	while (!fstat(fd, &st) && st.st_size <= FTSW_EVLOG_MAX)
		ASSERT_EQ(sizeof(buf), write(fd, buf, sizeof(buf)));
	close(fd);
	ftsw_evlog(lab, "up", "after");
	EXPECT_EQ(0, stat(old, &st));
	EXPECT_LT(FTSW_EVLOG_MAX, st.st_size);
	EXPECT_EQ(0, stat(path, &st));
	EXPECT_GT(200, st.st_size);
	/* a FIFO nobody reads: not opened, nothing waits */
	unlink(path);
	ASSERT_EQ(0, mkfifo(path, 0644));
	signal(SIGALRM, alarmed);
	alarm(5);
	ftsw_evlog(lab, "fail", "into a fifo");
	alarm(0);
	unlink(path);
	unlink(old);
	EXPECT_EQ(0, rmdir(dir));
}

TEST_HARNESS_MAIN
