"""The second simulator back-end: the official MicroPython on an emulated RP2040.

``ChipDevice`` offers the front-end (keys, term, screen, png, golden) what unix_port's
``SimDevice`` does - ``run_until(ms, buttons_at)``, ``buttons``, ``now``, ``oled_pixels()``,
``dice_pixels()``, ``dice_kind``, ``tone``, ``frames``, ``console``, ``close()`` - but the
firmware is the flashed game on the rp2 port inside rp2040js (host_tools/rp2040/chip.js,
a Node process that runs only the chip, its flash and its USB). The parts on the pins of
boards/rp2_reference.py are decoded here by the same datasheet emulators: I2C1 writes to
0x3C -> SSD1306/SH1106, SPI0 + CS on GP17 -> MAX7219 chain, GP22 -> WS2812, PWM on GP16
-> ``tone``; buttons pull GP2..GP11 to GND; the battery sets ADC3 (VSYS/3 on GP29).

Time: ``now`` is emulated milliseconds since ``origin``, the moment the firmware first
drew on the OLED (``boot()``), so a key script means the same on both back-ends. While
the CPU sleeps the emulated clock jumps to the next alarm. The USB serial port is served
on a pseudo-terminal (``open_pty()``) for mpremote, ``make flash`` and ``pull --port``.
"""

import os
import shutil
import struct
import subprocess
import threading

import host_tools
from host_tools.emulators.sh1106 import SH1106Emulator
from host_tools.emulators.ssd1306 import SSD1306Emulator
from host_tools.simulator import chip_image, wire
from host_tools.simulator.backend import DeviceExited
from host_tools.simulator.wire import P

NODE_SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "rp2040", "chip.js")
NODE_MODULES = os.path.join(host_tools.REPO, "build", "rp2040", "node_modules")
INSTALL_HINT = "make chip-deps (npm ci of host_tools/rp2040/package-lock.json into build/rp2040; needs Node 18+)"
FIRST_BUTTON_GPIO = 2  # boards/rp2_reference.py: buttons GP2..GP11 in button-id order
POLL_MS = 5  # button levels are sampled this often when the caller gives no edges
BOOT_LIMIT_MS = 20000  # emulated: the firmware draws within this or the boot failed
IDLE_SHARE = 0.3  # boot() is over when the CPU runs less than this share of a 50 ms step
USB_VSYS_MV = 4900  # VSYS on USB power (5 V through the Pico's Schottky diode)
ADC_MAX = 4095  # ADC3 reads 12 bits
ADC_VREF_MV = 3300  # against the 3.3 V reference
VSYS_DIVIDER = 3  # GP29 sees VSYS / 3
# chip.js's messages for the parts (host_tools/rp2040/chip.js) carry the sim board's
# payloads: the simulator's wire (boards/sim_protocol.py) decodes them.
_PART_KINDS = {b"i": P.I2C_MSG, b"s": P.SPI_MSG, b"c": P.CS_MSG, b"n": P.STRIP_MSG, b"t": P.TONE_MSG}


class ChipError(Exception):
    """The chip cannot start (Node, rp2040js, bootrom or firmware missing); one line."""


def node_command():
    node = shutil.which("node")
    if node is None:
        raise ChipError("node not found: install Node.js 18 or newer, then " + INSTALL_HINT)
    try:
        out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout
        major = int(out.strip().lstrip("v").split(".")[0])
    except (OSError, ValueError, subprocess.TimeoutExpired):
        major = 0
    if major < 18:
        raise ChipError("node %s is too old: the emulated Pico needs Node.js 18 or newer" % (out.strip() or "?"))
    if not os.path.isfile(os.path.join(NODE_MODULES, "rp2040js", "package.json")):
        raise ChipError("rp2040js is not installed in build/rp2040: run " + INSTALL_HINT)
    return node


def install_node_modules():
    """``npm ci`` of the pinned rp2040js into build/rp2040 (what ``make chip-deps`` does)."""
    npm = shutil.which("npm")
    if npm is None:
        raise ChipError("npm not found: install Node.js 18 or newer, then " + INSTALL_HINT)
    folder = os.path.dirname(NODE_MODULES)
    # npm ci empties node_modules first: a second install at once would break the first
    with host_tools.build_lock(folder):
        if os.path.isfile(os.path.join(NODE_MODULES, "rp2040js", "package.json")):
            return  # another process installed it while this one waited
        os.makedirs(folder, exist_ok=True)
        here = os.path.dirname(NODE_SCRIPT)
        for name in ("package.json", "package-lock.json"):
            shutil.copyfile(os.path.join(here, name), os.path.join(folder, name))
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--silent"], cwd=folder, check=True)


