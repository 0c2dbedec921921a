"""SSD1306 and SH1106 emulators against hand-made byte streams (datasheet behaviour)."""

import pytest

from host_tools.emulators import I2CBus, SH1106Emulator, SSD1306Emulator

# Enough to light an SSD1306 module upright: charge pump on, remaps, display on.
SSD1306_ON = bytes((0x00, 0x8D, 0x14, 0xA1, 0xC8, 0xAF))


def _lit(emu):
    return {(x, y) for y, row in enumerate(emu.pixels()) for x, p in enumerate(row) if p}


def _clear(emu, columns):
    for page in range(8):
        emu.ram[page][:] = bytes(columns)


def test_ssd1306_powers_up_dark_with_random_ram():
    emu = SSD1306Emulator()
    assert not emu.display_on
    assert _lit(emu) == set()
    assert sum(map(sum, emu.ram)) > 0  # garbage a driver must clear
    emu.i2c_write(0x3C, SSD1306_ON)
    assert len(_lit(emu)) > 1000
    assert emu.errors == []


def test_ssd1306_needs_the_charge_pump():
    emu = SSD1306Emulator()
    emu.i2c_write(0x3C, bytes((0x00, 0xA5, 0xAF)))  # entire display on, display on
    assert _lit(emu) == set()
    emu.i2c_write(0x3C, bytes((0x00, 0x8D, 0x14)))
    assert len(_lit(emu)) == 128 * 64


def test_control_byte_co_1_sequences_and_commands_split_across_transfers():
    emu = SSD1306Emulator()
    # micropython-lib style: one command byte per transfer, Co=1 then Co=0 data
    for byte in (0x8D, 0x14, 0xAF, 0x81):
        emu.i2c_write(0x3C, bytes((0x80, byte)))
    emu.i2c_write(0x3C, bytes((0x80, 0x42)))  # contrast's argument in the next transfer
    emu.i2c_write(0x3C, bytes((0x80, 0xA7, 0xC0, 0xFF)))  # Co=1 command, Co=1 data byte
    assert emu.contrast == 0x42
    assert emu.inverted
    assert emu.charge_pump
    assert emu.display_on
    assert emu.ram[0][0] == 0xFF
    assert emu.errors == []


def test_wrong_address_unknown_command_and_bad_control_byte_are_errors():
    emu = SSD1306Emulator()
    assert emu.i2c_write(0x3D, b"\x00\xaf") is False
    assert not emu.display_on
    emu.i2c_write(0x3C, bytes((0x00, 0xFC, 0xAF)))
    emu.i2c_write(0x3C, bytes((0x01, 0xAF)))
    emu.i2c_write(0x3C, bytes((0x80,)))
    assert emu.display_on
    assert len(emu.errors) == 4
    assert "0x3D" in emu.errors[0]
    assert "unknown command 0xFC" in emu.errors[1]
    assert "reserved bits" in emu.errors[2]
    assert "Co=1" in emu.errors[3]


def test_data_while_a_command_waits_for_arguments_is_an_error():
    emu = SSD1306Emulator()
    emu.i2c_write(0x3C, b"\x00\x81")
    emu.i2c_write(0x3C, b"\x40\x01")
    assert "waits for 1 argument" in emu.errors[0]
    assert emu.ram[0][0] == 0x01


def test_page_addressing_wraps_within_the_page():
    emu = SSD1306Emulator()
    emu.i2c_write(0x3C, bytes((0x00, 0xB3, 0x0E, 0x17)))  # page 3, column 0x7E
    emu.i2c_write(0x3C, b"\x40\x11\x22\x33")
    assert (emu.ram[3][126], emu.ram[3][127], emu.ram[3][0]) == (0x11, 0x22, 0x33)
    assert emu.page == 3
    assert emu.errors == []


def test_horizontal_addressing_with_windows():
    emu = SSD1306Emulator()
    _clear(emu, 128)
    emu.i2c_write(0x3C, bytes((0x00, 0x20, 0x00, 0x21, 10, 12, 0x22, 2, 3)))
    emu.i2c_write(0x3C, bytes([0x40] + list(range(1, 8))))
    # a 3x2 window takes 6 bytes; the 7th wraps to the window's first column and page
    assert list(emu.ram[2][10:13]) == [7, 2, 3]
    assert list(emu.ram[3][10:13]) == [4, 5, 6]
    assert emu.page == 2
    assert emu.column == 11
    assert (emu.ram[2][9], emu.ram[2][13], emu.ram[4][10]) == (0, 0, 0)  # nothing outside
    assert emu.errors == []


def test_vertical_addressing():
    emu = SSD1306Emulator()
    emu.i2c_write(0x3C, bytes((0x00, 0x20, 0x01, 0x21, 0, 127, 0x22, 6, 7)))
    emu.i2c_write(0x3C, b"\x40\x01\x02\x03\x04")
    assert (emu.ram[6][0], emu.ram[7][0], emu.ram[6][1], emu.ram[7][1]) == (1, 2, 3, 4)


def test_addressing_commands_in_the_wrong_mode_are_errors():
    emu = SSD1306Emulator()
    emu.i2c_write(0x3C, b"\x00\x21\x00\x7f")  # page mode (reset): window commands not allowed
    emu.i2c_write(0x3C, b"\x00\x20\x00\xb2\x05")  # horizontal: page-mode commands not allowed
    emu.i2c_write(0x3C, b"\x00\x20\x03\x21\x09\x02")  # invalid mode; reversed window
    assert len(emu.errors) == 5, emu.errors
    assert emu.page == 0
    assert emu.column == 0


