"""SSD1306 and SH1106 drivers run inside MicroPython; their I2C traffic goes through the
datasheet emulators, which must accept it and show the frame buffer on the glass."""

import binascii

import pytest

from host_tools.emulators import SH1106Emulator, SSD1306Emulator
from helpers.drivers_run import feed_i2c, marked_sections, run_on_micropython

DRAW = """
from drivers.{module} import {cls}
i2c = RecordingI2C(present=({addr},))
print("MARK init")
oled = {cls}(i2c, {addr})
print("MARK draw")
oled.fill(0)
oled.pixel(0, 0, 1)        # top left corner only: mirroring or flipping would move it
oled.pixel(127, 63, 1)
oled.hline(0, 62, 5, 1)
oled.rect(10, 8, 20, 9, 1)  # crosses a page boundary (rows 8..16)
oled.text("Yz", 40, 20, 1)
oled.show()
print("FB " + binascii.hexlify(oled.buffer).decode())
print("MARK controls")
oled.contrast(10)
oled.invert(True)
print("MARK off")
oled.power(False)
print("MARK on")
oled.power(True)
"""


def _framebuffer_pixels(hex_buffer):
    buf = binascii.unhexlify(hex_buffer)
    return [[(buf[(y >> 3) * 128 + x] >> (y & 7)) & 1 for x in range(128)] for y in range(64)]


PANELS = {"ssd1306": ("SSD1306", SSD1306Emulator), "sh1106": ("SH1106", SH1106Emulator)}


@pytest.fixture(scope="module", params=list(PANELS))
def session(request):
    module = request.param
    cls, emulator_class = PANELS[module]
    lines = run_on_micropython("import binascii\n" + DRAW.format(module=module, cls=cls, addr="0x3C"))
    return cls, emulator_class, marked_sections(lines)


def test_init_sequence_is_accepted_and_lights_a_clear_panel(session):
    _cls, emulator_class, sections = session
    emu = emulator_class()
    assert feed_i2c(sections["init"], emu) >= 2
    assert emu.errors == []
    assert emu.display_on
    assert emu.panel_powered()
    assert emu.seg_remap
    assert emu.com_reverse
    assert emu.mux == 63
    # power-on RAM is random in the emulator: the driver must have cleared it
    assert all(p == 0 for row in emu.pixels() for p in row)


def test_drawing_appears_at_the_right_pixels(session):
    _cls, emulator_class, sections = session
    emu = emulator_class()
    feed_i2c(sections["init"] + sections["draw"], emu)
    assert emu.errors == []
    picture = emu.pixels()
    assert picture[0][0] == 1
    assert picture[0][127] == 0
    assert picture[63][0] == 0
    assert picture[63][127] == 1
    assert picture[62][0:6] == [1, 1, 1, 1, 1, 0]
    assert picture[8][10:30] == [1] * 20
    assert picture[16][10:30] == [1] * 20
    assert [picture[y][10] for y in range(7, 18)] == [0] + [1] * 9 + [0]
    assert sum(map(sum, (row[40:56] for row in picture[20:28]))) > 10  # the text
    frame_line = [line for line in sections["draw"] if line.startswith("FB ")][0]
    assert picture == _framebuffer_pixels(frame_line[3:])


def test_contrast_invert_and_power(session):
    _cls, emulator_class, sections = session
    emu = emulator_class()
    feed_i2c(sections["init"] + sections["draw"] + sections["controls"], emu)
    assert emu.contrast == 10
    assert emu.inverted
    lit = emu.pixels()
    assert lit[0][0] == 0
    assert lit[0][1] == 1
    feed_i2c(sections["off"], emu)
    assert not emu.display_on
    assert all(p == 0 for row in emu.pixels() for p in row)
    feed_i2c(sections["on"], emu)
    assert emu.pixels() == lit
    assert emu.errors == []


def test_frame_is_one_data_write_on_ssd1306_and_one_per_page_on_sh1106(session):
    cls, _emulator_class, sections = session
    frame = [line for line in sections["draw"] if line.startswith("I2C ")]
    data_writes = [line for line in frame if line.split()[2].startswith("40")]
    if cls == "SSD1306":
        assert len(frame) == 2
        assert len(data_writes) == 1
        assert len(binascii.unhexlify(data_writes[0].split()[2])) == 1 + 1024
    else:
        assert len(frame) == 16
        assert len(data_writes) == 8  # page addressing: 8 x (command, data)


@pytest.mark.parametrize("session", ["sh1106"], indirect=True)
def test_sh1106_visible_column_0_is_ram_column_2(session):
    _cls, emulator_class, sections = session
    assert SSD1306Emulator.COLUMNS == 128
    assert emulator_class.COLUMNS == 132
    emu = emulator_class()
    untouched = [(page, col, emu.ram[page][col]) for page in range(8) for col in (0, 1, 130, 131)]
    feed_i2c(sections["init"] + sections["draw"], emu)
    assert emu.ram[0][2] & 1 == 1  # pixel (0, 0)
    assert emu.ram[7][129] >> 7 == 1  # pixel (127, 63)
    assert [(page, col, emu.ram[page][col]) for page, col, _ in untouched] == untouched


@pytest.mark.parametrize("cls,addr", [("SSD1306", 0x3C), ("SH1106", 0x3D)])
def test_missing_oled_raises_a_named_oserror(cls, addr):
    lines = run_on_micropython(
        "from drivers.%s import %s\n"
        "try:\n"
        "    %s(RecordingI2C(present=()), 0x%02X)\n"
        "except OSError as exc:\n"
        "    print('ERR', exc)\n" % (cls.lower(), cls, cls, addr)
    )
    assert lines == ["ERR %s OLED not found at I2C 0x%02X (check SDA/SCL wiring)" % (cls, addr)]
