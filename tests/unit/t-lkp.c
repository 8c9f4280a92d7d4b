// SPDX-License-Identifier: GPL-2.0-only
/*
 * t-lkp.c: the dated lkp-tests tables (config/lkp.c), checked against
 * facts of each era and against rows of the seed mails (tests/data/seeds/).
 */
#include "robot/util/common.h"
#include "config/data.h"
#include "config/lkp.h"
#include "tests/unit/check.h"

#include <sys/stat.h>
#include <unistd.h>

/* One load per date, kept for the whole run. */
static struct {
	char date[11];
	struct lkp_tables *t;
} cache[48];
static size_t nr_cache;

static struct lkp_tables *at(const char *date)
{
	for (size_t i = 0; i < nr_cache; i++)
		if (!strcmp(cache[i].date, date))
			return cache[i].t;
	if (nr_cache == ARRAY_SIZE(cache))
		BUG("too many dates");
	snprintf(cache[nr_cache].date, sizeof(cache[nr_cache].date), "%s",
		 date);
	cache[nr_cache].t = lkp_tables_load(date);
	if (!cache[nr_cache].t)
		BUG("cannot load the tables of %s", date);
	return cache[nr_cache++].t;
}

static void free_all(void)
{
	for (size_t i = 0; i < nr_cache; i++)
		lkp_tables_free(cache[i].t);
	nr_cache = 0;
}

/* The stat passes skip_stat?'s list test: bisectable or report-allowed. */
static int shown(const char *date, const char *stat)
{
	struct lkp_tables *t = at(date);

	return lkp_bisectable_stat(t, stat) || lkp_report_allowed(t, stat);
}

static void test_every_version_loads(void)
{
	/* every section date of every table, and dates around them */
	static const char *const dates[] = {
		"2001-01-01", "2016-07-15", "2017-08-15", "2018-05-29",
		"2019-02-20", "2019-02-28", "2019-06-14", "2020-03-04",
		"2020-06-05", "2020-09-08", "2020-12-10", "2021-06-29",
		"2021-07-16", "2021-11-17", "2021-12-11", "2022-02-24",
		"2022-05-24", "2023-03-01", "2023-06-07", "2023-09-22",
		"2024-01-01", "2025-01-01", "2026-02-13", "2026-07-22",
		"2099-12-31",
	};

	for (size_t i = 0; i < ARRAY_SIZE(dates); i++) {
		struct lkp_tables *t = lkp_tables_load(dates[i]);

		CHECK(t != NULL, "tables of %s load", dates[i]);
		if (t)
			CHECK_STREQ(lkp_tables_date(t), dates[i], "date kept");
		CHECK(t && !lkp_tables_verify(t),
		      "every pattern of %s compiles", dates[i]);
		lkp_tables_free(t);
	}
	error_quiet++;
	CHECK(!lkp_tables_load("2021-6-1"), "a malformed date is refused");
	CHECK(!lkp_tables_load("yesterday"), "a word is refused");
	error_quiet--;
}

static void test_deny_and_report_lists(void)
{
	const char *cal = "interrupts.CAL:Function_call_interrupts";

	/* 2016: ^interrupts.(?!CAL:).* denies all but CAL */
	CHECK(lkp_bisectable_stat(at("2016-07-15"), cal),
	      "2016: interrupts.CAL bisectable (lookahead)");
	CHECK(!lkp_bisectable_stat(at("2016-07-15"),
				   "interrupts.0:IO-APIC.2-edge.timer"),
	      "2016: other interrupts denied");
	CHECK(lkp_bisectable_stat(at("2016-07-15"), "perf-stat.cpu-cycles"),
	      "2016: perf-stat was bisectable");
	CHECK(!lkp_report_allowed(at("2016-07-15"), "meminfo.Active"),
	      "2016: no report allowlist yet");

	/* 2019-02-19..27: merged blacklist, no report-whitelist yet */
	CHECK(!shown("2019-02-25", "perf-stat.i.ipc"),
	      "2019-02-25: perf-stat rows lost (the bug 6919e2d50 fixed)");
	CHECK(shown("2019-02-28", "perf-stat.i.ipc"),
	      "2019-02-28: perf-stat back through report-whitelist");

	CHECK(!lkp_bisectable_stat(at("2021-06-01"), cal),
	      "2021-06: interrupts not bisectable");
	CHECK(lkp_report_allowed(at("2021-06-01"), cal),
	      "2021-06: interrupts.CAL report-allowed");
	CHECK(shown("2021-12-08", cal), "2021-12-08: interrupts shown");
	/* 368a02d02: written 2021-12-09, committed 2021-12-11 */
	CHECK(shown("2021-12-10", cal), "2021-12-10: interrupts shown");
	CHECK(!shown("2021-12-11", cal), "2021-12-11: interrupts dropped");
	CHECK(!shown("2023-06-07", cal), "2023: interrupts dropped");
	CHECK(shown("2021-06-01", "slabinfo.dmaengine-unmap-16.active_objs"),
	      "2021-06: slabinfo shown");
	CHECK(!shown("2021-12-11", "slabinfo.dmaengine-unmap-16.active_objs"),
	      "2021-12-11: slabinfo dropped");
	CHECK(shown("2021-12-10", "softirqs.CPU0.RCU"),
	      "2021-12-10: softirqs still shown");
	CHECK(!shown("2022-02-24", "softirqs.CPU0.RCU"),
	      "2022-02-24: softirqs dropped");
	CHECK(!shown("2021-06-01", "pagetypeinfo.Node0.Normal.Unmovable"),
	      "pagetypeinfo never shown");
	CHECK(shown("2023-09-22", "mpstat.cpu.all.usr%"),
	      "2023: mpstat report-allowed");
	CHECK(!lkp_bisectable_stat(at("2023-09-22"), "mpstat.cpu.all.usr%"),
	      "2023: mpstat not bisectable");
	CHECK(lkp_bisectable_stat(at("2023-06-07"),
				  "stress-ng.lockofd.ops_per_sec"),
	      "2023: test stats are bisectable");
	CHECK(lkp_bisectable_stat(at("2021-07-16"), "stderr.mount_nfs_timeout"),
	      "2021-07-16: stat-allowlist re-admits a denied stderr");
	CHECK(!lkp_bisectable_stat(at("2026-02-12"), "dmesg.x{#:#}y"),
	      "{#:#} in the denylist is a literal");
	CHECK(!lkp_bisectable_stat(at("2026-02-12"), "dmesg.a},at"),
	      "},at in the denylist is a literal");
}

