"""``make chip`` / ``python -m host_tools chip``: the real firmware on an emulated Pico.

Runs the official MicroPython UF2 for the Raspberry Pi Pico on an emulated RP2040
(rp2040js, installed into build/rp2040 by ``make chip-deps``) with the RP2040 bootrom, over
a persistent 2 MiB flash image: ``--firmware UF2`` is loaded into it as dropping the file on
the RPI-RP2 drive does, so the filesystem (the flashed game, saves, records) survives
restarts; ``--fresh`` starts from an erased flash. The USB serial port is served on a
pseudo-terminal whose path is the first line printed: ``make flash PORT=<path>``,
``make repl PORT=<path>``, mpremote and ``pull --port <path>`` work against it unchanged.

The OLED (I2C1, 0x3C), MAX7219 dice (SPI0, CS GP17) or WS2812 pixels (GP22), buzzer
(PWM GP16) and buttons (GP2-GP11 to GND) of boards/rp2_reference.py are shown by the same
terminal front-end as ``make sim`` (same keys). Headless: ``--headless --keys "enter
space" --screenshot out.png --print-screen`` as with ``sim`` (key times count from the
first OLED frame). Without a terminal it only serves the port until interrupted.

The firmware and bootrom are looked up in build/rp2/ (RPI_PICO-v1.28.0.uf2,
rp2040-bootrom-b1.bin; docs/development.md "The emulated Pico"), or given with
--firmware and --bootrom.
"""

import os
import sys
import time

import host_tools
from host_tools.simulator import chip_image
from host_tools.simulator import keys as sim_keys
from host_tools.simulator.backend import DeviceExited

SETTLE_MS = 400


def parse_args(argv):
    p = host_tools.argument_parser("chip", __doc__.splitlines()[0])
    p.add_argument("--firmware", metavar="UF2", help="MicroPython UF2 for the Pico (RPI_PICO) to load into the flash")
    p.add_argument(
        "--flash-image",
        default=chip_image.DEFAULT_IMAGE,
        metavar="FILE",
        help="the Pico's 2 MiB flash, kept between runs (default %(default)s)",
    )
    p.add_argument("--fresh", action="store_true", help="start from an erased flash (loses the flashed game)")
    p.add_argument(
        "--bootrom", metavar="FILE", help="RP2040 B1 bootrom (default: build/rp2/%s)" % chip_image.BOOTROM_NAME
    )
    p.add_argument(
        "--oled",
        choices=("ssd1306", "sh1106"),
        default="ssd1306",
        help="the panel to decode (flash BOARD=pico_sh1106 for the SH1106)",
    )
    p.add_argument("--no-oled", action="store_true", help="no OLED on the I2C bus (the firmware reports it)")
    p.add_argument(
        "--battery",
        type=int,
        metavar="MV",
        default=4900,
        help="VSYS in millivolts (ADC3 reads a third of it; default %(default)s, USB power)",
    )
    p.add_argument("--headless", action="store_true")
    p.add_argument("--keys", default="", help="headless key script (as sim)")
    p.add_argument("--screenshot", help="headless: write a PNG of the device here")
    p.add_argument("--print-screen", action="store_true", help="headless: print dice and OLED as text")
    p.add_argument(
        "--regen-images",
        action="store_true",
        help="rewrite the README's pictures (docs/img/) on a fresh emulated Pico and exit",
    )
    args = p.parse_args(argv)
    if args.battery is not None and not 0 <= args.battery <= 12000:
        raise host_tools.UsageError("--battery %d: give VSYS in millivolts, 0..12000" % args.battery)
    for option, value in (
        ("--firmware", args.firmware),
        ("--flash-image", args.flash_image),
        ("--bootrom", args.bootrom),
    ):
        if value == "":
            raise host_tools.UsageError("%s is empty: name a file" % option)
        if value is not None and not host_tools.is_utf8(value):
            raise host_tools.UsageError("%s %s: the name is not UTF-8" % (option, value))
        if value is not None and os.path.isdir(value):
            raise host_tools.UsageError("%s %s is a folder: name a file" % (option, value))
    if not args.headless:
        for option, value in (
            ("--keys", args.keys),
            ("--screenshot", args.screenshot),
            ("--print-screen", args.print_screen),
        ):
            if value:
                raise host_tools.UsageError("%s goes with --headless" % option)
    # The flash image is written (the firmware loaded, then the chip's own writes).
    host_tools.check_output_file("--flash-image", args.flash_image, make_folders=True)
    if args.screenshot is not None:
        host_tools.check_output_file("--screenshot", args.screenshot)
    # The UF2 and bootrom are read, the flash image and picture written: no two the same.
    host_tools.check_distinct_outputs(
        ("--firmware", args.firmware),
        ("--bootrom", args.bootrom),
        ("--flash-image", args.flash_image),
        ("--screenshot", args.screenshot),
    )
    return args


