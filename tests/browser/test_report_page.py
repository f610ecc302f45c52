"""The tour and check report in Chromium: a long first error (a URL, a path with no spaces) wraps
inside its column, and the page stays as wide as the window."""

from __future__ import annotations

from workbench.runner.tour import NotebookRun, conformance, write_index

from .conftest import save_artifact

LONG = ("ConnectError: [Errno 111] Connection refused while GET http://deployment.internal.example.com:8443/avatars/"
        "model/6e11b93bc65fa3876d940e9d.glb?lod=2&textureFormat=webp&animations=locomotion,gestures&mergeMesh=true/"
        + "a-very-long-path-segment-without-any-space" * 4)


def test_a_long_error_wraps_inside_the_page(browser, tmp_path):
    (tmp_path / "a.html").write_text("<p>a notebook</p>")
    runs = [NotebookRun("01_avatars.ipynb", False, 12.3, 20, LONG, tmp_path / "a.html", purpose="01 · Avatars"),
            NotebookRun("00_quickstart.ipynb", True, 4.1, 12, None, tmp_path / "a.html", purpose="00 · Quick start")]
    index = write_index(tmp_path, runs, "workbench check of http://x/api", conformance(runs))
    browser.set_window_size(1000, 800)
    browser.get(index.as_uri())
    inner, scroll = browser.execute_script(
        "return [window.innerWidth, document.scrollingElement.scrollWidth]")
    save_artifact(tmp_path, "report-long-error.png", browser.get_screenshot_as_png())
    assert scroll <= inner, f"the page is {scroll} px wide in a {inner} px window"
    cell = browser.execute_script("const td = document.querySelector('td.error'); return [td.offsetWidth, td.offsetHeight]")
    assert cell[1] > 3 * 20  # wrapped over several lines, not cut