static void test_function_stats(void)
{
	const char *ee = "perf-profile.children.cycles-pp.error_entry";

	CHECK(lkp_function_stat(at("2021-07-15"), ee),
	      "2021-07-15: error_entry is a function stat");
	CHECK(!lkp_function_stat(at("2021-07-16"), ee),
	      "2021-07-16: error_entry is not");
	CHECK(lkp_failure_stat(at("2021-06-01"), ee), "failure_stat? too");
	CHECK(lkp_function_stat(at("2016-07-15"), "kmsg.DHCP/BOOTP:Reply"),
	      "2016: kmsg.* is a failure");
	CHECK(lkp_function_stat(at("2023-06-07"), "dmesg.boot_failures"),
	      "dmesg.* is a failure");
	CHECK(lkp_function_stat(at("2023-06-07"), "ltp.hugemmap10.fail"),
	      "*.fail is a failure");
	CHECK(lkp_function_stat(at("2023-06-07"), "xfstests.generic.001.pass"),
	      "2023: *.pass is a function stat");
	CHECK(lkp_pass_stat(at("2023-06-07"), "xfstests.generic.001.pass"),
	      "pass_stat?");
	CHECK(!lkp_pass_stat(at("2020-06-05"), "xfstests.generic.001.pass"),
	      "no etc/pass before 2020-09");
	CHECK(!lkp_function_stat(at("2023-06-07"), "dmesg.timestamp:last"),
	      "2023: .timestamp: excluded");
	CHECK(lkp_function_stat(at("2021-06-01"), "dmesg.timestamp:last"),
	      "2021: only .timestamp. was excluded");
	CHECK(!lkp_function_stat(at("2021-06-01"), "kmsg.timestamp.x"),
	      "2021: .timestamp. excluded");
	CHECK(!lkp_function_stat(at("2023-06-07"), "stress-ng.time.fail"),
	      ".time. never a function stat");
	CHECK(lkp_failure_stat(at("2023-06-07"), "stress-ng.time.fail"),
	      "but failure_stat? has no exclusion");
	CHECK(!lkp_function_stat(at("2023-06-07"), "stress-ng.ops_per_sec"),
	      "a perf stat is not a function stat");

	/* failure patterns with lookaheads (2019-06..2023-01) */
	CHECK(lkp_failure_stat(at("2022-06-01"),
			       "leaking-addresses.proc.status"),
	      "leaking-addresses.proc.status: failure");
	CHECK(!lkp_failure_stat(at("2022-06-01"),
				"leaking-addresses.proc.netlink"),
	      "(?!blacklist|netlink|vmallocinfo)");
	CHECK(!lkp_failure_stat(at("2022-06-01"),
				"leaking-addresses.proc.x:0000000abc"),
	      "(?!.*:0000000)");
	CHECK(!lkp_failure_stat(at("2022-06-01"), "leaking-addresses.dmesg.R"),
	      "(?!R)");
	CHECK(lkp_failure_stat(at("2022-06-01"), "leaking-addresses.dmesg.x"),
	      "leaking-addresses.dmesg.x: failure");
	CHECK(!lkp_failure_stat(at("2023-06-07"),
				"leaking-addresses.proc.status"),
	      "2023: leaking-addresses patterns removed");
}

static void test_latency(void)
{
	CHECK(lkp_latency_stat(at("2016-07-15"), "latency_stats.max.foo"),
	      "2016: latency_stats.* is a latency stat");
	CHECK(lkp_latency_stat(at("2020-06-05"), "dbench.max_latency"),
	      "2020: dbench.max_latency is a latency stat");
	CHECK(!lkp_latency_stat(at("2020-12-10"), "dbench.max_latency"),
	      "from 2020-12-10 nothing is");
}

