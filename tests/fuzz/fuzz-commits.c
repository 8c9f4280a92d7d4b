// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-commits.c: commits_load_file() on any bytes, then the look-ups and
 * the writer compose uses on what loaded: every commit is found by its id
 * and by a 7-digit prefix, gives its subsystem, and writes out to a
 * metadata file that loads back to the same text.
 */
#include "robot/util/common.h"
#include "tests/fuzz/fuzz.h"
#include "git/commits.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init();
	return 0;
}

/* Writes the set as a metadata file. */
static void write_set(struct strbuf *out, const struct commit_set *set)
{
	size_t i;

	strbuf_addstr(out, set->nr ? "commits:\n" : "commits: []\n");
	for (i = 0; i < set->nr; i++)
		commit_info_write(out, &set->c[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *path = fuzz_write("commits.yaml", data, size), *again;
	struct commit_set set = { 0 }, back = { 0 };
	struct strbuf sb = STRBUF_INIT, text = STRBUF_INIT, text2 = STRBUF_INIT;
	size_t i;

	if (!commits_load_file(&set, path)) {
		for (i = 0; i < set.nr; i++) {
			char *prefix = commit_short_id(&set.c[i], 7);

			if (commits_find(&set, set.c[i].id) != &set.c[i])
				BUG("commit %s is not found by its id",
				    set.c[i].id);
			commits_find(&set, prefix);
			strbuf_reset(&sb);
			commit_subsystem(&set.c[i], &sb);
			free(prefix);
		}
		write_set(&text, &set);
		again = fuzz_write("again.yaml", text.buf, text.len);
		if (commits_load_file(&back, again))
			BUG("a written metadata file does not load back");
		write_set(&text2, &back);
		if (strcmp(text.buf, text2.buf))
			BUG("a metadata file does not round-trip");
		free(again);
	}
	commits_release(&set);
	commits_release(&back);
	strbuf_release(&sb);
	strbuf_release(&text);
	strbuf_release(&text2);
	free(path);
	return 0;
}
