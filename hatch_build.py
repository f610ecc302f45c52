"""The package's build step for the 3D viewer's front-end (a hatchling build hook, pyproject.toml).

``js/viewer/`` (the front-end, one module per feature, entry ``index.js``) and the ``three`` npm package
it imports, pinned in ``package.json`` and ``package-lock.json``, are bundled by esbuild into
``workbench/widgets/static/viewer.js``: ``npm ci`` then ``npm run build``, for the wheel, the sdist and
an editable install alike. The bundle is a build output: git ignores it, the wheel ships it
(``artifacts`` in pyproject.toml). The files served without a build (the loader, the kernel-frame
viewer, its DOM helper, the stylesheet) go into the wheel's ``static/`` by ``force-include``
(pyproject.toml); ``workbench/widgets/frontend.py`` serves them.

Without Node.js and npm, or when npm fails (no registry), the build still succeeds and says so:
the viewer then draws its frames in the kernel (``workbench.widgets.viewer``), which says so once too.
``WORKBENCH_SKIP_NPM=1`` skips the step on purpose.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

BUNDLE = Path("workbench/widgets/static/viewer.js")
SOURCES = ("js", "package.json", "package-lock.json")


def _newest(root: Path, names) -> float:
    times = []
    for name in names:
        path = root / name
        files = path.rglob("*") if path.is_dir() else [path]
        times += [f.stat().st_mtime for f in files if f.is_file()]
    return max(times, default=0.0)


class ViewerFrontEndHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        root = Path(self.root)
        bundle = root / BUNDLE
        if os.environ.get("WORKBENCH_SKIP_NPM") == "1":
            return self._say("WORKBENCH_SKIP_NPM=1: the viewer's three.js front-end is not built")
        if bundle.is_file() and bundle.stat().st_mtime >= _newest(root, SOURCES):
            return  # up to date (an sdist unpacked with its bundle, or a second build)
        npm = shutil.which("npm")
        if npm is None or not (root / "package-lock.json").is_file():
            return self._say("npm not found: the viewer's three.js front-end is not built, so viewers "
                             "draw their frames in the kernel; install Node.js and npm and reinstall for WebGL")
        lock = root / "node_modules" / ".package-lock.json"
        steps = [] if lock.is_file() and lock.stat().st_mtime >= (root / "package-lock.json").stat().st_mtime \
            else [[npm, "ci", "--no-audit", "--no-fund"]]
        for cmd in steps + [[npm, "run", "build"]]:
            done = subprocess.run(cmd, cwd=root, stdout=sys.stderr, stderr=sys.stderr)
            if done.returncode:
                return self._say(f"`{' '.join(cmd[1:])}` failed (exit {done.returncode}): the viewer's three.js "
                                 "front-end is not built, so viewers draw their frames in the kernel")

    def _say(self, message: str) -> None:
        print(f"workbench build: {message}", file=sys.stderr)