static void test_perf_metrics(void)
{
	const char *lockofd = "stress-ng.lockofd.ops_per_sec";

	CHECK(lkp_perf_metric(at("2023-06-07"), "perf-stat.i.ipc"),
	      "perf-stat.* is a perf metric");
	CHECK(lkp_perf_metric(at("2016-07-15"), "perf-stat.ipc"), "2016 too");
	CHECK(lkp_perf_metric(at("2023-06-07"), lockofd),
	      "2023: stress-ng.* is a perf metric");
	CHECK(!lkp_perf_metric(at("2021-06-01"), lockofd),
	      "2021: stress-ng was a functional test case");
	CHECK(lkp_perf_metric(at("2022-05-24"), lockofd),
	      "2022-05-24: stress-ng moved to LINUX_PERF_TESTCASES");
	CHECK(!lkp_perf_metric(at("2023-06-07"), "mpstat.cpu.all.usr%"),
	      "mpstat is not a perf metric");
	CHECK(lkp_perf_metric(at("2021-06-01"), "vmstat.system.cs"),
	      "vmstat.system.* prefix");
	CHECK(!lkp_perf_metric(at("2021-06-01"), "vmstat.memory.buff"),
	      "vmstat.memory.* is not");
	CHECK(lkp_perf_metric(at("2021-06-01"),
			      "will-it-scale.time.voluntary_context_switches"),
	      "^(.*\\.)?time..* pattern");
	CHECK(lkp_perf_metric(at("2021-06-01"),
			      "interrupts.CAL:Function_call_interrupts"),
	      "interrupts.CAL prefix");
	CHECK(lkp_perf_metric(at("2016-07-15"), "netperf.Throughput_Mbps"),
	      "2016: netperf.*");
	CHECK(lkp_perf_metric(at("2016-07-15"), "dmesg.foo"),
	      "2016: every test prefix, dmesg. too");
	CHECK(!lkp_perf_metric(at("2021-06-01"), "dmesg.foo"),
	      "2021: dmesg. is not");
	CHECK(lkp_perf_metric(at("2021-06-01"), "turbostat.%Busy"),
	      "turbostat.%%Busy");
	CHECK(lkp_perf_metric(at("2023-06-07"), "lock_stat.x.contentions"),
	      "lock_stat contentions pattern");
	CHECK(!lkp_perf_metric(at("2023-06-07"), "sched_debug.cpu.nr_running"),
	      "sched_debug is not");
	CHECK(lkp_nonperf_ratio(at("2023-06-07")) == 1.1, "ratio 1.1 in 2023");
	CHECK(lkp_nonperf_ratio(at("2016-07-15")) == 1.1, "ratio 1.1 in 2016");
	CHECK(lkp_nonperf_ratio(at("2026-03-01")) == 1.05,
	      "ratio 1.05 from 2026-01-21");
	{
		int integer = -1;

		CHECK(lkp_perf_profile_threshold(at("2016-07-15"), &integer) ==
			      0,
		      "2016: no perf-profile threshold");
		CHECK(lkp_perf_profile_threshold(at("2017-09-01"), &integer) ==
				      5 &&
			      !integer,
		      "2017-08-15: threshold 5 for every perf-profile stat");
		CHECK(lkp_perf_profile_threshold(at("2021-06-01"), &integer) ==
				      5 &&
			      integer,
		      "2018-01-31: only for an Integer median");
	}
}

static void test_thresholds(void)
{
	struct lkp_tables *t = at("2021-06-01");

	/* vmstat.system.cs: 100 (Integer): max >= 100 and delta >= 50 */
	CHECK(lkp_reasonable_change(t, "vmstat.system.cs", 14175, 370646, 1),
	      "vmstat.system.cs big change");
	CHECK(!lkp_reasonable_change(t, "vmstat.system.cs", 40, 370646, 1),
	      "vmstat.system.cs delta < 50");
	CHECK(!lkp_reasonable_change(t, "vmstat.system.cs", 60, 90, 1),
	      "vmstat.system.cs max < 100");
	/* meminfo: no key; the /meminfo/ fallback wants max > 1000 */
	CHECK(lkp_reasonable_change(t, "meminfo.Buffers", 743, 1530, 1),
	      "meminfo.Buffers max > 1000");
	CHECK(!lkp_reasonable_change(t, "meminfo.Buffers", 743, 900, 1),
	      "meminfo.Buffers max <= 1000");
	CHECK(!lkp_reasonable_change(t, "numa-meminfo.node0.Active", 50, 999,
				     1),
	      "numa-meminfo falls under /meminfo/ too");
	CHECK(lkp_reasonable_change(t, "proc-vmstat.pgpgin", 1, 1001, 1),
	      "proc-vmstat max > 1000");
	CHECK(!lkp_reasonable_change(t, "proc-vmstat.nr_active_file", 49, 2506,
				     1),
	      ".*vmstat.*nr_.*: 100 wants delta >= 50");
	CHECK(lkp_reasonable_change(t, "proc-vmstat.nr_active_file", 2430, 2506,
				    1),
	      "proc-vmstat.nr_active_file passes");
	CHECK(!lkp_reasonable_change(t,
				     "stress-ng.time.voluntary_context_"
				     "switches",
				     400, 100000, 1),
	      ".*.time.voluntary_context_switches: 1000, delta < 500");
	CHECK(lkp_reasonable_change(t, "iostat.sda.foo", 0.1, 2, 1),
	      "iostat fallback max > 1");
	CHECK(!lkp_reasonable_change(t, "slabinfo.x.num_objs", 100, 1e6, 1),
	      "slabinfo fallback delta > 100");
	CHECK(!lkp_reasonable_change(t, "interrupts.CPU0.LOC", 49, 1e6, 1),
	      "interrupts.*: 100 wants delta >= 50");
	CHECK(lkp_reasonable_change(t, "softirqs.CPU0.RCU", 1, 10001, 1),
	      "softirqs fallback max > 10000");
	CHECK(!lkp_reasonable_change(t, "softirqs.CPU0.RCU", 1e4, 10000, 1),
	      "softirqs fallback max <= 10000");
	CHECK(!lkp_reasonable_change(t, "lock_stat.x.waittime-total", 1000, 1e9,
				     1),
	      "lock_stat /time/ wants delta > 1000");
	CHECK(lkp_reasonable_change(t, "perf-stat.i.ipc", 0.001, 0.1, 1),
	      "no threshold for perf-stat");
	CHECK(lkp_reasonable_change(t, "mpstat.cpu.all.iowait%", 0.001, 0.01,
				    1),
	      "mpstat has none");
	/* without the Integer test (int_delta 0) only max < v drops */
	CHECK(lkp_reasonable_change(t, "vmstat.system.cs", 40, 370646, 0),
	      "vmstat.system.cs delta < 50 passes without the delta test");
	CHECK(!lkp_reasonable_change(t, "vmstat.system.cs", 60, 90, 0),
	      "vmstat.system.cs max < 100 still drops");
	CHECK(lkp_reasonable_change(t, "interrupts.CPU0.LOC", 49, 1e6, 0),
	      "interrupts.*: delta 49 passes without the delta test");
	CHECK(!lkp_reasonable_change(t, "slabinfo.x.num_objs", 100, 1e6, 0),
	      "the fallbacks are not Integer thresholds");
}

