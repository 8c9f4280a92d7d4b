// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-matrix.c: result_root_load() of a root whose matrix.json is any
 * bytes (matrix.json.gz when they start with gzip's magic), with run
 * directories 0/ to 3/ holding a good job.yaml, so that an input whose
 * stats_source names them loads all the way; then the statistics and
 * the comparison robot compare makes of two such roots.
 */
#include "robot/util/common.h"
#include "robot/engine/compare.h"
#include "tests/fuzz/fuzz.h"
#include "robot/engine/results.h"
#include "config/lkp.h"
#include "config/style.h"

#include <unistd.h>

static struct lkp_tables *tables;
static struct style st;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char job[] = "suite: stress-ng\ntestcase: stress-ng\n"
				  "commit: 68674f94ffc9dddc1234567890abcdef"
				  "12345678\n";
	char rel[32];
	int i;

	(void)argc;
	(void)argv;
	fuzz_init();
	for (i = 0; i < 4; i++) {
		snprintf(rel, sizeof(rel), "rt/%d/job.yaml", i);
		free(fuzz_write(rel, job, sizeof(job) - 1));
	}
	tables = lkp_tables_load("2023-06-07");
	if (!tables || style_load(&st, "2023-06-07"))
		die("cannot load the 2023-06-07 tables");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int gz = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
	char *plain = fuzz_path("rt/matrix.json");
	char *packed = fuzz_path("rt/matrix.json.gz");
	char *path = fuzz_write(gz ? "rt/matrix.json.gz" : "rt/matrix.json",
				data, size);
	char *dir = fuzz_path("rt");
	struct compare_opts o = { .style = &st, .tables = tables };
	struct comparison cmp = { 0 };
	struct compare_roots roots = { 0 };
	struct strbuf out = STRBUF_INIT;
	char *dirs[2] = { dir, dir };

	unlink(gz ? plain : packed);
	/* the same root twice: base and later commit */
	if (!compare_roots_load(&roots, dirs, 2)) {
		if (!comparison_build(&cmp, roots.rts, 2, &o))
			comparison_print(&out, &cmp);
		comparison_release(&cmp);
		o.all = 1;
		if (!comparison_build(&cmp, roots.rts, 2, &o))
			comparison_print(&out, &cmp);
		comparison_release(&cmp);
	}
	compare_roots_release(&roots);
	strbuf_release(&out);
	free(path);
	free(plain);
	free(packed);
	free(dir);
	return 0;
}
