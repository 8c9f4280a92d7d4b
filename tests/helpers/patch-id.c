// SPDX-License-Identifier: GPL-2.0-only
/*
 * patch-id.c: a test helper for git/patchid.h, printing what
 * `git patch-id --stable` prints, so a shell test can compare the two:
 *
 *   patch-id repo DIR REV...   "<patch-id> <commit id>" per commit with a
 *                              patch (myers's id), as git prints it
 *   patch-id all DIR REV...    every id repo_patch_ids() gives, one a line
 *   patch-id stdin             "<patch-id> 000...0" for the diff on stdin
 *   patch-id diff DIR REV      the diff text robot hashes (myers)
 *
 * Exits 65 at the first failure, 2 on usage errors.
 */
#include "robot/util/common.h"
#include "git/commits.h"
#include "git/patchid.h"
#include "git/repo.h"

static int from_repo(const char *mode, const char *dir, char **revs, int n)
{
	struct repo *repo;
	int i, ret = 0;

	if (repo_open(&repo, dir))
		return 65;
	for (i = 0; i < n && !ret; i++) {
		char ids[PATCH_ID_MAX][PATCH_ID_HEXSZ + 1];
		struct commit_info ci;
		int k, nr;

		if (!strcmp(mode, "diff")) {
			struct strbuf sb = STRBUF_INIT;

			if (repo_diff_text(repo, revs[i], REPO_DIFF_MYERS,
					   &sb) < 0)
				ret = 65;
			fwrite(sb.buf, 1, sb.len, stdout);
			strbuf_release(&sb);
			continue;
		}
		nr = repo_patch_ids(repo, revs[i], ids);
		if (nr < 0 || repo_lookup(repo, &ci, revs[i])) {
			ret = 65;
			break;
		}
		for (k = 0; k < nr; k++) {
			if (!strcmp(mode, "repo")) {
				printf("%s %s\n", ids[0], ci.id);
				break;
			}
			printf("%s\n", ids[k]);
		}
		commit_info_release(&ci);
	}
	repo_close(repo);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "stdin")) {
		struct strbuf sb = STRBUF_INIT;
		char hex[PATCH_ID_HEXSZ + 1];
		char buf[65536];
		size_t n;

		while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
			strbuf_add(&sb, buf, n);
		if (patch_id_stable(sb.buf, sb.len, hex))
			printf("%s %040d\n", hex, 0);
		strbuf_release(&sb);
		return 0;
	}
	if (argc >= 4 && (!strcmp(argv[1], "repo") || !strcmp(argv[1], "all") ||
			  !strcmp(argv[1], "diff")))
		return from_repo(argv[1], argv[2], argv + 3, argc - 3);
	fprintf(stderr, "usage: patch-id repo|all|diff DIR REV... | stdin\n");
	return 2;
}
