"""Command dispatcher: ``python -m host_tools <command> [args]``.

Each command is the module ``host_tools/<command>.py`` (dashes become underscores) with
a ``main(argv)`` function returning the exit status.
"""

import importlib
import sys

COMMANDS = {
    "score": "settle a scoring dispute with the firmware's rules module",
    "bench": "print speed and memory figures (make bench)",
    "sim": "run the unmodified firmware in MicroPython with a terminal front-end",
    "flash": "compile, copy and verify the firmware on a Pico (make flash)",
    "chip": "run the real MicroPython firmware on an emulated RP2040 (make chip)",
    "virtual-pico": "serve a MicroPython unix process on a pseudo-terminal, like a board",
    "pull": "copy saves, records and statistics from the device and print them",
    "solve": "build the optimal-strategy value table (make table)",
    "advise": "the optimal move for a position, from the firmware's advisor",
    "challenge": "the perfect game on a challenge code's dice, turn by turn",
    "uf2": "one .uf2 file with MicroPython, the game and its table (make uf2)",
    "push": "put a pulled copy of the records and saved game back on the device",
    "web": "build the handheld as a static web site, optionally serve it (make web)",
}


def usage():
    lines = ["usage: python -m host_tools <command> [args]", "", "commands:"]
    for name, text in COMMANDS.items():
        lines.append("  %-13s %s" % (name, text))
    return "\n".join(lines)


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(usage())
        return 0 if argv else 2
    name = argv[0]
    if name not in COMMANDS:
        print("host_tools: unknown command %r (commands: %s)" % (name, ", ".join(COMMANDS)), file=sys.stderr)
        return 2
    module = importlib.import_module("host_tools." + name.replace("-", "_"))
    try:
        return module.main(argv[1:])
    except BrokenPipeError:  # output piped into `head` and the like: not an error
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
