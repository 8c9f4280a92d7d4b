# SPDX-License-Identifier: GPL-2.0-only
#
# bench/ncompare.rb RT... : lkp-tests' own comparison (lib/compare.rb, what
# `lkp ncompare` runs) of result roots given by path, base first, for
# bench/compare.sh.  LKP_SRC names an lkp-tests tree (outside this one).
# The axes are read back through DataStore's string form, as ncompare
# reads them from its result-root store, so that the header is the one of
# the mails.
lkp_src = ENV['LKP_SRC'] or abort 'bench/ncompare.rb: set LKP_SRC'
require "#{lkp_src}/lib/compare"
require "#{lkp_src}/lib/result_root"
require "#{lkp_src}/lib/data_store"

rts = ARGV.map do |dir|
  rt = MResultRoot.new(File.realpath(dir))
  axes = DataStore::Layout.axes_to_string(rt.axes)
  rt.instance_variable_set(:@axes, DataStore::Layout.axes_from_string(axes))
  rt
end
Compare::Comparer.new(compare_axis_keys: ['commit'], mresult_roots: rts,
                      sort_mresult_roots: false).compare
