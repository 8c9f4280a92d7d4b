# SPDX-License-Identifier: GPL-2.0-only
#
# tests/lkp/ncompare.rb: runs lkp-tests' own comparison, unmodified, on
# result roots in plain directories, the way `lkp ncompare` runs it on the
# result roots it finds in its DataStore.
#
#   LKP_SRC=/tmp/lkp-2023-07-01 ruby tests/lkp/ncompare.rb OUTDIR PAIR...
#
# Each PAIR is a directory with rt0/, rt1/ (...): the base first.  The
# table goes to OUTDIR/<pair>.lkp, an error to OUTDIR/<pair>.lkp-err.  One
# Ruby process does every pair, so lkp-tests' tables are loaded once.
#
# What `ncompare` does before Comparer#compare, and how this mirrors it:
#   * it finds each commit's result roots through the DataStore index,
#     whose entries are the roots' axes written as one sorted "k=v/k=v"
#     string (DataStore::Layout.axes_to_string) and read back with
#     axes_from_string: the axes are put through that same round trip,
#     with lkp-tests' own two functions, instead of building an index on
#     disk (its Layout and desc.yaml code does not run on Ruby 3.1: Psych 4
#     refuses the Time in desc.yaml, and Ruby 3 keyword arguments break
#     its cached constructors in 2017-2022);
#   * the roots are MResultRoot objects, lkp-tests' class for an _rt
#     directory; its matrix is NMResultRoot's (the same matrix.json, with
#     matrix_fill_missing_zeros);
#   * it sorts the roots by their commits' order in a linux git tree;
#     here they stay in the order given (sort_mresult_roots false).
# The options are ncompare's defaults: compare axis "commit", nothing else.
# Before 2017 lkp-tests opens a linux git tree for every compare (to show
# tags): SRC_ROOT must then name a git repository holding the commits.
LKP_SRC = ENV['LKP_SRC'] || abort('ncompare.rb: LKP_SRC is not set')
# lkp-tests 2024-2025 uses Singleton without requiring it (its gems did).
require 'singleton'
require 'stringio'
require "#{LKP_SRC}/lib/compare"
require "#{LKP_SRC}/lib/result_root"
require "#{LKP_SRC}/lib/data_store"

def lkp_roots(pair)
  Dir[File.join(pair, 'rt[0-9]*')].sort_by { |d| File.basename(d)[2..].to_i }.map do |dir|
    rt = MResultRoot.new(File.realpath(dir))
    axes = DataStore::Layout.axes_from_string(DataStore::Layout.axes_to_string(rt.axes))
    rt.instance_variable_set(:@axes, axes)
    rt
  end
end

outdir = ARGV.shift
stdout = $stdout
ARGV.each do |pair|
  name = File.join(outdir, File.basename(pair))
  out = StringIO.new
  begin
    $stdout = out
    Compare::Comparer.new(compare_axis_keys: ['commit'],
                          mresult_roots: lkp_roots(pair),
                          sort_mresult_roots: false).compare
    $stdout = stdout
    File.write("#{name}.lkp", out.string)
  rescue StandardError, ScriptError => e
    $stdout = stdout
    File.write("#{name}.lkp-err", e.full_message(highlight: false))
  end
end
