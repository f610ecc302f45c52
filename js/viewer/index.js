// The AvatarViewer's front-end: three.js draws the avatar in the browser (WebGL).
//
// Bundled with three.js by esbuild (package.json's "build", run by the Python build backend) into
// workbench/widgets/static/viewer.js, shipped inside the wheel; the widget's module (loader.js) gets
// it from the kernel as a binary buffer, so nothing is fetched from any host. When the kernel asks for
// it (renderer="kernel"), the kernel draws the frames (kernel_frames.js); without WebGL, the page says so.
//
// core.js is the renderer, the scene, the loop and the dispose; each feature below builds its own
// controls, listens to its own events and keys, and may tick every frame (core.js says how).

import { Viewer, webglAvailable } from "./core.js";
import { el } from "./dom.js";
import { camera } from "./features/camera.js";
import { compare } from "./features/compare.js";
import { kernelLink } from "./features/kernel.js";
import { levelOfDetail } from "./features/lod.js";
import { look } from "./features/look.js";
import { morphs } from "./features/morphs.js";
import { timeline } from "./features/timeline.js";
import kernelFrames from "./kernel_frames.js";

// In the order their controls appear; the kernel link last, as it asks for the model the others wait for.
const FEATURES = [timeline, camera, look, morphs, levelOfDetail, compare, kernelLink];

// The page's live viewers by widget (viewer_id): when JupyterLab draws an output again because the
// kernel updated its still, the new view takes the viewer its old view showed (now out of the page).
const live = (globalThis.__wbAvatarViewers ||= new Map());
// How many views of each widget this page shows, and the notebook each is in.
const shownHere = (globalThis.__wbAvatarViewerCounts ||= new Map());
const GONE_MS = 1000;  // a view closed this long ago and none of the same widget since: the widget goes

// Count a view of the widget; the function its end calls. When the page has shown none of it for a
// moment while its notebook is still open (the output cleared, the cell run again), the kernel is told,
// and closes the widget (workbench/widgets/still.py); a notebook closed says nothing (its kernel may
// show it again in a notebook opened again).
function counted(id, host, send) {
  if (!id) return () => {};
  shownHere.set(id, (shownHere.get(id) || 0) + 1);
  // The view is drawn before its output joins the page: its notebook is found once it has.
  let notebook = null, ended = false;
  const find = () => {
    notebook = host.closest(".jp-Notebook");
    if (!notebook && !ended) setTimeout(find, 250);
  };
  find();
  return () => {
    ended = true;
    shownHere.set(id, shownHere.get(id) - 1);
    setTimeout(() => {
      if (shownHere.get(id) || !notebook || !notebook.isConnected) return;
      shownHere.delete(id);
      try { send({ type: "gone" }); } catch (e) { /* the widget is closed already */ }
    }, GONE_MS);
  };
}

function render({ model, el: host }) {
  if (model.get("renderer") === "kernel") {
    const closed = counted(model.get("viewer_id"), host, msg => model.send(msg));
    const stop = kernelFrames.render({ model, el: host });
    return () => { stop(); closed(); };
  }
  if (!webglAvailable()) {
    // The kernel decides who draws (a page may not switch it to drawing frames): say how.
    const note = el("div", { className: "wb-avatar-viewer wb-av-nowebgl", textContent: "This browser has no WebGL, so "
      + "the viewer cannot draw here; viewer.renderer = \"kernel\" in the notebook has the kernel draw its frames." });
    host.append(note);
    return () => note.remove();
  }
  const id = model.get("viewer_id"), shown = live.get(id);
  if (shown && !shown.disposed && !shown.root.isConnected) return shown.adopt(model, host);
  const v = new Viewer(model, host, FEATURES);
  v.onDispose(counted(id, host, msg => v.model.send(msg)));
  if (id) {
    live.set(id, v);
    v.onDispose(() => { if (live.get(id) === v) live.delete(id); });
  }
  return v.release();
}

export default { render };
