// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmesg.c: stat names of kernel-log lines, as lkp-tests' dmesg and kmsg
 * parsers give them (dmesg.h; doc/functional.md "Names").
 *
 * The steps, for one line:
 *   1. decode_stacktrace.sh's annotations are undone (dmesg_undecode);
 *   2. lkp's clean-up: kbuild paths and .isra/.constprop/.part suffixes go,
 *      and a line that holds a second timestamped message is two lines;
 *   3. the line names a report when one of the oops patterns matches it and
 *      no ignore pattern does; the text the patterns match first (leftmost,
 *      then in file order, as one Ruby alternation matches) is the message;
 *   4. the message is reduced to its name: known shapes keep their telling
 *      part (KASAN ... in func, WARNING: at file func, INFO: task blocked
 *      for more than N seconds, segfault at ip sp error, ...), then ids,
 *      addresses, numbers, versions and device numbers become '#', blanks
 *      become '_' (or vanish next to punctuation) and trailing punctuation
 *      goes.
 * The data (patterns, device names) are config/data/dmesg, generated from
 * lkp-tests; the regexps below are the reduction's, written as POSIX
 * extended regexps (glibc's, with its \b and REG_STARTEND so that a
 * search that starts inside a string still sees the character before).
 */
#include "robot/util/common.h"
#include "robot/kinds/functional/dmesg.h"
#include "config/data.h"

#include <ctype.h>
#include <regex.h>

#define DATA_DIR "config/data/dmesg/"

struct pattern {
	regex_t re;
	char *literal; /* a text every match contains, for a cheap test */
};

struct dmesg_rules {
	struct pattern *oops, *ignore;
	size_t noops, nignore;
	/* \b(name|...)[0-9]+, names of [A-Za-z_] only: sorted for bsearch */
	char **devices;
	size_t ndevices;
	/* the " (Tainted: ...)" of a BUG line (config/data/dmesg/error-id) */
	enum { TAINTED_KEEP, TAINTED_KMALLOC, TAINTED_DROP } tainted;
};

static int compile(regex_t *re, const char *ere, const char *where)
{
	int rc = regcomp(re, ere, REG_EXTENDED);

	if (rc) {
		char why[128];

		regerror(rc, re, why, sizeof(why));
		return error("%s: cannot compile '%s': %s", where, ere, why);
	}
	return 0;
}

/*
 * The longest run of plain characters a match of `ere` must contain,
 * looking only at the top level of a pattern without alternation.
 */
static char *must_contain(const char *ere)
{
	struct strbuf cur = STRBUF_INIT, best = STRBUF_INIT;
	const char *p;
	int depth = 0;

	for (p = ere; *p; p++)
		if (*p == '|')
			return NULL;
	for (p = ere; *p; p++) {
		if (*p == '\\' && p[1] && strchr(".[]()*+?{}|^$\\/", p[1])) {
			if (!depth)
				strbuf_addch(&cur, p[1]);
			p++;
			continue;
		}
		if (strchr(".[]()*+?{}|^$\\", *p) || depth) {
			/* a quantifier takes the last character back */
			if (!depth && strchr("*?{", *p) && cur.len)
				strbuf_setlen(&cur, cur.len - 1);
			if (cur.len > best.len) {
				strbuf_reset(&best);
				strbuf_addbuf(&best, &cur);
			}
			strbuf_reset(&cur);
			if (*p == '[') {
				/* skip the bracket expression */
				p++;
				if (*p == '^')
					p++;
				if (*p == ']')
					p++;
				while (*p && *p != ']')
					p++;
				if (!*p)
					break;
			} else if (*p == '(') {
				depth++;
			} else if (*p == ')' && depth) {
				depth--;
			} else if (*p == '{') {
				while (*p && *p != '}')
					p++;
				if (!*p)
					break;
			}
			continue;
		}
		strbuf_addch(&cur, *p);
	}
	if (cur.len > best.len) {
		strbuf_reset(&best);
		strbuf_addbuf(&best, &cur);
	}
	strbuf_release(&cur);
	if (!best.len) {
		strbuf_release(&best);
		return NULL;
	}
	return strbuf_detach(&best, NULL);
}

/*
 * Reads the version of a table in force on `date`: the entries of its last
 * "@since DATE ..." section dated on or before that day (the first section
 * for an older day), without '#' comments.
 */
static int read_table(const char *name, const char *date, char ***lines,
		      size_t *n)
{
	char *rel = xasprintf(DATA_DIR "%s", name);
	struct strbuf sb = STRBUF_INIT;
	const char *p, *pick = NULL;
	size_t alloc = 0;

	*lines = NULL;
	*n = 0;
	if (data_read(&sb, rel)) {
		free(rel);
		strbuf_release(&sb);
		return -1;
	}
	/* the section to read */
	for (p = sb.buf; *p; p += strcspn(p, "\n"), p += *p == '\n') {
		if (strncmp(p, "@since ", 7))
			continue;
		if (!pick || strncmp(p + 7, date, 10) <= 0)
			pick = p;
		else
			break;
	}
	if (!pick) {
		error("%s: no '@since' section", rel);
		free(rel);
		strbuf_release(&sb);
		return -1;
	}
	free(rel);
	for (p = pick + strcspn(pick, "\n"); *p;) {
		size_t len;

		p += *p == '\n';
		len = strcspn(p, "\n");
		if (!strncmp(p, "@since ", 7))
			break;
		if (len && *p != '#') {
			ALLOC_GROW(*lines, *n + 1, alloc);
			(*lines)[(*n)++] = xstrndup(p, len);
		}
		p += len;
	}
	strbuf_release(&sb);
	return 0;
}

