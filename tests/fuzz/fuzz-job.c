// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-job.c: a result root whose runs' job.yaml are any bytes: the input
 * split at its first NUL byte gives run 0's and run 1's (the whole input
 * for both when there is none).  What loads then goes through the job
 * parameter selection (Job#each_param) and the axes of a comparison of
 * the root with itself, as compose and compare use them.
 */
#include "robot/util/common.h"
#include "robot/engine/compare.h"
#include "tests/fuzz/fuzz.h"
#include "robot/engine/results.h"
#include "config/lkp.h"
#include "config/style.h"

static struct lkp_tables *tables;
static struct style st;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char matrix[] =
		"{\"stress-ng.lockofd.ops_per_sec\": [1, 2.5],\n"
		" \"stats_source\": [\"/r/0/stats.json\", "
		"\"/r/1/stats.json\"]}\n";

	(void)argc;
	(void)argv;
	fuzz_init();
	free(fuzz_write("rt/matrix.json", matrix, sizeof(matrix) - 1));
	tables = lkp_tables_load("2023-06-07");
	if (!tables || style_load(&st, "2023-06-07"))
		die("cannot load the 2023-06-07 tables");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *parts[2];
	size_t lens[2], n = fuzz_split(data, size, parts, lens, 2);
	char *j0 = fuzz_write("rt/0/job.yaml", parts[0], lens[0]);
	char *j1 = fuzz_write("rt/1/job.yaml", parts[n - 1], lens[n - 1]);
	char *dir = fuzz_path("rt");
	char *dirs[2] = { dir, dir };
	struct compare_opts o = { .style = &st, .tables = tables, .all = 1 };
	struct compare_roots roots = { 0 };
	struct comparison cmp = { 0 };
	const struct job_entry **params = NULL;
	struct strbuf out = STRBUF_INIT;

	if (!compare_roots_load(&roots, dirs, 2)) {
		compare_job_params(&roots.rts[0].job, tables, &params);
		free(params);
		job_get(&roots.rts[0].job, "testcase");
		if (!comparison_build(&cmp, roots.rts, 2, &o))
			comparison_print(&out, &cmp);
		comparison_release(&cmp);
	}
	compare_roots_release(&roots);
	strbuf_release(&out);
	free(j0);
	free(j1);
	free(dir);
	return 0;
}
