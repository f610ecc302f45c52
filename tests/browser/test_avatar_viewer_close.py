"""A closed AvatarViewer lets go of everything: six viewers opened and
closed in turn (two each way: the widget closed from code, the output cleared, the cell run again) leave the page's
heap and DOM nodes where they were, no listener of the viewer's code alive, no viewer object alive,
no WebGL context alive and no warning about too many, nothing logged about an element Lab could not
remove, and no viewer left open in the kernel; the page holds one copy of the model's GLB, so a viewer
opened again gets none of it.

The page's heap and counters come from Chromium's DevTools protocol (after a garbage collection);
WebGL contexts are counted by a script run before the page's own (made, less those lost: a viewer
closing loses its context at once). The bytes the page receives are the WebSocket frames in
Chromium's performance log.

Listeners are counted by whose code added them, not by the page's total: that same script wraps
``addEventListener`` and ``removeEventListener`` and keeps, for each listener still registered, a weak
reference to its target and whether the code that added it is the widget's (modules the kernel sent,
loaded from ``blob:`` URLs: the viewer's bundle with three.js, and its loader). The page's own
listeners (JupyterLab's, Notebook 7's, anywidget's) are that same page's baseline: the total
Chromium counts may grow by them and by nothing else. On a loaded machine Lab keeps a whole
detached React root of a toolbar (131 listeners, one per event type React listens for) a while
longer, which the total alone took for the viewer's (+172 where +41 was usual); counted by whose
they are, the viewer's stay exact and Lab's are told apart.
"""

from __future__ import annotations

import contextlib

import pytest
from helpers import wait_for

from .conftest import WaitTimeout, wait
from .viewer_page import avatar_glb, kernel, notebook_browser, notebook_server, poll_kernel, received_bytes

# The feminine avatar with its walk (viewer_page.avatar_glb: built once per session, written beside the notebook).
CELLS = ["""\
from pathlib import Path
from workbench.widgets import AvatarViewer

glb = Path("avatar.glb").read_bytes()
print(len(glb))""", """\
v = AvatarViewer(glb, size=300, clip="walk", playing=True)
v"""]
# Six: each way of closing twice. One viewer kept cost 18 MB and 720 DOM nodes (issue 39) and every check below
# is exact or far under one viewer's cost, so a leak of one shows at any count; twenty proved no more, nor nine
# (suite19: three cycles fewer, about a third of the test's time). Twice a way, not once: a leak that comes
# one cycle in two or three (issue 48's element Lab failed to remove: 9 cycles in 22) still meets each way twice.
OPENS = 6
# The viewers the kernel still holds open (ipywidgets keeps every open widget).
OPEN_VIEWERS = ("from ipywidgets.widgets.widget import _instances; from workbench.widgets import AvatarViewer;"
                "print(sum(isinstance(w, AvatarViewer) for w in list(_instances.values())))")
WAYS = ("the widget closed", "the output cleared", "the cell run again")