static void free_lines(char **lines, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

static int load_patterns(const char *name, const char *date,
			 struct pattern **out, size_t *n)
{
	char **lines;
	size_t nl, i;
	int ret = 0;

	if (read_table(name, date, &lines, &nl))
		return -1;
	*out = xcalloc(nl + 1, sizeof(**out));
	*n = 0;
	for (i = 0; i < nl && !ret; i++) {
		char *where = xasprintf(DATA_DIR "%s, entry %zu", name, i + 1);

		ret = compile(&(*out)[i].re, lines[i], where);
		free(where);
		if (!ret) {
			(*out)[i].literal = must_contain(lines[i]);
			(*n)++;
		}
	}
	free_lines(lines, nl);
	return ret;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The device names.  lkp-tests' regexp \b(name|...)[0-9]+ is matched by
 * hand (devices_sub), which needs names of letters and '_' only: with no
 * digit in a name, the name of a match is the whole run of them from the
 * word boundary to the first digit (glibc took 40 million instructions
 * to compile the alternation of 400 names, more than a compose of the
 * rest of the report).
 */
static int load_devices(struct dmesg_rules *r, const char *date)
{
	size_t i;

	if (read_table("device-names", date, &r->devices, &r->ndevices))
		return -1;
	for (i = 0; i < r->ndevices; i++)
		if (strspn(r->devices[i], "abcdefghijklmnopqrstuvwxyz"
					  "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") !=
		    strlen(r->devices[i]))
			return error(DATA_DIR "device-names: '%s' is not a "
					      "name of letters and '_'",
				     r->devices[i]);
	qsort(r->devices, r->ndevices, sizeof(*r->devices), cmp_name);
	return 0;
}

static int word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* Whether s[0..len) is a device name. */
static int is_device(const struct dmesg_rules *r, const char *s, size_t len)
{
	size_t lo = 0, hi = r->ndevices;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(r->devices[mid], s, len);

		if (!c)
			c = r->devices[mid][len] ? 1 : 0;
		if (!c)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Every \b(name)[0-9]+ of sb becomes "name#" (gsub(re, '\1#')). */
static void devices_sub(const struct dmesg_rules *r, struct strbuf *sb)
{
	struct strbuf out = STRBUF_INIT;
	const char *b = sb->buf;
	size_t p, d, e, copied = 0;

	for (p = 0; p < sb->len; p++) {
		if ((p && word_char(b[p - 1])) || !word_char(b[p]))
			continue;
		for (d = p; d < sb->len && word_char(b[d]) &&
			    !(b[d] >= '0' && b[d] <= '9');
		     d++)
			;
		if (d == p || d == sb->len || !(b[d] >= '0' && b[d] <= '9') ||
		    !is_device(r, b + p, d - p))
			continue;
		for (e = d; e < sb->len && b[e] >= '0' && b[e] <= '9'; e++)
			;
		strbuf_add(&out, b + copied, d - copied);
		strbuf_addch(&out, '#');
		copied = e;
		p = e - 1;
	}
	if (!copied) {
		strbuf_release(&out);
		return;
	}
	strbuf_add(&out, b + copied, sb->len - copied);
	strbuf_reset(sb);
	strbuf_addbuf(sb, &out);
	strbuf_release(&out);
}

/*
 * The reduction's own regexps, compiled once per process (they are
 * constants; the tables above are data and belong to the rules).
 */
enum {
	/* preprocess_line */
	RX_KMSG_PREFIX,
	RX_CALLER,
	RX_LEADING,
	/* fixup_dmesg */
	RX_KBUILD,
	RX_TMP_KBUILD,
	RX_ISRA_OFF,
	RX_PLAIN_KMSG,
	RX_MIXED,
	/* parse: lines that are no message */
	RX_HEX16,
	RX_HEX4X8,
	RX_HEX8X4,
	/* generate_error_id */
	RX_G_TAIL,
	RX_G_KT,
	RX_G_WFG,
	RX_G_LKP,
	RX_G_KTL,
	RX_G_ISRA,
	RX_G_BLOCK,
	RX_G_HEX8,
	RX_G_HEX16,
	RX_G_EQ,
	RX_G_OFF,
	RX_G_OFF2,
	RX_G_TAINTED,
	RX_G_LINENO,
	RX_G_EIP,
	RX_G_WORDNUM,
	RX_G_WORDNUM2,
	/* common_error_id */
	RX_C_VERSION,
	RX_C_DATE,
	RX_C_HEX,
	RX_C_SHA,
	RX_C_NUM,
	RX_C_HASHX,
	RX_C_QUOTE,
	RX_C_TAB,
	RX_C_BLANKS,
	RX_C_PUNCT_BLANK,
	RX_C_BLANK_PUNCT,
	RX_C_LEAD,
	RX_C_TRAIL,
	/* handle_complex_patterns, the rewriting ones */
	RX_X_AT,
	RX_X_PHYS,
	RX_X_EQHEX,
	RX_X_KOBJ,
	RX_X_RSS,
	RX_X_PGTABLE,
	RX_MAX
};

static const char *const fixed_ere[RX_MAX] = {
	[RX_KMSG_PREFIX] = "^(kern  |user  |daemon):......: ",
	[RX_CALLER] = "\\[ {0,4}[A-Z][0-9]{1,5}\\] ",
	[RX_LEADING] = "^[^a-zA-Z]+",
	[RX_KBUILD] = "/kbuild/src/[^/]+/",
	[RX_TMP_KBUILD] = "/tmp/kbuild/src/[^/]+/",
	[RX_ISRA_OFF] = "\\.(isra|constprop|part)\\.[0-9]+\\+0x",
	[RX_PLAIN_KMSG] = "^<[0-9]>|^(kern  |user  |daemon):......: ",
	[RX_MIXED] = "(.+)(\\[ *[0-9]{1,6}\\.[0-9]{6}\\] .*)",
	[RX_HEX16] = "([[:space:]][0-9a-f]{2}){16}",
	[RX_HEX4X8] = "\\[ *([0-9]{1,6}\\.[0-9]{6})\\][[:space:]]*"
		      "([[:space:]][0-9a-f]{4}){8}$",
	[RX_HEX8X4] = "\\[ *([0-9]{1,6}\\.[0-9]{6})\\][[:space:]]*"
		      "([[:space:]][0-9a-f]{8}){4}$",
	[RX_G_TAIL] = " \\]$",
	[RX_G_KT] = "/c/kernel-tests/src/[^/]+/",
	[RX_G_WFG] = "/c/(wfg|yliu)/[^/]+/",
	[RX_G_LKP] = "/lkp/[^/]+/linux[0-9]*/",
	[RX_G_KTL] = "/kernel-tests/linux[0-9]*/",
	[RX_G_ISRA] = "\\.(isra|constprop|part)\\.[0-9]+",
	[RX_G_BLOCK] = "\\b(bcache|blkext|btt|dasd|drbd|fd|hd|jsfd|lloop|loop|"
		       "md|mdp|mmc|nbd|nd_blk|nfhd|nullb|nvme|pmem|ramdisk|"
		       "scm|sd|simdisk|sr|ubd|ubiblock|virtblk|xsysace|zram)"
		       "[0-9]+",
	[RX_G_HEX8] = "\\b[0-9a-f]{8}\\b",
	[RX_G_HEX16] = "\\b[0-9a-f]{16}\\b",
	[RX_G_EQ] = "(=)[0-9a-f]+\\b",
	[RX_G_OFF] = "[+/]0x[0-9a-f]+\\b",
	[RX_G_OFF2] = "[+/][0-9a-f]+\\b",
	[RX_G_TAINTED] = " \\(Tainted:.+\\)",
	[RX_G_LINENO] = "([a-z]:)[0-9]+\\b",
	[RX_G_EIP] = "#:\\[<#>\\]\\[<#>\\]",
	[RX_G_WORDNUM] = "[^/a-zA-Z0-9_][a-zA-Z0-9_][0-9]+[^a-zA-Z0-9_]",
	[RX_G_WORDNUM2] = "[^a-zA-Z0-9_][a-zA-Z0-9_][0-9]+[^/a-zA-Z0-9_]",
	[RX_C_VERSION] = "\\b[3-9]\\.[0-9]+[-a-z0-9.]+",
	[RX_C_DATE] = "\\b[1-9][0-9]-[A-Z][a-z]+-[0-9]{4}\\b",
	[RX_C_HEX] = "\\b0x[0-9a-f]+\\b",
	[RX_C_SHA] = "\\b[a-f0-9]{40}\\b",
	[RX_C_NUM] = "\\b[0-9][0-9.]*",
	[RX_C_HASHX] = "#x\\b",
	[RX_C_QUOTE] = "[\\\"$]",
	[RX_C_TAB] = "[\t]",
	[RX_C_BLANKS] = "  +",
	[RX_C_PUNCT_BLANK] = "([^a-zA-Z0-9]) ",
	[RX_C_BLANK_PUNCT] = " ([^a-zA-Z])",
	[RX_C_LEAD] = "^ ",
	[RX_C_TRAIL] = "[-_.,;:#!*[(]+$",
	[RX_X_AT] = "(at .*)",
	[RX_X_PHYS] = "\\b[0-9a-f]+\\b phys",
	[RX_X_EQHEX] = "= \\b[0-9a-f]+\\b",
	[RX_X_KOBJ] = "kobject \\(([0-9a-f]+|\\(_*ptrval_*\\))\\)",
	[RX_X_RSS] =
		"BUG: Bad rss-counter state mm:([0-9a-f]+|\\(_*ptrval_*\\)) ",
	[RX_X_PGTABLE] = "Bad pagetable: [0-9a-f]+ \\[#",
};

static regex_t fixed[RX_MAX];
static int fixed_ready;

static int fixed_compile(void)
{
	size_t i;

	if (fixed_ready)
		return 0;
	for (i = 0; i < RX_MAX; i++)
		if (compile(&fixed[i], fixed_ere[i],
			    "robot/kinds/functional/dmesg.c")) {
			while (i--)
				regfree(&fixed[i]);
			return -1;
		}
	fixed_ready = 1;
	return 0;
}

/*
 * The known shapes of handle_simple_patterns: the name is group 1.  Ruby's
 * \d and \w are spelled out; [a-z\-_ ] is [-a-z_ ].
 */
static const char *const simple_ere[] = {
	"(INFO: rcu[_a-z]* self-detected stall on CPU)",
	"(INFO: rcu[_a-z]* detected stalls on CPUs/tasks:)",
	"(related general protection fault:)",
	"(BUG: using __this_cpu_read\\(\\) in preemptible)",
	"(BUG: unable to handle kernel)",
	"(BUG: workqueue leaked lock or atomic:)",
	"(BUG: scheduling while atomic:)",
	"(BUG: Bad page map in process)",
	"(BUG: Bad page state in process)",
	"(BUG: Bad page cache in process)",
	"(BUG: soft lockup - CPU#[0-9]+ stuck for [0-9]+s!.*)",
	"(BUG: spinlock .* on CPU#[0-9]+)",
	"(Out of memory: Kill process) [0-9]+ \\(",
	"(Writer stall state [a-zA-Z0-9_]*).+ g[0-9]+ c[0-9]+ f",
	"(BUG: workqueue lockup - pool)",
	"(rcu_sched kthread starved) for [0-9]+ jiffies",
	"(Could not create tracefs)",
	"(used greatest stack depth:)",
	"([A-Z]+[ a-zA-Z]*): [a-f0-9]{4} \\[#[0-9]+\\] ",
	"(BUG: KASAN: [-a-z_ ]+ in [a-z_]+)\\+",
	"(BUG: KFENCE: [-a-z_ ]+ in [a-z_]+)\\+",
	"(cpu clock throttled)",
	"(Kernel panic - not syncing: No working init found.)  Try passing "
	"init= option to kernel. ",
	"(Kernel panic - not syncing: No init found.)  Try passing init= "
	"option to kernel. ",
};

/* handle_composite_patterns: the name is group 1 and group 2. */
static const char *const composite_ere[] = {
	"(BUG: ).* (still has locks held)",
	"(INFO: task ).* (blocked for more than [0-9]+ seconds)",
	/* handle_complex_patterns' two of the same kind */
	"(BUG: key )[0-9a-f]+ (not in .data)",
	"(BUG: Dentry ).* (still in use) .* \\[unmount of ",
};

/* handle_complex_patterns that keep group 1 alone. */
static const char *const group1_ere[] = {
	"(UBSAN: .+)",
	"(BUG: using smp_processor_id\\(\\) in preemptible)",
	"^[0-9a-z]+>\\] (.+)",
};

static regex_t simple_rx[ARRAY_SIZE(simple_ere)];
static regex_t composite_rx[ARRAY_SIZE(composite_ere)];
static regex_t group1_rx[ARRAY_SIZE(group1_ere)];
/* the complex shapes that rewrite the message in place */
static regex_t warning_rx, backtrace_rx, lowmem_rx, kobject_rx, rss_rx,
	pgtable_rx, slab_rx, endmark_rx, segfault_rx, kmalloc_rx;
static int shapes_ready;

static int compile_list(regex_t *rx, const char *const *ere, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (compile(&rx[i], ere[i], "robot/kinds/functional/dmesg.c"))
			return -1;
	return 0;
}

static int shapes_compile(void)
{
	if (shapes_ready)
		return 0;
	if (compile_list(simple_rx, simple_ere, ARRAY_SIZE(simple_ere)) ||
	    compile_list(composite_rx, composite_ere,
			 ARRAY_SIZE(composite_ere)) ||
	    compile_list(group1_rx, group1_ere, ARRAY_SIZE(group1_ere)) ||
	    compile(&warning_rx, "WARNING:.* at .* ([a-zA-Z.0-9_]+\\+0x)",
		    "robot/kinds/functional/dmesg.c") ||
	    compile(&backtrace_rx,
		    "^backtrace:([a-zA-Z0-9_]+)|^calltrace:([a-zA-Z0-9_]+)",
		    "robot/kinds/functional/dmesg.c") ||
	    compile(&lowmem_rx, "Corrupted low memory at",
		    "robot/kinds/functional/dmesg.c") ||
	    compile(&kobject_rx,
		    "kobject \\(([0-9a-f]+|\\(_*ptrval_*\\))\\): tried to init "
		    "an initialized object",
		    "robot/kinds/functional/dmesg.c") ||
	    compile(&rss_rx,
		    "BUG: Bad rss-counter state mm:([0-9a-f]+|\\(_*ptrval_*\\)) ",
		    "robot/kinds/functional/dmesg.c") ||
	    compile(&pgtable_rx, "Bad pagetable: [0-9a-f]+ \\[#",
		    "robot/kinds/functional/dmesg.c") ||
	    compile(&slab_rx,
		    "(INFO: Slab 0x\\(____ptrval____\\) objects=.*fp=0x).* "
		    "(flags=.*)",
		    "robot/kinds/functional/dmesg.c") ||
	    compile(&endmark_rx, "(.*) \\]---(.*)",
		    "robot/kinds/functional/dmesg.c") ||
	    compile(&segfault_rx, "segfault at .* ip .* sp .* error",
		    "robot/kinds/functional/dmesg.c") ||
	    compile(&kmalloc_rx, "(BUG kmalloc-[0-9]+) \\(Tainted:.+\\)(: .+)",
		    "robot/kinds/functional/dmesg.c"))
		return -1;
	shapes_ready = 1;
	return 0;
}

/* The dated steps of analyze_error_id: config/data/dmesg/error-id. */
static int load_steps(struct dmesg_rules *r, const char *date)
{
	static const char *const tainted[] = { "keep", "kmalloc", "drop" };
	char **lines;
	size_t nl, i, j;
	int ret = 0;

	if (read_table("error-id", date, &lines, &nl))
		return -1;
	for (i = 0; i < nl && !ret; i++) {
		const char *v = lines[i] + 8;

		if (strncmp(lines[i], "tainted ", 8)) {
			ret = error(DATA_DIR "error-id: '%s' is no step "
					     "(want tainted)",
				    lines[i]);
			break;
		}
		v += strspn(v, " ");
		for (j = 0; j < ARRAY_SIZE(tainted); j++)
			if (!strcmp(v, tainted[j]))
				break;
		if (j == ARRAY_SIZE(tainted))
			ret = error(DATA_DIR
				    "error-id: tainted: unknown value "
				    "'%s' (want keep, kmalloc or drop)",
				    v);
		else
			r->tainted = j;
	}
	if (!ret && !nl)
		ret = error(DATA_DIR "error-id: no tainted step on %s", date);
	free_lines(lines, nl);
	return ret;
}

struct dmesg_rules *dmesg_rules_load(const char *date)
{
	struct dmesg_rules *r = xcalloc(1, sizeof(*r));

	if (fixed_compile() || shapes_compile() ||
	    load_patterns("oops-pattern", date, &r->oops, &r->noops) ||
	    load_patterns("oops-pattern-ignore", date, &r->ignore,
			  &r->nignore) ||
	    load_devices(r, date) || load_steps(r, date)) {
		dmesg_rules_free(r);
		return NULL;
	}
	return r;
}

static void free_patterns(struct pattern *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		regfree(&p[i].re);
		free(p[i].literal);
	}
	free(p);
}

void dmesg_rules_free(struct dmesg_rules *r)
{
	if (!r)
		return;
	free_patterns(r->oops, r->noops);
	free_patterns(r->ignore, r->nignore);
	free_lines(r->devices, r->ndevices);
	free(r);
}

/* regexec from `at` to the end of sb, with the text before as context. */
static int search(const regex_t *re, const struct strbuf *sb, size_t at,
		  regmatch_t *m, size_t nm)
{
	m[0].rm_so = (regoff_t)at;
	m[0].rm_eo = (regoff_t)sb->len;
	return !regexec(re, sb->buf, nm, m, REG_STARTEND);
}

/*
 * Ruby's sub (global = 0) and gsub: every match left to right replaced by
 * `repl`, in which \1..\9 stand for the groups.  Returns how many.
 */
static int rx_sub(struct strbuf *sb, const regex_t *re, const char *repl,
		  int global)
{
	struct strbuf out = STRBUF_INIT;
	regmatch_t m[10];
	size_t at = 0;
	int n = 0;

	while (at <= sb->len && search(re, sb, at, m, ARRAY_SIZE(m))) {
		const char *p;
		size_t so = (size_t)m[0].rm_so, eo = (size_t)m[0].rm_eo;

		strbuf_add(&out, sb->buf + at, so - at);
		for (p = repl; *p; p++) {
			if (*p == '\\' && p[1] >= '0' && p[1] <= '9') {
				int g = *++p - '0';

				if (m[g].rm_so >= 0)
					strbuf_add(&out, sb->buf + m[g].rm_so,
						   (size_t)(m[g].rm_eo -
							    m[g].rm_so));
			} else {
				strbuf_addch(&out, *p);
			}
		}
		n++;
		if (eo == so) {
			/* an empty match: keep one character and go on */
			if (eo < sb->len)
				strbuf_addch(&out, sb->buf[eo]);
			at = eo + 1;
		} else {
			at = eo;
		}
		if (!global)
			break;
	}
	if (!n) {
		strbuf_release(&out);
		return 0;
	}
	if (at < sb->len)
		strbuf_add(&out, sb->buf + at, sb->len - at);
	strbuf_release(sb);
	*sb = out;
	return n;
}

static int fsub(struct strbuf *sb, int id, const char *repl, int global)
{
	return rx_sub(sb, &fixed[id], repl, global);
}

/* Replaces the literal `from` by `to` everywhere (Ruby's gsub(String)). */
static void replace_all(struct strbuf *sb, const char *from, const char *to)
{
	struct strbuf out = STRBUF_INIT;
	size_t flen = strlen(from);
	const char *p = sb->buf, *hit;

	while ((hit = strstr(p, from))) {
		strbuf_add(&out, p, (size_t)(hit - p));
		strbuf_addstr(&out, to);
		p = hit + flen;
	}
	strbuf_addstr(&out, p);
	strbuf_release(sb);
	*sb = out;
}

/* Sets sb to group `g` (or groups g1 and g2) of the last match. */
static void take_groups(struct strbuf *sb, const regmatch_t *m, int g1, int g2)
{
	struct strbuf out = STRBUF_INIT;

	if (m[g1].rm_so >= 0)
		strbuf_add(&out, sb->buf + m[g1].rm_so,
			   (size_t)(m[g1].rm_eo - m[g1].rm_so));
	if (g2 && m[g2].rm_so >= 0)
		strbuf_add(&out, sb->buf + m[g2].rm_so,
			   (size_t)(m[g2].rm_eo - m[g2].rm_so));
	strbuf_release(sb);
	*sb = out;
}

/* The complex shapes that only mask an id of the message. */
static const struct {
	const regex_t *when;
	int id;
	const char *repl;
} masks[] = {
	{ &kobject_rx, RX_X_KOBJ, "kobject (#)" },
	{ &rss_rx, RX_X_RSS, "BUG: Bad rss-counter state mm:# " },
	{ &pgtable_rx, RX_X_PGTABLE, "Bad pagetable: # [#" },
};

/* lib/dmesg.rb handle_known_patterns, reduced to the rewritten message. */
static void known_shapes(const struct dmesg_rules *r, struct strbuf *sb)
{
	regmatch_t m[4];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(simple_rx); i++)
		if (search(&simple_rx[i], sb, 0, m, 2)) {
			take_groups(sb, m, 1, 0);
			return;
		}
	for (i = 0; i < 2; i++)
		if (search(&composite_rx[i], sb, 0, m, 3)) {
			take_groups(sb, m, 1, 2);
			return;
		}
	/* handle_complex_patterns, in its order */
	if (search(&warning_rx, sb, 0, m, 2)) {
		if (search(&fixed[RX_X_AT], sb, 0, m, 2)) {
			char *at = xstrndup(sb->buf + m[1].rm_so,
					    (size_t)(m[1].rm_eo - m[1].rm_so));

			strbuf_reset(sb);
			strbuf_addf(sb, "WARNING: %s", at);
			free(at);
		}
		return;
	}
	for (i = 0; i < ARRAY_SIZE(group1_rx); i++)
		if (search(&group1_rx[i], sb, 0, m, 2)) {
			take_groups(sb, m, 1, 0);
			return;
		}
	for (i = 2; i < ARRAY_SIZE(composite_rx); i++)
		if (search(&composite_rx[i], sb, 0, m, 3)) {
			take_groups(sb, m, 1, 2);
			return;
		}
	if (search(&backtrace_rx, sb, 0, m, 1))
		return;
	if (search(&lowmem_rx, sb, 0, m, 1)) {
		fsub(sb, RX_X_PHYS, "# phys", 0);
		fsub(sb, RX_X_EQHEX, "= #", 0);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(masks); i++)
		if (search(masks[i].when, sb, 0, m, 1)) {
			fsub(sb, masks[i].id, masks[i].repl, 0);
			return;
		}
	if (search(&slab_rx, sb, 0, m, 3)) {
		struct strbuf out = STRBUF_INIT;

		strbuf_add(&out, sb->buf + m[1].rm_so,
			   (size_t)(m[1].rm_eo - m[1].rm_so));
		strbuf_addstr(&out, "(#) ");
		strbuf_add(&out, sb->buf + m[2].rm_so,
			   (size_t)(m[2].rm_eo - m[2].rm_so));
		strbuf_release(sb);
		*sb = out;
		return;
	}
	if (search(&endmark_rx, sb, 0, m, 3)) {
		take_groups(sb, m, 1, 2);
		return;
	}
	if (search(&segfault_rx, sb, 0, m, 1)) {
		strbuf_reset(sb);
		strbuf_addstr(sb, "segfault at ip sp error");
		return;
	}
	/* 3bee5985a, two days before the general step (generate_error_id) */
	if (r->tainted == TAINTED_KMALLOC && search(&kmalloc_rx, sb, 0, m, 3))
		take_groups(sb, m, 1, 2);
}

/* lib/dmesg.rb common_error_id. */
static void common_error_id(struct strbuf *sb)
{
	size_t i;

	fsub(sb, RX_C_VERSION, "#", 1);
	fsub(sb, RX_C_DATE, "#", 1);
	fsub(sb, RX_C_HEX, "#", 1);
	fsub(sb, RX_C_SHA, "#", 1);
	fsub(sb, RX_C_NUM, "#", 1);
	fsub(sb, RX_C_HASHX, "0x", 1);
	fsub(sb, RX_C_QUOTE, "~", 1);
	fsub(sb, RX_C_TAB, " ", 1);
	fsub(sb, RX_C_BLANKS, " ", 1);
	fsub(sb, RX_C_PUNCT_BLANK, "\\1", 1);
	fsub(sb, RX_C_BLANK_PUNCT, "\\1", 1);
	fsub(sb, RX_C_LEAD, "", 0);
	replace_all(sb, "  _", "_");
	for (i = 0; i < sb->len; i++)
		if (sb->buf[i] == ' ')
			sb->buf[i] = '_';
	fsub(sb, RX_C_TRAIL, "", 0);
}

/* lib/dmesg.rb generate_error_id. */
static void generate_error_id(const struct dmesg_rules *r, struct strbuf *sb)
{
	static const int removed[] = { RX_G_TAIL, RX_G_KT,  RX_G_WFG,
				       RX_G_LKP,  RX_G_KTL, RX_G_ISRA };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(removed); i++)
		fsub(sb, removed[i], "", 1);
	fsub(sb, RX_G_BLOCK, "\\1#", 1);
	devices_sub(r, sb);
	fsub(sb, RX_G_HEX8, "#", 1);
	fsub(sb, RX_G_HEX16, "#", 1);
	fsub(sb, RX_G_EQ, "\\1#", 1);
	fsub(sb, RX_G_OFF, "", 1);
	fsub(sb, RX_G_OFF2, "", 1);
	if (r->tainted == TAINTED_DROP)
		fsub(sb, RX_G_TAINTED, "", 1);
	common_error_id(sb);
	fsub(sb, RX_G_LINENO, "\\1", 1);
	fsub(sb, RX_G_EIP, "", 1);
	replace_all(sb, "RIP:#:", "RIP:");
	fsub(sb, RX_G_WORDNUM, "#", 1);
	fsub(sb, RX_G_WORDNUM2, "#", 1);
}