static void test_kpi(void)
{
	CHECK(lkp_kpi_direction(at("2023-06-07"),
				"stress-ng.lockofd.ops_per_sec") == 1,
	      "ops_per_sec: higher is better");
	CHECK(lkp_kpi_direction(at("2023-06-07"),
				"schbench.wakeup_latency_max_us") == -1,
	      "2023: latency from index-latency, lower is better");
	CHECK(lkp_kpi_direction(at("2021-01-01"),
				"schbench.wakeup_latency_max_us") == 0,
	      "before 2021-06-29 index-latency was not read");
	CHECK(lkp_kpi_direction(at("2023-06-07"),
				"kbuild.buildtime_per_iteration") == -1,
	      "kbuild time: lower is better");
	CHECK(lkp_kpi_direction(at("2016-07-15"), "netperf.Throughput_Mbps") ==
		      1,
	      "2016: exact name in index-perf.yaml");
	CHECK(lkp_kpi_direction(at("2016-07-15"), "aim7.jobs-per-minX") == 0,
	      "2016: exact lookup, no prefix match");
	CHECK(lkp_kpi_direction(at("2023-06-07"), "meminfo.Active") == 0,
	      "unknown: 0");
	/* the KPIs of the seeds */
	CHECK(lkp_kpi_direction(at("2021-06-01"),
				"stress-ng.clock.ops_per_sec") == 1,
	      "seed 000 KPI");
	CHECK(lkp_kpi_direction(at("2021-12-10"),
				"will-it-scale.per_thread_ops") == 1,
	      "seed 003 KPI");
	CHECK(lkp_kpi_direction(at("2023-09-22"), "stress-ng.io.ops_per_sec") ==
		      1,
	      "seed 004 KPI");
}

static void test_tests(void)
{
	CHECK(lkp_is_test(at("2021-06-01"), "stress-ng"), "2021: stress-ng");
	CHECK(!lkp_is_test(at("2023-06-07"), "stress-ng"),
	      "2023-06: stress-ng moved to programs/");
	CHECK(lkp_is_test(at("2026-03-01"), "stress-ng"),
	      "2026-03: all_tests_set from programs/");
	CHECK(lkp_is_test(at("2021-06-01"), "will-it-scale"), "2021: w-i-s");
	CHECK(lkp_is_test(at("2016-07-15"), "will-it-scale"), "2016: w-i-s");
	CHECK(lkp_is_test(at("2021-12-10"), "will-it-scale"), "seed 003");
	CHECK(lkp_is_test(at("2021-06-01"), "netperf"), "2021: netperf");
	CHECK(lkp_is_test(at("2016-07-15"), "netperf"), "2016: netperf");
	CHECK(lkp_is_test(at("2023-06-07"), "vm-scalability"),
	      "2023-06: vm-scalability still in tests/");
	CHECK(!lkp_is_test(at("2025-01-01"), "vm-scalability"),
	      "2025: vm-scalability moved");
	CHECK(!lkp_is_test(at("2021-06-01"), "wrapper"), "wrapper is not");
	CHECK(!lkp_is_test(at("2021-06-01"), "perf-profile"),
	      "a monitor is not");
}

