"""What ships (firmware, boards, host tools, docs, README, Makefile) points only inside the
checkout: a reader of a fresh clone can open every page a comment or doc names, and no
tool looks beside the checkout for its files (only the tests do, and pass what they find).
"""

import os
import re
import subprocess

import host_tools
from host_tools.simulator import chip_image, chip_session

SHIPPED = ("firmware", "boards", "host_tools", "docs", "README.md", "Makefile")
PAGE = re.compile(r"[A-Za-z0-9_./-]*?([A-Za-z0-9_-]+\.md)\b")


def _shipped_texts():
    names = subprocess.run(
        ["git", "ls-files", "--", *SHIPPED], cwd=host_tools.REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    for name in names:
        if name.endswith((".png", ".bin", ".uf2", ".json")):
            continue
        with open(os.path.join(host_tools.REPO, name), encoding="utf-8") as f:
            yield name, f.read()


def test_every_page_a_shipped_file_names_is_in_the_repository():
    pages = subprocess.run(
        ["git", "ls-files", "*.md"], cwd=host_tools.REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    have = {os.path.basename(page) for page in pages}
    missing = sorted(
        "%s names %s" % (name, found)
        for name, text in _shipped_texts()
        for found in set(PAGE.findall(text))
        if found not in have
    )
    assert missing == []


def test_no_shipped_file_points_beside_the_checkout():
    beside = sorted(name for name, text in _shipped_texts() if "../shared" in text or "shared/rp2" in text)
    assert beside == []


def _layout(tmp_path, monkeypatch):
    """A checkout in tmp_path/checkout with the bootrom beside it in tmp_path/shared/rp2,
    as on the CI machine; returns (beside folder, build/rp2 folder)."""
    checkout = tmp_path / "checkout"
    user = checkout / "build" / "rp2"
    user.mkdir(parents=True)
    beside = tmp_path / "shared" / "rp2"
    beside.mkdir(parents=True)
    (beside / chip_image.BOOTROM_NAME).write_bytes(b"\x00" * chip_image.BOOTROM_SIZE)
    (beside / chip_image.FIRMWARE_NAME).write_bytes(b"uf2")
    monkeypatch.setattr(host_tools, "REPO", str(checkout))
    monkeypatch.setattr(chip_image, "USER_DIR", str(user))
    return beside, user


def test_the_chip_files_are_not_looked_for_beside_the_checkout(tmp_path, monkeypatch):
    _layout(tmp_path, monkeypatch)
    assert chip_image.find_file(chip_image.BOOTROM_NAME) is None
    firmware, bootrom, problem = chip_session.fixture_files()
    assert (firmware, bootrom) == (None, None)
    assert "into build/rp2/" in problem


def test_the_chip_files_in_build_rp2_or_a_folder_passed_in_are_found(tmp_path, monkeypatch):
    beside, user = _layout(tmp_path, monkeypatch)
    assert chip_image.find_file(chip_image.BOOTROM_NAME, (str(beside),)) == str(beside / chip_image.BOOTROM_NAME)
    (user / chip_image.BOOTROM_NAME).write_bytes(b"\x00" * chip_image.BOOTROM_SIZE)
    assert chip_image.find_file(chip_image.BOOTROM_NAME, (str(beside),)) == str(user / chip_image.BOOTROM_NAME)
    firmware, bootrom, problem = chip_session.fixture_files((str(beside),))
    assert (firmware, bootrom, problem) == (
        str(beside / chip_image.FIRMWARE_NAME),
        str(user / chip_image.BOOTROM_NAME),
        None,
    )
