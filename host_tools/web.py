"""``python -m host_tools web [--out build/web] [--rules forced] [--serve [--port N]] [--screenshots]``:
the handheld in a browser, from static files.

Builds the site (host_tools/browser/site.py: the page, MicroPython's WebAssembly port
pinned by npm, the firmware compiled as ``flash`` compiles it, its tables) into ``--out``;
``--serve`` then serves that folder on 127.0.0.1 as any static host would (no special
headers: the site's service worker gives itself the cross-origin isolation it needs).
``make web`` / ``make web-serve`` build the tables and install the port first.
"""
import os
import sys

import host_tools
from host_tools.browser import site

host_tools.use_firmware()

import rules  # noqa: E402  (firmware module, importable after use_firmware)


def parse_args(argv):
    parser = host_tools.argument_parser("web", __doc__.splitlines()[0])
    parser.add_argument("--out", default=site.DEFAULT_OUT, help="folder for the site (default %s; replaced)" % site.DEFAULT_OUT)
    parser.add_argument("--rules", default="forced", choices=[r for r in rules.CHOICES if r != "zoo"],
                        help="the card the handheld starts with (its table from build/, as flash takes it)")
    parser.add_argument("--serve", action="store_true", help="serve the site on 127.0.0.1 after building it")
    parser.add_argument("--port", type=int, default=8000, help="port for --serve (default 8000; 0 picks a free one)")
    parser.add_argument("--no-build", action="store_true", help="with --serve: serve --out as it is")
    parser.add_argument("--screenshots", action="store_true", help="then write the README's pictures docs/img/web-*.png (headless Chromium)")
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        raise host_tools.UsageError("--port %d is not a TCP port (0-65535)" % args.port)
    if args.no_build and not args.serve:
        raise host_tools.UsageError("--no-build goes with --serve")
    return args


def main(argv):
    args, status = host_tools.parse_command("web", parse_args, argv)
    if args is None:
        return status
    if args.no_build:
        if not os.path.isfile(os.path.join(args.out, "site.json")):
            print("web: %s holds no site: run without --no-build" % args.out, file=sys.stderr)
            return 2
    else:
        from host_tools.flashing.build import BuildError

        try:
            host_tools.check_output_file("--out", os.path.join(args.out, "site.json"), make_folders=True)
        except host_tools.UsageError as exc:
            print("web: %s" % exc, file=sys.stderr)
            return 2
        try:
            info = site.build_site(args.out, rules=args.rules)
        except (site.SiteError, BuildError) as exc:
            print("web: %s" % exc, file=sys.stderr)
            return 1
        raw, packed = site.sizes(args.out)
        print("web: site in %s (%d files, %d KiB, %d KiB gzipped)%s" % (
            args.out, len(info["files"]), raw // 1024, packed // 1024,
            "" if info["hasTable"] else "; no strategy table (make table builds it): hints off"))
    if args.screenshots:
        from host_tools.browser import shots

        for path in shots.make(args.out):
            print("web: wrote %s" % path)
    if args.serve:
        from host_tools.browser import serve

        return serve.serve(args.out, args.port)
    return 0