static void test_params(void)
{
	static const char *const yes[] = {
		"nr_threads",	    "disk",   "fs",
		"testtime",	    "class",  "test",
		"cpufreq_governor", "mode",   "nr_task",
		"runtime",	    "cluster"
	};
	static const char *const no[] = { "testbox",	"brand",   "kernel",
					  "tbox_group", "kconfig", "commit",
					  "compiler",	"testcase" };
	static const char *const job[] = { "testcase", "rootfs", "stress-ng",
					   "testtime", "class",	 "disk" };
	static const char *const makepkg[] = { "makepkg", "rootfs" };
	struct lkp_job_options *o, *om;
	struct lkp_tables *t;

	for (int y = 0; y < 3; y++) {
		const char *date = y == 0   ? "2016-07-15"
				   : y == 1 ? "2021-06-01"
					    : "2023-06-07";

		t = at(date);
		for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
			/* class came with tests/stress-ng in 2016-09 */
			if (!y && !strcmp(yes[i], "class"))
				continue;
			CHECK(lkp_is_param(t, yes[i]), "%s: %s is a param",
			      date, yes[i]);
		}
		for (size_t i = 0; i < ARRAY_SIZE(no); i++)
			CHECK(!lkp_is_param(t, no[i]), "%s: %s is not", date,
			      no[i]);
	}
	CHECK(lkp_is_param(at("2021-06-01"), "ucode"), "2021: ucode (=)");
	CHECK(lkp_param_type(at("2021-06-01"), "ucode") == '=', "ucode is =");
	CHECK(!lkp_is_param(at("2023-06-07"), "ucode"),
	      "2023: ucode gone from path params");
	CHECK(lkp_param_type(at("2023-06-07"), "nr_threads") == '-',
	      "nr_threads is -");
	CHECK(lkp_is_program(at("2023-06-07"), "stress-ng"),
	      "2023: stress-ng is a program (programs/*/run)");
	CHECK(lkp_is_program(at("2023-06-07"), "cpufreq_governor"),
	      "cpufreq_governor is a setup program");
	/* programs/fs2 -> fs from 2409d6a4b: a program under the link's name */
	CHECK(lkp_is_program(at("2025-06-01"), "fs2"), "2025: fs2 (setup/)");
	CHECK(lkp_is_program(at("2026-03-09"), "fs2"),
	      "2026-03: fs2, a link to programs/fs");
	CHECK(lkp_is_program(at("2026-03-09"), "fs1"),
	      "2026-03: fs1, a link to programs/fs");

	t = at("2023-06-07");
	o = lkp_job_options_new(t, job, ARRAY_SIZE(job));
	om = lkp_job_options_new(t, makepkg, ARRAY_SIZE(makepkg));
	CHECK(lkp_job_options_has(t, o, "testtime"),
	      "job: testtime (stress-ng option)");
	CHECK(lkp_job_options_has(t, o, "disk"), "job: disk (a setup program)");
	CHECK(!lkp_job_options_has(t, o, "rootfs"),
	      "job: rootfs is no option of the programs used");
	CHECK(lkp_job_options_has(t, om, "rootfs"),
	      "job with makepkg: rootfs is its option");
	CHECK(!lkp_job_options_has(t, o, "nr_task"),
	      "job: nr_task belongs to other programs");
	lkp_job_options_free(o);
	lkp_job_options_free(om);
}

/*
 * params-deployed: the robot's lkp-tests had perf-sanity-tests' options
 * from 2025-08-19, the public one from 2025-10-09.
 */
static void test_params_deployed(void)
{
	static const char *const perf[] = { "testcase", "perf-sanity-tests" };
	const char *const when[] = { "2025-08-18", "2025-08-19", "2025-10-08",
				     "2025-10-10" };

	for (size_t i = 0; i < ARRAY_SIZE(when); i++) {
		struct lkp_tables *t = at(when[i]);
		struct lkp_job_options *o =
			lkp_job_options_new(t, perf, ARRAY_SIZE(perf));
		int want = i > 0;

		CHECK(!!lkp_job_options_has(t, o, "perf_compiler") == want,
		      "%s: perf_compiler %s an option of perf-sanity-tests",
		      when[i], want ? "is" : "is not");
		CHECK(!!lkp_is_param(t, "perf_compiler") == want,
		      "%s: perf_compiler %s a param", when[i],
		      want ? "is" : "is not");
		lkp_job_options_free(o);
	}
}

static int base_has(void *ctx, const char *key, int any_child)
{
	size_t len = strlen(key);

	for (const char *const *k = ctx; *k; k++)
		if (any_child ? !strncmp(*k, key, len) && (*k)[len] == '.' &&
					!strchr(*k + len + 1, '.')
			      : !strcmp(*k, key))
			return 1;
	return 0;
}

static void test_skip_function(void)
{
	static const char *const base[] = { "ltp.a.pass", "kvm.b.fail",
					    "kvm.c.error", NULL };
	void *ctx = (void *)(uintptr_t)base;

	CHECK(!lkp_skip_function_stat(at("2019-06-14"), "ltp.x.fail", base_has,
				      ctx),
	      "2019: nothing skipped");
	CHECK(!lkp_skip_function_stat(at("2023-06-07"), "ltp.a.fail", base_has,
				      ctx),
	      "2023: fail kept when the base has the pass");
	CHECK(lkp_skip_function_stat(at("2023-06-07"), "ltp.x.fail", base_has,
				     ctx),
	      "2023: fail dropped without a pass");
	CHECK(!lkp_skip_function_stat(at("2023-06-07"), "kvm.b.pass", base_has,
				      ctx),
	      "2023: pass kept when the base has the fail");
	CHECK(lkp_skip_function_stat(at("2023-06-07"), "kvm.c.pass", base_has,
				     ctx),
	      "2023: .error was no counterpart yet");
	CHECK(!lkp_skip_function_stat(at("2023-06-07"), "ltp.x.warn", base_has,
				      ctx),
	      "2023: .warn not considered");
	CHECK(!lkp_skip_function_stat(at("2025-01-01"), "kvm.c.pass", base_has,
				      ctx),
	      "2024-11-12: .error counts");
	CHECK(lkp_skip_function_stat(at("2025-01-01"), "ltp.x.warn", base_has,
				     ctx),
	      "2024-11-12: .warn dropped without a pass");
	CHECK(!lkp_skip_function_stat(at("2025-01-01"), "dmesg.x.fail",
				      base_has, ctx),
	      "dmesg never dropped");
	CHECK(lkp_skip_function_stat(at("2020-08-25"), "ltp.x.fail", base_has,
				     ctx),
	      "2020-08: pass|passed wanted");
	CHECK(!lkp_skip_function_stat(at("2020-08-01"), "kvm.c.fail", base_has,
				      ctx),
	      "2020-08-01: kept, the base has kvm.c.error");
	CHECK(!lkp_skip_function_stat(at("2020-08-01"), "ltp.a.x", base_has,
				      ctx),
	      "2020-08-01: any BASE.<x> counts, not only the usual ones");
	CHECK(lkp_skip_function_stat(at("2020-08-01"), "ltp.fail", base_has,
				     ctx),
	      "2020-08-01: ltp.a.pass is no child of ltp (one dot too many)");
}

