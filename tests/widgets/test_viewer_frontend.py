"""The viewer's front-end files as the widget serves them, and the rules it sends the page.

The kernel-frame viewer is served without a bundle (a package built without Node.js): it must be one
ES module with no import left (``dom.js`` in front of it), which node reads as a module. The ranges
and menus the page builds come from ``view_rules`` through the ``rules`` traitlet, and code's values
are checked with the same numbers.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

pytest.importorskip("anywidget")

from workbench.render.testing import tiny_rig_glb  # noqa: E402
from workbench.widgets import frontend, view_rules  # noqa: E402
from workbench.widgets.viewer import AvatarViewer  # noqa: E402


def test_the_kernel_frame_viewer_is_one_module_that_node_reads(tmp_path):
    module = frontend.kernel_frames_module()
    assert "import " not in "\n".join(line for line in module.splitlines() if not line.lstrip().startswith("//"))
    assert "export function el(" in module and "export default" in module
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node here to read the module")
    (tmp_path / "frames.mjs").write_text(module)
    done = subprocess.run([node, "--check", str(tmp_path / "frames.mjs")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_the_page_gets_the_rules_code_is_checked_with():
    v = AvatarViewer(tiny_rig_glb(), size=32, renderer="kernel")
    assert v.rules == view_rules.page_rules()
    assert v.rules["focus"] == list(v.traits()["focus"].values) and v.rules["lights"] == list(v.traits()["light"].values)
    v.zoom = 1000
    assert v.zoom == view_rules.ZOOM_RANGE[1] == v.rules["zoom"][1]
    v.zoom = 0
    assert v.zoom == view_rules.ZOOM_RANGE[0]
    v.elevation = -120
    assert v.elevation == v.rules["elevation"][0]
    v.speed = max(v.rules["speeds"])
    with pytest.raises(Exception, match="speed is 0.25 to 2"):
        v.speed = max(v.rules["speeds"]) * 2


def test_the_wheel_ships_the_files_served_without_a_build():
    import tomllib

    from conftest import ROOT

    included = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    served = {"loader.js", "kernel_frames.js", "dom.js", "viewer.css"}
    assert {k.rsplit("/", 1)[1] for k in included} == served
    for source, target in included.items():
        assert (ROOT / source).is_file() and target == f"workbench/widgets/static/{source.rsplit('/', 1)[1]}"
    assert frontend.SOURCES in (frontend.STATIC, ROOT / "js" / "viewer")