char *dmesg_analyze(const struct dmesg_rules *r, const char *message)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, message);
	/* preprocess_line */
	fsub(&sb, RX_KMSG_PREFIX, "", 0);
	fsub(&sb, RX_CALLER, " ", 0);
	fsub(&sb, RX_LEADING, "", 0);
	known_shapes(r, &sb);
	generate_error_id(r, &sb);
	/* lkp drops names of three characters or fewer */
	if (sb.len <= 3) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

/* The symbol characters of kallsyms names as decode_stacktrace prints. */
static int sym_char(int c)
{
	return isalnum(c) || c == '_' || c == '.';
}

/*
 * Before addr2line's ":?" (a line it does not know): "??" (nor the file),
 * or a file name ("core.c", "ld-temp.o"): file characters with a '.'.
 */
static int unknown_line(const char *s, const char *colon)
{
	const char *c;
	int dot = 0;

	if (colon - s == 2 && !memcmp(s, "??", 2))
		return 1;
	for (c = s; c < colon; c++) {
		if (*c == '.')
			dot = 1;
		else if (!isalnum((unsigned char)*c) && !strchr("_-+/", *c))
			return 0;
	}
	return dot && colon > s;
}

/*
 * At p (just after "sym"), " (path:nr ...)": returns the length of the
 * annotation including the blank and both parentheses, or 0.
 */
