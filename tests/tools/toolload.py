# SPDX-License-Identifier: GPL-2.0-only
"""toolload: a Python tool of tests/tools (a script without .py) as a module.

The tools share code by loading each other: fidelity's comparison in
eml2lkp_layout and plot-fidelity, unlist in fidelity, gather-validation
in unlist-check, eml2lkp in solver-shapes-check, a mutated tree's
fidelity in mutate-rules.
"""

import importlib.machinery
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, path=None, register=False):
    """A new module of the script PATH (default tests/tools/NAME) named
    NAME ('-' as '_'); with REGISTER it is also sys.modules[NAME] while
    and after it runs."""
    path = path or os.path.join(HERE, name)
    name = name.replace('-', '_')
    loader = importlib.machinery.SourceFileLoader(name, path)
    spec = importlib.util.spec_from_loader(name, loader)
    mod = importlib.util.module_from_spec(spec)
    if register:
        sys.modules[name] = mod
    loader.exec_module(mod)
    return mod
