"""The simulator's wire is written once (boards/sim_protocol.py) and every end agrees: the
device's parts and link, run inside the real MicroPython, send what the host's decoder
(host_tools/simulator/wire.py) reads back as the same part state; the web page and its
Node runner take their kinds from site.json, the emulated chip's part messages map onto
the same kinds."""

import os
import re
import subprocess

import host_tools
from host_tools.emulators.ssd1306 import SSD1306Emulator
from host_tools.simulator import chip as sim_chip
from host_tools.simulator import wire
from host_tools.simulator.screen import screen_lines
from host_tools.simulator.wire import P

# Inside MicroPython: the sim board's own PipeLink on stdin/stdout, the shared parts and
# the browser board's OLED on it; the SSD1306 driver on the sim board's I2C.
DEVICE = r"""
from boards import sim, sim_protocol as W
from boards.web import WebOLED
from drivers.ssd1306 import SSD1306
import sys
link = sim.PipeLink(0, 1)
pwm = W.WirePWM(link)
pwm.freq(880)
pwm.duty_u16(32768)
spi = W.WireSPI(link)
cs = W.WireOutPin(link)
cs.value(0)
spi.write(bytes((0x0C, 0x01) * 5))  # every chip: shutdown off
cs.value(1)
panel = SSD1306(sim.SimI2C(link), 0x3C)
panel.fill(0)
from ui import draw  # the firmware's own font, which the screen reader reads
draw.text(panel, "wire", 0, 0)
panel.show()
web = WebOLED(link)
web.fill(0)
web.pixel(3, 9, 1)
web.show()
web.contrast(300)
web.power(False)
pins = [W.WireButtonPin(link, i) for i in range(10)]
got = link.wait(1234)
link.begin(W.WAIT_MSG, W.U32_LEN)
W.put_u32(link, got * 1000 + (pins[5].value() * 10) + pins[4].value())
link.flush()
"""


def _device_bytes(reply):
    env = dict(os.environ, MICROPYPATH=os.pathsep.join((host_tools.FIRMWARE, host_tools.REPO)))
    proc = subprocess.run(
        [host_tools.micropython_command(), "-X", "heapsize=256K", "-c", DEVICE],
        input=reply,
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr.decode() + proc.stdout[-300:].decode("latin-1")
    return proc.stdout


def test_what_the_device_sends_the_host_decodes_and_its_answer_arrives():
    stream = _device_bytes(wire.levels(1 << 5))  # the host holds ROLL at the wait
    at = 0

    def read(n):
        nonlocal at
        at += n
        return stream[at - n : at]

    parts = wire.Parts(SSD1306Emulator())
    web = wire.Parts()
    waits = []
    while at < len(stream):
        kind, _head, payload = wire.read_message(read)
        if kind == P.WAIT_MSG:
            waits.append(wire.u32(payload))
        elif kind in (P.FRAME_MSG, P.CONTRAST_MSG, P.POWER_MSG):
            web.part_message(kind, payload)
        else:
            assert parts.part_message(kind, payload), kind
    assert parts.tone == (880, 32768)
    assert (parts.chain.latches, [chip.shutdown for chip in parts.chain.chips]) == (1, [False] * 5)
    assert parts.frames == 2  # the driver clears the RAM at start, then the show
    assert screen_lines(parts.oled_pixels())[0] == "wire"
    assert wire.frame_pixels(web.frame)[9][3] == 1
    assert (web.frames, web.contrast, web.panel_on) == (2, 255, False)  # shown at start, then; 300 clamped
    assert web.oled_pixels()[9][3] == 0  # the panel is off
    # the first wait's ms, then the device's echo: the levels it got and ROLL read pressed
    assert waits == [1234, (1 << 5) * 1000 + 0 * 10 + 1]


def test_every_kind_is_one_byte_of_its_own_and_the_lengths_fit():
    kinds = list(wire.KINDS.values())
    assert len(set(kinds)) == len(kinds)
    assert all(0 < kind < 256 for kind in kinds)
    assert P.FRAME_BYTES == P.OLED_WIDTH * P.OLED_HEIGHT // 8
    assert P.TONE_LEN == P.U32_LEN + 2
    assert P.EDGE_LEN == P.U32_LEN + P.LEVELS_LEN


def test_the_page_and_the_node_runner_take_the_kinds_from_site_json():
    page = os.path.join(host_tools.REPO, "host_tools", "browser")
    for name in ("page/page.mjs", "node_run.mjs"):
        with open(os.path.join(page, name), encoding="utf-8") as f:
            text = f.read()
        assert "wire.kinds" in text, name
        # no kind written out as a number beside a message's kind
        assert not re.search(r"kind === 0x|head\[0\] = 0x", text), name
    with open(os.path.join(page, "site.py"), encoding="utf-8") as f:
        assert '"wire": {"header": wire.P.HEADER, "kinds": wire.KINDS}' in f.read()


def test_the_chips_part_messages_are_the_wires_kinds():
    assert set(sim_chip._PART_KINDS.values()) == {P.I2C_MSG, P.SPI_MSG, P.CS_MSG, P.STRIP_MSG, P.TONE_MSG}
    with open(sim_chip.NODE_SCRIPT, encoding="utf-8") as f:
        sent = set(re.findall(r"send\('([a-z])'", f.read()))
    assert {letter.decode() for letter in sim_chip._PART_KINDS} <= sent  # chip.js sends each