static size_t annotation(const char *p, const char *end)
{
	const char *q = p + 2, *colon = NULL;
	int depth = 1;

	if (end - p < 4 || p[0] != ' ' || p[1] != '(')
		return 0;
	/*
	 * A source position: a path, ':' and a digit, before any blank; or
	 * addr2line's '?' for a line it does not know, after a file it
	 * knows ("device_release (core.c:?)", "alg_test (ld-temp.o:?)") or
	 * does not ("xhci_offload_get_ops (??:?)").
	 */
	for (; q < end && *q != ' ' && *q != ')'; q++)
		if (*q == ':' && q + 1 < end &&
		    (isdigit((unsigned char)q[1]) ||
		     (q[1] == '?' && unknown_line(p + 2, q))))
			colon = q;
	if (!colon)
		return 0;
	for (q = p + 2; q < end && depth; q++) {
		if (*q == '(')
			depth++;
		else if (*q == ')')
			depth--;
	}
	return depth ? 0 : (size_t)(q - p);
}

void dmesg_undecode(struct strbuf *out, const char *line, size_t len)
{
	const char *p = line, *end = line + len;

	while (p < end) {
		size_t n;

		if (p > line && sym_char((unsigned char)p[-1]) &&
		    (n = annotation(p, end))) {
			const char *mod = p + n, *m;

			strbuf_addstr(out, "+0x0/0x0");
			p += n;
			/* " mod" closing the line: the module, as "[mod]" */
			if (mod < end && *mod == ' ') {
				for (m = mod + 1;
				     m < end &&
				     (isalnum((unsigned char)*m) || *m == '_');
				     m++)
					;
				if (m > mod + 1) {
					const char *rest = m;

					while (rest < end && *rest == ' ')
						rest++;
					if (rest == end) {
						strbuf_addstr(out, " [");
						strbuf_add(
							out, mod + 1,
							(size_t)(m - mod - 1));
						strbuf_addch(out, ']');
						p = end;
					}
				}
			}
			continue;
		}
		strbuf_addch(out, *p++);
	}
}

