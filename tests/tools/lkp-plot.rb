# SPDX-License-Identifier: GPL-2.0-only
#
# lkp-plot.rb: the cases of tests/tools/plot-cases drawn by lkp-tests' own
# plot code (lib/plot.rb's mmplot, through Debian's ruby-gnuplot gem and
# gnuplot), as the robot's bisection drew them: the bad samples as
# matrix1, the good ones as matrix2, the title as the stat's name.
#
#   LKP_SRC=/tmp/lkp-tree ruby tests/tools/lkp-plot.rb CASEDIR OUTDIR
#
# All cases go to one mmplot call (one gnuplot process); gnuplot's output
# is cut at its form feeds into OUTDIR/K.lkp.  A case whose title an
# earlier case has already taken (mmplot plots a matrix's stats by name)
# is left out; the names of the cases drawn are printed, one a line.
# Samples are read as lkp-tests' JSON reader gives them: integers stay
# Integer, the others Float.

LKP_SRC = ENV['LKP_SRC'] || abort('lkp-plot.rb: LKP_SRC is not set')
abort('usage: lkp-plot.rb CASEDIR OUTDIR') unless ARGV.size == 2
casedir, outdir = ARGV
# Gnuplot.open as ruby-gnuplot 2.4.1 had it: gnuplot writes to our standard
# output.  (Debian's gem, 2.6.2, reads the output back instead; lkp-tests
# has since put 2.4.1's back in lib/plot.rb, which then overrides this.)
require 'gnuplot'
module Gnuplot
  def self.open(persist = true, &block)
    (cmd = Gnuplot.gnuplot(persist)) || raise('gnuplot not found')
    IO.popen(cmd, 'w', &block)
  end
end
require "#{LKP_SRC}/lib/plot"

def samples(path)
  File.readlines(path).map(&:strip).reject(&:empty?).map do |s|
    s.match?(/\A-?\d+\z/) ? Integer(s) : Float(s)
  end
end

bad = {}
good = {}
names = []
Dir.glob("#{casedir}/*.title").sort.each do |t|
  k = File.basename(t, '.title')
  title = File.read(t)
  next if names.any? { |_, t0| t0 == title }

  # a case without K.bad (K.good): that matrix lacks the stat
  %w[bad good].zip([bad, good]).each do |side, m|
    path = "#{casedir}/#{k}.#{side}"
    m[title] = samples(path) if File.exist?(path)
  end
  names << [k, title]
end

raw = "#{outdir}/gnuplot.out"
saved = $stdout.dup
$stdout.reopen(raw, 'w')
mmplot(bad, good, names.map { |_, title| title })
$stdout.flush
$stdout.reopen(saved)

plots = File.binread(raw).split("\f", -1)
plots.shift # what comes before the first form feed: nothing
abort("lkp-plot.rb: #{plots.size} plots for #{names.size} cases") if plots.size != names.size
names.each_with_index do |(k, _), i|
  File.binwrite("#{outdir}/#{k}.lkp", "\f#{plots[i]}")
  puts k
end
