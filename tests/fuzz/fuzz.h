/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared bits of the libFuzzer harnesses: readers that take a path get
 * the input through a memfd (/proc/self/fd/N), and a failed invariant
 * aborts so that libFuzzer records the input.
 */
#ifndef FTSW_FUZZ_H
#define FTSW_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "topo/topology.h"

#define FUZZ_ASSERT(c) do { \
	if (!(c)) { \
		fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, \
			__LINE__, #c); \
		abort(); \
	} \
} while (0)

/* The input as a file: returns the fd (path in buf), or -1. */
static inline int fuzz_file(const uint8_t *data, size_t size, char *buf,
			    size_t bufsz)
{
	int fd = memfd_create("fuzz", 0);

	if (fd < 0)
		return -1;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(buf, bufsz, "/proc/self/fd/%d", fd);
	return fd;
}

/* The input as a NUL-terminated string (malloc). */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s) {
		memcpy(s, data, size);
		s[size] = 0;
	}
	return s;
}

/* A target's fixed fabric, generated from spec for the first input. */
static inline struct ftsw_topo *fuzz_fabric(const char *spec)
{
	static struct ftsw_topo *t;
	struct ftsw_err err;

	if (!t) {
		t = ftsw_topo_gen(spec, &err);
		FUZZ_ASSERT(t);
	}
	return t;
}

/* What write(obj, FILE *) writes (it must succeed) into buf, n bytes. */
#define FUZZ_WRITTEN(buf, n, write, obj) do { \
	FILE *m_ = open_memstream(&(buf), &(n)); \
	FUZZ_ASSERT(m_ && write(obj, m_) == 0); \
	fclose(m_); \
} while (0)

#endif
