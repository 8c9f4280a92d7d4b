# SPDX-License-Identifier: GPL-2.0-only
"""eml2lkp_plots: the bisect plots of a 0-day mail, read back into samples.

Imported by tests/tools/eml2lkp (the PLOTS half).  A report of 2016-2021
ends its first table with ASCII plots that gnuplot's dumb terminal drew
from the bisection's samples: the good samples as a dotted line, the bad
ones as 'O' (doc/plot.md).  This module finds the plots in a mail and, for
each, solves for sample values that make gnuplot draw the same picture:
the number of samples on each side, each sample's row, and values inside
those rows that give the same y axis (tic step, range, labels).  The
values are numbers only; nothing of the plot's text is kept.

  Model       a Python model of the drawing (the same rules as
              robot/engine/plot.c, written again from doc/plot.md), for the 4.6,
              5.0, 5.2 and 5.4 looks: render(title, good, bad, version)
              gives the 20 rows.  Used to check every answer.
  find_plots  the plots of a mail body: intact mails (rows of 80 columns,
              the robot's joins) or whitespace-collapsed archives (the
              seeds: tokens only).
  Solver      per plot: the axis from the tic labels; the x mapping from
              the columns of the points; the bad points' rows from the
              'O's; the good samples' rows from the dotted line, by dynamic
              programming over the samples with each stroke checked cell by
              cell; then values.  For collapsed plots the same search runs
              against each row's token sequence instead of its cells.
"""

import json
import math
import os
import re
import shutil
import time

COLS, ROWS = 80, 20
BOX_BOTTOM, BOX_TOP, BOX_RIGHT = 2, 16, 76
CELLS = (COLS + 1) * (ROWS + 1)
VERSIONS = ('4.6', '5.0', '5.2', '5.4')


# -- the solvers' budget ------------------------------------------------------

class OverBudget(Exception):
    """The solvers (eml2lkp's rows, these plots) used up their CPU time."""


_DEADLINE = [math.inf]


def set_budget(seconds):
    """Stop the solvers once this process has used `seconds` of CPU time."""
    _DEADLINE[0] = seconds


_WHERE = [('the mail', ())]


def spend(where, *args):
    """OverBudget (naming `where % args`) once the budget is used up; the
    solvers call it at the head of each try, so a try's own work bounds
    how far past the budget they get."""
    _WHERE[0] = (where, args)
    if time.process_time() > _DEADLINE[0]:
        raise OverBudget(where % args)


def where():
    """Where the solvers last were: the `where % args` of the last spend()."""
    return _WHERE[0][0] % _WHERE[0][1]


# -- the model ---------------------------------------------------------------

def tic_step(r):
    power = 10.0 ** math.floor(math.log10(r))
    xnorm = r / power
    posns = 20 / xnorm
    if posns > 40:
        t = 0.05
    elif posns > 20:
        t = 0.1
    elif posns > 10:
        t = 0.2
    elif posns > 4:
        t = 0.5
    elif posns > 2:
        t = 1
    elif posns > 0.5:
        t = 2
    else:
        t = math.ceil(xnorm)
    return t * power


def label_precision(v, lo, hi):
    d = abs(hi - lo)
    if v != '4.6' and abs(lo) < d:
        d = abs(lo)
    if not lo * hi > 0 or not d > 0:
        return 0
    p = math.ceil(-math.log10(d))
    if v in ('5.2', '5.4'):
        return p if 4 < p < 10 else 0
    return min(p, 14) if p > 4 else 0


def c_g(x):
    """printf's "% g"."""
    return '% g' % x


def tics(v, lo, hi, step):
    """[(value, label)] of the y axis [lo, hi]."""
    start = step * math.floor(lo / step)
    end = step * math.ceil(hi / step)
    imin, imax = lo, hi
    prec = label_precision(v, lo, hi)
    end += 0.01 * step
    if step < abs(hi) + abs(lo):
        imax = hi + step * 0.01
        imin = lo - step * 0.01
    out = []
    if step == 0 or (imax - imin) / step > COLS:
        return out
    prev = start - step
    nsteps = 0
    tic = start
    while tic <= end:
        if abs(tic - prev) < step / 4.:
            step = end - start
            nsteps = 2
            break
        prev = tic
        nsteps += 1
        tic += step
    tic = start
    guard = 0
    while guard <= COLS + 1:
        guard += 1
        if v != '4.6':
            if nsteps <= 0:
                break
            nsteps -= 1
        elif tic > end:
            break
        if tic > imax:
            break
        if tic >= imin:
            value = 0.0 if abs(tic) < step * 0.01 else tic
            label = ('%.*f' % (prec, value)) if prec else c_g(value)
            out.append((tic, label[:49]))
        tic += step
    return out


class Axis:
    """The y axis gnuplot makes for samples spanning [dmin, dmax]."""

    def __init__(self, v, dmin, dmax):
        lo, hi = dmin, dmax
        if hi - lo == 0.0:
            by = 1.0 if hi == 0.0 else 0.01 * abs(hi)
            lo -= by
            hi += by
        step = tic_step(abs(lo - hi))
        self.step = step
        self.lo = step * math.floor(lo / step)
        self.hi = step * math.ceil(hi / step)
        self.tics = tics(v, self.lo, self.hi, step)
        self.widest = max([len(t[1]) for t in self.tics] or [0])
        self.xleft = self.widest + 2
        self.scale = (BOX_TOP - BOX_BOTTOM) / (self.hi - self.lo)

    def row(self, value):
        return int(BOX_BOTTOM + (value - self.lo) * self.scale + 0.5)


def x_columns(xleft, n):
    """The column of each sample index 1..n on an axis of n samples."""
    lo, hi = 1.0, float(n)
    if hi - lo == 0.0:
        lo, hi = 0.99, 1.01
    scale = (BOX_RIGHT - xleft) / (hi - lo)
    return [int(xleft + (i + 1 - lo) * scale + 0.5) for i in range(n)]


class Canvas:
    def __init__(self, v):
        self.v = v
        self.cell = [' '] * CELLS
        self.prio = [0] * CELLS
        self.prio_on = v in ('4.6', '5.0')
        self.x = self.y = 0
        self.border = False

    def pixel(self, x, y, ch, prio):
        if not (0 <= x <= COLS and 0 <= y <= ROWS):
            return
        i = COLS * y + x
        if self.prio_on:
            if prio <= self.prio[i]:
                return
            self.prio[i] = prio
        self.cell[i] = ch

    def minor(self, d, step, length):
        at = float(d) * step / length
        if self.v == '5.4':
            return int(round_half_away(at))
        return int(at + 0.5)

    def stroke(self, x, y):
        prio = 2 if self.border else 1
        dx, dy = x - self.x, y - self.y
        adx, ady = abs(dx), abs(dy)
        sx, sy = (1 if dx >= 0 else -1), (1 if dy >= 0 else -1)
        if ady > adx:
            self.pixel(self.x, self.y, '+', prio)
            for i in range(1, ady):
                self.pixel(self.x + self.minor(dx, i, ady), self.y + i * sy,
                           '|' if self.border else ':', prio)
            self.pixel(x, y, '+', prio)
        elif adx > ady:
            self.pixel(self.x, self.y, '+', prio)
            for i in range(1, adx):
                self.pixel(self.x + i * sx, self.y + self.minor(dy, i, adx),
                           '-' if self.border else '.', prio)
            self.pixel(x, y, '+', prio)
        else:
            for i in range(adx + 1):
                self.pixel(self.x + i * sx, self.y + i * sy, '+', prio)
        self.x, self.y = x, y

    def text(self, x, y, s):
        low = 0 if self.v == '5.4' else 1
        if x < low or x >= COLS or y < low or y >= ROWS:
            return
        if x + len(s) > COLS:
            x = max(COLS - len(s), 0)
        if self.v == '4.6':
            for ch in s:
                if x >= COLS:
                    break
                self.pixel(x, y, ch, 5)
                x += 1
        elif self.v == '5.0':
            for ch in s:
                if COLS * y + x >= CELLS:
                    break
                self.cell[COLS * y + x] = ch
                x += 1
        else:
            for ch in s:
                if x >= COLS:
                    break
                self.cell[COLS * y + x] = ch
                x += 1

    def rect(self, xleft):
        self.border = True
        self.x, self.y = xleft, BOX_TOP
        self.stroke(xleft, BOX_BOTTOM)
        self.stroke(BOX_RIGHT, BOX_BOTTOM)
        self.stroke(BOX_RIGHT, BOX_TOP)
        self.stroke(xleft, BOX_TOP)

    def rows(self):
        out = []
        for y in range(ROWS - 1, -1, -1):
            row = ''.join(self.cell[COLS * y:COLS * y + COLS])
            out.append(row.rstrip(' ') if self.v == '4.6' else row)
        return out


