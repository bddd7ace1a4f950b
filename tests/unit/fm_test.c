// SPDX-License-Identifier: GPL-2.0
/*
 * The fabric manager's status file read back (ftsw_fm_status_read): the
 * file `ftsw fm` writes and `ftsw fm status` prints. Documents written by
 * hand here (as the manager's writer spells them: compact JSON), values
 * compared with what was written; a bad file is refused naming the file
 * and the key, never read as zero.
 */
#include <unistd.h>

#include "common.h"
#include "fm/fm.h"

static char path[] = "/tmp/ftsw-fm-status-XXXXXX";

static int write_doc(const char *doc)
{
	FILE *f;
	int fd = mkstemp(path);

	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f)
		return -1;
	fputs(doc, f);
	return fclose(f);
}

#define DOC(lmc, cause, pairs) \
	"{\"pid\":4242,\"netns\":\"lab\\\"1\",\"engine\":\"dmodc\"," \
	"\"switches\":20,\"hosts\":16,\"lmc\":" lmc ",\"cables\":48," \
	"\"cables_usable\":44,\"generation\":7,\"events\":12," \
	"\"no_change_events\":3,\"overruns\":1,\"sweeps\":4,\"last\":" \
	"{\"cause\":\"" cause "\",\"routed_us\":10,\"uploaded_us\":20," \
	"\"committed_us\":30,\"switches_changed\":5}," \
	"\"unreachable_pairs\":58,\"unreachable\":[" pairs "]}\n"

TEST(reads_every_field)
{
	struct ftsw_fm_status st;
	struct ftsw_err err;

	ASSERT_EQ(0, write_doc(DOC("2", "s0 \\\"p1\\\" \\\\ \\u00e9\\tx",
				   "[0,2],[0,3],[15,1]")));
	ASSERT_EQ(0, ftsw_fm_status_read(path, &st, &err)) TH_LOG("%s", err.msg);
	unlink(path);
	EXPECT_EQ(4242, st.pid);
	EXPECT_STREQ("lab\"1", st.netns);
	EXPECT_STREQ("dmodc", st.engine);
	EXPECT_EQ(20, st.switches);
	EXPECT_EQ(16, st.hosts);
	EXPECT_EQ(2, st.lmc);
	EXPECT_EQ(48, st.cables);
	EXPECT_EQ(44, st.cables_usable);
	EXPECT_EQ(7, st.generation);
	EXPECT_EQ(12, st.events);
	EXPECT_EQ(3, st.no_change_events);
	EXPECT_EQ(1, st.overruns);
	EXPECT_EQ(4, st.sweeps);
	/* \" \\ \u00e9 (UTF-8 C3 A9) \t decoded */
	EXPECT_STREQ("s0 \"p1\" \\ \xc3\xa9\tx", st.cause);
	EXPECT_EQ(10, st.routed_us);
	EXPECT_EQ(20, st.uploaded_us);
	EXPECT_EQ(30, st.committed_us);
	EXPECT_EQ(5, st.switches_changed);
	EXPECT_EQ(58, st.unreachable_pairs);
	ASSERT_EQ(3, st.nunreach);
	EXPECT_EQ(0, st.unreach[0][0]);
	EXPECT_EQ(2, st.unreach[0][1]);
	EXPECT_EQ(15, st.unreach[2][0]);
	EXPECT_EQ(1, st.unreach[2][1]);
}

TEST(no_unreachable_pairs)
{
	struct ftsw_fm_status st;
	struct ftsw_err err;

	ASSERT_EQ(0, write_doc(DOC("0", "x", "")));
	ASSERT_EQ(0, ftsw_fm_status_read(path, &st, &err)) TH_LOG("%s", err.msg);
	unlink(path);
	EXPECT_EQ(0, st.nunreach);
	EXPECT_EQ(0, st.lmc);
}

/* Each bad document is refused with the file and the key named. */
TEST(bad_files_refused)
{
	static const struct {
		const char *doc, *msg;
	} c[] = {
		{ DOC("-1", "x", ""), "lmc: '-1' is not an unsigned number" },
		{ DOC("18446744073709551616", "x", ""), "lmc: 18446744073709551616 is out of range" },
		{ DOC("null", "x", ""), "lmc: 'null' is not a number" },
		{ DOC("1", "x", "[0,2],[0]"), "unreachable" },
		{ "{\"pid\":1}", "switches: missing" },
		{ "", "pid: missing" },
	};
	struct ftsw_fm_status st;
	struct ftsw_err err;
	unsigned i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		strcpy(path + strlen(path) - 6, "XXXXXX");
		ASSERT_EQ(0, write_doc(c[i].doc));
		EXPECT_EQ(-1, ftsw_fm_status_read(path, &st, &err));
		unlink(path);
		EXPECT_NE(NULL, strstr(err.msg, c[i].msg)) TH_LOG("%u: %s", i, err.msg);
		EXPECT_NE(NULL, strstr(err.msg, "/tmp/ftsw-fm-status-"));
	}
}

/*
 * A status file past 8 KiB is refused, never read as its first 8 KiB (a
 * valid document followed by 9000 blanks was); /dev/zero at once.
 */
TEST(long_file_and_device_refused)
{
	struct ftsw_fm_status st;
	struct ftsw_err err;
	char *doc = malloc(sizeof(DOC("1", "x", "")) + 9000);

	ASSERT_NE(NULL, doc);
	strcpy(doc, DOC("1", "x", ""));
	memset(doc + strlen(doc), ' ', 9000);
	doc[sizeof(DOC("1", "x", "")) - 1 + 9000] = 0;
	strcpy(path + strlen(path) - 6, "XXXXXX");
	ASSERT_EQ(0, write_doc(doc));
	EXPECT_EQ(-1, ftsw_fm_status_read(path, &st, &err));
	unlink(path);
	EXPECT_NE(NULL, strstr(err.msg, ": larger than 8190 bytes"))
		TH_LOG("%s", err.msg);
	free(doc);
	EXPECT_EQ(-1, ftsw_fm_status_read("/dev/zero", &st, &err));
	EXPECT_STREQ("/dev/zero: a character device, not a regular file",
		     err.msg);
}

TEST(missing_file)
{
	struct ftsw_fm_status st;
	struct ftsw_err err;

	EXPECT_EQ(-1, ftsw_fm_status_read("/nonexistent/fm.status", &st, &err));
	EXPECT_NE(NULL, strstr(err.msg, "/nonexistent/fm.status"));
}

TEST_HARNESS_MAIN
