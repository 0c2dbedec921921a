"""``web --serve``: the site folder on 127.0.0.1, as a plain static host serves it.

No COOP/COEP headers on purpose: the page gets its cross-origin isolation from its own
service worker (page/sw.js), as it must on hosts that cannot send headers.
"""

import functools
import http.server


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(
        http.server.SimpleHTTPRequestHandler.extensions_map, **{".mjs": "text/javascript", ".wasm": "application/wasm"}
    )

    def log_message(self, format, *args):
        pass


def server(folder, port, handler=QuietHandler):
    """A ThreadingHTTPServer for ``folder`` on 127.0.0.1:``port`` (0: a free port);
    ``handler`` a QuietHandler (the bench's counts the bytes it sends)."""
    handler = functools.partial(handler, directory=folder)
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def bind(folder, port):
    """``(server, None)``, or ``(None, one line)`` when 127.0.0.1:``port`` cannot be had."""
    import errno

    try:
        return server(folder, port), None
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            return (
                None,
                "port %d on 127.0.0.1 is in use (another server?): pick another with --port N, or --port 0 for a free one"
                % port,
            )
        if exc.errno == errno.EACCES:
            return None, "port %d on 127.0.0.1 is not allowed to this user: pick one above 1023 with --port N" % port
        return None, "cannot serve on 127.0.0.1:%d: %s" % (port, exc.strerror or exc)


def serve(folder, httpd):
    print("web: serving %s on http://127.0.0.1:%d/ (Ctrl-C stops)" % (folder, httpd.server_address[1]), flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
    return 0