def start(args):
    """Prepare the flash image and start the chip; returns the ChipDevice."""
    from host_tools.simulator import chip as sim_chip

    firmware = args.firmware
    if firmware is None and (args.fresh or not os.path.exists(args.flash_image)):
        firmware = chip_image.find_file(chip_image.FIRMWARE_NAME)
        if firmware is None:
            raise chip_image.ChipFileError(
                "no firmware: put %s in build/rp2/ (from %s) or pass --firmware UF2"
                % (chip_image.FIRMWARE_NAME, chip_image.FIRMWARE_URL)
            )
    # Every check before the flash image is written: a bad input changes nothing.
    if firmware:
        chip_image.read_uf2(firmware)
    chip_image.check_image(args.flash_image, args.fresh)
    chip_image.check_bootrom(args.bootrom or chip_image.find_file(chip_image.BOOTROM_NAME))
    sim_chip.node_command()
    chip_image.prepare_image(args.flash_image, firmware=firmware, fresh=args.fresh)
    # Paced by the wall clock unless headless, so an idle game does not race ahead.
    return sim_chip.ChipDevice(
        args.flash_image,
        bootrom=args.bootrom,
        oled=args.oled,
        oled_present=not args.no_oled,
        battery_mv=args.battery,
        realtime=not args.headless,
    )


def main(argv):
    from host_tools.simulator.chip import ChipError

    try:
        args = parse_args(argv)
        if args.regen_images:
            return regen_images(args)
        if args.headless:
            sim_keys.parse(args.keys)
        device = start(args)
    except (host_tools.UsageError, sim_keys.KeyScriptError, chip_image.ChipFileError) as exc:
        print("chip: %s" % exc, file=sys.stderr)
        return 2
    except ChipError as exc:  # Node or rp2040js missing: the machine, not the input
        print("chip: %s" % exc, file=sys.stderr)
        return 1
    port = device.open_pty()
    if args.headless or sys.stdin.isatty():
        print(port, flush=True)
        if args.headless:
            return run_headless(device, args)
        from host_tools.simulator import term as sim_term

        return sim_term.play(device, "port " + port)  # the screen is cleared: the port stays in view
    return serve(device, port)


def regen_images(args):
    """docs/img/ from this back-end: the game installed from its one-file UF2 (tables as the
    pictures need them), each scene played headless (simulator/golden.py)."""
    from host_tools.simulator import chip as sim_chip
    from host_tools.simulator import golden as sim_golden

    firmware = args.firmware or chip_image.find_file(chip_image.FIRMWARE_NAME)
    if firmware is None:
        raise chip_image.ChipFileError(
            "no firmware: put %s in build/rp2/ (from %s) or pass --firmware UF2"
            % (chip_image.FIRMWARE_NAME, chip_image.FIRMWARE_URL)
        )
    chip_image.read_uf2(firmware)
    chip_image.check_bootrom(args.bootrom or chip_image.find_file(chip_image.BOOTROM_NAME))
    sim_chip.node_command()
    try:
        sim_golden.regen_images_chip(firmware, bootrom=args.bootrom)
    except RuntimeError as exc:  # a step on the chip failed (uf2, the seed's boot)
        print("chip: %s" % exc, file=sys.stderr)
        return 1
    return 0


def run_headless(device, args):
    status = 0
    try:
        device.boot()
        presses, end = sim_keys.parse(args.keys)
        device.run_until(end + SETTLE_MS, sim_keys.levels(presses))
    except DeviceExited:
        status = 1
        print("chip: the emulator stopped:\n" + "\n".join(device.logs[-10:]), file=sys.stderr)
    finally:
        device.close()
    if args.print_screen:
        from host_tools.simulator.screen import device_text

        print(device_text(device))
    if args.screenshot:
        from host_tools.simulator.png import write_png

        write_png(args.screenshot, device)
    return status


def serve(device, port):
    """No terminal: run the chip paced by the wall clock and serve its port until ^C. The
    path is printed once the port is up, as a Pico's port appears once enumerated."""
    try:
        device.run_free()
        device.wait_port()
        print(port, flush=True)
        while device.alive:
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        device.close()
    return 0
