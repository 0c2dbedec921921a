"""MAX7219 chain and WS2812 emulators against hand-made bit streams (datasheet behaviour)."""

from host_tools.emulators import CSPin, MAX7219ChainEmulator, NeoPixelStrip, SPIBus, WS2812Emulator


def _cycle(chain, *words):
    """One CS cycle sending 16-bit ``words`` (first goes to the farthest chip)."""
    chain.cs(0)
    chain.spi_write(b"".join(w.to_bytes(2, "big") for w in words))
    chain.cs(1)


def _ready(count):
    chain = MAX7219ChainEmulator(count)
    for word in (0x0C01, 0x0B07, 0x0900):
        _cycle(chain, *[word] * count)
    for row in range(1, 9):
        _cycle(chain, *[row << 8] * count)
    return chain


def test_power_up_state_is_shutdown_with_unknown_rows():
    chain = MAX7219ChainEmulator(2)
    chip = chain.chips[0]
    assert chip.shutdown
    assert chip.scan_limit == 0
    assert chip.intensity == 0
    assert chip.digits == [None] * 8
    _cycle(chain, 0x0C01, 0x0C01)  # normal operation: row 0 is scanned and unknown
    assert chain.text().split("\n")[0] == "???????? ????????"
    assert chain.text().split("\n")[1] == "........ ........"  # scan limit 0
    assert chain.pixels()[0][0] == -1


def test_first_word_goes_to_the_farthest_chip_and_no_ops_leave_chips_alone():
    chain = _ready(3)
    _cycle(chain, 0x01F0, 0x0000, 0x0103)  # chip 2 row 0 = F0, chip 1 no-op, chip 0 row 0 = 03
    assert chain.text().split("\n")[0] == "......## ........ ####...."
    _cycle(chain, 0x0000, 0x0881, 0x0000)
    assert chain.text().split("\n")[0] == "......## ........ ####...."
    assert chain.text().split("\n")[7] == "........ #......# ........"
    assert chain.errors == []


def test_latch_happens_on_cs_rising_only():
    chain = _ready(1)
    chain.cs(0)
    chain.spi_write(b"\x01\xff")
    assert chain.chips[0].digits[0] == 0
    chain.cs(1)
    assert chain.chips[0].digits[0] == 0xFF


def test_short_cycles_data_with_cs_high_and_missing_registers_are_errors():
    chain = _ready(2)
    _cycle(chain, 0x01FF)  # one word for a chain of two
    chain.spi_write(b"\x00\x00")  # CS high
    _cycle(chain, 0x0D00, 0x0E00)
    assert len(chain.errors) == 4, chain.errors
    assert "16 bits" in chain.errors[0]
    assert "CS is high" in chain.errors[1]
    assert "0xD" in chain.errors[2] + chain.errors[3]
    assert "0xE" in chain.errors[2] + chain.errors[3]


def test_decode_mode_scan_limit_intensity_shutdown_and_display_test():
    chain = _ready(1)
    _cycle(chain, 0x0901)  # Code B on row 0 only
    _cycle(chain, 0x0107)  # '7' = segments A, B, C
    _cycle(chain, 0x0281)  # row 1 raw
    assert chain.text().split("\n")[:2] == [".###....", "#......#"]
    _cycle(chain, 0x0B00)  # scan only row 0
    assert chain.text().split("\n")[1] == "........"
    _cycle(chain, 0x0A1F)
    assert chain.chips[0].intensity == 0x0F
    _cycle(chain, 0x0C00)
    assert all(p == 0 for row in chain.pixels() for p in row)
    _cycle(chain, 0x0F01)  # display test overrides shutdown
    assert all(p == 1 for row in chain.pixels() for p in row)
    _cycle(chain, 0x0F00)
    _cycle(chain, 0x0C01)
    assert chain.text().split("\n")[0] == ".###...."
    assert chain.errors == []


def test_miso_echo_is_one_chain_length_late():
    chain = MAX7219ChainEmulator(2, miso_connected=True)
    chain.cs(0)
    assert chain.spi_transfer(b"\x12\x34\x56\x78") == b"\x00\x00\x00\x00"  # power-up zeros
    assert chain.spi_transfer(b"\x00\x00\x00\x00") == b"\x12\x34\x56\x78"
    chain.cs(1)
    unwired = MAX7219ChainEmulator(2)
    unwired.cs(0)
    assert unwired.spi_transfer(b"\x12\x34") == b"\xff\xff"


def test_spi_and_cs_look_alikes_drive_the_chain():
    chain = _ready(1)
    spi, cs = SPIBus(chain), CSPin(chain)
    cs.value(0)
    spi.write(bytearray(b"\x03\x3c"))
    cs(1)
    assert chain.chips[0].digits[2] == 0x3C
    assert cs.value() == 1


def test_ws2812_grb_order_and_length_checks():
    strip = WS2812Emulator(3)
    strip.write(bytes((1, 2, 3, 4, 5, 6, 7, 8, 9)))
    assert strip.pixels == [(2, 1, 3), (5, 4, 6), (8, 7, 9)]
    assert strip.errors == []
    strip.write(bytes((0, 255, 0)))  # short: only the first pixel changes
    assert strip.pixels == [(255, 0, 0), (5, 4, 6), (8, 7, 9)]
    strip.write(bytes(12))
    assert strip.pixels == [(0, 0, 0)] * 3
    assert len(strip.errors) == 2


def test_ws2812_current_and_text():
    strip = WS2812Emulator(9)
    strip.write(bytes((255, 255, 255)) + bytes((0, 200, 0)) + bytes(21))
    assert strip.current_ma() == 60 + 200 * 20 / 255
    assert strip.text() == "#r.\n...\n..."


def test_neopixel_look_alike_writes_grb():
    strip = WS2812Emulator(2)
    pixels = NeoPixelStrip(strip)
    pixels[0] = (10, 20, 30)
    pixels[1] = (1, 2, 3)
    assert len(pixels) == 2
    assert pixels[0] == (10, 20, 30)
    assert bytes(pixels.buf) == bytes((20, 10, 30, 2, 1, 3))
    pixels.write()
    assert strip.pixels == [(10, 20, 30), (1, 2, 3)]
