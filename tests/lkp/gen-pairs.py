#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Random pairs of LKP result roots for the differential test.

  gen-pairs.py --seed N --pairs K [--triples T] --commits SHA,... OUTDIR

writes OUTDIR/pNNN/rt0 (the base) and OUTDIR/pNNN/rt1, each a result root
as lkp-tests writes it: matrix.json (one array per stat, stats_source
last) and run directories 0/ 1/ ... with the job.yaml; and T
comparisons of three roots, OUTDIR/tNNN/rt0..rt2.  The same seed always
writes the same bytes.

The shapes vary on purpose, because each one exercises a rule of lkp-tests'
selection, order or format:
  * 100 to 20,000 stats, 2 to 12 runs on each side (both below 3: the
    min-runs rule), one run in a few pairs (no stddev);
  * integer and float samples, means from 1e-3 to 1e11 (the three mean
    formats), zero bases (the 1e-100 rule) and huge changes (%.2g);
  * stats missing in some runs: arrays that stop early (filled with integer
    zeros), that start late (leading zeros), stats of one side only, and
    whole monitors only on the later side (lock_stat, perf-profile);
  * ties: stats with bit-identical changes, by copying a stat's samples or
    scaling them by a power of two, in the same monitor and across
    monitors, so that the order of equal keys shows;
  * fail stats: dmesg, kmsg, last_state, stderr, *.fail/*.pass pairs of
    functional tests, *.error_entry, the .timestamp:/.bootstage: names,
    and incomplete runs (last_state.is_incomplete_run);
  * perf-profile (calltrace, children, self; symbols that vanish, whose
    fill is an Integer 0), latency stats (etc/latency), percentage stats
    (names ending in '%': absolute changes), stats the denylist drops or
    the report allowlist keeps, the thresholds of perf-metrics-threshold,
    and the testcase's own stats, for several testcases and their job
    parameters.
"""
import argparse
import json
import math
import os
import random

TESTCASES = {
    # testcase: (job params, [(section, {key: value})], own stats)
    'stress-ng': ({'nr_threads': '100%', 'testtime': '60s'},
                  [('stress-ng', {'class': 'os', 'test': 'lockofd'})],
                  ['stress-ng.lockofd.ops', 'stress-ng.lockofd.ops_per_sec',
                   'stress-ng.time.user_time', 'stress-ng.time.system_time',
                   'stress-ng.time.voluntary_context_switches',
                   'stress-ng.time.percent_of_cpu_this_job_got']),
    'will-it-scale': ({'nr_task': '50%', 'mode': 'thread'},
                      [('will-it-scale', {'test': 'page_fault2'})],
                      ['will-it-scale.per_thread_ops', 'will-it-scale.workload',
                       'will-it-scale.time.minor_page_faults',
                       'will-it-scale.time.elapsed_time']),
    'vm-scalability': ({'runtime': '300s', 'size': '512G'},
                       [('vm-scalability', {'test': 'lru-file-mmap-read'})],
                       ['vm-scalability.throughput', 'vm-scalability.median',
                        'vm-scalability.stddev', 'vm-scalability.stddev%',
                        'vm-scalability.time.elapsed_time.max']),
    'netperf': ({'ip': 'ipv4', 'runtime': '300s', 'nr_threads': '25%',
                 'cluster': 'cs-localhost'},
                [('netperf', {'test': 'TCP_STREAM', 'send_size': '10K'})],
                ['netperf.Throughput_Mbps', 'netperf.Throughput_total_Mbps',
                 'netperf.workload', 'netperf.time.involuntary_context_switches']),
    'fio-basic': ({'disk': '2pmem', 'fs': 'ext4', 'runtime': '200s',
                   'nr_task': '50%', 'time_based': 'tb'},
                  [('fio-setup-basic', {'rw': 'randwrite', 'bs': '4k',
                                        'ioengine': 'sync', 'test_size': '200G'})],
                  ['fio.write_bw_MBps', 'fio.write_iops', 'fio.latency_4us%',
                   'fio.latency_10us%', 'fio.write_clat_mean_us',
                   'fio.time.file_system_outputs']),
    'ebizzy': ({},
               [('ebizzy', {'nr_threads': '200%', 'iterations': '100x',
                            'duration': '10s'})],
               ['ebizzy.throughput', 'ebizzy.throughput.per_thread.min',
                'ebizzy.throughput.per_thread.stddev_percent',
                'ebizzy.time.user_time']),
    'ltp': ({}, [('ltp', {'test': 'syscalls-00'})],
            ['ltp.abort01.pass', 'ltp.accept01.pass', 'ltp.access01.fail',
             'ltp.access01.pass', 'ltp.brk01.fail', 'ltp.chdir01.pass']),
}

FUNCS = ['native_queued_spin_lock_slowpath', 'do_syscall_64', 'clear_page_erms',
         'entry_SYSCALL_64_after_hwframe', 'error_entry', '_raw_spin_lock',
         'copy_user_enhanced_fast_string', 'intel_idle', 'cpuidle_enter_state',
         'page_fault', 'handle_mm_fault', '__handle_mm_fault', 'filemap_map_pages',
         'lru_add_fn', 'release_pages', 'tlb_finish_mmu', 'osq_lock',
         'rwsem_down_write_slowpath', 'fcntl_setlk', 'locks_alloc_lock']

# Monitors: a name maker from an index, and the value kind.
VMSTAT_FIELDS = ['nr_free_pages', 'nr_inactive_anon', 'nr_active_file', 'pgfault',
                 'pgfree', 'numa_hit', 'numa_local', 'pgalloc_normal',
                 'nr_dirtied', 'nr_written', 'allocstall', 'compact_stall',
                 'pgmigrate_fail', 'nr_vmscan_write', 'thp_fault_alloc']
MEMINFO = ['Active', 'Active(anon)', 'AnonPages', 'Buffers', 'Cached', 'Committed_AS',
           'Inactive', 'Mapped', 'MemFree', 'PageTables', 'Shmem', 'Slab',
           'SUnreclaim', 'KernelStack', 'Percpu']
PERF_STAT = ['cycles', 'instructions', 'ipc', 'branch-instructions', 'branch-misses',
             'branch-miss-rate%', 'cache-misses', 'cache-references',
             'cache-miss-rate%', 'dTLB-load-misses', 'dTLB-store-miss-rate%',
             'context-switches', 'cpu-migrations', 'page-faults', 'cpi',
             'iTLB-load-miss-rate%', 'node-loads', 'node-load-miss-rate%']
IRQS = ['LOC:Local_timer_interrupts', 'RES:Rescheduling_interrupts',
        'CAL:Function_call_interrupts', 'TLB:TLB_shootdowns', 'NMI:Non-maskable_interrupts',
        'PMI:Performance_monitoring_interrupts', '0:IO-APIC.2-edge.timer']
SOFTIRQS = ['RCU', 'SCHED', 'TIMER', 'NET_RX', 'BLOCK']
SLABS = ['kmalloc-64', 'kmalloc-512', 'dentry', 'inode_cache', 'radix_tree_node',
         'vm_area_struct', 'anon_vma', 'filp', 'buffer_head']
SCHED = ['nr_switches', 'nr_running', 'load', 'cpu_load[0]', 'clock', 'ttwu_count',
         'sched_goidle', 'nr_uninterruptible', 'avg_idle', 'max_idle_balance_cost']
FAILS = ['dmesg.BUG:soft_lockup-CPU##stuck_for#s', 'dmesg.WARNING:at_mm/page_alloc.c:#__alloc_pages',
         'dmesg.RIP:native_queued_spin_lock_slowpath', 'dmesg.Kernel_panic-not_syncing:Fatal_exception',
         'dmesg.timestamp:last', 'dmesg.timestamp:WARNING:at_mm', 'dmesg.bootstage:last',
         'kmsg.DHCP/BOOTP:Reply_not_for_us,op[#]xid[#]', 'kmsg.timestamp:last',
         'kmsg.ACPI_Error:AE_NOT_FOUND', 'last_state.booting', 'last_state.OOM',
         'last_state.is_incomplete_run', 'last_state.exit_fail',
         'last_state.test.stress-ng.exit_code.2', 'stderr.has_stderr',
         'stderr.Segmentation_fault', 'xfstests.generic.001.fail',
         'kernel_selftests.net.reuseport_bpf.fail', 'piglit.spec.glsl.crash',
         'kvm-unit-tests.vmx.fail', 'boot-time.dhcp.timestamp:x',
         'mce-test.apei-inj.fail', 'perf-sanity-tests.Object_code_reading.fail',
         'perf-sanity-tests.Object_code_reading.pass', 'blktests.block.001.warn',
         'blktests.block.001.pass', 'suspend.stress.fail', 'build-perf.make_fail']
LATENCY = ['latency_stats.max.down.rwsem_down_write_slowpath',
           'latency_stats.sum.pipe_wait.pipe_read', 'latency_stats.avg.ep_poll',
           'latency_stats.hits.call_rwsem_down_read_failed',
           'fileio.request_latency_max_ms', 'fileio.latency_95th_ms',
           'dbench.max_latency', 'tbench.max_latency',
           'iostat.sda.await.max', 'iostat.sdb.w_await.max', 'dd.startup_time']
OTHERS = ['time.elapsed_time', 'time.elapsed_time.max', 'time.user_time',
          'time.system_time', 'time.voluntary_context_switches',
          'time.involuntary_context_switches', 'time.minor_page_faults',
          'time.maximum_resident_set_size', 'time.percent_of_cpu_this_job_got',
          'time.file_system_outputs', 'vmstat.system.cs', 'vmstat.system.in',
          'vmstat.cpu.us', 'vmstat.cpu.sy', 'vmstat.cpu.id', 'vmstat.io.bi',
          'vmstat.io.bo', 'vmstat.memory.free', 'vmstat.procs.r',
          'mpstat.cpu.all.sys%', 'mpstat.cpu.all.usr%', 'mpstat.cpu.all.idle%',
          'mpstat.cpu.all.iowait%', 'mpstat.cpu.all.soft%', 'mpstat.cpu.all.irq%',
          'mpstat.max_utilization_pct', 'mpstat.max_utilization.seconds',
          'turbostat.%Busy', 'turbostat.Avg_MHz', 'turbostat.Bzy_MHz',
          'turbostat.C1%', 'turbostat.CPU%c1', 'turbostat.PkgWatt', 'turbostat.RAMWatt',
          'turbostat.PkgTmp', 'turbostat.IRQ', 'turbostat.Pkg%pc2',
          'iostat.sda.util', 'iostat.sda.r/s', 'iostat.sda.wkB/s', 'iostat.cpu.user',
          'iostat.cpu.system', 'iostat.cpu.idle', 'iostat.sda.avgrq-sz',
          'cpuidle.C1.usage', 'cpuidle.C1E.time', 'cpuidle.POLL.time',
          'uptime.boot', 'uptime.idle', 'boot-time.boot', 'boot-time.idle',
          'pmeter.Average_Active_Power', 'energy.energy-pkg', 'pagetypeinfo.Node0.Normal.Unmovable.0',
          'buddyinfo.Node.0.zone.Normal.1', 'diskstats.sda.io_ticks', 'perf-c2c.HITM.total',
          'sysbench-fileio.latency_95th_ms', 'perf-sched.wait_time.avg.ms.schedule',
          'perf-sched.sch_delay.max.ms.x', 'numa-numastat.node0.numa_hit',
          'lock_stat.&rq->lock.contentions', 'lock_stat.&rq->lock.waittime-max',
          'lock_stat.&zone->lock.contentions.get_page_from_freelist',
          'kmsg.timestamp.x', 'unixbench.score', 'hackbench.throughput',
          'aim7.jobs-per-min', 'reaim.jobs_per_min', 'pft.faults_per_sec_per_cpu',
          'boot-meminfo.MemTotal', 'boot-slabinfo.num_objs', 'proc-vmstat.nr_free_pages',
          'perf-stat.overall.ipc', 'perf-stat.total.cycles', 'perf-stat.i.metric.GHz']


def indexed(rnd, i):
    """The i-th name of a result root of many stats."""
    k = i % 14
    j = i // 14
    if k == 0:
        return 'interrupts.CPU%d.%s' % (j % 224, IRQS[(j // 224) % len(IRQS)]) + ('' if j < 224 * len(IRQS) else '.%d' % j)
    if k == 1:
        return 'softirqs.CPU%d.%s' % (j, SOFTIRQS[j % len(SOFTIRQS)])
    if k == 2:
        return 'sched_debug.cpu.%s.%s' % (SCHED[j % len(SCHED)], ['avg', 'max', 'min', 'stddev'][(j // len(SCHED)) % 4]) + ('' if j < 40 else '.%d' % j)
    if k == 3:
        return 'slabinfo.%s.%s' % (SLABS[j % len(SLABS)] + ('' if j < 9 else '-%d' % j), ['active_objs', 'num_objs', 'active_slabs'][j % 3])
    if k == 4:
        return 'numa-meminfo.node%d.%s' % (j % 4, MEMINFO[(j // 4) % len(MEMINFO)]) + ('' if j < 60 else '.%d' % j)
    if k == 5:
        return 'numa-vmstat.node%d.%s' % (j % 4, VMSTAT_FIELDS[(j // 4) % len(VMSTAT_FIELDS)]) + ('' if j < 60 else '.%d' % j)
    if k == 6:
        return 'proc-vmstat.%s' % VMSTAT_FIELDS[j % len(VMSTAT_FIELDS)] + ('' if j < 15 else '_%d' % j)
    if k == 7:
        return 'meminfo.%s' % MEMINFO[j % len(MEMINFO)] + ('' if j < 15 else '.%d' % j)
    if k == 8:
        return 'perf-stat.%s.%s' % (['i', 'ps', 'overall'][j % 3], PERF_STAT[(j // 3) % len(PERF_STAT)]) + ('' if j < 54 else '.%d' % j)
    if k in (9, 10, 11):
        kind = ['calltrace', 'children', 'self'][k - 9]
        f = FUNCS[j % len(FUNCS)] + ('' if j < 20 else '_%d' % j)
        if kind == 'calltrace':
            f = '.'.join([f] + [FUNCS[(j * 7 + t) % len(FUNCS)] for t in range(1 + j % 3)])
        return 'perf-profile.%s.cycles-pp.%s' % (kind, f)
    if k == 12:
        return 'latency_stats.%s.fn_%d' % (['max', 'sum', 'avg', 'hits'][j % 4], j)
    return 'pagetypeinfo.Node%d.Normal.Movable.%d' % (j % 2, j)


def base_value(rnd, name):
    """(mean, is_int, relative noise) for a stat."""
    if name.startswith('perf-profile.'):
        return rnd.choice([0.05, 0.3, 1.5, 4.8, 5.2, 12.0, 40.0]) * rnd.uniform(0.8, 1.2), False, rnd.choice([0, 0.01, 0.05, 0.2])
    if name.endswith('%'):
        return rnd.uniform(0, 100), rnd.random() < 0.2, rnd.choice([0, 0.01, 0.05])
    mag = 10 ** rnd.uniform(-3, 11)
    is_int = rnd.random() < 0.5 and mag > 5
    return mag, is_int, rnd.choice([0, 0, 0.001, 0.01, 0.03, 0.1, 0.4])


def factor(rnd):
    r = rnd.random()
    if r < 0.55:
        return 1.0
    if r < 0.70:
        return rnd.choice([1.005, 1.012, 1.03, 1.04, 1.06, 1.08, 1.12, 0.97, 0.95, 0.9])
    if r < 0.90:
        return math.exp(rnd.uniform(-2, 2))
    if r < 0.95:
        return 0.0
    return rnd.choice([1e3, 1e5, 1e7])


def samples(rnd, mean, is_int, noise, n):
    out = []
    for _ in range(n):
        x = mean * (1 + rnd.gauss(0, noise)) if noise else mean
        if is_int:
            out.append(int(round(x)))
        else:
            out.append(round(x, rnd.choice([2, 2, 2, 6, 15])))
    return out


def fail_samples(rnd, n, p):
    return [1 if rnd.random() < p else 0 for _ in range(n)]


def job_yaml(testcase, sha, host):
    params, sections, _ = TESTCASES[testcase]
    lines = ['suite: %s' % testcase, 'testcase: %s' % testcase,
             'category: %s' % ('functional' if testcase == 'ltp' else 'benchmark')]
    lines += ['%s: %s' % kv for kv in params.items()]
    for sec, opts in sections:
        lines.append('%s:' % sec)
        lines += ['  %s: %s' % kv for kv in opts.items()]
    lines += ['perf-profile:', '  delay: 60', 'kmsg:', 'heartbeat:', 'meminfo:',
              'cpufreq_governor: performance', 'tbox_group: %s' % host,
              'rootfs: debian-12-x86_64-20240206.cgz', 'kconfig: x86_64-rhel-9.4',
              'compiler: gcc-12', 'commit: %s' % sha]
    return '\n'.join(lines) + '\n'


def write_root(path, stats, nruns, testcase, sha, host, rnd):
    os.makedirs(path)
    matrix = dict(stats)
    prefix = '/result/%s/x/%s/debian-12-x86_64-20240206.cgz/x86_64-rhel-9.4/gcc-12/%s' % (
        testcase, host, sha)
    matrix['stats_source'] = ['%s/%d/stats.json' % (prefix, r) for r in range(nruns)]
    with open(os.path.join(path, 'matrix.json'), 'w') as f:
        json.dump(matrix, f, indent=rnd.choice([None, 2]))
        f.write('\n')
    text = job_yaml(testcase, sha, host)
    for r in range(nruns):
        os.makedirs(os.path.join(path, str(r)))
        with open(os.path.join(path, str(r), 'job.yaml'), 'w') as f:
            f.write(text)


def make_pair(rnd, pdir, idx, commits, nroots=2):
    nstats = [100, 20000][idx] if idx < 2 else int(10 ** rnd.uniform(2, math.log10(20000)))
    runs = [rnd.choice([2, 3, 3, 4, 5, 6, 8, 10, 12]) for _ in range(nroots)]
    if rnd.random() < 0.08:
        runs = [2] * nroots
    if rnd.random() < 0.04:
        runs[rnd.randrange(nroots)] = 1
    testcase = rnd.choice(sorted(TESTCASES))
    host = rnd.choice(['lkp-icl-2sp7', 'lkp-spr-2sp4', 'lkp-csl-2sp3', 'vm-snb'])
    shas = rnd.sample(commits, nroots)
    names = list(TESTCASES[testcase][2])
    names += rnd.sample(OTHERS, rnd.randint(10, len(OTHERS)))
    names += rnd.sample(FAILS, rnd.randint(3, len(FAILS)))
    names += rnd.sample(LATENCY, rnd.randint(0, len(LATENCY)))
    i = 0
    seen = set(names)
    while len(names) < nstats:
        n = indexed(rnd, i)
        i += 1
        if n not in seen:
            seen.add(n)
            names.append(n)
    names = names[:max(nstats, 20)]
    rnd.shuffle(names)
    incomplete = rnd.random() < (0.15 if nroots == 2 else 0.6)
    sides = [{} for _ in range(nroots)]
    done = {}
    for name in names:
        if name == 'last_state.is_incomplete_run':
            continue
        r = rnd.random()
        if name.split('.')[0] in ('dmesg', 'kmsg', 'last_state', 'stderr') or \
           name.endswith(('.fail', '.warn', '.crash', '.pass', '_fail', 'timestamp:x')):
            ps = list(rnd.choice([(0, 0.5), (0.5, 0), (0.3, 0.3), (1, 1), (0, 1), (1, 0), (0.2, 0.9)]))
            ps += [rnd.choice([0, 0.5, 1]) for _ in range(nroots - 2)]
            v = [fail_samples(rnd, runs[j], ps[j]) for j in range(nroots)]
            if rnd.random() < 0.1:
                v = [[x * rnd.choice([1, 2, 3]) for x in s] for s in v]
        elif name.split('.')[0] in done and r < 0.12:
            # a tie: the samples of another stat of the same monitor, maybe
            # scaled by a power of two
            src = rnd.choice(done[name.split('.')[0]])
            k = rnd.choice([1, 1, 2, 4, 0.5])
            v = [[x * k for x in s] for s in src]
        else:
            mean, is_int, noise = base_value(rnd, name)
            if rnd.random() < 0.04:
                mean0 = 0.0
            else:
                mean0 = mean
            v = [samples(rnd, mean0, is_int, noise, runs[0])]
            v += [samples(rnd, mean * factor(rnd), is_int, noise, runs[j])
                  for j in range(1, nroots)]
        done.setdefault(name.split('.')[0], []).append(v)
        for s in range(nroots):
            vals = v[s]
            r = rnd.random()
            if r < 0.03:
                continue                      # this side lacks the stat
            if r < 0.06 and len(vals) > 1:
                vals = vals[:rnd.randrange(1, len(vals))]   # stops early
            elif r < 0.08 and len(vals) > 1:
                k = rnd.randrange(1, len(vals))              # starts late
                vals = [0] * k + vals[k:]
            sides[s][name] = vals
    # a monitor only the later commit has, and a vanished perf-profile symbol
    if rnd.random() < 0.3:
        for j in range(rnd.randint(1, 6)):
            sides[1]['lock_stat.&lock%d.contentions' % j] = samples(rnd, 5000, True, 0.1, runs[1])
    if rnd.random() < 0.5:
        pp = [n for n in sides[1] if n.startswith('perf-profile.')]
        for n in rnd.sample(pp, min(len(pp), rnd.randint(1, 8))):
            del sides[1][n]
    if incomplete:
        for s in range(nroots):
            if runs[s] > 1 and rnd.random() < 0.7:
                flags = [0] * runs[s]
                for r in rnd.sample(range(runs[s]), rnd.randint(1, runs[s] - 1)):
                    flags[r] = 1
                sides[s]['last_state.is_incomplete_run'] = flags
    for s, sha in enumerate(shas):
        write_root(os.path.join(pdir, 'rt%d' % s), sides[s], runs[s], testcase, sha, host, rnd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--seed', type=int, default=20261201)
    ap.add_argument('--pairs', type=int, default=60)
    ap.add_argument('--triples', type=int, default=6)
    ap.add_argument('--commits', required=True)
    ap.add_argument('out')
    a = ap.parse_args()
    commits = a.commits.split(',')
    for idx in range(a.pairs):
        make_pair(random.Random('%d/%d' % (a.seed, idx)),
                  os.path.join(a.out, 'p%03d' % idx), idx, commits)
    # comparisons of three roots (a retest): the base is shared by both
    # later commits, which shows how its incomplete runs are handled
    for idx in range(a.triples):
        make_pair(random.Random('%d/t%d' % (a.seed, idx)),
                  os.path.join(a.out, 't%03d' % idx), idx + 2, commits, 3)


main()
