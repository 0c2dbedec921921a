"""``python -m host_tools.fonts``: write the fonts' tables into the firmware's modules."""

import sys

from host_tools.fonts import FontError, rewrite, targets


def main():
    try:
        for path, art_name, data, glyph_bytes, wrap in targets():
            old, new = rewrite(path, art_name, data, glyph_bytes, wrap)
            if new != old:
                with open(path, "w", encoding="utf-8") as out:
                    out.write(new)
                print("wrote", path)
    except FontError as exc:
        print("fonts: %s" % exc, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