def round_half_away(x):
    """C's round(): halves away from zero."""
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


def render(title, good, bad, v):
    """The 20 rows gnuplot release v draws for the lkp-tests script."""
    ax = Axis(v, min(good + bad), max(good + bad))
    tics = [(ax.row(at), label) for at, label in ax.tics]
    return draw(v, title, ax.xleft, tics, [ax.row(x) for x in good],
                [ax.row(x) for x in bad])


def draw(v, title, xl, tics, good, bad, n=None, mask=None):
    """The rows for samples already mapped to rows: tics [(row, label)],
    good and bad [row]; n: the x axis' samples (default: the longer).
    mask: a set that gets the cells the good line wrote."""
    c = Canvas(v)
    cols = x_columns(xl, n or max(len(good), len(bad)))
    ticlen = 1 if v == '4.6' else 2
    for y, label in tics:
        c.border = True
        c.x, c.y = xl, y
        c.stroke(xl + ticlen, y)
        c.text(xl - 1 - len(label), y, label)
    c.rect(xl)
    title_y = BOX_TOP + 1 if v == '5.4' else BOX_TOP + 2
    tx = (xl + BOX_RIGHT) // 2 - len(title) // 2
    if v != '5.4':
        c.text(tx, title_y, title)
    for i, y in enumerate(bad):
        c.pixel(cols[i], y, 'O', 4)
    c.border = False
    for i, y in enumerate(good):
        x = cols[i]
        if not i:
            c.x, c.y = x, y
        if mask is not None:
            mask.update(xy for xy, _ in stroke_cells(c.x, c.y, x, y, v))
        c.stroke(x, y)
    if v == '4.6':
        for i, y in enumerate(good):
            c.pixel(cols[i], y, '*', 4)
    c.rect(xl)
    if v == '5.4':
        c.text(tx, title_y, title)
    return c.rows()


# -- finding the plots --------------------------------------------------------

LEGEND = '[*] bisect-good sample\n[O] bisect-bad  sample\n'
PLOT_LEN = COLS * ROWS + ROWS - 1   # 20 rows of 80, newlines between


class Found:
    """The plots of one mail: where they are and their rows."""

    def __init__(self, start, end, plots, intact):
        self.start, self.end = start, end    # [start, end) of the text
        self.plots = plots                   # [rows] (intact) or [tokens]
        self.intact = intact


def find_intact(text):
    """Plots kept with their layout: each is 20 rows of 80 columns, one
    after the other without the form feed.  Returns a Found or None."""
    at = text.find('\n' + LEGEND)
    if at < 0:
        return None
    end = at
    plots = []
    while end - PLOT_LEN >= 0:
        chunk = text[end - PLOT_LEN:end]
        rows = chunk.split('\n')
        if len(rows) != ROWS or any(len(r) != COLS for r in rows):
            break
        if not rows[BOX_TOP - 12].strip() and not rows[3].strip():
            break
        plots.insert(0, rows)
        end -= PLOT_LEN
    if not plots:
        return None
    return Found(end, at + 1 + len(LEGEND), plots, True)


# -- reading an intact plot ---------------------------------------------------

class Unsolved(Exception):
    pass


def nice_steps(approx):
    """The tic steps gnuplot can choose near `approx`: t * 10^p."""
    out = []
    p = math.floor(math.log10(approx))
    for e in (p - 1, p, p + 1):
        for t in (0.05, 0.1, 0.2, 0.5, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10):
            out.append(t * 10.0 ** e)
    return sorted(set(out), key=lambda s: abs(s - approx))


class Grid:
    """One plot's 20 rows; cell(x, y) with y = 0 the bottom row."""

    def __init__(self, rows, v):
        self.v = v
        self.rows = [r.ljust(COLS) for r in rows]
        if len(self.rows) != ROWS:
            raise Unsolved('not 20 rows')

    def cell(self, x, y):
        return self.rows[ROWS - 1 - y][x]

    def title(self):
        y = BOX_TOP + 1 if self.v == '5.4' else BOX_TOP + 2
        return self.rows[ROWS - 1 - y].strip()

    def xleft(self):
        """The left border: where the bottom border's run of cells starts."""
        row = self.rows[ROWS - 1 - BOX_BOTTOM]
        x = BOX_RIGHT
        while x > 0 and row[x - 1] != ' ':
            x -= 1
        return x

    def labels(self, xleft):
        """{y: label} of the tic labels left of the border."""
        out = {}
        for y in range(BOX_BOTTOM, BOX_TOP + 1):
            text = self.rows[ROWS - 1 - y][:max(xleft - 1, 0)].strip()
            if text:
                out[y] = text
        return out


def axis_candidates(v, labels, xleft):
    """Axes (lo, hi, step) that print exactly these labels at these rows."""
    ys = sorted(labels)
    if len(ys) < 2:
        raise Unsolved('fewer than two tic labels')
    try:
        vals = {y: float(labels[y]) for y in ys}
    except ValueError:
        raise Unsolved('a tic label is not a number')
    lo_l, hi_l = vals[ys[0]], vals[ys[-1]]
    if hi_l <= lo_l:
        raise Unsolved('tic labels do not increase')
    out = []
    # the labels' rows give the number of steps between the extremes
    for step in nice_steps((hi_l - lo_l) / max(len(ys) - 1, 1)):
        k_lo = round(lo_l / step)
        k_hi = round(hi_l / step)
        if k_hi <= k_lo or k_hi - k_lo > COLS:
            continue
        lo, hi = step * k_lo, step * k_hi
        out.append((lo, hi, step))
    return out


def axis_matches(ax, v, labels, xleft):
    if ax.xleft != xleft:
        return False
    got = {ax.row(at): label.strip() for at, label in ax.tics}
    return got == labels


class Solution:
    def __init__(self, good_rows, bad_rows, n):
        self.good_rows, self.bad_rows, self.n = good_rows, bad_rows, n


def solutions(rows, v, title=None, sizes=None, limit=400, hidden=None,
              absent=False):
    """(title, good values, bad values) that render as `rows`, one after
    the other; sizes: the (good, bad) sample counts to insist on; hidden:
    the bad samples known to be incomplete runs (Reader.bad_rows); absent:
    as layouts."""
    g = Grid(rows, v)
    if title is None:
        title = g.title()
    if not title:
        raise Unsolved('no title')
    xleft = g.xleft()
    labels = g.labels(xleft)
    axes = axis_candidates(v, labels, xleft)
    if not axes:
        raise Unsolved('no tic step fits the labels')
    tried = 0
    for n, good_rows, bad_rows in layouts(g, xleft, labels, sizes, hidden,
                                          absent):
        tried += 1
        if tried > limit:
            break
        for lo, hi, step in axes:
            drawn = False
            for bias in (True, False):
                values = choose_values(v, lo, hi, step, good_rows, bad_rows,
                                       labels, xleft, bias)
                if values is None:
                    break
                good, bad = values
                if [r.ljust(COLS) for r in render(title, good, bad, v)] == \
                        g.rows:
                    drawn = True
                    yield title, good, bad
            if drawn:
                break


