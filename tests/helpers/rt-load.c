// SPDX-License-Identifier: GPL-2.0-only
/*
 * rt-load.c: a test helper that loads result roots with
 * result_root_load() and prints "nruns nstats nincomplete" for each, so
 * shell tests can drive the loader before (and besides) the CLI.  Exits 65
 * (bad input) at the first root that fails to load, 2 on usage errors.
 */
#include "robot/util/common.h"
#include "robot/engine/results.h"

int main(int argc, char **argv)
{
	struct result_root rt;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: rt-load RESULT_ROOT...\n");
		return EXIT_USAGE;
	}
	for (i = 1; i < argc; i++) {
		if (result_root_load(&rt, argv[i]) < 0)
			return EXIT_DATAERR;
		printf("%zu %zu %zu\n", rt.nruns, rt.nstats, rt.nincomplete);
		result_root_release(&rt);
	}
	return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
}