/* Rows of the real mails, shown on their dates. */
static void test_seed_rows(void)
{
	static const struct {
		const char *date, *stat;
		int perf;
	} rows[] = {
		/* seed 000, 2021-06 (stress-ng) */
		{ "2021-06-01", "stress-ng.time.file_system_inputs", 1 },
		{ "2021-06-01", "interrupts.CAL:Function_call_interrupts", 1 },
		{ "2021-06-01", "mpstat.cpu.all.iowait%", 0 },
		{ "2021-06-01", "slabinfo.dmaengine-unmap-16.active_objs", 0 },
		{ "2021-06-01", "meminfo.Active(file)", 0 },
		{ "2021-06-01", "proc-vmstat.nr_zone_active_file", 1 },
		{ "2021-06-01", "vmstat.io.bi", 1 },
		{ "2021-06-01", "vmstat.memory.buff", 0 },
		{ "2021-06-01",
		  "perf-sched.wait_and_delay.avg.ms.schedule_hrtimeout_range_"
		  "clock.ep_poll.do_epoll_wait.__x64_sys_epoll_wait",
		  0 },
		{ "2021-06-01", "perf-stat.i.dTLB-loads", 1 },
		{ "2021-06-01", "perf-stat.overall.MPKI", 1 },
		{ "2021-06-01", "perf-profile.children.cycles-pp.osq_lock", 0 },
		/* seed 001, 2023-06-07 (stress-ng lockofd) */
		{ "2023-06-07", "stress-ng.lockofd.ops_per_sec", 1 },
		{ "2023-06-07", "stress-ng.time.voluntary_context_switches",
		  1 },
		{ "2023-06-07", "perf-stat.i.ipc", 1 },
		/* seed 002, 2016-07 (netperf) */
		{ "2016-07-15", "netperf.Throughput_Mbps", 1 },
		{ "2016-07-15", "cpuidle.POLL.usage", 0 },
		{ "2016-07-15", "turbostat.%Busy", 1 },
		{ "2016-07-15", "turbostat.Avg_MHz", 1 },
		{ "2016-07-15", "sched_debug.cfs_rq:/.min_vruntime.avg", 0 },
		{ "2016-07-15",
		  "perf-profile.cycles-pp.irq_exit.smp_apic_timer_interrupt."
		  "apic_timer_interrupt.cpuidle_enter.call_cpuidle",
		  0 },
		{ "2016-07-15", "perf-stat.L1-dcache-prefetch-misses", 1 },
		/* seed 003, 2021-12 (will-it-scale) */
		{ "2021-12-10", "will-it-scale.144.threads", 1 },
		{ "2021-12-10", "will-it-scale.per_thread_ops", 1 },
		{ "2021-12-10", "perf-stat.ps.instructions", 1 },
		/* seed 004, 2023-09-22 (stress-ng io) */
		{ "2023-09-22", "mpstat.cpu.all.usr%", 0 },
		{ "2023-09-22",
		  "perf-sched.sch_delay.max.ms.worker_thread.kthread.ret_from_"
		  "fork",
		  0 },
		{ "2023-09-22", "stress-ng.io.ops_per_sec", 1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct lkp_tables *t = at(rows[i].date);

		CHECK(shown(rows[i].date, rows[i].stat), "%s: %s is shown",
		      rows[i].date, rows[i].stat);
		CHECK(lkp_perf_metric(t, rows[i].stat) == rows[i].perf,
		      "%s: %s perf metric: %d", rows[i].date, rows[i].stat,
		      rows[i].perf);
		CHECK(!lkp_function_stat(t, rows[i].stat),
		      "%s: %s no function stat", rows[i].date, rows[i].stat);
	}
	/* the testcase's own rows sort first only if it is a test */
	CHECK(lkp_is_test(at("2021-06-01"), "stress-ng"), "seed 000 zeroed");
	CHECK(!lkp_is_test(at("2023-06-07"), "stress-ng"), "seed 001 not");
	CHECK(lkp_is_test(at("2016-07-15"), "netperf"), "seed 002 zeroed");
	CHECK(lkp_is_test(at("2021-12-10"), "will-it-scale"),
	      "seed 003 zeroed");
	CHECK(!lkp_is_test(at("2023-09-22"), "stress-ng"), "seed 004 not");
	/* corpus mails: fio sorts first in 119 (2023-01-16, tests/fio),
	 * not in 134 (2026-02-12: 2409d6a4b was committed on 02-13) */
	CHECK(lkp_is_test(at("2023-01-16"), "fio"), "mail 119 zeroed");
	CHECK(!lkp_is_test(at("2026-02-12"), "fio"), "mail 134 not");
	CHECK(lkp_is_test(at("2026-02-13"), "fio"), "2026-02-13 zeroed");
	/* seed 002's fail:runs rows */
	CHECK(lkp_function_stat(at("2016-07-15"),
				"kmsg.DHCP/BOOTP:Reply_not_for_us,op[#]xid[#]"),
	      "seed 002: kmsg row is a function stat");
}

/* --------------------------------------------- broken data files */

static const char *const files[] = {
	"stat-denylist",
	"stat-allowlist",
	"report-allowlist",
	"failure",
	"pass",
	"latency",
	"perf-metrics-prefixes",
	"perf-metrics-patterns",
	"perf-metric-programs",
	"perf-metrics-threshold",
	"index-perf",
	"index-latency",
	"tests",
	"params",
	"params-deployed",
	"rules",
};

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f)
		return -1;
	if (fputs(text, f) < 0)
		ret = -1;
	if (fclose(f))
		ret = -1;
	return ret;
}

