"""``web --serve``: the site folder on 127.0.0.1, as a plain static host serves it.

No COOP/COEP headers on purpose: the page gets its cross-origin isolation from its own
service worker (page/sw.js), as it must on hosts that cannot send headers.
"""

import functools
import http.server


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(
        http.server.SimpleHTTPRequestHandler.extensions_map, **{".mjs": "text/javascript", ".wasm": "application/wasm"}
    )

    def log_message(self, format, *args):
        pass


def server(folder, port):
    """A ThreadingHTTPServer for ``folder`` on 127.0.0.1:``port`` (0: a free port)."""
    handler = functools.partial(_Quiet, directory=folder)
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def serve(folder, port):
    httpd = server(folder, port)
    print("web: serving %s on http://127.0.0.1:%d/ (Ctrl-C stops)" % (folder, httpd.server_address[1]), flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
    return 0
