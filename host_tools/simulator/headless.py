"""What a run of the simulator needs besides the device: a key script played in virtual
time (``run_headless``, for ``sim --headless``, the goldens, the benchmarks and the tests)
and the strategy tables to give the device (``device_tables``)."""

import os

import host_tools
from host_tools.simulator import keys as sim_keys

SETTLE_MS = 400  # after the last key: let animations and redraws finish


def run_headless(device, script, settle_ms=SETTLE_MS):
    """Play ``script``; returns the virtual time at the end. Raises DeviceExited."""
    presses, end = sim_keys.parse(script)
    device.run_until(end + settle_ms, sim_keys.levels(presses))
    return device.now


def device_tables():
    """``{device name: host path}`` of the strategy tables to give the simulated device:
    build/strategy-forced.bin, build/spread-forced.bin (the win meter and the CPU win
    level) and build/strategy-zoo.bin (the menu's kids' card; 55 KB, under a second),
    built once when missing, and any other exact or spread table there."""
    host_tools.use_firmware()
    import rules

    from host_tools.solver import files as solver_files

    build = solver_files.BUILD
    solver_files.ensure_table(rules.make_ruleset(), folder=build, prog="sim")
    solver_files.ensure_spread(rules.make_ruleset(), folder=build, prog="sim")
    solver_files.ensure_table(rules.make_ruleset(rules.ZOO), folder=build, quiet=True, prog="sim")
    tables = {}
    for name in sorted(os.listdir(build)):
        if name.startswith(("strategy-", "spread-")) and name.endswith(".bin") and "compact" not in name:
            tables[name] = os.path.join(build, name)
    return tables
