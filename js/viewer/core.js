// The three.js viewer's core: the page's frame of controls, the renderer, the scene, the render loop
// and the dispose. Everything a person can touch is a feature (features/*.js), installed in order
// by index.js: each builds its own controls, listens to its own events and keys, and may run a
// per-frame tick; the core owns none of that.
//
// What a feature gets (model-viewer's features and three.js's editor signals, in small):
//   v.place(node)               its controls, in the viewer's column, in install order
//   v.beside(node)              controls to use while watching the canvas (the morph sliders, open): beside
//                               it, below it where the output is too narrow for both; v.place moves them back
//   v.on(traitlet, fn)          a traitlet's changes (`change:name`), dropped at dispose
//   v.listen(target, type, fn)  a DOM listener, removed at dispose
//   v.key(keys, fn)             keys the viewer answers while it has focus ("r", "ArrowLeft"...)
//   v.tick(fn)                  fn(t) every frame before drawing, t = {now, dt, ms, moving}
//   v.signal(name, fn), v.emit  the page's own events: "model" (the GLB parsed), "meshes" (more meshes
//                               to pose and look), "idle" (nothing to draw), "draw" (about to draw), "drawn"
//   v.set(values)               traitlets the page changed, sent to the kernel
//   v.onDispose(fn)             what else to release
// The viewer keeps what more than one feature reads: the model (gltf, meshes, bones), its framing
// (box, center, radius, distance), the dirty flag and the pose's version.

import * as THREE from "three";
import { CpuPose } from "./cpu_pose.js";
import { el, keepKeys } from "./dom.js";

export const FOV = 30;
// Moving frames on a software GPU (movingRatio, keepPace): about this many pixels at first, a share of
// the still view's resolution within MOVING_SCALE; a moving frame costing under PACE_MS[0] ms (the next
// animation frame comes that soon): more pixels, over PACE_MS[1]: fewer (30 frames a second is 33 ms, the
// display's frames 16.7 ms apart). bench/RESULTS.md, issue 48.
const MOVING_PIXELS = 48000;
const MOVING_SCALE = [0.2, 0.6];
const PACE_MS = [22, 36];
const PACE_EVERY_MS = 400;  // the pace is weighed this often at most
const SLOW_MS = 40;  // a graphics card's moving frames this far apart (under 25 a second): half the pixels
const HEIGHT_FULLSCREEN_LESS = 140;  // the toolbars' share of the screen in fullscreen
// Nothing drawn or moving this long (well past features/kernel.js's SETTLE_MS, which sends the settled
// view's picture from the idle frames): the frame loop stops until something wakes it (Viewer.wake). A
// still viewer asking for every animation frame cost its page about 8 % of a core on a software GPU
// (docs/testing.md, suite39), for nothing, in every notebook with a viewer left open.
const SLEEP_AFTER_MS = 1000;

// Keys a focused control answers itself: the viewer leaves them to it (they never reach the notebook).
const OWN_KEYS = {
  SELECT: () => true,
  BUTTON: k => k === " " || k === "Enter",
  SUMMARY: k => k === " " || k === "Enter",
  INPUT: (k, t) => t.type === "range" ? /^(Arrow|Home|End|Page)/.test(k)
    : t.type === "checkbox" ? k === " " : true,
};

let gpu = null;
// Whether the page has WebGL, and whether it is a software GPU (SwiftShader, llvmpipe: no graphics
// card), where posing moves to the CPU (cpu_pose.js) and moving frames to half the pixels. Asked once
// per page, on a context released at once.
function gpuInfo() {
  if (gpu === null) {
    gpu = { webgl: false, software: false };
    try {
      const gl = document.createElement("canvas").getContext("webgl2") || document.createElement("canvas").getContext("webgl");
      const info = gl && gl.getExtension("WEBGL_debug_renderer_info");
      gpu.webgl = !!gl;
      gpu.software = !!info && /swiftshader|llvmpipe|software|softpipe/i.test(gl.getParameter(info.UNMASKED_RENDERER_WEBGL));
      const lose = gl && gl.getExtension("WEBGL_lose_context");
      if (lose) lose.loseContext();
    } catch (e) {
      gpu.webgl = false;
    }
  }
  return gpu;
}
export const webglAvailable = () => gpuInfo().webgl;
export const softwareGpu = () => gpuInfo().software;

