// SPDX-License-Identifier: GPL-2.0-only
/*
 * t-dmesg.c: stat names of kernel-log lines (robot/kinds/functional/dmesg.c)
 * against the names 0-day printed for them.
 *
 * tests/data/dmesg-vectors.txt holds real kernel-log lines, each with the
 * stat name a real report gave it (its headline, a row of its result
 * table or of its fail:runs table).  A record is a line "DATE NAME" (the
 * report's day, whose lkp-tests patterns apply; NAME "dmesg.X", "kmsg.X",
 * or "-" for a line that names nothing), then the log line itself after
 * one TAB.  '#' lines are comments.
 *
 *   t-dmesg [VECTORS]     check the vectors (default: $TOP/tests/data/...)
 *   t-dmesg - [DATE]      print the name of every line of stdin (a tool)
 */
#include "robot/util/common.h"
#include "robot/kinds/functional/dmesg.h"
#include "config/data.h"
#include "tests/unit/check.h"

static char *name_of(const struct dmesg_rules *r, const char *line)
{
	char *id = dmesg_error_id(r, line, strlen(line));
	char *name;

	if (id) {
		name = xasprintf("dmesg.%s", id);
		free(id);
		return name;
	}
	id = dmesg_kmsg_error_id(r, line, strlen(line));
	if (id) {
		name = xasprintf("kmsg.%s", id);
		free(id);
		return name;
	}
	return xstrdup("-");
}

static void chomp(char *s)
{
	size_t len = strlen(s);

	if (len && s[len - 1] == '\n')
		s[len - 1] = '\0';
}

static int tool(const struct dmesg_rules *r)
{
	char *line = NULL;
	size_t cap = 0;

	while (getline(&line, &cap, stdin) > 0) {
		char *name;

		chomp(line);
		name = name_of(r, line);
		printf("%s\t%s\n", name, line);
		free(name);
	}
	free(line);
	return 0;
}

static void check_vectors(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *want = NULL, date[11] = "";
	struct dmesg_rules *r = NULL;
	size_t cap = 0;
	int nr = 0, n = 0;

	CHECK(f != NULL, "%s opens", path);
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		nr++;
		chomp(line);
		if (!*line || *line == '#')
			continue;
		if (*line != '\t') {
			free(want);
			want = NULL;
			if (strlen(line) < 12 || line[10] != ' ') {
				CHECK(0, "%s:%d: not 'DATE NAME'", path, nr);
				continue;
			}
			if (strncmp(date, line, 10)) {
				memcpy(date, line, 10);
				dmesg_rules_free(r);
				r = dmesg_rules_load(date);
				CHECK(r != NULL, "the tables of %s load", date);
			}
			want = xstrdup(line + 11);
			continue;
		}
		if (!want || !r) {
			CHECK(0, "%s:%d: a log line before any name", path, nr);
			continue;
		}
		{
			char *got = name_of(r, line + 1);

			CHECK_STREQ(got, want, "%s:%d: %s", path, nr, want);
			free(got);
		}
		n++;
	}
	CHECK(n >= 30, "%d vectors (at least 30)", n);
	dmesg_rules_free(r);
	free(line);
	free(want);
	fclose(f);
}

/*
 * A slab cache's "(Tainted: ...)" by date (config/data/dmesg/error-id):
 * kept until lkp-tests 3bee5985a (2024-05-23), which drops it from
 * "BUG kmalloc-N" lines only, and 588b9610b (2024-05-25) from every line.
 * The kmalloc lines are lkp-tests' own examples (spec/dmesg_spec.rb).
 */
