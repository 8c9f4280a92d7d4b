// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-reply.c: the reply request and the answer, as `robot reply
 * --dry-run` runs them.  The input is split at NUL bytes into
 *
 *   request.yaml (the reply request), parent.eml (the mail answered),
 *   commits.yaml, rt0/matrix.json, rt1/matrix.json, rt2/matrix.json,
 *   and the job.yaml of every root's runs 0/ to 2/
 *
 * (a missing piece is an empty file).  The configuration is fixed.  An
 * answer that composes has passed robot's own lint.
 */
#include "robot/util/common.h"
#include "robot/kinds/reply/reply.h"
#include "robot/report/compose.h"
#include "robot/incoming/followup.h"
#include "tests/fuzz/fuzz.h"
#include "robot/incoming/guard.h"
#include "config/config.h"
#include "config/request.h"

static const char *const files[] = {
	"request.yaml",	   "parent.eml",      "commits.yaml", "rt0/matrix.json",
	"rt1/matrix.json", "rt2/matrix.json", "job.yaml",
};
enum { NFILES = ARRAY_SIZE(files) };

static struct robot_config cfg;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *path, *text;

	(void)argc;
	(void)argv;
	fuzz_init();
	text = xasprintf("spool: %s/spool\ntimezone: \"+0800\"\n"
			 "reply_allow: [\"@example.org\"]\n",
			 fuzz_dir());
	path = fuzz_write("robot.yaml", text, strlen(text));
	if (config_load(&cfg, path))
		die("the fixed configuration does not load");
	free(text);
	free(path);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *parts[NFILES];
	size_t lens[NFILES], n = fuzz_split(data, size, parts, lens, NFILES);
	struct compose_opts o = { .offline = 1 };
	struct strbuf why = STRBUF_INIT;
	struct composed c = { 0 };
	struct request req;
	struct followup f;
	char *path = NULL;
	size_t i, r, k;

	for (i = 0; i < NFILES; i++) {
		const char *p = i < n ? parts[i] : "";
		size_t len = i < n ? lens[i] : 0;
		char rel[32];

		if (i == NFILES - 1) {
			for (r = 0; r < 3; r++)
				for (k = 0; k < 3; k++) {
					snprintf(rel, sizeof(rel),
						 "rt%zu/%zu/job.yaml", r, k);
					free(fuzz_write(rel, p, len));
				}
		} else if (!i) {
			path = fuzz_write(files[i], p, len);
		} else {
			free(fuzz_write(files[i], p, len));
		}
	}
	memset(&req, 0, sizeof(req));
	if (!followup_parse(&f, "parent.eml", n > 1 ? parts[1] : "",
			    n > 1 ? lens[1] : 0) &&
	    !request_load(&req, path) &&
	    !guard_check(&f, &cfg, req.from, NULL, &why))
		compose_reply(&c, &f, &req, &cfg, &o);
	request_release(&req);
	composed_release(&c);
	followup_release(&f);
	strbuf_release(&why);
	free(path);
	return 0;
}