def test_segment_remap_and_com_scan_orient_the_picture():
    emu = SSD1306Emulator()
    _clear(emu, 128)
    emu.ram[0][0] = 0x01  # RAM column 0, row 0
    emu.i2c_write(0x3C, b"\x00\x8d\x14\xaf")  # no remap: the glass shows it rotated
    assert _lit(emu) == {(127, 63)}
    emu.i2c_write(0x3C, b"\x00\xa1")
    assert _lit(emu) == {(0, 63)}
    emu.i2c_write(0x3C, b"\x00\xc8")
    assert _lit(emu) == {(0, 0)}


def test_start_line_offset_mux_invert_entire_on_display_off():
    emu = SSD1306Emulator()
    _clear(emu, 128)
    emu.ram[0][5] = 0x02  # row 1
    emu.i2c_write(0x3C, SSD1306_ON)
    assert _lit(emu) == {(5, 1)}
    emu.i2c_write(0x3C, b"\x00\x41")  # start line 1: row 1 shown on the top line
    assert _lit(emu) == {(5, 0)}
    emu.i2c_write(0x3C, b"\x00\x40\xd3\x01")  # display offset 1 does the same
    assert _lit(emu) == {(5, 0)}
    emu.i2c_write(0x3C, b"\x00\xd3\x00\xa8\x1f")  # multiplex 32: only COM0..31 driven
    assert _lit(emu) == {(5, 33)}  # with COM scan reversed, row 1 is on COM30
    emu.i2c_write(0x3C, b"\x00\xa7")
    assert len(_lit(emu)) == 32 * 128 - 1
    emu.i2c_write(0x3C, b"\x00\xa8\x3f\xa6\xa5")
    assert len(_lit(emu)) == 128 * 64
    emu.i2c_write(0x3C, b"\x00\xa4\xae")
    assert _lit(emu) == set()
    assert emu.errors == []


def test_com_pins_and_scrolling_are_checked():
    emu = SSD1306Emulator()
    emu.i2c_write(0x3C, b"\x00\xda\x02\x2e")
    emu.i2c_write(0x3C, bytes((0x00, 0x26, 0x00, 0x00, 0x00, 0x07, 0x00, 0xFF, 0x2F)))
    assert len(emu.errors) == 3
    assert "0x12" in emu.errors[0]
    assert "0x26" in emu.errors[1]


def test_text_rendering():
    emu = SSD1306Emulator()
    _clear(emu, 128)
    emu.ram[0][0] = 0x03
    emu.i2c_write(0x3C, SSD1306_ON)
    lines = emu.text().split("\n")
    assert len(lines) == 64
    assert lines[0] == "#" + "." * 127
    assert lines[1] == lines[0]
    compact = emu.text(compact=True).split("\n")
    assert len(compact) == 32
    assert compact[0] == "\u2588" + " " * 127


def test_sh1106_page_addressing_column_nibbles_and_offset():
    emu = SH1106Emulator()
    _clear(emu, 132)
    emu.i2c_write(0x3C, bytes((0x00, 0xA1, 0xC8, 0xAF, 0xB1, 0x02, 0x10)))
    emu.i2c_write(0x3C, b"\x40\x01")
    assert emu.ram[1][2] == 0x01
    assert emu.column == 3
    assert emu.page == 1
    assert _lit(emu) == {(0, 8)}  # RAM column 2 is the first visible column
    emu.ram[1][2] = 0
    emu.ram[0][1] = emu.ram[0][130] = 0xFF  # outside the glass
    assert _lit(emu) == set()
    emu.i2c_write(0x3C, b"\x00\xa0")  # no remap: mirrored, still columns 2..129
    emu.ram[0][2] = 0x01
    assert _lit(emu) == {(127, 0)}
    assert emu.errors == []


def test_sh1106_rejects_ssd1306_commands_and_ram_overflow():
    emu = SH1106Emulator()
    emu.i2c_write(0x3C, b"\x00\x20\x00\x8d\x14")
    # 0x00 and 0x14 are column nibbles on the SH1106; 0x20 and 0x8D do not exist
    assert emu.errors == ["unknown command 0x20", "unknown command 0x8D"]
    emu.errors.clear()
    emu.i2c_write(0x3C, bytes((0x00, 0x03, 0x18)))  # column 0x83 = 131
    emu.i2c_write(0x3C, b"\x40\xaa\xbb\xcc")
    assert emu.ram[0][131] == 0xAA
    assert len(emu.errors) == 1
    assert "past column 131" in emu.errors[0]


def test_sh1106_dc_dc_and_read_modify_write():
    emu = SH1106Emulator()
    _clear(emu, 132)
    emu.i2c_write(0x3C, b"\x00\xa5\xaf")
    assert len(_lit(emu)) == 128 * 64  # DC-DC is on after reset on the SH1106
    emu.i2c_write(0x3C, b"\x00\xad\x8a")
    assert _lit(emu) == set()
    emu.i2c_write(0x3C, b"\x00\x05\x10\xe0")
    emu.i2c_write(0x3C, b"\x40\x01\x02")
    emu.i2c_write(0x3C, b"\x00\xee")
    assert emu.column == 5
    assert emu.ram[0][5:7] == b"\x01\x02"
    assert emu.errors == []


def test_i2c_bus_raises_enodev_for_a_missing_device_and_joins_vectors():
    emu = SSD1306Emulator(addr=0x3D)
    bus = I2CBus(emu)
    assert bus.scan() == [0x3D]
    with pytest.raises(OSError) as info:
        bus.writeto(0x3C, b"\x00\xaf")
    assert info.value.errno == 19
    bus.writevto(0x3D, (b"\x00", bytearray(b"\x8d\x14"), memoryview(b"\xaf")))
    assert emu.display_on
    assert emu.charge_pump
    assert emu.transfers == 1