static char tmp[64];

static int copy_tables(void)
{
	const char *src = data_dir();
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	int ret = 0;

	snprintf(tmp, sizeof(tmp), "/tmp/t-lkp.XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	strbuf_addf(&path, "%s/config", tmp);
	mkdir(path.buf, 0700);
	strbuf_addstr(&path, "/data");
	mkdir(path.buf, 0700);
	strbuf_addstr(&path, "/lkp");
	mkdir(path.buf, 0700);
	for (size_t i = 0; !ret && i < ARRAY_SIZE(files); i++) {
		strbuf_reset(&path);
		strbuf_reset(&sb);
		strbuf_addf(&path, "%s/config/data/lkp/%s", src, files[i]);
		ret = strbuf_read_file(&sb, path.buf);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/config/data/lkp/%s", tmp, files[i]);
		if (!ret)
			ret = write_file(path.buf, sb.buf);
	}
	strbuf_release(&path);
	strbuf_release(&sb);
	return ret;
}

static void remove_tables(void)
{
	struct strbuf path = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/config/data/lkp/%s", tmp, files[i]);
		unlink(path.buf);
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/config/data/lkp", tmp);
	rmdir(path.buf);
	strbuf_setlen(&path, path.len - 4);
	rmdir(path.buf);
	strbuf_setlen(&path, path.len - 5);
	rmdir(path.buf);
	rmdir(tmp);
	strbuf_release(&path);
}

/* Replaces table `name` in the copy and loads the tables, or NULL. */
static struct lkp_tables *load_with(const char *name, const char *text)
{
	struct strbuf path = STRBUF_INIT;
	struct lkp_tables *t;

	strbuf_addf(&path, "%s/config/data/lkp/%s", tmp, name);
	if (write_file(path.buf, text) < 0)
		BUG("cannot write %s", path.buf);
	strbuf_release(&path);
	error_quiet++;
	t = lkp_tables_load("2021-06-01");
	error_quiet--;
	return t;
}

static int loads_with(const char *name, const char *text)
{
	struct lkp_tables *t = load_with(name, text);

	lkp_tables_free(t);
	return t != NULL;
}

/* Tables lkp_tables_load() must refuse, one change each. */
static const struct bad_file {
	const char *file, *text, *what;
} bad_files[] = {
	{ "stat-denylist", "@since 2016-01-01\n^a(?<=b+)\n",
	  "lookbehind of varying length" },
	{ "stat-denylist", "@since 2016-01-01\n^a(b\n", "unbalanced (" },
	{ "stat-denylist", "@since 2016-01-01\n^a\\hc\n",
	  "\\h, which PCRE2 reads otherwise" },
	{ "stat-denylist", "@since 2016-01-01\na{,3}\n",
	  "{,n}, which PCRE2 reads otherwise" },
	{ "failure", "@since 2016-01-01\nx(?m).y\n",
	  "(?m), which PCRE2 reads otherwise" },
	{ "stat-denylist", "^a\n", "entry before @since" },
	{ "stat-denylist", "@since 2016-1-1\n^a\n", "bad date" },
	{ "stat-denylist", "@since 2016-01-01T24:00:00+0800\n^a\n",
	  "a bad time" },
	{ "stat-denylist",
	  "@since 2016-01-01T10:00:00+0800\n^a\n"
	  "@change 2016-01-01T09:00:00+0800\n+^b\n",
	  "a time before the section's before" },
	{ "stat-denylist",
	  "@since 2016-01-02\n^a\n"
	  "@change 2016-01-01T23:00:00+0800\n+^b\n",
	  "a time on the day before the section's before" },
	{ "stat-denylist", "@change 2016-01-01\n+^a\n", "@change first" },
	{ "stat-denylist",
	  "@since 2016-01-01\n^a\n@change 2017-01-01\n"
	  "-^b\n",
	  "removing what is not there" },
	{ "stat-denylist",
	  "@since 2016-01-01\n^a\n@change 2017-01-01\n"
	  "^b\n",
	  "@change line without +/-" },
	{ "stat-denylist",
	  "@since 2017-01-01\n^a\n@since 2016-01-01\n"
	  "^b\n",
	  "dates out of order" },
	{ "stat-denylist", "@whatever 2016-01-01\n", "unknown directive" },
	{ "perf-metrics-threshold", "@since 2016-01-01\nvmstat.x\n",
	  "no value" },
	{ "perf-metrics-threshold", "@since 2016-01-01\nvmstat.x ten\n",
	  "bad value" },
	{ "params", "@since 2016-01-01\nfio nr_task\n", "option without type" },
	{ "params-deployed", "2025-08-19 perf-sanity-tests -group\n",
	  "a deployed line without UNTIL" },
	{ "params-deployed", "2025-10-10 2025-08-19 perf-sanity-tests -group\n",
	  "a deployed line ending before it starts" },
	{ "params-deployed", "2025-08-19 2025-10-10 perf-sanity-tests group\n",
	  "a deployed option without type" },
	{ "params-deployed", "2025-08-19 2025-10-10 * -group\n",
	  "a deployed line for every program" },
	{ "rules", "2016-01-01 nonperf_ratio\n", "rule without value" },
	{ "rules", "2016-01-01 nonperf_ratio 1.1\n", "missing rules" },
	{ "rules",
	  "2016-01-01 nonperf_ratio 1.1\n2016-01-01 function_exclude "
	  ".time.\n2016-01-01 function_skip none\n2016-01-01 "
	  "perf_profile some 5\n",
	  "bad perf_profile" },
	{ "rules", "2016-01-01 bogus 1\n", "unknown rule" },
};

static void test_bad_files(void)
{
	struct strbuf orig = STRBUF_INIT, path = STRBUF_INIT;
	struct lkp_tables *t;

	if (copy_tables() < 0) {
		CHECK(0, "cannot copy the tables to %s", tmp);
		return;
	}
	data_dir_set(tmp);
	CHECK(loads_with("pass", "@since 2016-01-01\n.+\\.pass$\n"),
	      "the copy loads");
	for (size_t i = 0; i < ARRAY_SIZE(bad_files); i++) {
		strbuf_reset(&orig);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/config/data/lkp/%s", tmp,
			    bad_files[i].file);
		if (strbuf_read_file(&orig, path.buf) < 0)
			BUG("cannot read %s", path.buf);
		CHECK(!loads_with(bad_files[i].file, bad_files[i].text),
		      "refused: %s", bad_files[i].what);
		if (write_file(path.buf, orig.buf) < 0)
			BUG("cannot restore %s", path.buf);
	}
	CHECK(loads_with("pass", "@since 2016-01-01\n.+\\.pass$\n"),
	      "the copy loads again");
	/* Ruby syntax that PCRE2 reads the same */
	t = load_with("pass", "@since 2016-01-01\n\\d+\\w\\s[\\d\\-_]{0,3}x*?"
			      "(?:a|b)[^\\]]\\#\\%\\/[[:alpha:]]\n"
			      "x(?<=x)\\.pas+$\n[a-z]++x\n.+\\bz(?!q)\n");
	CHECK(t && lkp_pass_stat(t, "1a _bc#%/q") &&
		      lkp_pass_stat(t, "x.pass") &&
		      !lkp_pass_stat(t, "xpass") && !lkp_pass_stat(t, "abcx") &&
		      lkp_pass_stat(t, "a.zz") && !lkp_pass_stat(t, "az") &&
		      !lkp_pass_stat(t, "a.zq"),
	      "\\d \\w \\s, classes, lazy, (?:, lookbehind, possessive, \\b, "
	      "lookahead: loaded and matched as Ruby does");
	lkp_tables_free(t);
	data_dir_set(NULL);
	remove_tables();
	strbuf_release(&orig);
	strbuf_release(&path);
}