// The widget's model as the features use it. anywidget gives each view of a widget its own handle, and
// JupyterLab draws an output again (a new view) when the kernel updates its still: the viewer moves
// to the new view (Viewer.adopt), its listeners with it, rather than loading the model again.
class ModelLink {
  constructor(model) {
    this.model = model;
    this.handlers = [];
  }
  get(name) { return this.model.get(name); }
  set(...args) { return this.model.set(...args); }
  save_changes() { return this.model.save_changes(); }
  send(...args) { return this.model.send(...args); }
  on(event, fn) {
    this.model.on(event, fn);
    this.handlers.push([event, fn]);
  }
  off(event, fn) {
    this.model.off(event, fn);
    this.handlers = this.handlers.filter(([e, f]) => e !== event || f !== fn);
  }
  rebind(model) {
    for (const [e, f] of this.handlers) { this.model.off(e, f); model.on(e, f); }
    this.model = model;
  }
}

export class Viewer {
  constructor(model, host, features) {
    this.model = new ModelLink(model);
    this.rules = model.get("rules");
    this.loop = this.loop.bind(this);
    this.dispose = this.dispose.bind(this);
    this.cleanups = [];
    this.keys = new Map();
    this.ticks = [];
    this.signals = new Map();
    this.raf = undefined;  // the next animation frame asked for; null while the loop sleeps
    this.dirty = true;
    this.poseVersion = 0;
    this.paceScale = 1;  // keepPace's correction of the moving frames' resolution
    this.frames = 0;
    this.meshes = [];
    this.buildDom(host);
    this.buildScene();
    for (const install of features) install(this);
    this.listenKeys();
    this.raf = requestAnimationFrame(this.loop);
  }

  // -- what features use --------------------------------------------------------------------------
  place(...nodes) {
    this.panel.append(...nodes);
    this.side.hidden = !this.side.childElementCount;
  }
  beside(...nodes) {
    this.side.append(...nodes);
    this.side.hidden = !this.side.childElementCount;
  }
  toolbar(...kids) {
    const bar = el("div", { className: "wb-av-toolbar" }, kids);
    this.place(bar);
    return bar;
  }
  // A traitlet's change and a DOM event the viewer listens to wake the frame loop first: a tick may read
  // what they changed (a clip's playing, a slider's time) without the handler asking for a frame.
  on(name, fn) {
    const woken = (...args) => { this.wake(); return fn(...args); };
    this.model.on(`change:${name}`, woken);
    this.onDispose(() => this.model.off(`change:${name}`, woken));
  }
  listen(target, type, fn, options) {
    const woken = (...args) => { this.wake(); return fn(...args); };
    target.addEventListener(type, woken, options);
    this.onDispose(() => target.removeEventListener(type, woken, options));
  }
  key(keys, fn) { for (const k of [].concat(keys)) this.keys.set(k, fn); }
  tick(fn) { this.ticks.push(fn); }
  signal(name, fn) {
    if (!this.signals.has(name)) this.signals.set(name, []);
    this.signals.get(name).push(fn);
  }
  emit(name, ...args) { for (const fn of this.signals.get(name) || []) fn(...args); }
  set(values) {
    this.model.set(values);
    this.model.save_changes();
  }
  data(values) {
    const d = this.root.dataset;
    for (const [k, v] of Object.entries(values)) if (d[k] !== v) d[k] = v;
  }
  onDispose(fn) { this.cleanups.push(fn); }
  redraw() { this.dirty = true; }
  // Whatever asks for a frame (``dirty = true`` from a feature, a test or bench/viewer.py) wakes the loop.
  get dirty() { return this._dirty; }
  set dirty(value) {
    this._dirty = value;
    if (value) this.wake();
  }
  // The frame loop asked for again if it sleeps; its clock restarts, as after a hidden tab (no jump).
  wake() {
    if (this.raf !== null || this.disposed) return;
    this.last = undefined;
    this.raf = requestAnimationFrame(this.loop);
  }
  posed() { this.poseVersion++; this.dirty = true; }
  say(text) {
    this.notice = text;
    this.readout.textContent = text;
  }

