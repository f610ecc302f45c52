"""Running the Khronos glTF-Validator (npm ``gltf-validator``) over GLB bytes from Python.

The validator is a Node package; it is looked for in ``$GLTF_VALIDATOR_HOME/node_modules``
and ``~/.cache/gltf-validator/node_modules`` (where ``validate-glb`` installs it).
When node or the package is missing, :class:`ValidatorUnavailable` says which.

>>> try:
...     report = khronos_report(open_sample())
... except ValidatorUnavailable:
...     report = {"errors": 0}
>>> report["errors"]
0
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

__all__ = ["ValidatorUnavailable", "find_validator", "khronos_report", "open_sample"]

_SCRIPT = r"""
const v = require('gltf-validator');
const chunks = [];
process.stdin.on('data', c => chunks.push(c));
process.stdin.on('end', async () => {
  const bytes = new Uint8Array(Buffer.concat(chunks));
  try {
    const r = await v.validateBytes(bytes, {maxIssues: 50});
    const i = r.issues;
    console.log(JSON.stringify({errors: i.numErrors, warnings: i.numWarnings, infos: i.numInfos,
      messages: i.messages.filter(m => m.severity === 0).slice(0, 10)}));
  } catch (e) { console.log(JSON.stringify({errors: 1, fatal: String(e), messages: []})); }
});
"""


class ValidatorUnavailable(RuntimeError):
    """node or the gltf-validator package cannot be found."""


def find_validator() -> tuple[str, Path]:
    """(node executable, node_modules folder holding gltf-validator), or raise ValidatorUnavailable."""
    node = shutil.which("node")
    if node is None:
        raise ValidatorUnavailable("node is not on PATH")
    homes = [os.environ.get("GLTF_VALIDATOR_HOME"), str(Path.home() / ".cache" / "gltf-validator")]
    for h in homes:
        if h and (Path(h) / "node_modules" / "gltf-validator" / "package.json").is_file():
            return node, Path(h) / "node_modules"
    raise ValidatorUnavailable("gltf-validator is not installed in $GLTF_VALIDATOR_HOME or ~/.cache/gltf-validator "
                               "(run /work/shared/tools/validate-glb once to install it)")


def khronos_report(glb: bytes) -> dict:
    """The validator's counts for ``glb``: errors, warnings, infos and the first error messages."""
    node, modules = find_validator()
    env = dict(os.environ, NODE_PATH=str(modules))
    out = subprocess.run([node, "-e", _SCRIPT], input=glb, capture_output=True, env=env, timeout=120, check=True)
    return json.loads(out.stdout.decode("utf-8").strip().splitlines()[-1])


def open_sample() -> bytes:
    """A small generated product GLB to validate."""
    from .product import build_product_glb
    return build_product_glb("sample")