static void check_tainted(void)
{
	static const struct {
		const char *date, *line, *want;
	} v[] = {
		{ "2023-11-23",
		  "[    5.03][    T0] BUG kmem_cache_node (Tainted: G"
		  "                T ): Poison overwritten",
		  "dmesg.BUG_kmem_cache_node(Tainted:G_T):Poison_overwritten" },
		{ "2023-11-23",
		  "[   14.476643][    C0] BUG kmalloc-512 (Tainted: G S      W"
		  "       T ): Right Redzone overwritten",
		  "dmesg.BUG_kmalloc-#(Tainted:G_S_W_T):Right_Redzone_overwritten" },
		{ "2024-05-24",
		  "[   14.476643][    C0] BUG kmalloc-512 (Tainted: G S      W"
		  "       T ): Right Redzone overwritten",
		  "dmesg.BUG_kmalloc-#:Right_Redzone_overwritten" },
		{ "2024-05-24",
		  "[    5.03][    T0] BUG kmem_cache_node (Tainted: G"
		  "                T ): Poison overwritten",
		  "dmesg.BUG_kmem_cache_node(Tainted:G_T):Poison_overwritten" },
		{ "2024-05-25",
		  "[  264.548980][    C1] BUG kmalloc-rnd-02-96 (Tainted: G"
		  "        W       TN): Freechain corrupt",
		  "dmesg.BUG_kmalloc-rnd-#-#:Freechain_corrupt" },
		{ "2024-05-25",
		  "[    5.03][    T0] BUG kmem_cache_node (Tainted: G"
		  "                T ): Poison overwritten",
		  "dmesg.BUG_kmem_cache_node:Poison_overwritten" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		struct dmesg_rules *r = dmesg_rules_load(v[i].date);
		char *got;

		CHECK(r != NULL, "the tables of %s load", v[i].date);
		if (!r)
			continue;
		got = name_of(r, v[i].line);
		CHECK_STREQ(got, v[i].want, "%s: %s", v[i].date, v[i].want);
		free(got);
		dmesg_rules_free(r);
	}
}

/* The parts of the rules that the vectors do not show on their own. */
static void check_rules(const struct dmesg_rules *r)
{
	struct strbuf sb = STRBUF_INIT;
	char *id;

	dmesg_undecode(&sb,
		       "[ 17.1][ T1] WARNING: CPU: 0 PID: 1 at fs/x.c:7 f "
		       "(fs/x.c:7 (discriminator 1)) xfs",
		       strlen("[ 17.1][ T1] WARNING: CPU: 0 PID: 1 at fs/x.c:7 "
			      "f (fs/x.c:7 (discriminator 1)) xfs"));
	CHECK_STREQ(sb.buf,
		    "[ 17.1][ T1] WARNING: CPU: 0 PID: 1 at fs/x.c:7 "
		    "f+0x0/0x0 [xfs]",
		    "decode_stacktrace's annotation and module are undone");
	strbuf_reset(&sb);
	dmesg_undecode(&sb, "xhci_offload_get_ops (??:?)", 27);
	CHECK_STREQ(sb.buf, "xhci_offload_get_ops+0x0/0x0",
		    "addr2line's unknown position is an annotation too");
	strbuf_reset(&sb);
	dmesg_undecode(&sb, "f (a??:?)", 9);
	CHECK_STREQ(sb.buf, "f (a??:?)", "only a bare ??:? is unknown");
	strbuf_reset(&sb);
	dmesg_undecode(&sb, "device_release (core.c:?)", 25);
	CHECK_STREQ(sb.buf, "device_release+0x0/0x0",
		    "a known file with addr2line's unknown line is one too");
	strbuf_reset(&sb);
	dmesg_undecode(&sb, "g (core:?)", 10);
	CHECK_STREQ(sb.buf, "g (core:?)", "but not a word without a dot");
	strbuf_reset(&sb);
	dmesg_undecode(&sb, "call (not a source position)", 28);
	CHECK_STREQ(sb.buf, "call (not a source position)",
		    "a parenthesis without file:line is kept");
	strbuf_release(&sb);
	id = dmesg_analyze(r, "ab");
	CHECK(id == NULL, "a name of 3 characters or fewer is none");
	free(id);
	id = dmesg_error_id(r, "[    1.000000] all is well", 26);
	CHECK(id == NULL, "an ordinary line names nothing");
	free(id);
	id = dmesg_error_id(r, "BUG: \x01 binary", 14);
	CHECK(id == NULL, "a line with control bytes names nothing");
	free(id);
	id = dmesg_error_id(r, "", 0);
	CHECK(id == NULL, "an empty line names nothing");
	free(id);
}

int main(int argc, char **argv)
{
	const char *top = getenv("TOP");
	struct dmesg_rules *r;
	char *path;

	if (top)
		data_dir_set(top);
	r = dmesg_rules_load(argc > 2 ? argv[2] : "9999-12-31");
	if (!r) {
		CHECK(0, "the tables of config/data/dmesg load");
		return check_done();
	}
	if (argc > 1 && !strcmp(argv[1], "-")) {
		tool(r);
		dmesg_rules_free(r);
		return 0;
	}
	CHECK(1, "the tables of config/data/dmesg load");
	path = argc > 1 ? xstrdup(argv[1])
			: xasprintf("%s/tests/data/dmesg-vectors.txt",
				    top ? top : ".");
	check_vectors(path);
	check_rules(r);
	check_tainted();
	free(path);
	dmesg_rules_free(r);
	return check_done();
}