def solve_intact(rows, v, title=None, sizes=None, accept=None, hidden=None,
                 absent=False):
    """The first solution (that `accept` takes, if given) or Unsolved."""
    first = None
    for r in solutions(rows, v, title, sizes, hidden=hidden, absent=absent):
        if accept is None or accept(r):
            return r
        first = first or r
    if first:
        raise Unsolved('no drawing of it passes the plot rules')
    raise Unsolved('no series draws this plot')


def stroke_cells(x0, y0, x1, y1, v):
    """The cells of a dotted-line stroke, in drawing order."""
    dx, dy = x1 - x0, y1 - y0
    adx, ady = abs(dx), abs(dy)
    sx, sy = (1 if dx >= 0 else -1), (1 if dy >= 0 else -1)

    def minor(d, step, length):
        at = float(d) * step / length
        return int(round_half_away(at)) if v == '5.4' else int(at + 0.5)
    out = []
    if ady > adx:
        out.append(((x0, y0), '+'))
        for i in range(1, ady):
            out.append(((x0 + minor(dx, i, ady), y0 + i * sy), ':'))
        out.append(((x1, y1), '+'))
    elif adx > ady:
        out.append(((x0, y0), '+'))
        for i in range(1, adx):
            out.append(((x0 + i * sx, y0 + minor(dy, i, adx)), '.'))
        out.append(((x1, y1), '+'))
    else:
        for i in range(adx + 1):
            out.append(((x0 + i * sx, y0 + i * sy), '+'))
    return out


