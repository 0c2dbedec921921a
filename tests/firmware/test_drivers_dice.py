"""Dice displays: the MAX7219 and NeoPixel drivers run inside MicroPython; the recorded SPI
and WS2812 traffic is decoded by the datasheet emulators and the dice are checked."""

import pytest

from host_tools.emulators import CSPin, MAX7219ChainEmulator, SPIBus, WS2812Emulator
from helpers.drivers_run import feed_spi, marked_sections, neopixel_frames, run_on_micropython

# How each face must look on an 8x8 matrix (2x2 pips on a 3x3 grid, gaps at rows/cols 2, 5).
FACES = {
    0: "........ ........ ........ ........ ........ ........ ........ ........",
    1: "........ ........ ........ ...##... ...##... ........ ........ ........",
    2: "......## ......## ........ ........ ........ ........ ##...... ##......",
    3: "......## ......## ........ ...##... ...##... ........ ##...... ##......",
    4: "##....## ##....## ........ ........ ........ ........ ##....## ##....##",
    5: "##....## ##....## ........ ...##... ...##... ........ ##....## ##....##",
    6: "##....## ##....## ........ ##....## ##....## ........ ##....## ##....##",
}


def _face_rows(face, held=False):
    rows = FACES[face].split()
    if held:  # the face with its bottom row lit, a bar under the die (few LEDs lit: less current)
        rows = rows[:7] + ["########"]
    return rows


def _expected_chain_text(faces, held_mask):
    per_die = [_face_rows(f, bool(held_mask >> i & 1) and f != 0) for i, f in enumerate(faces)]
    return "\n".join(" ".join(rows[r] for rows in per_die) for r in range(8))


MAX7219_SCRIPT = """
from drivers.max7219 import MAX7219Dice
spi = RecordingSPI()
cs = RecordingPin()
print("MARK init")
dice = MAX7219Dice(spi, cs)
print("MARK faces")
dice.show([1, 2, 3, 4, 5], 0)
print("MARK held")
dice.show([1, 2, 3, 4, 5], 0b00100)
print("MARK same")
dice.show([1, 2, 3, 4, 5], 0b00100)
print("MARK one")
dice.show([1, 2, 3, 4, 6], 0b00100)
print("MARK blank")
dice.show([0, 6, 6, 6, 6], 0b00001)
print("MARK bright")
dice.brightness(20)
print("MARK off")
dice.power(False)
print("MARK on")
dice.power(True)
print("MARK bad")
try:
    dice.show([7, 1, 1, 1, 1], 0)
except ValueError as exc:
    print("ERR", exc)
"""


@pytest.fixture(scope="module")
def max7219():
    return marked_sections(run_on_micropython(MAX7219_SCRIPT))


def test_max7219_init_configures_every_chip_and_clears_the_rows(max7219):
    chain = MAX7219ChainEmulator(5)
    feed_spi(max7219["init"], chain)
    assert chain.errors == []
    for chip in chain.chips:
        assert (chip.shutdown, chip.display_test, chip.decode, chip.scan_limit) == (False, False, 0, 7)
        assert chip.intensity == 8
        assert chip.digits == [0] * 8
    assert all(p == 0 for row in chain.pixels() for p in row)
    assert max7219["init"][0] == "CS 1"  # CS idles high before the first cycle


def test_max7219_faces_and_held_die(max7219):
    chain = MAX7219ChainEmulator(5)
    feed_spi(max7219["init"] + max7219["faces"], chain)
    assert chain.text() == _expected_chain_text([1, 2, 3, 4, 5], 0)
    feed_spi(max7219["held"], chain)
    assert chain.text() == _expected_chain_text([1, 2, 3, 4, 5], 0b00100)
    lines = chain.text().split("\n")
    assert lines[0].split()[2] == "......##"
    assert lines[7].split()[2] == "########"  # die 2 held
    assert [line.split()[1] for line in (lines[0], lines[7])] == ["......##", "##......"]  # die 1 plain
    lit = [sum(map(sum, chip.rows())) for chip in chain.chips]
    assert lit == [4, 8, 12 + 6, 16, 20]  # held: its 12 pips and 6 more, not 64 - 12 inverted
    assert chain.errors == []