COUNT_CONTEXTS = """
window.__wbContexts = {made: 0, lost: 0, most: 0};
const getContext = HTMLCanvasElement.prototype.getContext;
HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
  const fresh = !this.__wbCounted, ctx = getContext.call(this, type, ...rest);
  if (ctx && fresh && /webgl/.test(type)) {
    this.__wbCounted = true;
    const c = window.__wbContexts;
    c.made++;
    c.most = Math.max(c.most, c.made - c.lost);
    this.addEventListener('webglcontextlost', () => { c.lost++; }, {once: true});
  }
  return ctx;
};
// Every listener still registered, with a weak reference to its target: the widget's own (added by code
// from a blob: module) apart from the page's. A {once: true} listener leaves when it fires.
(() => {
  const records = window.__wbListeners = new Set(), byTarget = new WeakMap();
  const add = EventTarget.prototype.addEventListener, remove = EventTarget.prototype.removeEventListener;
  const slot = (target, type, options) => {
    let types = byTarget.get(target);
    if (!types) byTarget.set(target, types = new Map());
    const key = `${type}|${typeof options === 'boolean' ? options : !!(options && options.capture)}`;
    if (!types.has(key)) types.set(key, new Map());
    return types.get(key);
  };
  EventTarget.prototype.addEventListener = function (type, fn, options) {
    const fns = fn && slot(this, type, options);
    if (fns && !fns.has(fn)) {
      const record = {target: new WeakRef(this), widget: /blob:/.test(new Error().stack)};
      fns.set(fn, record);
      records.add(record);
      if (options && options.once) {
        record.fired = () => { fns.delete(fn); records.delete(record); };
        add.call(this, type, record.fired, {once: true, capture: typeof options === 'object' && !!options.capture});
      }
    }
    return add.call(this, type, fn, options);
  };
  EventTarget.prototype.removeEventListener = function (type, fn, options) {
    const fns = fn && slot(this, type, options), record = fns && fns.get(fn);
    if (record) {
      fns.delete(fn);
      records.delete(record);
      if (record.fired) remove.call(this, type, record.fired, {capture: typeof options === 'object' && !!options.capture});
    }
    return remove.call(this, type, fn, options);
  };
  window.__wbLiveListeners = () => {
    const out = {widget: 0, page: 0};
    for (const r of records) {
      if (r.target.deref()) out[r.widget ? 'widget' : 'page']++;
      else records.delete(r);
    }
    return out;
  };
})();
window.__wbOpened = [];
"""
RUN_CELL = """const nb = window.jupyterapp.shell.currentWidget.content;
nb.activeCellIndex = arguments[0]; window.jupyterapp.commands.execute(arguments[1]);"""
ONE_NEW_VIEWER = """const all = document.querySelectorAll('.wb-avatar-viewer');
const last = window.__wbLast && window.__wbLast.deref();
return all.length === 1 && all[0].wbViewer !== last && all[0].dataset.ready === '1'
  && parseInt(all[0].dataset.frames) > 2 && (window.__wbLast = new WeakRef(all[0].wbViewer), window.__wbOpened.push(window.__wbLast), true);"""


# In JupyterLab: closing is the widget's, the output area's and the outputs extension's, the same code in Notebook 7
# (viewer_page.APPS); Notebook 7 opens and draws viewers in test_avatar_viewer_lab.py and keeps a saved one's
# picture in test_viewer_reopened.py.
@pytest.fixture(scope="module", params=["lab"])
def page(request, notebook_apps):
    with notebook_server(notebook_apps, request.param, "close.ipynb", CELLS,
                         files={"avatar.glb": avatar_glb("feminine", animations=("walk",))}) as server, \
            notebook_browser(server, "close.ipynb", run_all=False, performance_log=True, first_script=COUNT_CONTEXTS,
                             extra_args=("--js-flags=--expose-gc",)) as browser:
        # Contexts and listeners counted from the page's first script on (the notebook is not loaded twice)
        yield browser, request.param


def measure(browser) -> dict:
    """The page's heap (MB), DOM nodes and event listeners after a garbage collection (the total Chromium
    counts, and those still registered by the widget's code and by the page's), its live contexts and
    the viewers opened that are still alive."""
    # A closed viewer's context is lost and its element gone a moment after it closes: waited for (a bound,
    # not a check: the numbers below say what stayed if they never come).
    with contextlib.suppress(WaitTimeout):
        wait(browser, "const c = window.__wbContexts; return c.made === c.lost && !document.querySelector('.wb-avatar-viewer');",
             60, "the closed viewers' contexts lost")  # 60 s for a loaded CI machine (30 before suite19)
    # And let go a moment after: a frame already asked for, or the moving frames' pace timer (js/viewer), holds
    # a closed viewer until it fires, which a loaded machine can put past the first collection. Collected until
    # no opened viewer is alive, within a bound (a leak stays past it, and the numbers below say so).
    def collected() -> bool:
        for _ in range(3):
            browser.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
        return browser.execute_script("return window.__wbOpened.filter(r => r.deref()).length") == 0

    wait_for(collected, timeout=60, every=0.5)  # 60 s for a loaded CI machine (30 before suite19)
    heap = browser.execute_cdp_cmd("Runtime.getHeapUsage", {})
    counters = browser.execute_cdp_cmd("Memory.getDOMCounters", {})
    contexts = browser.execute_script("return window.__wbContexts")
    registered = browser.execute_script("return window.__wbLiveListeners()")
    return {"heap_mb": heap["usedSize"] / 2**20, "nodes": counters["nodes"], "listeners": counters["jsEventListeners"],
            "widget_listeners": registered["widget"], "page_listeners": registered["page"],
            "live_viewers": browser.execute_script("return window.__wbOpened.filter(r => r.deref()).length"),
            "live_contexts": contexts["made"] - contexts["lost"], "most_contexts": contexts["most"]}