/* A byte lkp's parser refuses in a message ([^\t\n\0[:print:]]). */
static int has_control(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return 1;
	}
	return 0;
}

static int ignored(const struct dmesg_rules *r, const struct strbuf *line)
{
	regmatch_t m[1];
	size_t i;

	for (i = 0; i < r->nignore; i++)
		if ((!r->ignore[i].literal ||
		     strstr(line->buf, r->ignore[i].literal)) &&
		    search(&r->ignore[i].re, line, 0, m, 1))
			return 1;
	return 0;
}

/*
 * The text the oops patterns match first in one line, as Ruby's
 * alternation of all of them does: the leftmost start, and among patterns
 * that start there the first in the file.  Returns 0 if none matches.
 */
static int oops_match(const struct dmesg_rules *r, const struct strbuf *line,
		      size_t *so, size_t *eo)
{
	regmatch_t m[1];
	size_t i;
	int found = 0;

	for (i = 0; i < r->noops; i++) {
		if (r->oops[i].literal &&
		    !strstr(line->buf, r->oops[i].literal))
			continue;
		if (!search(&r->oops[i].re, line, 0, m, 1))
			continue;
		if (!found || (size_t)m[0].rm_so < *so) {
			*so = (size_t)m[0].rm_so;
			*eo = (size_t)m[0].rm_eo;
			found = 1;
		}
	}
	return found;
}

