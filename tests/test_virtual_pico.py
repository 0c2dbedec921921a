"""The virtual Pico behaves like a board to mpremote: raw REPL, flash at /, resets, fakes."""
import os
import subprocess
import sys

from mpremote.transport_serial import SerialTransport

from host_tools import virtual_pico
from host_tools.flashing.testing import write


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
        out = mpremote(port, "exec", "import sys, os\nprint(sys.implementation.version, sys.implementation._mpy, os.statvfs('/')[:4])")
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


def test_bad_dir_is_a_usage_error(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "host_tools", "virtual-pico", "--dir", str(tmp_path / "missing")],
        capture_output=True, text=True, cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))), timeout=30,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == ["virtual-pico: --dir %s is not a folder" % (tmp_path / "missing")]


def test_an_interpreter_that_cannot_start_stops_the_server_instead_of_spinning():
    import host_tools

    pico = virtual_pico.VirtualPico([host_tools.micropython_command(), "-c", "import sys\nsys.exit(3)"])
    try:
        pico.serve()
    finally:
        pico.close()
    assert pico.failed == "the interpreter exited with status 3 before its REPL started"
