"""A script that follows the README's client pattern (``client = workbench.connect()``, never closed)
ends without ``ResourceWarning: unclosed socket``: the client closes its connections when it is
collected or the interpreter exits; ``close()`` and ``with`` still close at once, and twice is fine.
"""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT

SCRIPT = """
import workbench
client = workbench.connect(quiet=True)
reg = client.avatars.register({"gender": "feminine"})
client.avatars.preview(reg.model_id, size=64)
print("done")
"""


def test_the_readme_pattern_ends_without_a_resource_warning():
    out = subprocess.run([sys.executable, "-W", "always::ResourceWarning", "-c", SCRIPT], capture_output=True, text=True,
                         timeout=180, cwd=ROOT, env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0 and "done" in out.stdout, out.stderr
    assert "ResourceWarning" not in out.stderr, out.stderr


def test_close_twice_and_with(server):
    c = server.client()
    c.animations.list()
    c.close()
    c.close()
    with server.client() as c2:
        assert c2.animations.list()