/* The name of one cleaned line (lib/dmesg.rb grep_crash_head + parse). */
static char *crash_id(const struct dmesg_rules *r, const struct strbuf *line)
{
	regmatch_t m[3];
	size_t so, eo;
	char *msg, *id;

	if (search(&fixed[RX_HEX16], line, 0, m, 1) ||
	    search(&fixed[RX_HEX4X8], line, 0, m, 1) ||
	    search(&fixed[RX_HEX8X4], line, 0, m, 1) || ignored(r, line) ||
	    !oops_match(r, line, &so, &eo))
		return NULL;
	msg = xstrndup(line->buf + so, eo - so);
	id = dmesg_analyze(r, msg);
	free(msg);
	return id;
}

/* fixup_dmesg: the cleaned line, and a second one when it held two. */
static void fixup(struct strbuf *a, struct strbuf *b, const char *line,
		  size_t len)
{
	regmatch_t m[3];

	strbuf_reset(a);
	strbuf_reset(b);
	dmesg_undecode(a, line, len);
	fsub(a, RX_KBUILD, "", 0);
	fsub(a, RX_TMP_KBUILD, "", 0);
	fsub(a, RX_ISRA_OFF, "+0x", 0);
	if (!search(&fixed[RX_PLAIN_KMSG], a, 0, m, 1) &&
	    search(&fixed[RX_MIXED], a, 0, m, 3)) {
		strbuf_add(b, a->buf + m[2].rm_so,
			   (size_t)(m[2].rm_eo - m[2].rm_so));
		strbuf_setlen(a, (size_t)m[1].rm_eo);
	}
}

