"""``web --serve`` on a port that is taken: one line, exit 2, and nothing built."""

import socket
import subprocess
import sys


def test_serve_on_a_port_in_use_is_one_line_before_any_build(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    out = tmp_path / "site"
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "host_tools", "web", "--serve", "--port", str(port), "--out", str(out)],
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        taken.close()
    assert proc.returncode == 2, proc.stderr
    assert (
        proc.stderr
        == "web: port %d on 127.0.0.1 is in use (another server?): pick another with --port N, or --port 0 for a free one\n"
        % port
    )
    assert not out.exists()  # checked before the build
