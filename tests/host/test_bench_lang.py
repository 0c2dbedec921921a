"""make bench's languages subject: every catalog's and font's flash cost, every board's
free flash with English alone and with all languages, each language's heap."""

import re

from host_tools import texts
from host_tools.benches import lang as bench_lang


def test_bench_lang_prints_each_catalog_each_board_and_each_languages_heap(capsys):
    bench_lang.run()
    out = capsys.readouterr().out
    for code in texts.codes():
        assert re.search(r"lang_%s\.mpy \d+ B \(\d+ blocks?\)" % code, out), out
    assert "ui/font.mpy" in out
    assert "ui/draw.mpy" in out
    for build in ("RPI_PICO ", "RPI_PICO_W ", "RPI_PICO2 "):
        line = next(line for line in out.splitlines() if ("on %s" % build) in line)
        alone, every = (int(n) for n in re.findall(r"(\d+) KiB", line))
        assert alone > every, line  # the other catalogs take room
    held = dict(re.findall(r"\b([a-z]{2}) (\d+) B\b", out.splitlines()[-1]))
    assert sorted(held) == sorted(texts.codes()), out
    assert all(int(n) > 0 for n in held.values()), out
