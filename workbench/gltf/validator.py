"""validate: run the Khronos glTF-Validator (npm ``gltf-validator`` 2.0.0-dev.3.10) on GLB files.

The validator is JavaScript, so it runs in one ``node`` subprocess per call; ``validate_many``
sends a whole batch to that one process (starting node costs far more than validating a
file). The package is looked for in ``$GLTF_VALIDATOR_HOME/node_modules``, then in
``~/.cache/gltf-validator/node_modules`` (where ``shared/tools/validate-glb`` installs it).
Errors raise ``RuntimeError`` prefixed with ``validate:``; a file the validator rejects
outright is a report with one error, not an exception.

>>> if validator_available():
...     from workbench.gltf import build_animation
...     print(validate(build_animation("masculine", "nod")).errors)
... else:
...     print(0)
0
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .summary import _load

_SCRIPT = r"""
const fs = require('fs');
const validator = require('gltf-validator');
const files = JSON.parse(fs.readFileSync(0, 'utf8'));
(async () => {
  for (const f of files) {
    try {
      const bytes = new Uint8Array(fs.readFileSync(f));
      const r = await validator.validateBytes(bytes, { uri: f.split('/').pop(), maxIssues: 200 });
      process.stdout.write(JSON.stringify(r) + '\n');
    } catch (e) {
      process.stdout.write(JSON.stringify({ fatal: String(e) }) + '\n');
    }
  }
})();
"""


@dataclass
class ValidationReport:
    """The validator's verdict on one file: counts, messages and the raw report."""

    errors: int
    warnings: int
    infos: int
    messages: list[dict] = field(default_factory=list)
    raw: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.errors == 0

    def __repr__(self) -> str:
        head = f"ValidationReport(errors={self.errors}, warnings={self.warnings}, infos={self.infos})"
        worst = [m for m in self.messages if m.get("severity", 3) <= 1][:5]
        return "\n".join([head] + [f"  {m.get('code')} {m.get('pointer', '')}: {m.get('message')}" for m in worst])

    @classmethod
    def from_raw(cls, raw: dict) -> ValidationReport:
        if "fatal" in raw:
            return cls(1, 0, 0, [{"code": "FATAL", "severity": 0, "message": raw["fatal"]}], raw)
        issues = raw.get("issues", {})
        return cls(issues.get("numErrors", 0), issues.get("numWarnings", 0), issues.get("numInfos", 0),
                   list(issues.get("messages", [])), raw)


def _module_dir() -> Path | None:
    candidates = []
    if os.environ.get("GLTF_VALIDATOR_HOME"):
        candidates.append(Path(os.environ["GLTF_VALIDATOR_HOME"]) / "node_modules")
    candidates.append(Path.home() / ".cache" / "gltf-validator" / "node_modules")
    for c in candidates:
        if (c / "gltf-validator" / "package.json").is_file():
            return c
    return None


def validator_available() -> bool:
    """True when node and the gltf-validator package can be found.

    >>> isinstance(validator_available(), bool)
    True
    """
    return shutil.which("node") is not None and _module_dir() is not None


