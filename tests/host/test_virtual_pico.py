"""The virtual Pico behaves like a board to mpremote: raw REPL, flash at /, resets, fakes."""

import os
import subprocess
import sys
import pytest

from mpremote.transport_serial import SerialTransport

import host_tools
from host_tools import virtual_pico as virtual_pico_command
from host_tools.flashing import virtual_pico
from host_tools.flashing.testing import write

pytestmark = pytest.mark.slow


def mpremote(port, *words):
    cmd = [sys.executable, "-m", "mpremote", "connect", port] + list(words)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=30)


def test_prints_the_port_first_and_runs_micropython_with_dir_as_flash(tmp_path):
    write(tmp_path, "lib/helper.py", "VALUE = 41\n")
    with virtual_pico.running(tmp_path) as port:
        assert port.startswith("/dev/")
        code = (
            "import sys, os, helper\n"
            "print(sys.implementation.name, os.getcwd(), sys.path, helper.VALUE + 1)\n"
            "os.mkdir('/saves')\n"
            "open('/saves/a.sav', 'w').write('x')\n"
            "os.chdir('/saves')\n"
            "os.rename('a.sav', '/saves/b.sav')\n"
        )
        out = mpremote(port, "exec", code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["micropython", "/", "['',", "'.frozen',", "'/lib']", "42"]
    assert (tmp_path / "saves" / "b.sav").read_text() == "x"
    assert not (tmp_path / "saves" / "a.sav").exists()


def test_soft_reset_restarts_into_the_raw_repl_with_a_fresh_interpreter(tmp_path):
    with virtual_pico.running(tmp_path) as port:
        transport = SerialTransport(port)
        try:
            transport.enter_raw_repl(soft_reset=True)
            transport.exec("leftover = 1")
            assert transport.eval("'leftover' in globals()") is True
            transport.enter_raw_repl(soft_reset=True)  # Ctrl-D: the unix port exits, we restart it
            assert transport.eval("'leftover' in globals()") is False
            assert transport.eval("1 + 2") == 3
        finally:
            transport.close()


def test_machine_reset_is_a_hard_reset_and_boot_py_runs_at_every_start(tmp_path):
    write(tmp_path, "boot.py", "open('/boots.txt', 'a').write('b')\n")
    with virtual_pico.running(tmp_path) as port:
        first = mpremote(port, "exec", "print(open('/boots.txt').read())")
        reset = mpremote(port, "reset")
        again = mpremote(port, "exec", "print(open('/boots.txt').read())")
    assert reset.returncode == 0, reset.stderr
    boots = (len(first.stdout.strip()), len(again.stdout.strip()))
    assert boots[1] > boots[0] >= 1, (first.stdout, again.stdout)


def test_fake_version_mpy_and_flash_size(tmp_path):
    write(tmp_path, "big.bin", b"x" * 10000)  # 3 blocks of 4096
    options = ("--fake-mpy", "0x206", "--fake-version", "1.22.2", "--flash-size", str(64 * 4096))
    with virtual_pico.running(tmp_path, *options) as port:
        out = mpremote(
            port,
            "exec",
            "import sys, os\nprint(sys.implementation.version, sys.implementation._mpy, os.statvfs('/')[:4])",
        )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "(1, 22, 2) 518 (4096, 4096, 64, 60)"  # 60 = 64 - root - 3 blocks


def test_not_micropython_mode_has_no_raw_repl(tmp_path):
    with virtual_pico.running(tmp_path, "--not-micropython") as port:
        transport = SerialTransport(port)
        try:
            transport.enter_raw_repl(soft_reset=False, timeout_overall=2)
        except Exception as exc:  # mpremote's TransportError
            refused = str(exc)
        else:
            refused = None
        finally:
            transport.close()
    assert refused == "could not enter raw repl"


def test_the_readme_example_makes_its_folder(tmp_path):
    """``virtual-pico --dir /tmp/pico`` works when the folder is missing."""
    folder = tmp_path / "pico" / "flash"
    with virtual_pico.running(folder) as port:
        out = mpremote(port, "exec", "open('/made.txt', 'w').write('yes')")
    assert out.returncode == 0, out.stderr
    assert (folder / "made.txt").read_text() == "yes"


def test_dir_is_a_sandbox_for_every_client(tmp_path):
    """``..`` stops at the flash's top, as on a board."""
    flash = tmp_path / "a" / "flash"
    write(flash, "inside.txt", "inside")
    outside = write(tmp_path, "a/outside.txt", "the host's file")
    local = write(tmp_path, "local.txt", "from the host")
    with virtual_pico.running(flash) as port:
        cat = mpremote(port, "fs", "cat", ":../outside.txt")
        copy_in = mpremote(port, "fs", "cp", str(local), ":../../escaped.txt")
        copy_out = mpremote(port, "fs", "cp", ":../../../a/outside.txt", str(tmp_path / "fetched.txt"))
        code = (
            "import os\n"
            "os.chdir('/..')\n"
            "print(os.getcwd(), sorted(os.listdir('..')), open('../../inside.txt').read())\n"
            "open('/../../made.txt', 'w').write('x')\n"
            "os.mkdir('../sub')\n"
            "os.rename('/sub/../../made.txt', '../../sub/moved.txt')\n"
        )
        probe = mpremote(port, "exec", code)
    assert "the host's file" not in cat.stdout
    assert cat.returncode != 0
    assert copy_in.returncode == 0
    assert (flash / "escaped.txt").read_text() == "from the host"
    assert copy_out.returncode != 0
    assert not (tmp_path / "fetched.txt").exists()
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.split() == ["/", "['escaped.txt',", "'inside.txt']", "inside"]
    assert (flash / "sub" / "moved.txt").read_text() == "x"
    assert sorted(os.listdir(tmp_path / "a")) == ["flash", "outside.txt"]
    assert sorted(os.listdir(tmp_path)) == ["a", "local.txt"]
    assert open(outside).read() == "the host's file"


def _run(*args):
    return subprocess.run(
        [sys.executable, "-m", "host_tools", "virtual-pico"] + [str(a) for a in args],
        capture_output=True,
        text=True,
        cwd=host_tools.REPO,
        timeout=30,
    )


def test_a_dir_that_is_a_file_is_a_usage_error_with_nothing_on_stdout(tmp_path):
    write(tmp_path, "file", "x")
    proc = _run("--dir", tmp_path / "file")
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr.strip().splitlines() == ["virtual-pico: --dir %s is not a folder" % (tmp_path / "file")]


def test_an_interpreter_failing_at_start_prints_no_port(tmp_path, monkeypatch, capsys):
    """A script reads the first stdout line as the port; a failure is
    only on stderr, with a non-zero exit."""
    import host_tools

    failing = [host_tools.micropython_command(), "-c", "import sys\nsys.exit(3)"]
    monkeypatch.setattr(virtual_pico, "interpreter_command", lambda *a, **k: failing)
    assert virtual_pico_command.main(["--dir", str(tmp_path)]) == 1
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err == "virtual-pico: the interpreter exited with status 3 before its REPL started\n"


def test_an_interpreter_that_cannot_start_stops_the_server_instead_of_spinning():
    import host_tools

    pico = virtual_pico.VirtualPico([host_tools.micropython_command(), "-c", "import sys\nsys.exit(3)"])
    try:
        pico.serve()
    finally:
        pico.close()
    assert pico.failed == "the interpreter exited with status 3 before its REPL started"
