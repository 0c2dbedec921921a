"""docs/figures.md, the one page of measured figures: ``make bench`` writes it.

A run rewrites the rows of the subjects it ran, with the commit and date, and keeps the
rows of subjects that did not run (the chip's, measured where the MicroPython UF2 was).
"""

import os
import pytest

from host_tools import bench, benches

pytestmark = pytest.mark.slow


def test_a_run_rewrites_its_subjects_rows_and_keeps_the_others(tmp_path):
    page = str(tmp_path / "figures.md")
    benches.write_page({"chip": ["heap 177,728 bytes", "advisor turn 63.1 ms"]}, "aaaaaaa", "2026-12-01", page)
    benches.write_page(
        {"rules": ["scoring 3.2 us", "  with details", "import 1,234 bytes | net"]}, "bbbbbbb", "2026-12-02", page
    )
    rows = benches.read_page(page)
    assert ("chip", "heap 177,728 bytes", "aaaaaaa", "2026-12-01") in rows
    assert ("rules", "scoring 3.2 us; with details", "bbbbbbb", "2026-12-02") in rows  # indented: same figure
    assert ("rules", "import 1,234 bytes \\| net", "bbbbbbb", "2026-12-02") in rows  # a | stays in its cell
    benches.write_page({"rules": ["scoring 3.0 us"]}, "ccccccc", "2026-12-03", page)
    rows = benches.read_page(page)
    assert [r for r in rows if r[0] == "rules"] == [("rules", "scoring 3.0 us", "ccccccc", "2026-12-03")]
    assert len([r for r in rows if r[0] == "chip"]) == 2


def test_bench_writes_what_a_subject_printed(tmp_path, capsys):
    page = tmp_path / "figures.md"
    assert bench.main(["rules", "--figures", str(page)]) == 0
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("full-card scoring")]
    rows = benches.read_page(str(page))
    assert printed
    assert [r[1] for r in rows if r[1].startswith("full-card scoring")] == printed
    assert {r[0] for r in rows} == {"rules"}
    assert all(r[3] for r in rows)


def test_a_subject_that_cannot_run_keeps_its_figures(tmp_path, monkeypatch):
    page = str(tmp_path / "figures.md")
    benches.write_page({"chip": ["heap 177,728 bytes"]}, "aaaaaaa", "2026-12-01", page)
    from host_tools.benches import chip

    monkeypatch.setattr(chip.chip_session, "fixture_files", lambda: (None, None, "no UF2 in build/rp2/"))
    assert bench.main(["chip", "--figures", page]) == 0
    assert benches.read_page(page) == [("chip", "heap 177,728 bytes", "aaaaaaa", "2026-12-01")]


def test_the_committed_page_holds_the_device_figures_with_their_date():
    rows = benches.read_page(benches.PAGE)
    chip = [r for r in rows if r[0] == "chip"]
    assert any("MicroPython 1.28.0" in r[1] for r in chip)
    assert any("177,728" in r[1] for r in chip)
    assert all(r[3] for r in chip)
    assert os.path.dirname(benches.PAGE).endswith("docs")


def test_the_commit_a_figure_names_ignores_the_page_the_bench_rewrites(tmp_path, monkeypatch):
    import subprocess

    import host_tools

    def git(*args):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "figures.md").write_text("old\n")
    (tmp_path / "game.py").write_text("x = 1\n")
    git("init", "-q")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    monkeypatch.setattr(host_tools, "REPO", str(tmp_path))
    head = bench.commit()
    assert len(head) >= 7
    assert "+" not in head
    (tmp_path / "docs" / "figures.md").write_text("new rows\n")  # an earlier subject's run
    assert bench.commit() == head
    (tmp_path / "game.py").write_text("x = 2\n")
    assert bench.commit() == head + "+changes"


def test_the_heap_probe_reports_the_interned_names_pools(tmp_path):
    # The advisor game's peak live heap includes the qstr pools, which grow a whole pool at
    # a time: bench sim_advisor prints them beside the peak, so a step is not read as a leak.
    from host_tools.benches import sim_advisor
    from host_tools.simulator.unix_port import SimDevice

    device = SimDevice(seed=3, flash_dir=str(tmp_path), extra=("memprobe=250",))
    try:
        device.run_until(2000)
    finally:
        device.close()
    pools, names, pool_bytes = sim_advisor.qstr_pools(device.console)
    assert pools >= 1, device.console[-5:]
    assert names > 500
    assert pool_bytes > names  # at least a byte a name


@pytest.mark.parametrize("subject", ("drivers", "flash", "power", "rules", "storage", "uf2"))
def test_each_quick_subject_runs_and_prints_its_figures(subject, capsys):
    # The longer subjects (busy, strategy, the win level and meter, sim, zoo) have their
    # own tests or run in CI's make bench; a module renamed under a bench script once
    # left ``bench storage`` failing with nobody running it (ImportError: records).
    assert bench.main([subject, "--no-figures"]) == 0
    printed = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert printed[0].startswith("== %s: " % subject), printed[:2]
    assert len(printed) > 2, printed
    assert not any("Traceback" in line or "failed" in line.lower() for line in printed), printed


def test_every_flash_size_on_the_page_names_its_board_build_and_tables():
    """The page disagreed with itself on free flash and the firmware's size because rows
    counted different boards, builds and tables without saying so."""
    import re

    rows = benches.read_page(benches.PAGE)
    sizes = [
        r
        for r in rows
        if "heap" not in r[1]
        and (
            re.search(r"\bfree\b.*(littlefs|on the device|of 1408|KiB free)|(littlefs|KiB) free", r[1])
            or re.search(r"full flash|as flashed|firmware \d", r[1])
        )
    ]
    assert len(sizes) >= 5
    for subject, figure, *_ in sizes:
        assert re.search(r"\bboard (pico|pico2|sim)\b", figure), (subject, figure)
        assert re.search(r"armv6m|armv7emsp|bytecode", figure), (subject, figure)
        assert re.search(r"table|no tables", figure), (subject, figure)


def test_a_row_whose_code_changed_since_says_so(tmp_path):
    import subprocess

    def git(*args):
        return subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True, text=True).stdout

    (tmp_path / "docs").mkdir()
    (tmp_path / "firmware").mkdir()
    (tmp_path / "firmware" / "rules.py").write_text("A = 1\n")
    git("init", "-q")
    git("-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "a")
    first = git("rev-parse", "--short", "HEAD").strip()
    page = str(tmp_path / "docs" / "figures.md")
    benches.write_page({"rules": ["scoring 3.2 us"]}, first, "2026-12-01", page)
    assert benches.CHANGED not in open(page).read()
    (tmp_path / "firmware" / "rules.py").write_text("A = 2\n")
    benches.write_page({"storage": ["save 300 us"]}, first + "+changes", "2026-12-02", page)
    text = open(page).read()
    assert "| scoring 3.2 us | %s (code changed since) | 2026-12-01 |" % first in text
    assert ("rules", "scoring 3.2 us", first, "2026-12-01") in benches.read_page(page)
