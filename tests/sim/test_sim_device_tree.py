"""The code the default simulator boots: the tree ``flash`` builds, with the Pico's heap
(host_tools/simulator/device_tree.py; whole games on it: test_sim_whole_games.py)."""

import os

from host_tools import sim
from host_tools.flashing import build as flash_build
from host_tools.simulator import device_tree, unix_port
from helpers.sim_helpers import run_probe


def test_default_sim_boots_the_compiled_tree_with_the_picos_heap(tmp_path, monkeypatch, capsys):
    started = {}

    class Recorder:
        def __init__(self, **options):
            started.update(options)
            raise SystemExit(0)  # nothing to run: only how the device would start

    monkeypatch.setattr(sim, "SimDevice", Recorder)
    try:
        sim.main(["--headless", "--flash-dir", str(tmp_path / "flash"), "--no-table"])
    except SystemExit:
        pass
    assert started["code_dir"] == device_tree.FOLDER
    assert started["heap"] == sim.DEVICE_HEAP
    names = set()
    for top, _dirs, files in os.walk(device_tree.FOLDER):
        names |= {os.path.relpath(os.path.join(top, name), device_tree.FOLDER) for name in files}
    assert names == set(device_tree.files())
    assert "save_session.mpy" in names
    assert "boards/sim.mpy" in names
    assert "main.py" in names
    assert [name for name in names if name.endswith(".py")] == ["main.py"]  # as on a flashed Pico
    assert flash_build.CONFIG_PATH.lstrip("/") not in names  # the flash folder keeps its own


def _started(monkeypatch, tmp_path, **options):
    """(argv, MICROPYPATH) the unix port would start with for ``SimDevice(**options)``."""
    started = {}

    def recorder(args, env, **_kwargs):
        started.update(args=args, path=env["MICROPYPATH"])
        raise SystemExit(0)  # nothing to run: only how the device would start

    monkeypatch.setattr(unix_port.subprocess, "Popen", recorder)
    try:
        unix_port.SimDevice(flash_dir=str(tmp_path), **options)
    except SystemExit:
        pass
    return started["args"], started["path"]


def test_a_sim_device_runs_what_a_pico_runs_unless_asked_for_sources(monkeypatch, tmp_path):
    # Tests build SimDevice directly: by default it is the device (the .mpy tree at the
    # Pico's heap), so a MemoryError there is one on the device, and none is the sources'.
    args, path = _started(monkeypatch, tmp_path)
    assert "heapsize=" + sim.DEVICE_HEAP in args
    assert path == device_tree.FOLDER
    assert args[args.index("heapsize=" + sim.DEVICE_HEAP) + 1] == os.path.join(device_tree.FOLDER, "main.py")
    args, path = _started(monkeypatch, tmp_path, code_dir=unix_port.SOURCES)
    assert "heapsize=" + unix_port.SOURCE_HEAP in args
    assert path.split(os.pathsep)[0].endswith("firmware")
    args, _path = _started(monkeypatch, tmp_path, heap="300K")
    assert "heapsize=300K" in args


def test_sync_rewrites_what_changed_and_removes_the_rest(tmp_path):
    folder = str(tmp_path / "code")
    device_tree.sync(folder)
    wanted = device_tree.files()
    changed = os.path.join(folder, "app.mpy")
    with open(changed, "wb") as out:
        out.write(b"stale")
    os.makedirs(os.path.join(folder, "old"))
    with open(os.path.join(folder, "old", "gone.mpy"), "wb") as out:
        out.write(b"left by an older tree")
    device_tree.sync(folder)
    with open(changed, "rb") as back:
        assert back.read() == wanted["app.mpy"]
    assert not os.path.exists(os.path.join(folder, "old", "gone.mpy"))


def test_a_flash_folder_inside_the_tree_is_refused(capsys):
    # The tree is rewritten at every start: saves there would be deleted.
    status = sim.main(["--headless", "--flash-dir", os.path.join(device_tree.FOLDER, "flash")])
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.count("\n") == 1, err
    assert "rewrites at every start" in err, err
    assert not os.path.exists(os.path.join(device_tree.FOLDER, "flash"))


def test_the_sim_heap_leaves_the_firmware_what_the_pico_leaves_it():
    """DEVICE_HEAP is calibrated on the chip's figure: after the firmware's imports the
    Pico had 177,728 bytes free (MicroPython 1.28.0, docs/figures.md); the simulator's
    compiled tree at DEVICE_HEAP leaves as much, within 3 %, on the 64-bit unix port."""
    code = "import gc\nimport rules, game, app, save_session\ngc.collect()\nprint('FREE', gc.mem_free())\n"
    proc = run_probe(code)
    assert proc.returncode == 0, proc.stderr
    free = int(proc.stdout.split("FREE")[1].split()[0])
    assert abs(free - 177728) <= 0.03 * 177728, free