# The output's picture (image/png), once the kernel has put the page's own in it.
OUTPUT_PNG = """const o = window.jupyterapp.shell.currentWidget.content.model.cells.get(1).outputs.get(0);
return o && o.data['image/png'];"""


def open_viewer(browser):
    browser.execute_script(RUN_CELL, 1, "notebook:run-cell")
    wait(browser, ONE_NEW_VIEWER, 120, "a new viewer drawing")
    # As a person meets it: the page's picture sent (as the view settles, or the PNG button; the clip plays
    # here, so the test sends it) and put in the output by the kernel, which had Lab draw the output again
    # and double the widget's views before the outputs extension.
    first = browser.execute_script(OUTPUT_PNG)
    browser.execute_script("document.querySelector('.wb-avatar-viewer').wbViewer.sendPicture()")
    wait(browser, f"return (() => {{ {OUTPUT_PNG} }})() !== arguments[0]".replace("arguments[0]", repr(first)),
         60, "the page's picture in the output")


def close_viewer(browser, way: str):
    if way == "the widget closed":
        kernel(browser, "v.close()")
    elif way == "the output cleared":
        browser.execute_script(RUN_CELL, 1, "notebook:clear-cell-output")
    if way != "the cell run again":  # the next run replaces it
        wait(browser, "return document.querySelectorAll('.wb-avatar-viewer').length === 0", 60, f"the viewer gone ({way})")


def test_six_viewers_opened_and_closed_leave_nothing_behind(page):
    browser, app = page
    browser.execute_script(RUN_CELL, 0, "notebook:run-cell")
    glb_size = int(wait(browser, "const o = document.querySelector('.jp-OutputArea-output pre');"
                                 "return o && /^\\d+$/.test(o.textContent.trim()) && o.textContent.trim();", 180, "the GLB read"))
    # One viewer first: the bundle, the model's bytes, three.js's programs; then the page as it stands.
    open_viewer(browser)
    # The count sees a viewer's listeners (its controls', OrbitControls', the document's) while it is open.
    open_listeners = browser.execute_script("return window.__wbLiveListeners()")["widget"]
    assert open_listeners > 20, f"only {open_listeners} listeners counted as the open viewer's"
    close_viewer(browser, "the output cleared")
    before = measure(browser)
    received_bytes(browser)
    for i in range(OPENS):
        open_viewer(browser)
        close_viewer(browser, WAYS[i % len(WAYS)])
    close_viewer(browser, "the output cleared")
    sent = received_bytes(browser) / OPENS
    after = measure(browser)
    print(f"\n{app}: {OPENS} viewers of a {glb_size / 2**20:.1f} MB GLB opened and closed: before {before}, after {after}; "
          f"{sent / 1024:.0f} KiB received per viewer; {open_listeners} listeners of an open viewer's")
    assert after["live_contexts"] == 0, after
    assert after["most_contexts"] <= 2, f"{after['most_contexts']} WebGL contexts alive at once"
    # Each viewer kept 18 MB and 720 DOM nodes before issue 39; a widget not closed keeps its small state.
    assert after["heap_mb"] - before["heap_mb"] < 10, (before, after)
    assert after["nodes"] - before["nodes"] < 300, (before, after)
    # Not one listener of the viewer's code outlives its viewer, nor any viewer (the first one, kept by
    # nothing the test holds, included); what else the page's total gained is the page's own.
    assert after["widget_listeners"] == before["widget_listeners"], (before, after)
    assert after["live_viewers"] == 0, f"{after['live_viewers']} closed viewers are still alive"
    page_gained = after["page_listeners"] - before["page_listeners"]
    assert after["listeners"] - before["listeners"] - page_gained < 50, (before, after)
    assert sent < glb_size / 4, f"{sent:.0f} bytes a viewer: the model's GLB ({glb_size} bytes) went again"
    console = [e["message"] for e in browser.get_log("browser")]
    warnings = [m for m in console if "Too many active WebGL contexts" in m]
    assert not warnings, warnings
    # Lab emptied an output the kernel updated and drew a second view, then failed to remove the first
    # view's element when the output went (9 in 22 cycles, issue 48): the outputs extension keeps the view.
    removals = [m for m in console if "removeChild" in m or "NotFoundError" in m]
    assert not removals, removals[:3]
    # And the kernel let go of every viewer: closed from code, its output cleared, its cell run again.
    poll_kernel(browser, OPEN_VIEWERS, lambda out: out == "0")