def validate_many(sources, on_each: Callable[[ValidationReport], object] | None = None) -> list[ValidationReport]:
    """Validate several GLBs (bytes, paths or responses) in one node process, in order.

    on_each: called with each file's report as node finishes it (a progress bar's ``update``), before the next.

    >>> from workbench.gltf import build_animation
    >>> files = [build_animation("masculine", n) for n in ("nod", "wave")]
    >>> done = []
    >>> [r.ok for r in validate_many(files, on_each=done.append)] if validator_available() else [True, True]
    [True, True]
    >>> len(done) if validator_available() else 2
    2
    """
    modules = _module_dir()
    node = shutil.which("node")
    if modules is None or node is None:
        raise RuntimeError("validate: gltf-validator not found; run shared/tools/validate-glb once to install it "
                           "or set GLTF_VALIDATOR_HOME")
    sources = list(sources)
    reports: list[ValidationReport] = []
    with tempfile.TemporaryDirectory(prefix="glb-validate-") as tmp:
        paths = []
        for i, src in enumerate(sources):
            if isinstance(src, (str, Path)):
                paths.append(str(Path(src).resolve()))
            else:
                p = Path(tmp) / f"file{i:04d}.glb"
                p.write_bytes(_load(src))
                paths.append(str(p))
        env = dict(os.environ, NODE_PATH=str(modules))
        with open(Path(tmp) / "stderr", "w+") as err, subprocess.Popen(
                [node, "-e", _SCRIPT], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True,
                env=env) as proc:
            # One line a file, as node finishes it; a node that hangs is stopped after 600 s as before.
            watchdog = threading.Timer(600, proc.kill)
            watchdog.start()
            try:
                assert proc.stdin is not None and proc.stdout is not None
                proc.stdin.write(json.dumps(paths))
                proc.stdin.close()
                for line in proc.stdout:
                    try:
                        raw = json.loads(line)
                    except ValueError:
                        raise RuntimeError(f"validate: node wrote a line that is not a report: {line[:200]!r}") from None
                    reports.append(ValidationReport.from_raw(raw))
                    if on_each is not None:
                        on_each(reports[-1])
                returncode = proc.wait()
            finally:
                watchdog.cancel()
            err.seek(0)
            stderr = err.read()
    if returncode != 0 or len(reports) != len(paths):
        raise RuntimeError(f"validate: node gave {len(reports)} reports for {len(paths)} files (exit {returncode}): "
                           f"{stderr.strip()[:500]}")
    return reports


def validate(source) -> ValidationReport:
    """Validate one GLB (bytes, a path, or an object with ``.content``).

    >>> from workbench.gltf import build_animation
    >>> validate(build_animation("feminine", "idle")).errors if validator_available() else 0
    0
    """
    return validate_many([source])[0]


VALIDATOR_PACKAGE = "gltf-validator@2.0.0-dev.3.10"


def install_validator(home: str | os.PathLike | None = None, quiet: bool = True) -> bool:
    """Install the validator with npm into ``home`` (default ``$GLTF_VALIDATOR_HOME`` or
    ``~/.cache/gltf-validator``) unless it is there already; True when it is available afterwards."""
    if validator_available():
        return True
    home = Path(home or os.environ.get("GLTF_VALIDATOR_HOME") or Path.home() / ".cache" / "gltf-validator")
    return npm_install([VALIDATOR_PACKAGE], home, quiet=quiet) and validator_available()


def npm_install(packages: list[str], home: str | os.PathLike, quiet: bool = True) -> bool:
    """``npm install`` of pinned ``packages`` into ``home/node_modules`` unless each is there at its
    version already; True when they all are afterwards (False without node and npm, or offline).
    The validator and the browser tests' pages (three, model-viewer) are installed this way.

    >>> npm_install([], "/nonexistent")
    True
    """
    home = Path(home)
    missing = [p for p in packages if not npm_present([p], home)]
    if not missing:
        return True
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        return False
    home.mkdir(parents=True, exist_ok=True)
    # One install of every package named, so npm keeps peers (model-viewer's three) at one version.
    cmd = [npm, "install", "--prefix", str(home), "--no-audit", "--no-fund", *packages]
    if quiet:
        cmd.insert(2, "--silent")
    try:
        subprocess.run(cmd, check=True, timeout=600, capture_output=quiet)
    except (subprocess.SubprocessError, OSError):
        return False
    return npm_present(packages, home)


def npm_present(packages: list[str], home: str | os.PathLike) -> bool:
    """Whether every pinned package (``name@version``) is in ``home/node_modules`` at its version;
    nothing is installed (the tests use what ``tools/install_test_tools.py`` put there).

    >>> npm_present([], "/nonexistent"), npm_present(["three@0.1.0"], "/nonexistent")
    (True, False)
    """
    home = Path(home)
    for spec in packages:
        name, _, version = spec.rpartition("@") if spec.rfind("@") > 0 else (spec, "", "")
        meta = home / "node_modules" / name / "package.json"
        if not meta.is_file() or (version and json.loads(meta.read_text()).get("version") != version):
            return False
    return True
