// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz.c: the scratch directory and file helpers of the fuzz targets.
 */
#include "robot/util/common.h"
#include "tests/fuzz/fuzz.h"

#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

static char *scratch;
static const char *shown; /* what fuzz_dir() answers */

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void remove_scratch(void)
{
	if (scratch)
		nftw(scratch, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(scratch);
	scratch = NULL;
	shown = NULL;
}

/*
 * ROBOT_FUZZ_DIR names the directory (tests/fuzz/run gives a fixed one);
 * the target then works in it and names it ".", so that no path the code
 * sees depends on where the checkout is: a path's length alone changes
 * which branches an input takes.  Else a new directory in TMPDIR.
 */
const char *fuzz_dir(void)
{
	const char *tmp = getenv("TMPDIR"), *fixed = getenv("ROBOT_FUZZ_DIR");

	if (shown)
		return shown;
	if (fixed && *fixed) {
		scratch = xstrdup(fixed);
		if (scratch[0] != '/')
			die("ROBOT_FUZZ_DIR: '%s' is not absolute", scratch);
		if (mkdir(scratch, 0700) || chdir(scratch))
			die("cannot create '%s': %s", scratch, strerror(errno));
		shown = ".";
	} else {
		scratch = xasprintf("%s/robot-fuzz.XXXXXX",
				    tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(scratch))
			die("cannot create a scratch directory: %s",
			    strerror(errno));
		shown = scratch;
	}
	atexit(remove_scratch);
	return shown;
}

char *fuzz_path(const char *rel)
{
	return xasprintf("%s/%s", fuzz_dir(), rel);
}

static void make_parents(char *path)
{
	char *s;

	for (s = path + strlen(fuzz_dir()) + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(path, 0700) && errno != EEXIST)
			die("cannot create '%s': %s", path, strerror(errno));
		*s = '/';
	}
}

char *fuzz_write(const char *rel, const void *data, size_t len)
{
	char *path = fuzz_path(rel);
	FILE *f;

	make_parents(path);
	/*
	 * A new file, not the old one truncated: ext4 flushes a file
	 * truncated and rewritten when it is closed, to the disk, for each
	 * input.
	 */
	if (unlink(path) && errno != ENOENT)
		die("cannot remove '%s': %s", path, strerror(errno));
	f = fopen(path, "wb");
	if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f))
		die("cannot write '%s': %s", path, strerror(errno));
	return path;
}

void fuzz_init(void)
{
	/* ROBOT_FUZZ_VERBOSE=1 shows why an input is refused */
	if (!getenv("ROBOT_FUZZ_VERBOSE"))
		error_quiet = 1;
	/* a report without a date is dated by this, not by the clock */
	setenv("SOURCE_DATE_EPOCH", "1700000000", 0);
	fuzz_dir();
}

size_t fuzz_split(const uint8_t *data, size_t size, const char **parts,
		  size_t *lens, size_t max)
{
	const char *p = (const char *)data, *end = p + size, *nul;
	size_t n = 0;

	while (n < max) {
		nul = n + 1 < max ? memchr(p, '\0', end - p) : NULL;
		parts[n] = p;
		lens[n] = (nul ? nul : end) - p;
		n++;
		if (!nul)
			break;
		p = nul + 1;
	}
	return n;
}