char *dmesg_error_id(const struct dmesg_rules *r, const char *line, size_t len)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	char *id = NULL;

	if (!has_control(line, len)) {
		fixup(&a, &b, line, len);
		id = crash_id(r, &a);
		if (!id && b.len)
			id = crash_id(r, &b);
	}
	strbuf_release(&a);
	strbuf_release(&b);
	return id;
}

/* A printk message of level err, crit, alert or emerg, or a segfault. */
static int printk_error(const struct strbuf *line)
{
	const char *s = line->buf;

	if (strstr(s, "segfault at"))
		return 1;
	if (s[0] == '<' && s[1] >= '0' && s[1] <= '3' && s[2] == '>')
		return 1;
	return !strncmp(s, "kern  :err   : ", 15) ||
	       !strncmp(s, "kern  :crit  : ", 15) ||
	       !strncmp(s, "kern  :alert : ", 15) ||
	       !strncmp(s, "kern  :emerg : ", 15);
}

char *dmesg_kmsg_error_id(const struct dmesg_rules *r, const char *line,
			  size_t len)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	size_t so, eo;
	char *id = NULL;

	if (!has_control(line, len)) {
		fixup(&a, &b, line, len);
		/* lines that name a report are dmesg stats, not kmsg ones */
		if (printk_error(&a) && !oops_match(r, &a, &so, &eo))
			id = dmesg_analyze(r, a.buf);
	}
	strbuf_release(&a);
	strbuf_release(&b);
	return id;
}