class Reader:
    """The search for one intact plot's samples (see solve_intact)."""

    LINE = '.:+'

    def __init__(self, g, xleft, labels):
        self.g, self.v, self.xleft = g, g.v, xleft
        self.prio = g.v in ('4.6', '5.0')
        ticlen = 1 if g.v == '4.6' else 2
        self.tic = {}
        for y in labels:
            for k in range(1, ticlen + 1):
                self.tic[(xleft + k, y)] = '+' if k == ticlen else '-'
        self.os = {(x, y) for x in range(xleft, BOX_RIGHT + 1)
                   for y in range(BOX_BOTTOM, BOX_TOP + 1)
                   if g.cell(x, y) == 'O'}

    def interior(self, x, y):
        return self.xleft < x < BOX_RIGHT and BOX_BOTTOM < y < BOX_TOP

    def fits(self, x, y, line):
        """Whether cell (x, y) can show what the grid shows when the good
        line leaves `line` there (None: the line does not touch it)."""
        f = self.g.cell(x, y)
        t = self.tic.get((x, y))
        if self.prio:
            if f in 'O*':
                return True
            if t is not None:
                return f == t
            return f == (line or ' ')
        if line is not None:
            return f == line
        return f == ' ' or f == 'O' or (t is not None and f == t)

    def column_ok(self, x, cells):
        """cells: {(x, y): ch} the line leaves in column x."""
        if not self.xleft < x < BOX_RIGHT:
            return True
        for y in range(BOX_BOTTOM + 1, BOX_TOP):
            if not self.fits(x, y, cells.get((x, y))):
                return False
        return True

    def apply(self, cells, strokes):
        for x0, y0, x1, y1 in strokes:
            for xy, ch in stroke_cells(x0, y0, x1, y1, self.v):
                if self.prio and xy in cells:
                    continue
                cells[xy] = ch
        return cells

    def candidates(self, x):
        """Rows where a good sample in column x may sit."""
        g, out = self.g, []
        for y in range(BOX_BOTTOM, BOX_TOP + 1):
            f = g.cell(x, y)
            border = not self.interior(x, y)
            if self.v == '4.6':
                if f in '*O':
                    out.append(y)
            elif border:
                out.append(y)
            elif f == '+' or (self.prio and (f == 'O' or
                                              self.tic.get((x, y)) == f)):
                out.append(y)
        return out

    def good_paths(self, cols, limit=64, length=None):
        """Good series (rows, len <= len(cols), or exactly `length`) whose
        line fits the grid, depth first, at most `limit`."""
        n = len(cols)
        cand = [self.candidates(c) for c in cols]
        found = []
        memo = {}

        def between(i, a, b):
            """The stroke from sample i-1 (row a) to i (row b) in the
            columns strictly between theirs."""
            x0, x1 = cols[i - 1], cols[i]
            cells = {xy: ch for xy, ch in
                     stroke_cells(x0, a, x1, b, self.v)}
            for x in range(x0 + 1, x1):
                if not self.column_ok(x, cells):
                    return False
            return True

        def at_column(i, rows3):
            """Column of sample i with the strokes into and out of it."""
            x = cols[i]
            strokes = []
            if i >= 1:
                strokes.append((cols[i - 1], rows3[0], x, rows3[1]))
            else:
                strokes.append((x, rows3[1], x, rows3[1]))
            if rows3[2] is not None:
                strokes.append((x, rows3[1], cols[i + 1], rows3[2]))
            cells = self.apply({}, strokes)
            return self.column_ok(x, cells)

        def rest_empty(i):
            """No line cells right of sample i's column."""
            for x in range(cols[i] + 1, BOX_RIGHT):
                if not self.column_ok(x, {}):
                    return False
            return True

        def walk(i, prev, cur, path):
            if len(found) >= limit:
                return
            spend('a plot')
            key = (i, prev, cur)
            if memo.get(key) is False:
                return
            before = len(found)
            # longer series first, then the series ending at sample i
            if i + 1 < (length or n):
                for nxt in cand[i + 1]:
                    if not between(i + 1, cur, nxt):
                        continue
                    if not at_column(i, (prev, cur, nxt)):
                        continue
                    path.append(nxt)
                    walk(i + 1, cur, nxt, path)
                    path.pop()
                    if len(found) >= limit:
                        return
            if (length is None or i + 1 == length) and \
                    at_column(i, (prev, cur, None)) and rest_empty(i):
                found.append(list(path))
            if len(found) == before:
                memo[key] = False

        for r0 in cand[0]:
            walk(0, None, r0, [r0])
            if len(found) >= limit:
                break
        return found

    def bad_rows(self, cols, good, n, nbad=None, hidden=None):
        """Choices of the bad samples' rows given the good series (nbad of
        them when given); [] when there are none.  hidden: indexes of bad
        samples that are incomplete runs: one more choice puts those on the
        bottom border and the other hidden ones on the border of the bad
        side."""
        line = self.apply({}, [(cols[0], good[0], cols[0], good[0])] +
                          [(cols[i - 1], good[i - 1], cols[i], good[i])
                           for i in range(1, len(good))])
        seen = sorted(self.os)
        bycol = {}
        for x, y in seen:
            bycol.setdefault(x, []).append(y)
        if any(x not in set(cols) for x in bycol):
            return []
        idx = {c: i for i, c in enumerate(cols)}
        if any(len(ys) > 1 for ys in bycol.values()):
            return []
        last = max([idx[x] for x in bycol] or [-1])
        if nbad is None:
            # no bad point shows: all of them hide (5.2 on), n of them
            nbad = n if len(good) < n or last < 0 else last + 1
        if nbad <= 0 or nbad <= last:
            return []
        vis = [y for ys in bycol.values() for y in ys] + list(good)
        lo, hi = min(vis), max(vis)
        out = []
        # hidden samples: near their neighbours, or all on the bottom or
        # the top border (where the axis may need a sample), or split
        hows = ['near', BOX_BOTTOM, BOX_TOP]
        seen_rows = [y for ys in bycol.values() for y in ys]
        if hidden and seen_rows and good:
            mg = sorted(good)[len(good) // 2]
            mb = sorted(seen_rows)[len(seen_rows) // 2]
            if mg != mb:
                hows.append(BOX_TOP if mb > mg else BOX_BOTTOM)
        for k, how in enumerate(hows):
            split = k == 3
            rows, prev = [], None
            for j in range(nbad):
                x = cols[j]
                if x in bycol:
                    rows.append(bycol[x][0])
                    prev = rows[-1]
                    continue
                if self.prio:
                    return []
                hide = [y for y in range(BOX_BOTTOM, BOX_TOP + 1)
                        if not self.interior(x, y) or (x, y) in line]
                if not hide:
                    return []
                if split:
                    # an incomplete run low (a run cut short counts
                    # little), a complete one on the side of the bad
                    # samples that show
                    want = BOX_BOTTOM if j in hidden else how
                    if want in hide:
                        rows.append(want)
                        continue
                elif how != 'near' and how in hide:
                    rows.append(how)
                    continue
                inside = [y for y in hide if lo <= y <= hi] or hide
                ref = prev if prev is not None else (lo + hi) / 2
                rows.append(min(inside, key=lambda y: (abs(y - ref), y)))
            if rows not in out:
                out.append(rows)
        return out


def layouts(g, xleft, labels, sizes=None, hidden=None, absent=False):
    """(n, good rows, bad rows) candidates for grid g, fewest samples
    first; sizes: only series of these (good, bad) lengths; hidden: as
    Reader.bad_rows.  A plot without a bad point may also have no bad
    series at all (the bad side lacks the stat: lkp-tests' mmplot leaves
    out its data set); absent: that reading first (the table shows the
    bad commit without the stat), else after every hidden one and never
    of the `sizes` lengths."""
    rd = Reader(g, xleft, labels)
    ocols = {x for x, _ in rd.os}
    upto = None
    if sizes and sizes[0] == 'max':
        upto, sizes = sizes[1:], None
    if sizes:
        ns = [max(sizes)]
    elif upto:
        ns = range(max(upto), 0, -1)
    else:
        ns = range(1, BOX_RIGHT - xleft + 2)
    for n in ns:
        cols = x_columns(xleft, n)
        if not ocols <= set(cols):
            continue
        ngood = sizes[0] if sizes else None
        for good in rd.good_paths(cols, length=ngood):
            if len(good) < n and not ocols and not sizes:
                continue
            if upto and len(good) > upto[0]:
                continue
            alone = not ocols and len(good) == n
            if alone and absent:
                yield n, good, []
            for bad in rd.bad_rows(cols, good, n,
                                   sizes[1] if sizes else None, hidden):
                if upto and len(bad) > upto[1]:
                    continue
                if max(len(good), len(bad)) == n:
                    yield n, good, bad
            if alone and not absent and not sizes:
                yield n, good, []


def nicest(a, b):
    """A short decimal in [a, b] (a <= b), or None."""
    if a > b:
        return None
    if a <= 0 <= b:
        return 0.0
    m = max(abs(a), abs(b))
    e = math.floor(math.log10(m))
    for digits in range(1, 18):
        q = 10.0 ** (e - digits + 1)
        k = math.ceil(a / q)
        for kk in (k, k + 1):
            x = float('%.17g' % (kk * q))
            x = float(repr(round(x, max(0, digits - e - 1))))
            if a <= x <= b:
                return x
    return a


def spread(a, b, count):
    """Up to `count` short decimals across [a, b], nicest first."""
    out = []
    first = nicest(a, b)
    if first is not None:
        out.append(first)
    for k in range(1, count):
        t = a + (b - a) * k / count
        x = nicest(t, min(b, t + (b - a) / (4 * count)))
        if x is not None and x not in out:
            out.append(x)
    return out


def band(ax, y):
    """[a, b]: the values gnuplot puts on row y of axis ax (closed, inner)."""
    r = (ax.hi - ax.lo) / (BOX_TOP - BOX_BOTTOM)
    a = ax.lo + (y - BOX_BOTTOM - 0.5) * r
    b = ax.lo + (y - BOX_BOTTOM + 0.5) * r
    # shrink by a hair, then make sure both ends map to y
    eps = (b - a) * 1e-9
    a, b = a + eps, b - eps
    while ax.row(a) < y:
        a += eps
    while ax.row(b) > y:
        b -= eps
    return a, b


def choose_values(v, lo, hi, step, good_rows, bad_rows, labels, xleft,
                  bias=False):
    """Sample values on the given rows whose axis is [lo, hi] by step, with
    these labels; None when there are none."""
    spend('a plot')
    class Target:
        pass
    t = Target()
    t.lo, t.hi = lo, hi
    t.scale = (BOX_TOP - BOX_BOTTOM) / (hi - lo)
    t.row = lambda value: int(BOX_BOTTOM + (value - lo) * t.scale + 0.5)
    rows = good_rows + bad_rows
    kmin, kmax = min(rows), max(rows)
    a0, b0 = band(t, kmin)
    a1, b1 = band(t, kmax)
    # dmin must extend down to lo, dmax up to hi
    lo_a, lo_b = max(a0, lo), min(b0, lo + step * (1 - 1e-9))
    hi_a, hi_b = max(a1, hi - step * (1 - 1e-9)), min(b1, hi)
    pick = None

    def fits(dmin, dmax):
        # cheap tests first: the step, then the extended ends
        a, b = dmin, dmax
        if b - a == 0.0:
            by = 1.0 if b == 0.0 else 0.01 * abs(b)
            a, b = a - by, b + by
        st = tic_step(abs(a - b))
        if abs(st - step) > step * 1e-9:
            return None
        if abs(st * math.floor(a / st) - lo) > step * 1e-9 or \
                abs(st * math.ceil(b / st) - hi) > step * 1e-9:
            return None
        ax = Axis(v, dmin, dmax)
        tol = step * 1e-9
        if abs(ax.lo - lo) <= tol and abs(ax.hi - hi) <= tol and \
                abs(ax.step - step) <= tol and \
                axis_matches(ax, v, labels, xleft):
            return dmin, dmax, ax
        return None
    if kmin == kmax:
        # one row: a constant series, its empty range widened by 1%
        for c in spread(a0, b0, 64):
            pick = fits(c, c)
            if pick:
                break
    for count in (8, 40):
        if pick or lo_a > lo_b or hi_a > hi_b:
            break
        tops = spread(hi_a, hi_b, count)    # the same for every dmin
        for dmin in spread(lo_a, lo_b, count):
            for dmax in tops:
                if dmax >= dmin:
                    pick = fits(dmin, dmax)
                if pick:
                    break
            if pick:
                break
    if not pick:
        return None
    dmin, dmax, ax = pick
    # bias: the good samples to the far side of their rows from the bad
    # ones (and back), so that the change rules see the plot's change
    side = None
    if bias and good_rows and bad_rows:
        mg = sorted(good_rows)[len(good_rows) // 2]
        mb = sorted(bad_rows)[len(bad_rows) // 2]
        side = 1 if mg > mb else -1 if mg < mb else None
    elif bias and good_rows:
        # no bad series: the rules see zeros, below (mostly) positive
        # good samples
        side = 1 if lo >= 0 else None
    samples = [(0, i, y) for i, y in enumerate(good_rows)] + \
        [(1, i, y) for i, y in enumerate(bad_rows)]

    def carrier(row, high):
        cands = [smp for smp in samples if smp[2] == row]
        if side is not None:
            want = 0 if (side > 0) == high else 1
            cands.sort(key=lambda smp: smp[0] != want)
        return cands[0][:2]
    lo_c, hi_c = carrier(kmin, False), carrier(kmax, True)
    vals = ([None] * len(good_rows), [None] * len(bad_rows))
    for which, i, y in samples:
        if (which, i) == lo_c:
            vals[which][i] = dmin
            continue
        if (which, i) == hi_c:
            vals[which][i] = dmax
            continue
        a, b = band(ax, y)
        a, b = max(a, dmin), min(b, dmax)
        if side is None:
            vals[which][i] = nicest(a, b)
            continue
        up = (side > 0) == (which == 0)
        t = a + (b - a) * (0.9 if up else 0.1)
        w = (b - a) * 0.08
        vals[which][i] = nicest(max(a, t - w), min(b, t + w))
    good, bad = list(vals[0]), list(vals[1])
    if dmin == dmax:
        good = [dmin] * len(good_rows)
        bad = [dmin] * len(bad_rows)
    return good, bad


def solve_all(plots, v, titles=None, accept=None, hidden=None, absent=()):
    """Every plot of a mail: [(title, good, bad) or Unsolved].  The bisect
    roots are shared, so one pair of series lengths is tried for all
    first (the commonest of the plots read alone); a plot that cannot be
    drawn so has shorter series (a stat the last runs lack).  accept(k,
    solution, sizes): whether the plot rules select the solution of plot
    k when the sides have `sizes` runs.  hidden: as Reader.bad_rows."""
    first = []
    for k, rows in enumerate(plots):
        title = titles[k] if titles else None
        try:
            first.append(solve_intact(rows, v, title, hidden=hidden,
                                      absent=k in absent))
        except Unsolved as e:
            first.append(e)
    sizes = {}
    for r in first:
        if not isinstance(r, Unsolved) and r[1] and r[2]:
            key = (len(r[1]), len(r[2]))
            sizes[key] = sizes.get(key, 0) + 1
    if not sizes:
        return first
    common = max(sizes, key=lambda k: (sizes[k], k))
    out = []
    for k, rows in enumerate(plots):
        title = titles[k] if titles else None
        ok = None if accept is None else \
            (lambda r, k=k: accept(k, r, common))
        r = None
        # the common lengths, else shorter ones (never longer: the sides
        # have that many runs)
        for want in (common, ('max',) + common):
            try:
                r = solve_intact(rows, v, title, want, ok, hidden,
                                 k in absent)
                break
            except Unsolved as e:
                r = e
        out.append(r)
    return out


# -- from plots to bisect result roots ----------------------------------------

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def gnuplot_on(date):
    """The style table's `gnuplot` release on the date (config/data/styles),
    None for none."""
    best = None
    with open(os.path.join(TOP, 'config/data/styles')) as f:
        for line in f:
            p = line.split()
            if len(p) == 3 and p[1] == 'gnuplot' and p[0] <= date:
                best = p[2]
    return None if best in (None, 'none') else best


def title_of(stat):
    return re.sub(r'[^a-zA-Z0-9_.:+=-]', '_', stat)


def title_dropped(title, xleft, v):
    x = (xleft + BOX_RIGHT) // 2 - len(title) // 2
    return x < (0 if v == '5.4' else 1)


class Plots:
    """The plots of one mail read back: stats (table names where the
    title is a table row's), their series, and what could not be read."""

    def __init__(self, version):
        self.v = version
        self.stats = []          # [(stat, good, bad)] in the mail's order
        self.unsolved = []       # [(index, reason)]
        self.incomplete = ([], [])  # incomplete runs of each side
        self.forced = []         # stats of further bisections (forced)
        self.found = 0
        self.notes = []


def _bisectable(rules, k):
    if rules is None:
        return True
    if any(p.search(k) for p in rules.stat_allow):
        return True
    return not any(p.search(k) for p in rules.deny)


def _no_bad_point(g):
    """No O inside or on the box of grid g."""
    xleft = g.xleft()
    return not any('O' in row[xleft:] for row in g.rows[ROWS - 1 - BOX_TOP:])


def read_plots(text, date, table_names, rules, selected=None, zero_bad=()):
    """Plots of the mail text on the date: a Plots, or None when the mail
    has none.  selected(matrices): the stats the change rules find
    changed from matrices[0] (good) to matrices[1] (bad); with it, each
    plot is read back as samples the plot rules select.  zero_bad: the
    table's stats whose bad commit shows 0, as for a stat it lacks: a plot
    of one without a bad point is read first as the good series alone."""
    v = gnuplot_on(date) or '5.2'
    fd = find_intact(text)
    if fd is None:
        return read_collapsed(text, v, table_names, rules, selected)
    out = Plots(v)
    out.found = len(fd.plots)
    grids = [Grid(rows, v) for rows in fd.plots]
    # the stats: a table row the title names, else the title itself; a
    # title too long to show is a table row's that gnuplot drops too
    stats, used = [], set()
    for g in grids:
        title = g.title()
        if title:
            stat = next((n for n in table_names if title_of(n) == title
                         and n not in used), title)
        else:
            xleft = g.xleft()
            fits = [n for n in table_names if n not in used and
                    title_dropped(title_of(n), xleft, v) and
                    _bisectable(rules, n) and
                    not (rules and rules.function_stat(n))]
            # a plot without a bad point: a stat the bad commit lacks
            # first, as lkp-tests draws one
            if _no_bad_point(g):
                fits.sort(key=lambda n: n not in zero_bad)
            stat = fits[0] if fits else None
            if stat is None and rules is None:
                stat = 'x' * COLS
        stats.append(stat)
        if stat:
            used.add(stat)

    excl = [set(), set()]     # incomplete runs: good, bad indexes

    def accept(k, r, total):
        if selected is None:
            return True
        _, good, bad = r
        return _selected_with(selected, stats[k], good, bad, total, excl)
    titles = [title_of(s) if s else 'x' * COLS for s in stats]
    absent = {k for k, g in enumerate(grids)
              if stats[k] in zero_bad and _no_bad_point(g)}
    solved = solve_all(fd.plots, v, titles, accept, absent=absent)
    # plots no drawing of which passes the change rules: their odd runs
    # (a good sample among the bad ones or back) were incomplete runs,
    # which the rules leave out but the plot shows (lkp-tests'
    # filter_incomplete_run); mark them and read every plot again.  A
    # run is incomplete for every stat: the runs odd in most such plots
    # are (a plot's own reading may put a sample hidden by the border on
    # the wrong side), else those odd in any
    if selected is not None:
        sizes = {}
        for r in solved:
            if not isinstance(r, Unsolved):
                key = (len(r[1]), len(r[2]))
                sizes[key] = sizes.get(key, 0) + 1
        total = max(sizes, key=lambda x: (sizes[x], x)) if sizes else None
        odd = []
        for k, r in enumerate(solved):
            if not isinstance(r, Unsolved) or not total or not stats[k] or \
                    'passes' not in str(r):
                continue
            try:
                drawn = next(solutions(fd.plots[k], v, titles[k], total))
            except (Unsolved, StopIteration):
                continue
            odd.append(_outliers(drawn[1], drawn[2], total))
        odd = [o for o in odd if o[0] or o[1]]
        most = [{i for o in odd for i in o[s]
                 if 2 * sum(i in p[s] for p in odd) > len(odd)}
                for s in (0, 1)]
        for side in (0, 1):
            excl[side] = most[side] if most[0] or most[1] else \
                set().union(*[o[side] for o in odd])
        if total and (excl[0] or excl[1]) and \
                len(excl[0]) * 4 <= total[0] and len(excl[1]) * 4 <= total[1]:
            solved = solve_all(fd.plots, v, titles, accept, excl[1],
                               absent)
        else:
            excl[0].clear()
            excl[1].clear()
        # a plot that still no drawing passes: the stat of a further
        # bisection that found the same commit, which lkp-tests forces
        # past the rules (d2a03836e; `bisect: stats`); one or two of them
        lone = [stats[k] for k, r in enumerate(solved)
                if isinstance(r, Unsolved) and stats[k] and
                'passes' in str(r)]
        if 0 < len(lone) <= 2:
            def forced(k, r, total):
                _, good, bad = r
                return _selected_with(lambda m: selected(m, lone), stats[k],
                                      good, bad, total, excl)
            again = solve_all(fd.plots, v, titles, forced,
                              excl[1] if excl[0] or excl[1] else None,
                              absent)
            if all(not isinstance(again[k], Unsolved)
                   for k in range(len(again)) if stats[k] in lone):
                solved = [again[k] if stats[k] in lone else r
                          for k, r in enumerate(solved)]
                out.forced = lone
    out.incomplete = (sorted(excl[0]), sorted(excl[1]))
    for k, r in enumerate(solved):
        if stats[k] is None:
            out.unsolved.append((k, 'no stat name fits its dropped title'))
        elif isinstance(r, Unsolved):
            out.unsolved.append((k, '%s: %s' % (stats[k], r)))
        else:
            out.stats.append((stats[k], r[1], r[2]))
    return out


def read_collapsed(text, v, table_names, rules, selected):
    """read_plots for a mail that lost its layout (tokens only)."""
    found = find_collapsed(text.split(), v)
    if not found:
        return None
    out = Plots(v)
    out.found = len(found)
    used = set()
    for k, (title, splits) in enumerate(found):
        stat = next((n for n in table_names if title_of(n) == title
                     and n not in used), title)

        def accept(r, stat=stat):
            if selected is None:
                return True
            total = (len(r[1]), len(r[2]))
            return _selected_with(selected, stat, r[1], r[2], total,
                                  (set(), set()))
        got = None
        for rows in splits:
            try:
                got = solve_collapsed(title, rows, v, accept=accept)
                break
            except Unsolved as e:
                got = e
        if isinstance(got, Unsolved) or got is None:
            out.unsolved.append((k, '%s: %s' % (stat, got)))
            continue
        used.add(stat)
        out.stats.append((stat, got[1], got[2]))
    return out


def _padded(series, total):
    return list(series) + [0] * (total - len(series))


def _median(v):
    s = sorted(v)
    return s[len(s) // 2]


def _outliers(good, bad, total):
    """Runs to leave out so that the good and bad samples separate: the
    good ones on the bad side of the bad median, and back."""
    g, b = _padded(good, total[0]), _padded(bad, total[1])
    mg, mb = _median(g), _median(b)
    if mg == mb:
        return set(), set()
    if mg > mb:
        return ({i for i, x in enumerate(g) if x <= mb},
                {i for i, x in enumerate(b) if x >= mg})
    return ({i for i, x in enumerate(g) if x >= mb},
            {i for i, x in enumerate(b) if x <= mg})


def _selected_with(selected, stat, good, bad, total, excl):
    """Whether the change rules select `stat` over the complete runs."""
    g = [x for i, x in enumerate(_padded(good, total[0])) if i not in excl[0]]
    b = [x for i, x in enumerate(_padded(bad, total[1])) if i not in excl[1]]
    m = [{'stats_source': ['%d' % i for i in range(len(g))], stat: g},
         {'stats_source': ['%d' % i for i in range(len(b))], stat: b}]
    return stat in selected(m)


def _distractors(plots, table_names, rules, tg, tb):
    """Stats the bisect roots carry that no plot may show, one per rule:
    a table stat that did not change over the bisection, a changed one
    that is not bisectable, a changed pass/fail one."""
    shown = {s for s, _, _ in plots.stats}
    out = []
    same = next((n for n in table_names if n not in shown and
                 _bisectable(rules, n) and not rules.function_stat(n)), None)
    if same:
        out.append(('unchanged', same, [7] * tg, [7] * tb))
    denied = next((n for n in table_names if n not in shown and
                   not _bisectable(rules, n) and
                   not rules.function_stat(n)), None)
    if denied:
        out.append(('not bisectable', denied, [1] * tg, [100] * tb))
    fail = next((n for n in table_names if n not in shown and
                 rules.function_stat(n)), None)
    if fail:
        out.append(('pass/fail', fail, [0] * tg, [1] * tb))
    return out


def check_selection(plots, distractors, selected, rules, tg, tb):
    """The stats robot would plot from these series (selected: the
    comparison's change rules on [good, bad] matrices), in its order."""
    good = {'stats_source': ['g%d' % i for i in range(tg)]}
    bad = {'stats_source': ['b%d' % i for i in range(tb)]}
    for stat, g, b in plots.stats:
        good[stat] = _padded(g, tg)
        bad[stat] = _padded(b, tb)
    for _, stat, g, b in distractors:
        good[stat] = g
        bad[stat] = b
    for side, m in ((0, good), (1, bad)):
        drop = set(plots.incomplete[side])
        for k in m:
            m[k] = [x for i, x in enumerate(m[k]) if i not in drop]
    keys = selected([good, bad])
    return [k for k in keys if _bisectable(rules, k) and
            not rules.function_stat(k)]


def _json_value(x):
    if isinstance(x, float) and x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return json.dumps(x)


def write_bisect(outdir, plots, selected, rules, table_names, jobs, runs):
    """Writes OUTDIR/bisect-good-N and bisect-bad-N (runs runs each, the
    last one shorter) for the plots; returns (good dirs, bad dirs, the
    further bisected stats, notes).
    jobs: (good job.yaml text, bad job.yaml text)."""
    for name in os.listdir(outdir):
        if re.fullmatch(r'bisect-(good|bad)-\d+', name):
            shutil.rmtree(os.path.join(outdir, name))
    if not plots or not plots.stats:
        return [], [], [], []
    tg = max(len(g) for _, g, _ in plots.stats)
    tb = max(len(b) for _, _, b in plots.stats)
    notes = []
    dis = _distractors(plots, table_names, rules, tg, tb)
    # the stats of further bisections read_plots found (lkp-tests forces
    # a bisected stat past the rules, d2a03836e): `bisect: stats`
    forced = list(plots.forced)
    got = check_selection(plots, dis, lambda ms: selected(ms, forced), rules,
                          tg, tb)
    want = [s for s, _, _ in plots.stats]
    if got != want:
        notes.append('robot would plot %s, the mail shows %s'
                     % (', '.join(got) or 'nothing', ', '.join(want)))
    dirs = ([], [])
    for side, total, job in ((0, tg, jobs[0]), (1, tb, jobs[1])):
        label = ('good', 'bad')[side]
        for j in range((total + runs - 1) // runs):
            name = 'bisect-%s-%d' % (label, j + 1)
            at, n = j * runs, min(runs, total - j * runs)
            m = []
            for stat, g, b in plots.stats:
                series = (g, b)[side]
                if at < len(series):
                    m.append((stat, series[at:at + n]))
            for _, stat, g, b in dis:
                m.append((stat, (g, b)[side][at:at + n]))
            if plots.incomplete[0] or plots.incomplete[1]:
                bad_runs = set(plots.incomplete[side])
                m.append(('last_state.is_incomplete_run',
                          [1 if at + i in bad_runs else 0
                           for i in range(n)]))
            root = os.path.join(outdir, name)
            os.makedirs(root)
            src = ['/result/bisect/%s/%d/stats.json' % (name, i)
                   for i in range(n)]
            lines = ['{']
            for stat, vals in m:
                lines.append('  %s: [%s],' % (json.dumps(stat), ', '.join(
                    _json_value(x) for x in vals)))
            lines.append('  "stats_source": [%s]' % ', '.join(
                json.dumps(x) for x in src))
            lines.append('}')
            with open(os.path.join(root, 'matrix.json'), 'w') as f:
                f.write('\n'.join(lines) + '\n')
            for i in range(n):
                os.makedirs(os.path.join(root, str(i)))
                with open(os.path.join(root, str(i), 'job.yaml'), 'w') as f:
                    f.write(job)
            dirs[side].append(name)
    return dirs[0], dirs[1], forced, notes


# -- reading a plot that lost its layout ---------------------------------------
#
# Whitespace-collapsed archives (the seeds) keep a plot's tokens only: the
# title, then for each row its tic label (if any) and its runs of
# non-blank cells.  A row's first run starts on the left border and its
# last one ends on the right border; where the others start is lost.  The
# search below places the samples one by one, draws them, and checks each
# finished column of every row against that row's runs (a small automaton
# per row: a run's cells, then one or more blanks), so that only drawings
# with the mail's tokens survive.

NUMBER = re.compile(r'-?\d+(?:\.\d+)?(?:e[-+]\d+)?$')
BORDER_TOKEN = re.compile(r'[+|O*][-+O*]{18,}[+O*]$')


def find_collapsed(tokens, v):
    """[(title, [row splits])] of the plots in a token list, or None; a
    row split: [(label or None, [runs])] for rows y = 16 .. 2, every way
    the tokens can be cut into rows."""
    legend = ['[*]', 'bisect-good', 'sample', '[O]', 'bisect-bad', 'sample']
    end = next((i for i in range(len(tokens)) if tokens[i:i + 6] == legend),
               None)
    if end is None:
        return None
    plots, i = [], 0
    while i < end:
        if i + 2 < end and not NUMBER.match(tokens[i]) and \
                NUMBER.match(tokens[i + 1]) and BORDER_TOKEN.match(tokens[i + 2]):
            j = i + 3
            while j + 1 < end and not (NUMBER.match(tokens[j]) and
                                       BORDER_TOKEN.match(tokens[j + 1])):
                j += 1
            if j + 1 >= end:
                return None
            splits = []
            for label_rows in tic_rows(tokens[i + 1:j + 2], v):
                splits += split_rows(tokens[i + 1:j + 2], v, label_rows)
            if not splits:
                return None
            plots.append((tokens[i], splits))
            i = j + 2
        else:
            i += 1
    return plots or None


def tic_rows(tok, v):
    """The rows of the tic labels among a plot's tokens, for each y axis
    the labels' values allow: [[row per label]]."""
    labels = [t for t in tok if NUMBER.match(t)]
    if len(labels) < 2:
        return []
    xleft = BOX_RIGHT + 1 - len(tok[1])
    vals = [float(x) for x in labels]
    out = []
    if vals[0] <= vals[-1]:
        return []
    for step in nice_steps((vals[0] - vals[-1]) / (len(vals) - 1)):
        lo, hi = step * round(vals[-1] / step), step * round(vals[0] / step)
        if hi <= lo or (hi - lo) / step > COLS:
            continue
        ts = tics(v, lo, hi, step)
        if [t[1].strip() for t in ts][::-1] != labels:
            continue
        scale = (BOX_TOP - BOX_BOTTOM) / (hi - lo)
        rows = [int(BOX_BOTTOM + (at - lo) * scale + 0.5) for at, _ in ts]
        if rows[::-1] not in out and max(len(t[1]) for t in ts) + 2 == xleft:
            out.append(rows[::-1])
    return out


def split_rows(tok, v, label_rows, limit=50):
    """Every way (at most `limit`) to cut a plot's tokens into its 15 rows
    (top border first) with the tic labels on label_rows: each row's first
    run starts on the left border, its last one ends on the right one."""
    xleft = BOX_RIGHT + 1 - len(tok[1])
    width = BOX_RIGHT - xleft + 1
    # where the border shows: from 5.2 on it hides what is under it
    ends = '|' if v in ('5.2', '5.4') else '|+O*'
    found = []

    def fits(runs):
        if not runs or runs[0][0] not in ends or runs[-1][-1] not in ends:
            return False
        # '|' is the border's alone: the row's first cell or its last
        inner = ''.join(runs)[1:-1] if len(runs) > 1 or len(runs[0]) > 1 \
            else ''
        if '|' in inner:
            return False
        if len(runs) == 1:
            return len(runs[0]) == width
        return sum(len(r) for r in runs) + len(runs) - 1 <= width

    def walk(at, rows):
        if len(found) >= limit:
            return
        if len(rows) == BOX_TOP - BOX_BOTTOM + 1:
            if at == len(tok):
                found.append(rows)
            return
        label = None
        y = BOX_TOP - len(rows)
        if at < len(tok) and NUMBER.match(tok[at]):
            if y not in label_rows:
                return
            label, at = tok[at], at + 1
        elif y in label_rows:
            return
        last = len(rows) in (0, BOX_TOP - BOX_BOTTOM)
        for stop in range(at + 1, len(tok) + 1):
            if NUMBER.match(tok[stop - 1]):
                break
            runs = tok[at:stop]
            if last:
                if len(runs) == 1 and len(runs[0]) == width:
                    walk(stop, rows + [(label, runs)])
                continue
            if fits(runs):
                walk(stop, rows + [(label, runs)])
    walk(0, [])
    return found


SP, SPS, WILD = object(), object(), object()  # gap: a blank, then more


class RowMatch:
    """The automaton of one row's runs over columns xleft..76: each run's
    characters, one or more blanks between runs.  With `wild` (a string;
    '' for anything), an 'O' of the runs matches those characters: what
    the cell may show without the bad points."""

    def __init__(self, runs, wild=None):
        items = []
        for k, run in enumerate(runs):
            if k:
                items += [SP, SPS]
            items += [WILD if wild is not None and ch == 'O' else ch
                      for ch in run]
        self.items = items
        self.wild = wild

    def start(self):
        return self.close({0})

    def close(self, states):
        out = set(states)
        for st in list(states):
            while st < len(self.items) and self.items[st] is SPS:
                st += 1
                out.add(st)
        return frozenset(out)

    def feed(self, states, ch):
        nxt = set()
        items = self.items
        for st in states:
            if st >= len(items):
                continue
            item = items[st]
            if item is SPS:
                if ch == ' ':
                    nxt.add(st)
            elif item is SP:
                if ch == ' ':
                    nxt.add(st + 1)
            elif item is WILD:
                if self.wild == '' or ch in self.wild:
                    nxt.add(st + 1)
            elif item == ch:
                nxt.add(st + 1)
        return self.close(nxt)

    def done(self, states):
        return len(self.items) in states

    def need(self, states, ch):
        """The fewest `ch` the row still has to show from these states."""
        if not hasattr(self, '_left'):
            self._left = {}
        if ch not in self._left:
            left, k = [0] * (len(self.items) + 1), 0
            for i in range(len(self.items) - 1, -1, -1):
                k += self.items[i] == ch
                left[i] = k
            self._left[ch] = left
        left = self._left[ch]
        return min(left[s] for s in states) if states else 0


def solve_collapsed(title, rows, v, limit=20000, accept=None):
    """(title, good, bad) whose drawing has these rows' tokens (and that
    `accept` takes, if given)."""
    xleft = BOX_RIGHT + 1 - len(rows[0][1][0])
    labels = {BOX_TOP - k: r[0] for k, r in enumerate(rows) if r[0]}
    match = {BOX_TOP - k: RowMatch(r[1]) for k, r in enumerate(rows)}
    wild = {BOX_TOP - k: RowMatch(r[1], '' if v in ('4.6', '5.0') else ' -+')
            for k, r in enumerate(rows)}
    for lo, hi, step in axis_candidates(v, labels, xleft):
        ax = Axis(v, lo, hi)
        tics = [(BOX_BOTTOM + (at - lo) * (BOX_TOP - BOX_BOTTOM) / (hi - lo),
                 label) for at, label in tics_of(v, lo, hi, step)]
        tics = [(int(y + 0.5), label.strip()) for y, label in tics]
        if {y: l for y, l in tics} != labels:
            continue
        for n in sample_counts(rows, xleft):
            for good_rows in line_search(v, title, xleft, tics, wild, n, n,
                                         limit):
                bad_rows = bad_search(v, title, xleft, tics, match, n, n,
                                      good_rows, limit)
                if bad_rows is None:
                    continue
                for bias in (True, False):
                    values = choose_values(v, lo, hi, step, good_rows,
                                           bad_rows, labels, xleft, bias)
                    if values and collapsed(render(title, *values, v)) == \
                            collapsed_rows(title, rows) and \
                            (accept is None or accept((title,) + values)):
                        return (title,) + tuple(values)
    raise Unsolved('no series draws these tokens')


def tics_of(v, lo, hi, step):
    return tics(v, lo, hi, step)


def collapsed(rows):
    return ' '.join(rows).split()


def collapsed_rows(title, rows):
    out = [title]
    for label, runs in rows:
        out += ([label] if label else []) + runs
    return out


def sample_counts(rows, xleft):
    """Axis lengths n to try, likeliest first: from the bad points the
    tokens show (each is a sample; some may hide) up to a column each."""
    o = sum(''.join(r[1]).count('O') for r in rows)
    top = BOX_RIGHT - xleft + 1
    first = [k for k in range(max(o, 1), min(o + 9, top) + 1)]
    return first + [k for k in range(1, top + 1) if k not in first]


def line_search(v, title, xleft, tics, match, n, ng, limit, follow=None):
    """Rows of the good samples whose line fits `match` (its 'O's wild),
    by depth-first search over the samples, one after the other
    (a generator).  Step i draws the good sample i (the stroke into it)
    and checks every column left of sample i's, which nothing drawn later
    touches."""
    nb = 0
    cols = x_columns(xleft, n)
    prio_on = v in ('4.6', '5.0')
    rows_y = list(range(BOX_BOTTOM, BOX_TOP + 1))
    ticlen = 1 if v == '4.6' else 2
    # the background: tics and the border (drawn before everything)
    bg = {}
    c = Canvas(v)
    for y, label in tics:
        c.border = True
        c.x, c.y = xleft, y
        c.stroke(xleft + ticlen, y)
    c.rect(xleft)
    for y in rows_y:
        for x in range(xleft, BOX_RIGHT + 1):
            k = COLS * y + x
            bg[(x, y)] = (c.cell[k], c.prio[k] if prio_on else 0)

    def border_cell(x, y):
        if x in (xleft, BOX_RIGHT) or y in (BOX_BOTTOM, BOX_TOP):
            if y in (BOX_BOTTOM, BOX_TOP):
                return '+' if x in (xleft, BOX_RIGHT) else '-'
            return '|'
        return None

    def compose(x, y, o, lines, star):
        """The final cell from what is drawn on it, in drawing order."""
        ch, pr = bg[(x, y)]
        if prio_on:
            if o and pr < 4:
                ch, pr = 'O', 4
            for l in lines:
                if pr < 1:
                    ch, pr = l, 1
            if star and pr < 4:
                ch, pr = '*', 4
            b = border_cell(x, y)
            if b and pr < 2:
                ch = b
            return ch
        if o:
            ch = 'O'
        for l in lines:
            ch = l
        b = border_cell(x, y)
        return b if b else ch

    budget = [limit]
    failed = set()
    good, bad = [], []

    def feed(y, st, chars):
        m = match[y]
        for ch in chars:
            st = m.feed(st, ch)
            if not st:
                return None
        return st

    def walk(i, states, pending, done_to):
        """pending: {(x, y): [line chars]} and the '*' of sample i-1 in
        column cols[i-1] (not final yet); states: the rows' automata
        after the columns left of done_to."""
        budget[0] -= 1
        if budget[0] < 0:
            return None
        xp = cols[i - 1] if i else None
        g_prev = good[-1] if good else None
        key = (i, len(good), g_prev,
               tuple(sorted((k, tuple(v_)) for k, v_ in pending[0].items())),
               pending[1], tuple(states[y] for y in rows_y))
        if key in failed:
            return None
        x = cols[i] if i < n else BOX_RIGHT + 1
        bopts = (rows_y if i - 1 < nb else [None]) if i else [None]
        # the next good sample, or none: the series may end anywhere
        if i < n and len(good) == i and i < ng:
            gopts = rows_y + ([None] if i else [])
        else:
            gopts = [None]
        if follow:
            bopts = [follow[1][i - 1]] if i and i - 1 < nb else [None]
            gopts = [follow[0][i]] if i < ng and i < n else [None]
        span = range(done_to, min(x, BOX_RIGHT + 1))
        star_y = pending[1]

        def row_state(y, lines, b):
            chars = [compose(cx, y, b is not None and cx == xp and y == b,
                             lines.get((cx, y), ()),
                             star_y is not None and cx == xp and y == star_y)
                     for cx in span]
            return feed(y, states[y], chars)
        for g in gopts:
            lines = {}
            for xy, ch in pending[0].items():
                lines.setdefault(xy, []).extend(ch)
            if g is not None:
                if i == 0:
                    cells = [((x, g), '+')]
                else:
                    cells = stroke_cells(xp, g_prev, x, g, v)
                for xy, ch in cells:
                    lines.setdefault(xy, []).append(ch)
            # the rows without a bad point, then where one may go: the
            # only row that fails without it, else any row it leaves fine
            plain = {y: row_state(y, lines, None) for y in rows_y}
            bad_rows = [y for y in rows_y if plain[y] is None]
            if len(bad_rows) > 1:
                continue
            if bad_rows:
                choices = [b for b in bopts if b == bad_rows[0]]
            else:
                choices = bopts
            for b in choices:
                st_new = dict(plain)
                if b is not None:
                    st_new[b] = row_state(b, lines, b)
                    if st_new[b] is None:
                        continue
                if i == n:
                    if all(match[y].done(st_new[y]) for y in rows_y):
                        found.append(list(good))
                        if len(found) >= 8:
                            return True
                    continue
                # what the stroke left in column x, for the next step
                nxt = {xy: ch for xy, ch in lines.items() if xy[0] == x}
                star = g if (v == '4.6' and g is not None) else None
                if g is not None:
                    good.append(g)
                if b is not None:
                    bad.append(b)
                r = walk(i + 1, st_new, (nxt, star), x)
                if r:
                    return r
                if g is not None:
                    good.pop()
                if b is not None:
                    bad.pop()
                if budget[0] < 0:
                    return None
        failed.add(key)
        return None
    start = {y: match[y].start() for y in rows_y}
    found = []
    walk(0, start, ({}, None), xleft)
    return found


def bad_search(v, title, xleft, tics, match, n, nb, good, limit):
    """Rows of the bad samples that complete the drawing of the good line
    `good` to fit `match` exactly: at least one, at most nb, all n when
    the good line is shorter than the axis; None."""
    cols = x_columns(xleft, n)
    line = set()
    rows = draw(v, title, xleft, tics, good, [], n, line)
    prio_on = v in ('4.6', '5.0')
    rows_y = list(range(BOX_BOTTOM, BOX_TOP + 1))
    if len(good) < n:
        nb = n
    at = {c: j for j, c in enumerate(cols[:nb])}
    left = [sum(1 for c in cols[:nb] if c >= x)
            for x in range(BOX_RIGHT + 2)]

    def cell(x, y):
        return rows[ROWS - 1 - y][x]

    def shows_o(x, y):
        if prio_on:
            return True
        if (x, y) in line:
            return False
        return xleft < x < BOX_RIGHT and BOX_BOTTOM < y < BOX_TOP
    budget = [limit]
    failed = set()
    bad = []

    def walk(x, states, ended):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if x > BOX_RIGHT:
            if bad and (len(good) == n or len(bad) == n) and \
                    all(match[y].done(states[y]) for y in rows_y):
                return list(bad)
            return None
        key = (x, ended, tuple(states[y] for y in rows_y))
        if key in failed:
            return None
        # every 'O' the rows still show needs a bad sample still to come
        more = 0 if ended else left[x]
        if sum(match[y].need(states[y], 'O') for y in rows_y) > more:
            failed.add(key)
            return None
        plain = {y: match[y].feed(states[y], cell(x, y)) for y in rows_y}
        if x not in at or ended:
            if all(plain[y] for y in rows_y):
                r = walk(x + 1, plain, ended)
                if r:
                    return r
            failed.add(key)
            return None
        # the rows where it shows, then one where it hides (all of those
        # leave the same tokens: the one nearest the last bad sample),
        # then the end of the bad series
        hidden = [y for y in rows_y if not shows_o(x, y)]
        ref = bad[-1] if bad else (BOX_BOTTOM + BOX_TOP) // 2
        opts = [y for y in rows_y if shows_o(x, y)]
        if hidden:
            opts.append(min(hidden, key=lambda y: (abs(y - ref), y)))
        if bad and len(good) == n:
            opts.append(None)
        for b in opts:
            st = dict(plain)
            if b is not None and shows_o(x, b):
                st[b] = match[b].feed(states[b], 'O')
            if not all(st[y] for y in rows_y):
                continue
            if b is not None:
                bad.append(b)
            r = walk(x + 1, st, b is None)
            if r:
                return r
            if b is not None:
                bad.pop()
            if budget[0] < 0:
                return None
        failed.add(key)
        return None
    return walk(xleft, {y: match[y].start() for y in rows_y}, False)
