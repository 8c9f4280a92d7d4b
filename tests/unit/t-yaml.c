// SPDX-License-Identifier: GPL-2.0-only
/*
 * t-yaml.c: ydoc_peek_file(), the quick look at one top-level key that
 * chooses a request's loader: it gives the key's plain value where the
 * whole load would, and NULL where the document is no mapping, the value
 * is no scalar, or the file cannot be read; the loader then says why.
 */
#include "robot/util/common.h"
#include "config/yaml.h"
#include "tests/unit/check.h"

#include <unistd.h>

static char path[] = "/tmp/t-yaml-XXXXXX";

static char *peek(const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return NULL;
	fputs(text, f);
	fclose(f);
	return ydoc_peek_file(path, "kind");
}

static void expect(const char *text, const char *want, const char *what)
{
	char *got = peek(text);

	if (want)
		CHECK_STREQ(got, want, "%s", what);
	else
		CHECK(!got, "%s: NULL (got '%s')", what, got ? got : "");
	free(got);
}

int main(void)
{
	int fd = mkstemp(path);

	CHECK(fd >= 0, "a temporary file");
	if (fd < 0)
		return check_done();
	close(fd);
	expect("kind: build\nbuilds: [a]\n", "build", "the first key");
	expect("date: x\nkind: \"build-summary\"\n", "build-summary",
	       "after another key, quoted");
	expect("a: {kind: nested, b: [1, {kind: deeper}]}\nkind: build\n",
	       "build", "not a nested mapping's key");
	expect("a:\n  - kind: item\nkind: build\n", "build",
	       "not a list item's key");
	expect("kind: [build]\n", NULL, "a list value");
	expect("kind: {a: b}\n", NULL, "a mapping value");
	expect("kind: &k build\n", NULL, "an anchored value");
	expect("- kind\n- build\n", NULL, "a list document");
	expect("kind\n", NULL, "a scalar document");
	expect("a: *x\nkind: build\n", NULL, "after an alias");
	expect("{? [a]: b, kind: build}\n", NULL, "after a key that is a list");
	expect("a: b\n", NULL, "no kind");
	expect("", NULL, "an empty file");
	expect("kind: build\nkind: other\n", "build",
	       "a repeated key: the first (the loader refuses the file)");
	unlink(path);
	CHECK(!ydoc_peek_file(path, "kind"), "a missing file: NULL");
	CHECK(!ydoc_peek_file("/tmp", "kind"), "a directory: NULL");
	return check_done();
}
