// SPDX-License-Identifier: GPL-2.0
/*
 * mpiexchange: the MPI program of ftsw's lab tests and benchmark. Runs a
 * shift exchange (stage k = 1..N-1: rank r sends BYTES to r+k and receives
 * from r-k, mod N, MPI_Sendrecv) and an all-to-all (MPI_Alltoall, BYTES per
 * pair), checks every byte received, and prints one JSON document (rank 0):
 *
 *   {"ranks": N, "bytes": B, "reps": R,
 *    "hosts": [MPI processor name of rank 0, 1, ...],
 *    "shift": {"seconds": S, "stages": [s_1, ..., s_{N-1}]},
 *    "a2a": {"seconds": S}, "errors": E}
 *
 * A stage's time is the slowest rank's, between barriers, summed over R
 * repetitions (after an untimed one-byte exchange with the stage's peers,
 * which opens the connections); "shift.seconds" sums the stages. Exit status 1 if any byte
 * was wrong.
 *
 *   mpiexchange [-s BYTES] [-r REPS] [-p shift|a2a|both]
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The byte at offset i of what src sends to dst in stage k. */
static unsigned char pat(int src, int dst, int k, size_t i)
{
	return (unsigned char)(src * 131 + dst * 31 + k * 7 + i * 13 + (i >> 8));
}

static void fill(unsigned char *b, size_t n, int src, int dst, int k)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = pat(src, dst, k, i);
}

static long check(const unsigned char *b, size_t n, int src, int dst, int k)
{
	long bad = 0;
	size_t i;

	for (i = 0; i < n; i++)
		bad += b[i] != pat(src, dst, k, i);
	return bad;
}

int main(int argc, char **argv)
{
	int rank, size, reps = 1, opt, k, r, len;
	size_t bytes = 65536;
	const char *pattern = "both";
	char name[MPI_MAX_PROCESSOR_NAME] = "";
	char *names = NULL;
	unsigned char *sb, *rb;
	double *stages, a2a = 0, t0, dt, total = 0;
	long errors = 0, all_errors = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	while ((opt = getopt(argc, argv, "s:r:p:")) != -1) {
		switch (opt) {
		case 's': bytes = strtoull(optarg, NULL, 0); break;
		case 'r': reps = atoi(optarg); break;
		case 'p': pattern = optarg; break;
		default:
			if (!rank)
				fprintf(stderr, "usage: mpiexchange [-s BYTES] "
					"[-r REPS] [-p shift|a2a|both]\n");
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
	}
	if (!bytes || reps < 1 || bytes > (1u << 28) / (size_t)size) {
		if (!rank)
			fprintf(stderr, "mpiexchange: bad -s or -r\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	MPI_Get_processor_name(name, &len);
	if (!rank)
		names = calloc((size_t)size, MPI_MAX_PROCESSOR_NAME);
	MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names,
		   MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);

	sb = malloc(bytes * (size_t)size);
	rb = malloc(bytes * (size_t)size);
	stages = calloc((size_t)size, sizeof(*stages));
	if (!sb || !rb || !stages)
		MPI_Abort(MPI_COMM_WORLD, 1);

	if (strcmp(pattern, "a2a")) {
		for (k = 1; k < size; k++) {
			int to = (rank + k) % size, from = (rank - k + size) % size;

			fill(sb, bytes, rank, to, k);
			/*
			 * Untimed: one byte each way with this stage's peers
			 * opens the TCP connections Open MPI makes on first
			 * use, so no stage's time includes a handshake.
			 */
			MPI_Sendrecv(sb, 1, MPI_BYTE, to, 0, rb, 1, MPI_BYTE,
				     from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			for (r = 0; r < reps; r++) {
				memset(rb, 0, bytes);
				MPI_Barrier(MPI_COMM_WORLD);
				t0 = MPI_Wtime();
				MPI_Sendrecv(sb, (int)bytes, MPI_BYTE, to, k, rb,
					     (int)bytes, MPI_BYTE, from, k,
					     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				dt = MPI_Wtime() - t0;
				MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE,
					      MPI_MAX, MPI_COMM_WORLD);
				stages[k] += dt;
				errors += check(rb, bytes, from, rank, k);
			}
			total += stages[k];
		}
	}
	if (strcmp(pattern, "shift")) {
		for (k = 0; k < size; k++)
			fill(sb + (size_t)k * bytes, bytes, rank, k, 0);
		for (r = 0; r < reps; r++) {
			memset(rb, 0, bytes * (size_t)size);
			MPI_Barrier(MPI_COMM_WORLD);
			t0 = MPI_Wtime();
			MPI_Alltoall(sb, (int)bytes, MPI_BYTE, rb, (int)bytes,
				     MPI_BYTE, MPI_COMM_WORLD);
			dt = MPI_Wtime() - t0;
			MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX,
				      MPI_COMM_WORLD);
			a2a += dt;
			for (k = 0; k < size; k++)
				errors += check(rb + (size_t)k * bytes, bytes,
						k, rank, 0);
		}
	}
	MPI_Reduce(&errors, &all_errors, 1, MPI_LONG, MPI_SUM, 0,
		   MPI_COMM_WORLD);
	if (!rank) {
		printf("{\"ranks\":%d,\"bytes\":%zu,\"reps\":%d,\"hosts\":[",
		       size, bytes, reps);
		for (k = 0; k < size; k++)
			printf("%s\"%s\"", k ? "," : "",
			       names + (size_t)k * MPI_MAX_PROCESSOR_NAME);
		printf("]");
		if (strcmp(pattern, "a2a")) {
			printf(",\"shift\":{\"seconds\":%.6f,\"stages\":[", total);
			for (k = 1; k < size; k++)
				printf("%s%.6f", k > 1 ? "," : "", stages[k]);
			printf("]}");
		}
		if (strcmp(pattern, "shift"))
			printf(",\"a2a\":{\"seconds\":%.6f}", a2a);
		printf(",\"errors\":%ld}\n", all_errors);
		fflush(stdout);
	}
	free(names);
	free(sb);
	free(rb);
	free(stages);
	MPI_Finalize();
	return all_errors ? 1 : 0;
}
