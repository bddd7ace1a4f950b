// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw lab: which lab a command means when it names none (lab.h).
 *
 * One rule for every command that takes --lab (lab and fm alike): the
 * name given, else $FTSW_LAB, else the only lab of this machine when there
 * is exactly one, else "ftsw". A lab is a directory of the run directory
 * holding a lab.conf; anything else there (a stray log) is not one.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lab/lab.h"

bool ftsw_lab_exists(const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	if (!name || !*name || name[0] == '.' || strchr(name, '/'))
		return false;
	snprintf(path, sizeof(path), "%s/%s/lab.conf", ftsw_rundir(), name);
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

unsigned ftsw_lab_names(char *buf, size_t sz, char *first, size_t first_sz)
{
	DIR *d = opendir(ftsw_rundir());
	struct dirent *de;
	unsigned n = 0;
	size_t len = 0;

	if (buf && sz)
		buf[0] = 0;
	if (first && first_sz)
		first[0] = 0;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (!ftsw_lab_exists(de->d_name))
			continue;
		if (!n && first)
			snprintf(first, first_sz, "%s", de->d_name);
		if (buf && len < sz)
			len += (size_t)snprintf(buf + len, sz - len, "%s%s",
						n ? ", " : "", de->d_name);
		n++;
	}
	closedir(d);
	return n;
}

const char *ftsw_lab_pick(const char *given, bool create, char *buf,
			  size_t sz)
{
	const char *e = getenv("FTSW_LAB");

	if (given && *given)
		return given;
	if (e && *e)
		return e;
	if (!create && ftsw_lab_names(NULL, 0, buf, sz) == 1)
		return buf;
	return FTSW_LAB_DEFAULT;
}

void ftsw_lab_hint(const char *name, char *buf, size_t sz)
{
	char names[256];
	unsigned n;

	buf[0] = 0;
	if (ftsw_lab_exists(name))
		return;
	n = ftsw_lab_names(names, sizeof(names), NULL, 0);
	if (n)
		snprintf(buf, sz, "; labs here: %s (name one with --lab LAB or "
			 "FTSW_LAB=LAB)", names);
}
