"""Runs one shared test module inside MicroPython (no pytest there).

Usage: micropython tests/helpers/mp_runner.py MODULE. Prints ``PASS name`` for every ``test_*``
function that passes; for one that fails, ``FAIL name: Error: message``, then indented the
failing line (``at file:line: source``) and the traceback; then a ``N passed, N failed``
line. The pytest side (``test_on_micropython.py``) turns each case into a test result and
shows a failing case's lines. Asserts show no values here: tests/shared/check.py's do.
"""

import io
import sys


def _brackets(line):
    """How much ``line`` deepens the bracket nesting (strings and comments left out)."""
    change, quote, escaped = 0, "", False
    for char in line:
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "#":
            break
        elif char in "([{":
            change += 1
        elif char in ")]}":
            change -= 1
    return change


def _statement(path, number):
    """The source of the statement that runs at line ``number``: a call spread over lines
    is reported at one of its later lines, so it is read from the line it starts on."""
    text, depth, in_docstring = [], 0, False
    try:
        with open(path) as source:
            for count, line in enumerate(source, 1):
                if depth == 0:
                    text = []
                text.append(line.strip())
                if line.count('"""') % 2:
                    in_docstring = not in_docstring
                elif not in_docstring:
                    depth = max(0, depth + _brackets(line))
                if count == number:
                    return " ".join(text)
    except OSError:
        pass
    return ""


def _failing_line(trace):
    """``file:line: source`` of the innermost frame outside check.py, or ""."""
    where = ""
    for line in trace.splitlines():
        line = line.strip()
        if not line.startswith('File "'):
            continue
        path, _, rest = line[6:].partition('", line ')
        number = rest.split(",")[0]
        if path.endswith("check.py") or not number.isdigit():
            continue
        where = "%s:%s: %s" % (path, number, _statement(path, int(number)))
    return where


def _report(name, exc):
    buf = io.StringIO()
    sys.print_exception(exc, buf)
    trace = buf.getvalue()
    lines = ("%s: %s" % (type(exc).__name__, exc)).splitlines() or [""]
    print("FAIL %s: %s" % (name, lines[0]))
    for line in lines[1:]:
        print("  " + line)
    where = _failing_line(trace)
    if where:
        print("  at " + where)
    for line in trace.splitlines():
        print("  " + line)


def run(module_name):
    module = __import__(module_name)
    passed = failed = 0
    for name in sorted(dir(module)):
        if not name.startswith("test_"):
            continue
        test = getattr(module, name)
        try:
            test()
        except Exception as exc:  # report every failure, keep running the rest
            failed += 1
            _report(name, exc)
        else:
            passed += 1
            print("PASS " + name)
    print("%d passed, %d failed" % (passed, failed))
    return failed


sys.exit(1 if run(sys.argv[1]) else 0)
