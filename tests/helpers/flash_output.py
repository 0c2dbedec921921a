"""What ``flash`` printed, read back: its last line's counts (the end-to-end and hostile
flash tests)."""

import re

SUMMARY = re.compile(r"(\d+) copied, (\d+) skipped, (\d+) removed, (\d+) bytes")


def summary(proc):
    """(copied, skipped, removed) from the tool's last line."""
    assert proc.returncode == 0, proc.stdout + proc.stderr
    last = proc.stdout.strip().splitlines()[-1]
    found = SUMMARY.search(last)
    assert found, last
    return tuple(int(n) for n in found.groups()[:3])
