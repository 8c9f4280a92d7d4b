// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-dmesg.c: a run's kernel log, plain or xz (xz_open() tells them
 * apart by the magic, as for a dmesg or dmesg.xz of a result root), read
 * line by line: each line's dmesg and kmsg error ids under the tables of
 * two periods (segfaults were dmesg stats from 2023-06-29 to 2025-11-13)
 * and decode_stacktrace.sh's annotations taken out, as functional
 * reports do with it.
 */
#include "robot/util/common.h"
#include "robot/kinds/functional/dmesg.h"
#include "tests/fuzz/fuzz.h"
#include "robot/util/strbuf.h"
#include "robot/util/xz.h"

static struct dmesg_rules *rules[2];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init();
	rules[0] = dmesg_rules_load("2021-03-01");
	rules[1] = dmesg_rules_load("2024-01-01");
	if (!rules[0] || !rules[1])
		die("cannot load the dmesg tables");
	return 0;
}

static void one_line(const char *line, size_t len)
{
	struct strbuf out = STRBUF_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rules); i++) {
		free(dmesg_error_id(rules[i], line, len));
		free(dmesg_kmsg_error_id(rules[i], line, len));
	}
	dmesg_undecode(&out, line, len);
	strbuf_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *path = fuzz_write("dmesg", data, size);
	struct xz_reader *xz = xz_open(path, 4 << 20);
	struct strbuf text = STRBUF_INIT;
	char buf[65536];
	ssize_t n = 0;
	size_t at, len;

	while (xz && (n = xz_read(xz, buf, sizeof(buf))) > 0)
		strbuf_add(&text, buf, (size_t)n);
	if (xz)
		xz_close(xz);
	/* lines as strings: each NUL-terminated, no newline */
	for (at = 0; xz && !n && at < text.len; at += len + 1) {
		len = strcspn(text.buf + at, "\n");
		text.buf[at + len] = '\0';
		one_line(text.buf + at, len);
	}
	strbuf_release(&text);
	free(path);
	return 0;
}