  // -- the page -----------------------------------------------------------------------------------
  buildDom(host) {
    this.stage = el("div", { className: "wb-av-stage", title: "drag: orbit · right or shift drag: pan · wheel: zoom toward the pointer · double-click: reset · keys: ? " });
    this.label = el("div", { className: "wb-av-label" });
    // Beside the canvas, what a person changes while watching it (a face slider moved with the face in view).
    this.side = el("div", { className: "wb-av-side", hidden: true });
    this.panel = el("div", { className: "wb-av-panel" });
    this.readout = el("div", { className: "wb-av-readout" });
    this.root = el("div", { className: "wb-avatar-viewer wb-av-webgl", tabIndex: 0 },
      [this.label, el("div", { className: "wb-av-main" }, [this.stage, this.side]), this.panel, this.readout]);
    this.root.dataset.renderer = "webgl";
    this.root.dataset.ready = "0";
    this.root.wbViewer = this;  // for the browser tests and bench/viewer.py
    host.append(this.root);
    const showLabel = () => {
      this.label.textContent = this.model.get("label");
      this.label.hidden = !this.model.get("label");
      this.root.style.setProperty("--wb-av-height", `${this.model.get("size")}px`);
    };
    showLabel();
    this.on("label", showLabel);
    this.on("size", () => { showLabel(); this.resize(); });
  }