/*
 * A section dated with a time is in force from that time: all_tests_set
 * took programs/ with 2409d6a4b, committed 2026-02-13 18:09 +0800 (the
 * section is the day's last commit, 19:10:47); mail 330, sent 10:04 that
 * day, still has the version before.  A day alone takes the whole day.
 */
static void test_timed_sections(void)
{
	static const struct {
		const char *when;
		int tests_dir; /* "tests" is still a name of all_tests_set */
	} cases[] = {
		{ "2026-02-12", 1 },
		{ "2026-02-13 10:04:08 +0800", 1 },
		{ "2026-02-13 19:10:46 +0800", 1 },
		{ "2026-02-13 11:10:46 +0000", 1 },
		{ "2026-02-13 19:10:47 +0800", 0 },
		{ "2026-02-13 11:10:47 +0000", 0 },
		{ "2026-02-13", 0 },
		{ "2026-02-14 00:00:00 +0800", 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct lkp_tables *t = lkp_tables_load(cases[i].when);

		CHECK(t && !!lkp_is_test(t, "tests") == cases[i].tests_dir &&
			      !strncmp(lkp_tables_date(t), cases[i].when, 10),
		      "tables at %s: the version %s programs/", cases[i].when,
		      cases[i].tests_dir ? "before" : "with");
		lkp_tables_free(t);
	}
	error_quiet++;
	CHECK(!lkp_tables_load("2026-02-13T10:04:08+0800") &&
		      !lkp_tables_load("2026-02-13 10:04 +0800") &&
		      !lkp_tables_load("2026-02-13 25:04:08 +0800"),
	      "a lookup is a day or 'YYYY-MM-DD hh:mm:ss +zzzz'");
	error_quiet--;
}

/* The translated regexps behave like Ruby's on a few names. */
static void test_translation(void)
{
	struct lkp_tables *t = at("2026-07-22");

	CHECK(lkp_failure_stat(t, "xfstests.generic.001.fail"),
	      ".+\\.(error|warn|fail)[^_]*$");
	CHECK(!lkp_failure_stat(t, "perf-profile.children.error_entry"),
	      "[^_]* stops at _entry");
	CHECK(lkp_failure_stat(t, "kmemleak.x.unreferenced_object.y"),
	      "kmemleak pattern");
	CHECK(!lkp_bisectable_stat(t, "kmsg.C1234]foo"),
	      "^kmsg\\.(C|T)[0-9]{1,5}\\]");
	CHECK(lkp_bisectable_stat(t, "kmsg.C123456]foo"), "{1,5} bound");
}

int main(void)
{
	test_every_version_loads();
	test_deny_and_report_lists();
	test_function_stats();
	test_latency();
	test_perf_metrics();
	test_thresholds();
	test_kpi();
	test_tests();
	test_params();
	test_params_deployed();
	test_skip_function();
	test_seed_rows();
	test_translation();
	test_timed_sections();
	test_bad_files();
	free_all();
	return check_done();
}