def test_max7219_sends_nothing_when_nothing_changed(max7219):
    assert max7219["same"] == []


def test_max7219_only_changed_rows_and_no_ops_for_other_chips(max7219):
    chain = MAX7219ChainEmulator(5)
    feed_spi(max7219["init"] + max7219["faces"] + max7219["held"], chain)
    writes_before = [chip.writes for chip in chain.chips]
    feed_spi(max7219["one"], chain)
    # face 5 -> 6 differs in rows 3 and 4 only: two CS cycles, chips 0-3 get no-ops
    assert max7219["one"].count("CS 1") == 2
    assert [chip.writes for chip in chain.chips] == writes_before[:4] + [writes_before[4] + 2]
    assert chain.text() == _expected_chain_text([1, 2, 3, 4, 6], 0b00100)
    assert chain.errors == []


def test_max7219_blank_die_stays_blank_when_held(max7219):
    chain = MAX7219ChainEmulator(5)
    feed_spi(max7219["init"] + max7219["faces"] + max7219["held"] + max7219["one"] + max7219["blank"], chain)
    assert chain.text() == _expected_chain_text([0, 6, 6, 6, 6], 0)


def test_max7219_brightness_power_and_bad_face(max7219):
    chain = MAX7219ChainEmulator(5)
    for name in ("init", "faces", "held", "one", "blank", "bright"):
        feed_spi(max7219[name], chain)
    assert [chip.intensity for chip in chain.chips] == [15] * 5
    feed_spi(max7219["off"], chain)
    assert all(chip.shutdown for chip in chain.chips)
    assert all(p == 0 for row in chain.pixels() for p in row)
    feed_spi(max7219["on"], chain)
    assert chain.text() == _expected_chain_text([0, 6, 6, 6, 6], 0)
    assert chain.errors == []
    assert max7219["bad"] == ["ERR die face must be 0..6"]


CHAIN_CHECK = """
from drivers.max7219 import MAX7219Chain
for echo in (5, 4, 6, None):
    try:
        MAX7219Chain(RecordingSPI(echo_chips=echo), RecordingPin(), 5, check_chain=True)
        print("RESULT", echo, "ok")
    except OSError as exc:
        print("RESULT", echo, exc)
"""


def test_max7219_chain_check_inside_micropython():
    lines = run_on_micropython(CHAIN_CHECK)
    results = [line for line in lines if line.startswith("RESULT")]
    assert results[0] == "RESULT 5 ok"
    for line in results[1:]:
        assert "MAX7219 LED chain" in line
    # the emulator, wired DOUT->MISO, returns exactly what the 5-chip fake returned
    first = lines[: lines.index("RESULT 5 ok")]
    rx = [line.split() for line in first if line.startswith("SPIRX")]
    chain = MAX7219ChainEmulator(5, miso_connected=True)
    chain.cs(0)
    assert chain.spi_transfer(bytes.fromhex(rx[0][1])) == bytes.fromhex(rx[0][2])


@pytest.mark.parametrize("chips,wired,ok", [(5, True, True), (4, True, False), (6, True, False), (5, False, False)])
def test_max7219_chain_check_against_the_emulator(chips, wired, ok):
    from drivers.max7219 import MAX7219Chain  # pure Python: runs under CPython too

    chain = MAX7219ChainEmulator(chips, miso_connected=wired)
    if ok:
        MAX7219Chain(SPIBus(chain), CSPin(chain), 5, check_chain=True)
        assert chain.errors == []
        assert all(not chip.shutdown for chip in chain.chips)
    else:
        with pytest.raises(OSError, match="MAX7219 LED chain"):
            MAX7219Chain(SPIBus(chain), CSPin(chain), 5, check_chain=True)


