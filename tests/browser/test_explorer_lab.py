"""The analytics explorer (workbench.tracking.explore) in JupyterLab and Notebook 7, driven in headless Chromium:
a control changed redraws the chart (a button of the question, a menu of the period), and keys pressed in the
explorer stay there (JupyterLab's command mode would delete the cell on ``d d``, make it raw on ``r``).

Screenshots go under the test's tmp folder (and to ``$WORKBENCH_BROWSER_ARTIFACTS``).
"""

from __future__ import annotations

import base64
import tempfile
from pathlib import Path

import pytest

from .conftest import save_artifact, shut_kernels, wait
from .viewer_page import borrowed, kernel, notebook_cells, open_notebook, write_notebook

pytestmark = pytest.mark.slow

CELL = """\
from workbench import tracking as wt
from workbench.tracking.lake import write_synth_lake

lake = write_synth_lake("events", 20_000, seed=3, overwrite=True)
explorer = wt.explore(lake, question="funnel")
explorer"""
CHART = ("const i = document.querySelector('.wb-explorer .wb-explorer-chart');"
         "return i && {revision: parseInt(i.dataset.revision), question: i.dataset.question, src: i.src};")


@pytest.fixture(scope="module", params=["lab", "notebook"])
def app(request, notebook_apps):
    server = notebook_apps(request.param)
    folder = Path(tempfile.mkdtemp(prefix="explore-", dir=server["root"]))
    write_notebook(folder, "explore.ipynb", [CELL, "1 + 1"])
    try:
        yield {**server, "root": folder, "dir": folder.name}
    finally:
        shut_kernels(server, folder.name)


def chart_after(browser, revision: int, what: str, question: str | None = None) -> dict:
    cond = f"c.revision > {revision}" + (f" && c.question === '{question}'" if question else "")
    return wait(browser, f"const c = (() => {{ {CHART} }})(); return c && {cond} && c;", 120, what)


def shot(browser, tmp_path, app, name):
    save_artifact(tmp_path, f"explorer_{app}_{name}.png", base64.b64decode(browser.get_screenshot_as_base64()))


def test_a_control_redraws_the_chart_and_keys_stay_in_the_explorer(app, tmp_path, browser):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    with borrowed(browser, 1400, 1200, 180):
        open_notebook(browser, app, "explore.ipynb")
        first = wait(browser, CHART, 300, "the explorer's first chart")
        assert first["question"] == "funnel" and first["src"].startswith("data:image/png;base64,")
        root = browser.find_element("css selector", ".wb-explorer")
        browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", root)
        shot(browser, tmp_path, app["app"], "funnel")

        # -- a button of the question: the lifecycle's chart, its table, its code ----------------------
        root.find_element("xpath", ".//button[normalize-space()='lifecycle']").click()
        life = chart_after(browser, first["revision"], "the lifecycle's chart", "lifecycle")
        assert life["src"] != first["src"]
        assert "wt.lifecycle(events" in kernel(browser, "print(explorer.code)")
        table = root.find_element("css selector", ".wb-explorer-table").text
        assert "resurrecting" in table and "dormant" in table
        shot(browser, tmp_path, app["app"], "lifecycle")

        # -- a menu: the period, by week ------------------------------------------------------------------
        period = root.find_element("xpath", ".//div[contains(@class, 'widget-dropdown')][.//label[normalize-space()="
                                            "'period']]//select")
        Select(period).select_by_visible_text("7D")
        weekly = chart_after(browser, life["revision"], "the weekly lifecycle")
        assert weekly["src"] != life["src"]
        assert kernel(browser, "print(explorer.settings.period)") == "7D"

        # -- keys pressed in the explorer are the explorer's: the notebook stays as it was -------------
        before = notebook_cells(browser)
        browser.execute_script("arguments[0].focus()", period)
        # in command mode: d d deletes the cell, r makes it raw, m markdown, a and b insert cells, x cuts, z undoes
        for key in (Keys.ESCAPE, "d", "d", "r", "m", "a", "b", "x", "z", "y", "c", "v"):
            ActionChains(browser).send_keys(key).perform()
        # the last key moves the menu (keys arrive in order): once its redraw is there, every key before it was seen
        ActionChains(browser).send_keys(Keys.ARROW_UP).perform()
        moved = chart_after(browser, weekly["revision"], "the redraw of the menu's last key")
        assert moved["revision"] > weekly["revision"]
        assert notebook_cells(browser) == before, "a key pressed in the explorer changed the notebook"
        assert len(browser.find_elements("css selector", ".wb-explorer")) == 1
        shot(browser, tmp_path, app["app"], "keys")