def battery_adc(mv):
    """The 12-bit ADC3 reading for VSYS = ``mv`` (VSYS/3 against the 3.3 V reference)."""
    return max(0, min(ADC_MAX, round(mv / VSYS_DIVIDER * ADC_MAX / ADC_VREF_MV)))


class ChipDevice(wire.Parts):
    """An emulated Pico booting ``flash_image`` (prepared by chip_image.prepare_image)."""

    def __init__(
        self, flash_image, bootrom=None, oled="ssd1306", oled_present=True, battery_mv=USB_VSYS_MV, realtime=False
    ):
        self.node = node_command()
        self.bootrom = chip_image.check_bootrom(bootrom or chip_image.find_file(chip_image.BOOTROM_NAME))
        self.flash_image = flash_image
        wire.Parts.__init__(self, SH1106Emulator() if oled == "sh1106" else SSD1306Emulator(), None)
        self.tones = []  # (emulated ms, freq, duty) of every change: the buzzer observed
        self.resets = 0
        self._buttons = 0
        self.origin = 0.0  # emulated ms of the first OLED frame (see boot())
        self.clock_ms = 0.0  # emulated ms since power-on
        self.busy_ms = 0.0  # of which the CPU ran (not asleep waiting for an interrupt)
        self.flash_ops = 0  # flash sector erases + page programs so far (saves in progress)
        self.journal = []  # (emulated ms, b"E"/b"P", offset, length, bytes) while journal_flash is on
        self.serial = bytearray()  # everything the device wrote on its USB serial port
        self.logs = []
        self.alive = True
        self._pty = None
        self._lock = threading.Lock()
        self._reached = threading.Condition()
        self._reached_at = None
        self._neopixel_seen = False
        self.port_open = threading.Event()  # set once the device's USB serial port is up
        args = [self.node, NODE_SCRIPT, self.bootrom, flash_image]
        if realtime:
            args.append("--realtime")
        if not oled_present:
            args.append("--no-oled")
        env = dict(os.environ)
        env["NODE_PATH"] = NODE_MODULES
        self.proc = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        if battery_mv is not None:
            self.set_battery(battery_mv)

    # ------------------------------------------------------------------ the wire
    def _send(self, kind, payload=b""):
        with self._lock:
            try:
                self.proc.stdin.write(kind + struct.pack("<I", len(payload)) + payload)
                self.proc.stdin.flush()
            except (BrokenPipeError, ValueError, OSError):
                self.alive = False
                raise DeviceExited() from None

    def _read(self):
        stream = self.proc.stdout
        while True:
            head = stream.read(5)
            if len(head) < 5:
                break
            kind = head[:1]
            (length,) = struct.unpack("<I", head[1:])
            payload = stream.read(length)
            self._handle(kind, payload)
        self.alive = False
        with self._reached:
            self._reached.notify_all()
        self.port_open.set()  # wake any waiter; ``alive`` tells it the chip is gone

    def _read_stderr(self):
        for line in self.proc.stderr:
            text = line.decode("utf-8", "replace").rstrip()
            if not text.startswith("Read from invalid SIO address"):  # rp2040js, at each boot
                self.logs.append(text)

    def _handle(self, kind, payload):
        if kind == b"u":
            self.serial += payload
            if self._pty is not None:
                try:
                    os.write(self._pty, payload)
                except OSError:
                    pass  # nobody reading the port: a real CDC port drops it too
        elif kind in _PART_KINDS:  # the parts' bytes, as the sim board's wire carries them
            self.part_message(_PART_KINDS[kind], payload)
            if kind == b"n":
                self._neopixel_seen = True
            elif kind == b"t":
                self.tones.append((self.clock_ms,) + self.tone)
        elif kind == b"r":
            with self._reached:
                self._times(payload)
                self._reached_at = self.clock_ms
                self._reached.notify_all()
        elif kind == b"k":
            self._times(payload)
        elif kind == b"o":
            self.port_open.set()
        elif kind == b"x":
            self.resets += 1
            self.port_open.clear()
        elif kind == b"w":
            at_us, op, offset, length = struct.unpack("<dcII", payload[:17])
            self.journal.append((at_us / 1000, op, offset, length, bytes(payload[17:])))
        elif kind == b"l":
            self.logs.append(payload.decode("utf-8", "replace"))

    def _times(self, payload):
        now_us, busy_us, ops = struct.unpack("<ddd", payload)
        self.clock_ms = now_us / 1000
        self.busy_ms = busy_us / 1000
        self.flash_ops = int(ops)

    # ------------------------------------------------------------------ time and buttons
    @property
    def now(self):
        return self.clock_ms - self.origin

    @property
    def buttons(self):
        return self._buttons

    @buttons.setter
    def buttons(self, mask):
        if mask != self._buttons:
            self._buttons = mask
            self._send(b"B", struct.pack("<I", mask << FIRST_BUTTON_GPIO))

    def set_battery(self, mv):
        self._send(b"A", struct.pack("<H", battery_adc(mv)))

    def run_to_clock(self, clock_ms):
        """Run until ``clock_ms`` emulated ms after power-on."""
        if clock_ms <= self.clock_ms:
            return
        with self._reached:
            self._reached_at = None
        self._send(b"R", struct.pack("<d", clock_ms * 1000))
        with self._reached:
            while self._reached_at is None:
                if not self.alive:
                    raise DeviceExited()
                self._reached.wait(1)

    def run_until(self, until_ms, buttons_at=None):
        """Advance to ``until_ms`` (ms since ``origin``); ``buttons_at(ms)`` gives the levels,
        sampled at its ``edges`` when it has them (keys.levels), else every POLL_MS."""
        edges = getattr(buttons_at, "edges", None)
        # Times stay on the caller's scale (``at``): the clock reaches each target exactly
        # or a hair later, so a press starts at its edge, not one step late.
        at = self.now
        while at < until_ms:
            if buttons_at is not None:
                self.buttons = buttons_at(at)
            if buttons_at is None:
                at = until_ms
            elif edges is not None:
                at = min([t for t in edges if t > at] + [until_ms])
            else:
                at = min(until_ms, at + POLL_MS)
            self.run_to_clock(at + self.origin)

    def boot(self, limit_ms=BOOT_LIMIT_MS):
        """Run from power-on until the firmware shows something and then mostly sleeps
        between button polls: its imports and start-up files are done (the unix port's
        virtual clock stands still while it loads; this makes key times comparable).
        That moment becomes ``origin``; returns it."""
        step = 50
        while self.clock_ms < limit_ms:
            busy = self.busy_ms
            self.run_to_clock(self.clock_ms + step)
            # something lit: the board's first frame only blanks the OLED, and the
            # firmware's imports still follow it (keys from there were lost)
            shown = (
                (self.frames and any(any(row) for row in self.oled_pixels()))
                or self.chain_shown()
                or self._neopixel_seen
            )
            if shown and self.busy_ms - busy < step * IDLE_SHARE:
                break
        self.origin = self.clock_ms
        return self.origin

    def chain_shown(self):
        return any(any(row) for chip in self.chain.chips for row in chip.rows())

    def journal_flash(self, on=True):
        """Record every flash erase and page program from now on in ``journal`` (with its
        emulated time), so chip_image.cut_at can rebuild the flash a power cut at any
        later moment would leave, without stopping the chip there."""
        self._send(b"J", bytes([1 if on else 0]))

    def run_free(self):
        """Let the chip run on its own (paced by the wall clock with ``realtime``)."""
        self._send(b"G")

    # ------------------------------------------------------------------ USB serial
    def open_pty(self):
        """Serve the USB serial port on a new pseudo-terminal; returns its path."""
        import tty

        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._pty = master
        self._pty_slave = slave  # kept open: the port stays while clients come and go
        threading.Thread(target=self._pump_pty, daemon=True).start()
        return os.ttyname(slave)

    def _pump_pty(self):
        import select

        while self.alive and self._pty is not None:
            try:
                ready, _, _ = select.select([self._pty], [], [], 0.5)
                if not ready:
                    continue
                data = os.read(self._pty, 4096)
            except BlockingIOError:
                continue
            except (OSError, ValueError, TypeError):  # the port was closed meanwhile
                break
            if data:
                try:
                    self.write_serial(data)
                except DeviceExited:
                    break

    def wait_port(self, timeout=300):
        """Wait (wall seconds) until the USB serial port is up, as a host waits for a Pico's
        port to appear; the chip must be running (``run_free``)."""
        if not self.port_open.wait(timeout) or not self.alive:
            raise ChipError("the emulated Pico's USB serial port did not come up")

    def write_serial(self, data):
        self._send(b"U", bytes(data))

    @property
    def console(self):
        return self.serial.decode("utf-8", "replace").replace("\r\n", "\n").split("\n")

    # ------------------------------------------------------------------ stopping
    def close(self):
        """Stop, with every flash write in the image file."""
        self._stop(b"Q")

    def power_cut(self):
        """Stop as if unplugged now (the image holds what was written so far)."""
        self._stop(b"X")

    def _stop(self, kind):
        if self.alive:
            try:
                self._send(kind)
            except DeviceExited:
                pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._reader.join(timeout=5)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass
        if self._pty is not None:
            fd, self._pty = self._pty, None
            os.close(fd)
            os.close(self._pty_slave)
        self.alive = False

    # ------------------------------------------------------------------ what is shown
    @property
    def dice_kind(self):
        return "neopixel" if self._neopixel_seen else "max7219"