  buildScene() {
    // A software GPU pays 2 to 4 times a frame for MSAA (bench/RESULTS.md); a graphics card keeps it.
    this.software = softwareGpu();
    const renderer = this.renderer = new THREE.WebGLRenderer({ antialias: !this.software, alpha: false });
    renderer.setPixelRatio(window.devicePixelRatio || 1);
    renderer.outputColorSpace = THREE.SRGBColorSpace;
    // Khronos PBR Neutral, the tone mapping the contract's colours are shown under (section 5): a light skin keeps
    // its hue where it is brightest (no tone mapping clipped it channel by channel; ACES filmic greys it, review F #5).
    renderer.toneMapping = THREE.NeutralToneMapping;
    this.canvas = renderer.domElement;
    this.canvas.className = "wb-av-canvas";
    this.stage.prepend(this.canvas);
    this.scene = new THREE.Scene();
    this.camera = new THREE.PerspectiveCamera(FOV, 1, 0.01, 100);
    this.camera.position.set(0, 1, 4);
    const resizer = new ResizeObserver(() => this.resize());
    resizer.observe(this.stage);
    this.onDispose(() => resizer.disconnect());
    this.listen(document, "fullscreenchange", () => this.resize());
    this.listen(document, "visibilitychange", () => { this.last = undefined; });  // no jump after a hidden tab
    let dpr = null;
    const watchDpr = () => {
      dpr = matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`);
      dpr.addEventListener("change", onDpr, { once: true });
    };
    const onDpr = () => { this.resize(); watchDpr(); };
    watchDpr();
    this.onDispose(() => dpr.removeEventListener("change", onDpr));
    this.resize();
  }

  // The model as parsed (the kernel link calls this): its meshes, framing and, on a software GPU,
  // its CPU posing; then every feature's "model" signal.
  setModel(gltf) {
    this.gltf = gltf;
    const avatar = gltf.scene;
    avatar.traverse(o => {
      if (o.isMesh) {
        o.frustumCulled = false;  // skinned meshes move outside their bind-pose bounds
        o.userData.material = o.material;
        this.meshes.push(o);
      }
    });
    this.bones = [];
    avatar.traverse(o => { if (o.isBone && o.name) this.bones.push(o); });
    this.root.dataset.bones = String(this.bones.length);
    this.scene.add(avatar);
    // A software GPU spends a frame in the vertex shader (skinning, 52 morph targets): there the CPU
    // poses the meshes, once per pose (cpu_pose.js).
    if (this.software) this.cpuPose = new CpuPose(avatar, this.scene);
    // Framing: the bind pose's bounds; the camera's distance for zoom 1 shows all of it.
    const box = this.box = new THREE.Box3().setFromObject(avatar);
    this.center = box.getCenter(new THREE.Vector3());
    this.radius = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 0.01);
    this.distance = this.radius / Math.sin(THREE.MathUtils.degToRad(FOV / 2)) * 1.02;
    this.emit("model", gltf);
    this.dirty = true;
    this.root.dataset.ready = "1";
  }

  // More meshes to pose and look (a lighter level of detail bound to the same skeleton).
  addMeshes(meshes) {
    for (const o of meshes) o.userData.material = o.material;
    this.meshes.push(...meshes);
    this.emit("meshes", meshes);
  }

  // -- keys: every key typed in the viewer stays in it (dom.js, keepKeys) ----------------------------
  listenKeys() {
    // The element that has focus in the viewer, kept while the viewer is out of the page (adopt gives
    // it focus again); forgotten when focus moves elsewhere on the page.
    this.listen(this.root, "focusin", e => { this.focused = e.target; });
    this.listen(this.root, "focusout", () => queueMicrotask(() => {
      if (this.root.isConnected && !this.root.contains(document.activeElement)) this.focused = null;
    }));
    this.onDispose(keepKeys(this.root, e => {
      this.wake();
      const t = e.target, own = t !== this.root && OWN_KEYS[t.tagName];
      const act = this.keys.get(e.key) || this.keys.get(e.key.toLowerCase());
      if (act && !(own && own(e.key, t)) && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        act(e);
      }
      this.root.dataset.lastKey = e.key;
    }));
  }

  // -- drawing ------------------------------------------------------------------------------------
  resize() {
    if (!this.root.isConnected) return;  // an output out of the page (redrawn, or scrolled away) keeps its size
    const full = document.fullscreenElement === this.root;
    const w = Math.max(64, Math.floor(this.stage.clientWidth || 512));
    const h = full ? Math.max(64, window.innerHeight - HEIGHT_FULLSCREEN_LESS) : Math.min(this.model.get("size"), Math.round(w * 1.5));
    this.renderer.setPixelRatio(window.devicePixelRatio || 1);
    this.renderer.setSize(w, h, true);
    this.width = w;
    this.height = h;
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.root.dataset.canvas = `${w}x${h}@${window.devicePixelRatio || 1}`;
    this.root.style.setProperty("--wb-av-canvas-height", `${h}px`);
    this.dirty = true;
  }

  loop(ms) {
    this.raf = requestAnimationFrame(this.loop);
    if (this.root.dataset.sleeping) delete this.root.dataset.sleeping;
    if (this.refocus && this.root.isConnected) this.giveFocusBack();
    // Real time however slow the frames (a clip plays at its speed); a tab in the background gets
    // no frames, and its return restarts the clock rather than jumping.
    const now = ms / 1000, dt = this.last === undefined ? 0 : now - this.last;
    this.last = now;
    // A moving frame's cost, as the page paid it: this animation frame came that long after the one
    // that drew it (waiting for input between two moves is not counted, as the next animation frame
    // comes on time then).
    if (this.drewMoving && dt > 0 && dt < 1) {
      this.frameMs = this.frameMs === undefined ? dt * 1000 : 0.7 * this.frameMs + 0.3 * dt * 1000;
      this.keepPace();
    }
    this.drewMoving = false;
    if (!this.gltf) {
      // No model yet (loading, or its load failed): nothing to draw, so the loop sleeps until setModel's
      // first frame wakes it (code review 39: a failed load asked for frames for ever).
      if (!this.refocus) {
        cancelAnimationFrame(this.raf);
        this.raf = null;
        this.root.dataset.sleeping = "1";
      }
      return;
    }
    const t = { now, dt, ms, moving: false };
    for (const tick of this.ticks) tick(t);
    if (!this.dirty) {
      this.emit("idle", t);
      // The still view, drawn again at full resolution once a motion drawn at half has stopped (a
      // slider dragged draws only when it moves: between two moves the view is not yet still).
      if (!this.sharp && !t.moving) { this.dirty = true; this.still = true; }
      // Nothing has moved or been drawn for a while, and no control waits for focus: sleep until woken.
      else if (!t.moving && !this.dirty && !this.refocus && ms - this.lastRender > SLEEP_AFTER_MS) {
        cancelAnimationFrame(this.raf);
        this.raf = null;
        this.root.dataset.sleeping = "1";
      }
      return;
    }
    this.dirty = false;
    // While the view moves on a slow GPU, frames are drawn with fewer pixels (movingRatio); the still
    // view is drawn again at full resolution.
    const moving = t.moving && !this.still;
    this.still = false;
    if (moving && this.lastMotion !== undefined && ms - this.lastMotion < 2000) {
      const since = ms - this.lastMotion;
      this.interval = this.interval === undefined ? since : 0.8 * this.interval + 0.2 * since;
    }
    this.lastMotion = moving ? ms : undefined;
    this.drewMoving = moving;
    this.setRatio(moving ? this.movingRatio() : 1);
    if (moving) this.root.dataset.movingRatio = String(this.renderer.getPixelRatio());
    this.emit("draw", moving);
    this.draw(moving);
    this.lastRender = ms;
    this.sharp = this.renderer.getPixelRatio() === (window.devicePixelRatio || 1);
    this.frames += 1;
    const d = this.root.dataset;
    d.frames = String(this.frames);
    d.frameTime = String(performance.now());
    if (this.frames === 1) d.firstFrameAt = d.frameTime;
    this.emit("drawn", t);
  }

  // One draw of the scene as it stands; on a software GPU the CPU poses the meshes first when the
  // pose (or the look) changed since the last draw, the lighter level while the view moves.
  draw(moving = false) {
    const pose = moving && this.lowPose ? this.lowPose : this.cpuPose;
    if (pose) {
      if (this.lowPose) {
        this.lowPose.group.visible = pose === this.lowPose;
        this.cpuPose.group.visible = pose === this.cpuPose;
      }
      if (pose.posedAt !== this.poseVersion) {
        pose.update(this.scene);
        pose.posedAt = this.poseVersion;
      }
    }
    this.renderer.render(this.scene, this.camera);
  }

  // The share of the still view's resolution a moving frame is drawn at. On a software GPU a frame's
  // cost is mostly per pixel (its drawing, then the canvas handed to the page's compositor): a moving
  // frame has about MOVING_PIXELS pixels, and the page scales it up; a graphics card draws moving
  // frames at full resolution while they keep 25 a second. Then the frames' pace decides (keepPace).
  movingRatio() {
    if (this.fixedMovingRatio) return this.fixedMovingRatio;  // bench/viewer.py's baseline: half, as before issue 48
    if (!this.software && !(this.frameMs > SLOW_MS)) return 1;
    const dpr = window.devicePixelRatio || 1;
    const base = this.software ? Math.sqrt(MOVING_PIXELS / Math.max(1, this.width * this.height)) / dpr : 0.5;
    const scale = Math.min(MOVING_SCALE[1], Math.max(MOVING_SCALE[0], base * this.paceScale));
    return Math.round(scale * 20) / 20;  // in steps: each new size reallocates the canvas's buffers
  }

  // Fewer pixels while moving frames cost more than 36 ms (under 30 a second could follow), more while
  // they cost less than 22: 30 frames a second held on a busy machine too, at the cost of the moving
  // frames' sharpness.
  keepPace() {
    const now = performance.now();
    if (now - (this.pacedAt || 0) < PACE_EVERY_MS) return;  // a new size costs a frame: not every frame
    this.pacedAt = now;
    if (this.frameMs > PACE_MS[1]) this.paceScale = Math.max(0.3, this.paceScale * 0.85);
    else if (this.frameMs < PACE_MS[0]) this.paceScale = Math.min(2, this.paceScale * 1.1);
  }

  setRatio(scale) {
    const ratio = (window.devicePixelRatio || 1) * scale;
    if (ratio !== this.renderer.getPixelRatio()) {
      this.renderer.setPixelRatio(ratio);
      this.renderer.setSize(this.width, this.height, false);
    }
  }

  // The canvas as a PNG, drawn at full resolution in the same task as it is read.
  picturePng() {
    this.setRatio(1);
    this.sharp = true;
    this.draw();
    return new Promise(ok => this.canvas.toBlob(ok, "image/png"));
  }

  // The function that closes this viewer, for the view that shows it now (a view it has left closes nothing).
  release() {
    const owner = this.owner = {};
    return () => { if (this.owner === owner) this.dispose(); };
  }

  // Show this viewer in a new view of the same widget (`model` its handle, `host` its element). The
  // control a person was on keeps focus: the old output left the page with it (the kernel updated the
  // still a moment after the view settled), which put focus on the page's body, and their next key
  // would have gone nowhere. The new output joins the page after this returns: the next frame gives
  // focus back once it has (loop).
  adopt(model, host) {
    this.model.rebind(model);
    host.append(this.root);
    this.refocus = this.focused;
    this.dirty = true;
    requestAnimationFrame(() => this.resize());  // sized for the output it joins, once it is in the page
    return this.release();
  }

  // Focus back on the element that had it before the viewer moved, unless the person has since put it elsewhere.
  giveFocusBack() {
    const el = this.refocus, active = document.activeElement;
    this.refocus = null;
    if (el && this.root.contains(el) && (!active || active === document.body)) el.focus({ preventScroll: true });
  }

  dispose() {
    this.disposed = true;
    cancelAnimationFrame(this.raf);
    for (const fn of this.cleanups.splice(0).reverse()) fn();
    // three.js shares one lookup texture (DFG_LUT) among all renderers, and each renderer that used it
    // keeps a listener on it, which keeps the renderer, its canvas and this viewer alive: disposed here,
    // it lets go of every listener, and a viewer still open uploads its 16 x 16 texels again.
    const shared = new Set();
    // What the GPU holds for the scene (geometry, textures, bone textures), and the decoded images.
    this.scene.traverse(o => {
      for (const m of [].concat(o.material || [])) {
        const lut = this.renderer.properties.get(m).uniforms?.dfgLUT?.value;
        if (lut) shared.add(lut);
      }
      if (o.geometry) o.geometry.dispose();
      if (o.skeleton) o.skeleton.dispose();
      for (const m of [].concat(o.material || [], o.userData.material || [])) {
        for (const t of Object.values(m)) {
          if (!t || !t.isTexture) continue;
          t.dispose();
          if (t.image && typeof t.image.close === "function") t.image.close();  // an ImageBitmap
        }
        m.dispose();
      }
    });
    this.scene.clear();
    for (const t of shared) t.dispose();
    this.renderer.dispose();
    this.renderer.forceContextLoss();
    this.root.remove();
  }
}