NEOPIXEL_SCRIPT = """
from drivers.neopixel_dice import NeoPixelDice
np = RecordingNeoPixel(45)
print("MARK init")
dice = NeoPixelDice(np)
print("MARK faces")
dice.show([1, 2, 3, 4, 6], 0b00010)
print("MARK same")
dice.show([1, 2, 3, 4, 6], 0b00010)
print("MARK dim")
dice.brightness(5)
print("MARK off")
dice.power(False)
print("MARK show_off")
dice.show([6, 6, 6, 6, 6], 0b11111)
print("MARK on")
dice.power(True)
print("MARK max")
dice.brightness(99)
dice.show([6, 6, 6, 6, 6], 0b00000)
"""


@pytest.fixture(scope="module")
def neopixel():
    return marked_sections(run_on_micropython(NEOPIXEL_SCRIPT))


def _strip_after(sections, *names):
    strip = WS2812Emulator(45)
    for name in names:
        for frame in neopixel_frames(sections[name]):
            strip.write(frame)
    return strip


def test_neopixel_pixel_order_and_held_colour(neopixel):
    strip = _strip_after(neopixel, "init", "faces")
    assert strip.errors == []
    # die 0 face 1: centre only; die 1 face 2 held: top right + bottom left in the held colour
    assert strip.text() == ("... ..r ..# #.# #.#\n.#. ... .#. ... #.#\n... r.. #.. #.# #.#")
    white, held = strip.pixels[4], strip.pixels[9 + 2]
    assert white[0] == white[1] == white[2] > 0
    assert held[0] > held[1] > held[2] == 0


def test_neopixel_brightness_is_capped_and_scaled(neopixel):
    strip = _strip_after(neopixel, "init", "faces")
    for r, g, b in strip.pixels:
        assert r + g + b <= 127  # at most 10 mA per lit pixel
    full = strip.pixels[4]
    strip = _strip_after(neopixel, "init", "faces", "dim")
    level_5 = 255 * 127 * 5 // (765 * 15)  # white scaled to the cap, then to 5/15
    assert strip.pixels[4] == (level_5, level_5, level_5)
    assert strip.pixels[4][0] < full[0]
    strip = _strip_after(neopixel, "init", "faces", "dim", "off", "show_off", "on", "max")
    assert all(sum(p) > 0 for i, p in enumerate(strip.pixels) if i % 9 in (0, 3, 6, 2, 5, 8))
    assert strip.current_ma() <= 300  # five sixes at full brightness: 30 lit pips


def test_neopixel_writes_only_on_change_and_stays_dark_when_off(neopixel):
    assert neopixel_frames(neopixel["same"]) == []
    assert neopixel_frames(neopixel["show_off"]) == []
    strip = _strip_after(neopixel, "init", "faces", "dim", "off")
    assert all(p == (0, 0, 0) for p in strip.pixels)
    strip = _strip_after(neopixel, "init", "faces", "dim", "off", "show_off", "on")
    assert strip.text().split("\n")[1] == "r.r r.r r.r r.r r.r"  # all held, shown after power on


# The Zoo card's animals as the MAX7219 dice must draw them (drivers/pips.py), spelled out
# so that a changed picture is a deliberate test change: 1 monkey, 2 elephant, 3 giraffe,
# 4 rhino, 5 bear, 6 lion.
ANIMALS = {
    1: "..####.. .######. .#.##.#. ##....## ##.##.## .#....#. ..####.. ........",
    2: "..#####. .####### ##.##### ######## #.###### #.###### #.##..## ..##..##",
    3: "#.#..... ###..... .##..... ..#..... ..#..... ..###### ..#.#.#. ..#.#.#.",
    4: "........ .....##. #...#### ##.##### ######## .####### ..##.##. ..##.##.",
    5: "##....## ######## ##.##.## ######## ###..### ##.##.## .######. ..####..",
    6: "#.####.# .#....#. #.#..#.# #......# #..##..# #..##..# .#....#. #.####.#",
}

