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

function render({ model, el: host }) {
  if (model.get("renderer") === "kernel") return kernelFrames.render({ model, el: host });
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
  if (id) {
    live.set(id, v);
    v.onDispose(() => { if (live.get(id) === v) live.delete(id); });
  }
  return v.release();
}

export default { render };
