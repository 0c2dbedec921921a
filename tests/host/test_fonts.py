"""The OLED's fonts come from the glyph art in host_tools/fonts/ and its character list:
the firmware's tables are exactly the art, a missing glyph stops the build, and every
glyph differs from every other (the simulator reads the screen back by its glyphs)."""

import pytest

from host_tools import fonts


def test_the_firmware_tables_are_the_art():
    for path, art_name, data, glyph_bytes, wrap in fonts.targets():
        old, new = fonts.rewrite(path, art_name, data, glyph_bytes, wrap)
        assert new == old, "%s is not %s: python -m host_tools.fonts" % (path, art_name)


@pytest.mark.parametrize("data,size", [(fonts.font_8x8, 8), (fonts.font_3x5, 3)])
def test_every_glyph_reads_back_as_its_own_character(data, size):
    table = data()
    cells = [table[size * i : size * (i + 1)] for i in range(len(fonts.CHARACTERS))]
    assert len(set(cells)) == len(cells)
    full = (1 << (8 if size == 8 else 6)) - 1
    inverted = {bytes(full ^ b for b in cell) for cell in cells}
    assert not inverted & set(cells[1:])  # an inverted glyph never reads as another one


def test_the_languages_letters_are_in_the_list():
    for letter in "äöüßÄÖÜëïéèàìòùÉÈ\u2610\u2611":
        assert letter in fonts.CHARACTERS


def test_a_missing_glyph_stops_the_build(tmp_path):
    art = tmp_path / "art.txt"
    with open(fonts.ART_3X5, encoding="utf-8") as source:
        text = source.read()
    art.write_text(text.replace("== ß\n", "== ?ß\n"), encoding="utf-8")
    with pytest.raises(fonts.FontError, match="one character"):
        fonts.read_art(str(art), 3, 6)
    glyphs = fonts.read_art(fonts.ART_3X5, 3, 6)
    del glyphs["ß"]
    with pytest.raises(fonts.FontError, match="no glyph for 'ß'"):
        fonts.table(glyphs)