ANIMALS_SCRIPT = """
from drivers.max7219 import MAX7219Dice
from drivers.neopixel_dice import NeoPixelDice
import gc
spi = RecordingSPI()
cs = RecordingPin()
print("MARK init")
dice = MAX7219Dice(spi, cs)
dice.show([1, 2, 3, 4, 5], 0)
print("MARK animals")
dice.animals(True)
dice.show([1, 2, 3, 4, 5], 0b00010)
print("MARK six")
dice.show([6, 6, 1, 1, 1], 0b00000)
print("MARK pips")
dice.animals(False)
dice.show([6, 6, 1, 1, 1], 0b00000)
gc.collect()
before = gc.mem_free()
dice.animals(True)
print("ALLOC", before - gc.mem_free())
np = RecordingNeoPixel(45)
print("MARK np")
strip = NeoPixelDice(np)
strip.animals(True)
strip.show([1, 2, 3, 4, 5], 0b01000)
print("MARK np_elephants")
strip.show([2, 2, 2, 2, 2], 0)
"""


@pytest.fixture(scope="module")
def animals():
    out = run_on_micropython(ANIMALS_SCRIPT)
    return marked_sections(out), out


def _animal_rows(face, held=False):
    rows = ANIMALS[face].split()
    return rows[:7] + ["########"] if held else rows


def test_max7219_draws_the_six_animals_and_marks_held_ones(animals):
    sections, _out = animals
    chain = MAX7219ChainEmulator(5)
    feed_spi(sections["init"] + sections["animals"], chain)
    assert chain.errors == []
    per_die = [_animal_rows(f, i == 1) for i, f in enumerate([1, 2, 3, 4, 5])]
    assert chain.text() == "\n".join(" ".join(rows[r] for rows in per_die) for r in range(8))
    feed_spi(sections["six"], chain)
    assert chain.text().split("\n")[0].split()[:3] == ["#.####.#", "#.####.#", "..####.."]
    # every animal differs from every other, held or not, and from every pip face
    pictures = [tuple(_animal_rows(f, h)) for f in ANIMALS for h in (False, True)]
    pictures += [tuple(_face_rows(f, h)) for f in range(1, 7) for h in (False, True)]
    assert len(set(pictures)) == len(pictures)


def test_max7219_back_to_pips_and_no_allocation_when_switching(animals):
    sections, out = animals
    chain = MAX7219ChainEmulator(5)
    feed_spi(sections["init"] + sections["animals"] + sections["six"] + sections["pips"], chain)
    assert chain.text() == _expected_chain_text([6, 6, 1, 1, 1], 0)
    assert [line for line in out if line.startswith("ALLOC")] == ["ALLOC 0"]


def test_neopixel_gives_each_animal_its_colour_and_held_ones_the_held_colour(animals):
    sections, _out = animals
    strip = WS2812Emulator(45)
    for frame in neopixel_frames(sections["np"]):
        strip.write(frame)
    centre = [strip.pixels[9 * die + 4] for die in (0, 2, 4)]  # monkey, giraffe, bear: a centre pip
    hues = {tuple(c * 255 // max(rgb) for c in rgb) for rgb in centre}
    assert len(hues) == 3  # three different colours
    monkey, held_rhino = strip.pixels[4], strip.pixels[9 * 3]
    assert monkey[0] > monkey[2] > monkey[1] == 0  # pink
    assert held_rhino[0] > held_rhino[1] > held_rhino[2] == 0  # the held colour (orange)
    for frame in neopixel_frames(sections["np_elephants"]):
        strip.write(frame)
    assert all(sum(p) <= 127 for p in strip.pixels)
    assert strip.current_ma() <= 300  # the current budget holds with animals too (white elephants)
