"""The figures ``make bench`` prints: one module per subject, each with a ``run()``.

Every line a subject prints is one figure of docs/figures.md, the one page of measured
figures: ``make bench`` rewrites the rows of the subjects it ran, with the commit and the
date, and keeps the rows of the others (a subject that could not run here, such as the
emulated chip without its firmware, returns ``NOT_RUN`` and keeps what it measured last).
"""

import os
import subprocess

NOT_RUN = "not run"
CHANGED = " (code changed since)"  # after a row's commit: firmware/ or boards/ differ now
_CODE = (":(top)firmware", ":(top)boards")  # from the top, whatever folder the page is in
FAILED = "failed"  # run() could not measure: its rows stay, and the bench exits non-zero

PAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "docs", "figures.md")

_HEAD = """# Every measured figure

Written by `make bench` (`python -m host_tools bench [SUBJECT ...]`, host_tools/benches/);
do not edit by hand. One row per printed figure: the subject (the benchmark module), the
figure as it printed it, and the commit and date it was measured on. A run rewrites the
rows of the subjects it ran and keeps the others, so a figure that needs something this
machine lacks (the emulated chip needs the official MicroPython UF2) stands as measured,
with its date; its commit cell says "code changed since" once firmware/ or boards/ differ
from what it measured (a re-run measures today's code). Times are medians; the unix
port's times are this host's, the chip's are emulated RP2040 time (a real Pico is 0-13 %
slower on interpreter code).

Each size says what it counted: the board (`pico`, the reference handheld; `sim`, the
simulator's board, which carries its own modules too), the build (armv6m .mpy as `flash`
and `uf2` compile for the RP2040, or bytecode .mpy) and the tables beside the game. So the
Pico's free flash reads differently by row on purpose: with the exact table alone
(strategy), with the exact and Zoo tables (zoo), and with every table `uf2` and `make
flash` put there, the exact, spread and Zoo tables (uf2 RPI_PICO, chip).

| subject | figure | commit | date |
|---|---|---|---|
"""


def _cell(text):
    return " ".join(text.replace("|", "\\|").split())


def figure_rows(lines):
    """A subject's printed lines -> its figures: an indented line continues the one above."""
    rows = []
    for line in lines:
        if not line.strip():
            continue
        if line[:1].isspace() and rows:
            rows[-1] = rows[-1] + "; " + line.strip()
        else:
            rows.append(line.strip())
    return [_cell(row) for row in rows]


def read_page(path=PAGE):
    """The rows of an existing figures page: [(subject, figure, commit, date), ...]."""
    rows = []
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return rows
    for line in text.splitlines():
        if not line.startswith("| ") or line.startswith("| subject |"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) == 4:
            cells[2] = cells[2].replace(CHANGED, "")
            rows.append(tuple(cells))
    return rows


def code_changed_since(commit, folder):
    """True when firmware/ or boards/ of the checkout holding ``folder`` differ from
    ``commit``'s (``+changes`` ignored); False when they do not or git cannot tell."""
    try:
        proc = subprocess.run(
            ["git", "diff", "--quiet", commit.split("+")[0], "--", *_CODE],
            cwd=folder,
            capture_output=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return proc.returncode == 1


def write_page(results, commit, date, path=PAGE):
    """Rewrite the page: ``results`` maps each subject run now to its printed lines."""
    kept = [row for row in read_page(path) if row[0] not in results]
    fresh = [(subject, figure, commit, date) for subject, lines in results.items() for figure in figure_rows(lines)]
    rows = sorted(kept + fresh, key=lambda row: row[0])  # stable: each subject's own order
    folder = os.path.dirname(os.path.abspath(path))
    changed = {c: code_changed_since(c, folder) for c in {row[2] for row in rows}}
    tmp = path + ".new"
    with open(tmp, "w", encoding="utf-8") as out:
        out.write(_HEAD)
        for subject, figure, measured_on, date in rows:
            note = CHANGED if changed[measured_on] else ""
            out.write("| %s |\n" % " | ".join((subject, figure, measured_on + note, date)))
    os.replace(tmp, path)
    return len(fresh)
