// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-compose.c: compose as a whole, as `robot compose --dry-run` runs
 * it.  The input is split at NUL bytes into the files of one report:
 *
 *   request.yaml, commits.yaml, rt0/matrix.json, rt1/matrix.json,
 *   rt0's job.yaml (each of its runs 0/ to 2/), rt1's job.yaml
 *
 * (a missing piece is an empty file).  The configuration is fixed.  A
 * mail that composes has passed robot's own lint (compose_report() runs
 * it).
 */
#include "robot/util/common.h"
#include "robot/kinds/kinds.h"
#include "tests/fuzz/fuzz.h"
#include "config/config.h"
#include "config/request.h"

static const char *const files[] = {
	"request.yaml",	   "commits.yaml", "rt0/matrix.json",
	"rt1/matrix.json", "rt0/job.yaml", "rt1/job.yaml",
};
enum { NFILES = ARRAY_SIZE(files) };

static struct robot_config cfg;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *path, *text;

	(void)argc;
	(void)argv;
	fuzz_init();
	text = xasprintf("spool: %s/spool\narchive_dir: %s/archive\n"
			 "timezone: \"+0800\"\n",
			 fuzz_dir(), fuzz_dir());
	path = fuzz_write("robot.yaml", text, strlen(text));
	if (config_load(&cfg, path))
		die("the fixed configuration does not load");
	free(text);
	free(path);
	return 0;
}

/* rt0's and rt1's job.yaml go into each of their runs 0/ to 2/. */
static void write_jobs(const char *rt, const char *data, size_t len)
{
	char rel[32];
	int i;

	for (i = 0; i < 3; i++) {
		snprintf(rel, sizeof(rel), "%s/%d/job.yaml", rt, i);
		free(fuzz_write(rel, data, len));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *parts[NFILES];
	size_t lens[NFILES], n = fuzz_split(data, size, parts, lens, NFILES);
	struct composed c = { 0 };
	struct request req;
	char *path = NULL;
	size_t i;

	for (i = 0; i < NFILES; i++) {
		const char *p = i < n ? parts[i] : "";
		size_t len = i < n ? lens[i] : 0;

		if (i == 4 || i == 5)
			write_jobs(i == 4 ? "rt0" : "rt1", p, len);
		else if (!i)
			path = fuzz_write(files[i], p, len);
		else
			free(fuzz_write(files[i], p, len));
	}
	if (!request_load(&req, path))
		compose_report(&c, &req, &cfg, NULL);
	composed_release(&c);
	request_release(&req);
	free(path);
	return 0;
}
