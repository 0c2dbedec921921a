"""``python -m host_tools web [--out build/web] [--rules forced] [--serve [--port N]] [--screenshots]``:
the handheld in a browser, from static files.

Builds the site (host_tools/browser/site.py: the page, MicroPython's WebAssembly port
pinned by npm, the firmware compiled as ``flash`` compiles it, its tables) into ``--out``;
``--serve`` then serves that folder on 127.0.0.1 as any static host would (no special
headers: the site's service worker gives itself the cross-origin isolation it needs).
``make web`` builds the tables and installs the port first; ``make web-serve`` installs
the port and serves at once, building any missing table meanwhile (the page plays without
hints until the site is rebuilt with them: simulator/tables.py).
"""

import os
import sys
import time

import host_tools
from host_tools.browser import site

host_tools.use_firmware()

import rules  # noqa: E402  (firmware module, importable after use_firmware)


def parse_args(argv):
    parser = host_tools.argument_parser("web", __doc__.splitlines()[0])
    parser.add_argument(
        "--out", default=site.DEFAULT_OUT, help="folder for the site (default %s; replaced)" % site.DEFAULT_OUT
    )
    parser.add_argument(
        "--rules",
        default="forced",
        choices=[r for r in rules.CHOICES if r != "zoo"],
        help="the card the handheld starts with (its table from build/, as flash takes it)",
    )
    parser.add_argument("--serve", action="store_true", help="serve the site on 127.0.0.1 after building it")
    parser.add_argument("--port", type=int, default=8000, help="port for --serve (default 8000; 0 picks a free one)")
    parser.add_argument("--no-build", action="store_true", help="with --serve: serve --out as it is")
    parser.add_argument(
        "--screenshots",
        action="store_true",
        help="then write the README's pictures docs/img/web-*.png (headless Chromium)",
    )
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        raise host_tools.UsageError("--port %d is not a TCP port (0-65535)" % args.port)
    if args.no_build and not args.serve:
        raise host_tools.UsageError("--no-build goes with --serve")
    return args


def out_problem(out):
    """One line naming why the site cannot go to ``out``, or None. The folder is replaced
    by a build, so only a missing or empty one, or one holding an earlier site, is taken."""
    from host_tools.flashing import untrusted

    problem = untrusted.folder_problem("--out", out)
    if problem:
        return problem
    if os.path.islink(out):  # the build removes --out first, and a link cannot be removed as a tree
        return "--out %s is a symbolic link: name the folder itself" % untrusted.shown(out)
    if os.path.isdir(out) and os.listdir(out) and not os.path.isfile(os.path.join(out, "site.json")):
        return "--out %s holds files that are not a site web built: pick an empty or new folder" % untrusted.shown(out)
    return None


def main(argv):
    from host_tools.flashing import untrusted

    args, status = host_tools.parse_command("web", parse_args, argv, show=untrusted.printable)
    if args is None:
        return status
    problem = untrusted.text_problem("--out", args.out)
    if not problem and args.screenshots:
        from host_tools.browser import shots

        picture = shots.clash(args.out)
        if picture:
            problem = "--out %s and --screenshots both write %s: pick another folder" % (
                untrusted.shown(args.out),
                untrusted.shown(picture),
            )
    if not problem and args.no_build and not os.path.isfile(os.path.join(args.out, "site.json")):
        problem = "--out %s holds no site: run without --no-build" % untrusted.shown(args.out)
    if not problem and not args.no_build:
        problem = out_problem(args.out)
    httpd = None
    if not problem and args.serve:
        # The port first: a port in use is one line now, not a traceback after the build.
        from host_tools.browser import serve

        httpd, problem = serve.bind(args.out, args.port)
    if problem:
        print("web: %s" % problem, file=sys.stderr)
        return 2
    builder = None
    if args.serve and not args.no_build:
        from host_tools.simulator import tables as sim_tables

        if sim_tables.missing():  # the page at once, its tables built meanwhile
            out, chosen = args.out, args.rules
            builder = sim_tables.TableBuilder(on_ready=lambda _found: rebuild(out, chosen))
            print(
                "web: building the strategy tables meanwhile (a minute or two): the page plays without hints until then"
            )
    if not args.no_build:
        from host_tools.flashing.build import BuildError

        try:
            info = site.build_site(args.out, rules=args.rules)
        except (site.SiteError, BuildError) as exc:
            print("web: %s" % exc, file=sys.stderr)
            if httpd is not None:
                httpd.server_close()
            if builder is not None:
                builder.close()
            return 1
        found = site.parts(args.out)
        print(
            "web: site in %s (%d files, %d KiB, %d KiB gzipped)%s"
            % (
                args.out,
                len(info["files"]),
                found["raw"],
                found["gzipped"],
                ""
                if info["hasTable"]
                else "; no strategy table yet (building)"
                if builder is not None
                else "; no strategy table (make table builds it): hints off",
            )
        )
        print("web: " + site.parts_line(found))
    if args.screenshots:
        from host_tools.browser import shots

        for path in shots.make(args.out):
            print("web: wrote %s" % path)
    if httpd is not None:
        from host_tools.browser import serve

        if builder is None:
            return serve.serve(args.out, httpd)
        import threading

        def watch():
            while not builder.poll():
                time.sleep(1)

        threading.Thread(target=watch, daemon=True).start()
        try:
            return serve.serve(args.out, httpd)
        finally:
            builder.close()
    if builder is not None:
        builder.close()
    return 0


def rebuild(out, rules_name):
    """The site again, with the tables built meanwhile: made beside ``out`` and switched in
    by two renames, so the server never serves half a site."""
    import shutil

    fresh, old = out.rstrip(os.sep) + ".next", out.rstrip(os.sep) + ".old"
    for folder in (fresh, old):
        shutil.rmtree(folder, ignore_errors=True)
    site.build_site(fresh, rules=rules_name)
    os.rename(out, old)
    os.rename(fresh, out)
    shutil.rmtree(old, ignore_errors=True)
    print("web: the strategy tables are built: hints ready (reload the page)", flush=True)
