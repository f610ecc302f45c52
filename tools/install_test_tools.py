"""Install what the tests use besides Python packages, once per machine or CI run (``.ci/run`` calls it).

- the Khronos glTF-Validator (npm package ``gltf-validator``), which the GLB tests run;
- the browser pages' npm packages (``three``, ``@google/model-viewer``), pinned together;
- the 3D viewer's three.js bundle (``npm ci`` and ``npm run build``), where the package was installed
  before npm was there (``pip install`` builds it otherwise, see hatch_build.py);
- with ``--browser`` and as root where apt-get exists: Debian's ``chromium`` and ``chromium-driver``.

pytest installs nothing itself: tests whose tools are missing skip and say which command installs them.
Exits 0 when everything asked for is there afterwards, 1 otherwise (and says what is missing).

    python tools/install_test_tools.py            # the npm packages
    python tools/install_test_tools.py --browser  # and Chromium with its driver
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--browser", action="store_true", help="also install chromium and chromium-driver with apt-get (root only)")
    args = parser.parse_args(argv)
    from browser.conftest import NPM_HOME, NPM_PACKAGES  # the pinned versions the browser tests load

    from workbench.gltf.validator import install_validator, npm_install

    missing = []
    if args.browser and shutil.which("chromedriver") is None:
        if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
            env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
            ok = subprocess.run(["apt-get", "update", "-qq"], env=env).returncode == 0 and subprocess.run(
                ["apt-get", "install", "-y", "-qq", "chromium", "chromium-driver"], env=env,
                stdout=subprocess.DEVNULL).returncode == 0
            if not ok:
                missing.append("chromium and chromium-driver (apt-get failed)")
        else:
            missing.append("chromium and chromium-driver (install them as root with apt-get)")
    if shutil.which("npm") is None:
        missing.append("node and npm (for gltf-validator and the browser pages)")
    else:
        if not install_validator(quiet=False):
            missing.append("gltf-validator (npm)")
        if not npm_install(NPM_PACKAGES, NPM_HOME, quiet=False):
            missing.append(", ".join(NPM_PACKAGES) + " (npm)")
        from workbench.widgets.viewer import bundle_path

        if bundle_path() is None:
            npm = shutil.which("npm")
            if any(subprocess.run([npm, *step], cwd=ROOT).returncode for step in (["ci", "--no-audit", "--no-fund"], ["run", "build"])):
                missing.append("the 3D viewer's three.js bundle (npm ci && npm run build)")
    for what in missing:
        print(f"install_test_tools: missing {what}; the tests that need it will skip and say so", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
