// The AvatarViewer's front-end: three.js draws the avatar in the browser (WebGL).
//
// Bundled with three.js by esbuild (package.json's "build", run by the Python build backend) into
// workbench/widgets/static/viewer.js, shipped inside the wheel; the widget's module (loader.js) gets
// it from the kernel as a binary buffer, so nothing is fetched from any host.
// The GLB bytes come from the kernel as the widget's binary buffers (a custom message answered by
// AvatarViewer._on_message), so a viewer works the same on the local service and a deployment.
// Without WebGL, or when the kernel asks for it (renderer="kernel"), the kernel draws the frames
// (kernel_frames.js, the viewer as it was).
//
// The kernel keeps the state code reads and sets (camera, clip, time, speed, look, morph weights);
// the page sends it when a gesture ends, never per frame, and sends back the canvas's picture when
// the view settles (the `frame` traitlet: what snapshot() returns and a saved notebook shows).

import * as THREE from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import kernelFrames from "../workbench/widgets/kernel_frames.js";
import { ContactShadow } from "./contact_shadow.js";
import { CpuPose } from "./cpu_pose.js";

const FOV = 30;
const FRAME_STEP = 1 / 30;          // the clips' key rate: one step is one key
const CROSSFADE_S = 0.3;
const SETTLE_MS = 400;              // the view this long unchanged: its picture goes to the kernel
const CAMERA_SEND_MS = 500;         // while the camera moves, the kernel learns it this often
const DAMPING = 0.25;
const SPEEDS = [0.25, 0.5, 1, 1.5, 2];
const FOCUS = ["full", "face", "hands", "feet"];
const VIEWS = { front: 0, side: 90, back: 180 };
const LIGHTS = ["studio", "outdoor", "flat"];
const HOVER_PX = 14;

// Presets over ARKit blendshape names (contract section 5): [[seconds, {name: weight}], ...].
const PRESETS = {
  blink: [[0, { eyeBlinkLeft: 0, eyeBlinkRight: 0 }], [0.08, { eyeBlinkLeft: 1, eyeBlinkRight: 1 }],
          [0.2, { eyeBlinkLeft: 0, eyeBlinkRight: 0 }]],
  smile: [[0, {}], [0.25, { mouthSmileLeft: 0.8, mouthSmileRight: 0.8, cheekSquintLeft: 0.3, cheekSquintRight: 0.3 }]],
  visemes: [  // "hello, world" roughly: rest, e, l, o, w, o, r, l, d, rest
    [0, {}], [0.12, { jawOpen: 0.25, mouthStretchLeft: 0.5, mouthStretchRight: 0.5 }],
    [0.24, { jawOpen: 0.2, tongueOut: 0.15 }], [0.38, { jawOpen: 0.35, mouthFunnel: 0.6 }],
    [0.5, { mouthPucker: 0.8, jawOpen: 0.1 }], [0.62, { jawOpen: 0.4, mouthFunnel: 0.5 }],
    [0.74, { jawOpen: 0.2, mouthRollLower: 0.3 }], [0.86, { jawOpen: 0.2, tongueOut: 0.15 }],
    [0.98, { mouthClose: 0.5, jawOpen: 0.15 }], [1.15, {}],
  ],
};

function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "dataset") Object.assign(node.dataset, v);
    else if (k in node) node[k] = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}
const button = (cls, text, title) => el("button", { className: `wb-av-btn ${cls}`, type: "button", textContent: text, title });
const check = (cls, label, title) => {
  const box = el("input", { className: cls, type: "checkbox" });
  return [box, el("label", { title }, [box, ` ${label}`])];
};
const select = (cls, options, title) => el("select", { className: cls, title },
  options.map(([v, t]) => el("option", { value: String(v), textContent: t })));
const round = (x, d) => Math.round(x * 10 ** d) / 10 ** d;

function webglAvailable() {
  try {
    const c = document.createElement("canvas");
    return !!(c.getContext("webgl2") || c.getContext("webgl"));
  } catch (e) {
    return false;
  }
}

let software = null;
function softwareGpu() {
  if (software === null) {
    try {
      const gl = document.createElement("canvas").getContext("webgl2") || document.createElement("canvas").getContext("webgl");
      const info = gl && gl.getExtension("WEBGL_debug_renderer_info");
      software = !!info && /swiftshader|llvmpipe|software|softpipe/i.test(gl.getParameter(info.UNMASKED_RENDERER_WEBGL));
      const lose = gl && gl.getExtension("WEBGL_lose_context");
      if (lose) lose.loseContext();
    } catch (e) {
      software = false;
    }
  }
  return software;
}

// Viewers sharing a camera (compare()): one registry per page, whichever bundle copy loads first.
const groups = (globalThis.__wbAvatarViewerGroups ||= new Map());

function render({ model, el: host }) {
  if (model.get("renderer") === "kernel" || !webglAvailable()) {
    if (model.get("renderer") !== "kernel") {
      model.set({ renderer: "kernel", notice: "no WebGL in this browser: the kernel draws the frames" });
      model.save_changes();
    }
    return kernelFrames.render({ model, el: host });
  }
  return new Viewer(model, host).dispose;
}

class Viewer {
  constructor(model, host) {
    this.model = model;
    this.dispose = this.dispose.bind(this);
    this.handlers = [];
    this.frames = 0;
    this.dirty = true;
    this.clips = new Map();          // name -> AnimationClip
    this.pending = new Map();        // clip name -> waiting for its GLB
    this.morphMeshes = [];
    this.morphNames = [];
    this.preset = null;
    this.buildDom(host);
    this.buildScene();
    this.listen();
    this.raf = requestAnimationFrame(this.loop.bind(this));
    this.root.dataset.renderer = "webgl";
    this.root.wbViewer = this;  // for the browser tests and bench/viewer.py
    this.root.dataset.ready = "0";
    this.model.send({ type: "load" });
  }

  // -- the page -----------------------------------------------------------------------------------
  buildDom(host) {
    const m = this.model;
    this.canvasBox = el("div", { className: "wb-av-stage", title: "drag: orbit · right or shift drag: pan · wheel: zoom toward the pointer · double-click: reset · keys: ? " });
    this.tip = el("div", { className: "wb-av-tip" });
    this.picture = el("img", { className: "wb-av-still", alt: "the last frame" });  // until the model arrives
    this.canvasBox.append(this.picture, this.tip);
    this.label = el("div", { className: "wb-av-label" });

    this.focus = select("wb-av-focus", FOCUS.map(f => [f, f === "full" ? "full body" : f]), "focus");
    this.viewButtons = Object.keys(VIEWS).map(v => {
      const b = button(`wb-av-view wb-av-view-${v}`, v, `${v} view`);
      b.dataset.view = v;
      return b;
    });
    [this.autoRotate, this.autoRotateLabel] = check("wb-av-autorotate", "turn", "auto-rotate");
    this.reset = button("wb-av-reset", "reset", "reset the camera (double-click)");
    this.full = button("wb-av-fullscreen", "fullscreen", "fullscreen (Esc leaves)");
    this.shot = button("wb-av-screenshot", "PNG", "save a screenshot (PNG)");

    this.light = select("wb-av-light", LIGHTS.map(l => [l, l]), "light");
    this.background = el("input", { className: "wb-av-background", type: "color", title: "background" });
    [this.shadow, this.shadowLabel] = check("wb-av-shadow", "shadow", "ground shadow");
    [this.wire, this.wireLabel] = check("wb-av-wireframe", "wireframe", "wireframe");
    [this.normals, this.normalsLabel] = check("wb-av-normals", "normals", "shade by normals");
    [this.skeleton, this.skeletonLabel] = check("wb-av-skeleton", "skeleton", "skeleton; hover a joint for its name");

    this.clip = el("select", { className: "wb-av-clip", title: "clip" });
    this.play = button("wb-av-play", "▶", "play / pause (space)");
    this.back = button("wb-av-step-back", "‹", "one frame back (,)");
    this.fwd = button("wb-av-step", "›", "one frame on (.)");
    this.time = el("input", { className: "wb-av-time", type: "range", min: 0, max: 1, step: 0.001, value: 0, title: "time" });
    this.timeLabel = el("span", { className: "wb-av-timelabel" });
    this.speed = select("wb-av-speed", SPEEDS.map(s => [s, `${s}x`]), "speed");
    [this.loopBox, this.loopLabel] = check("wb-av-loop", "loop", "loop");

    this.morphBox = el("details", { className: "wb-av-morphs" });
    this.morphSummary = el("summary", { textContent: "morph targets" });
    this.presetBar = el("div", { className: "wb-av-presets" });
    this.sliders = el("div", { className: "wb-av-sliders" });
    this.morphBox.append(this.morphSummary, this.presetBar, this.sliders);
    this.morphBox.hidden = true;

    this.readout = el("div", { className: "wb-av-readout" });
    const bar = (...kids) => el("div", { className: "wb-av-toolbar" }, kids);
    this.root = el("div", { className: "wb-avatar-viewer wb-av-webgl", tabIndex: 0, "data-lm-suppress-shortcuts": "true" }, [
      this.label, this.canvasBox,
      bar(this.clip, this.back, this.play, this.fwd, this.time, this.timeLabel, this.speed, this.loopLabel),
      bar(this.focus, ...this.viewButtons, this.autoRotateLabel, this.reset, this.full, this.shot),
      bar(this.light, this.background, this.shadowLabel, this.wireLabel, this.normalsLabel, this.skeletonLabel),
      this.morphBox, this.readout,
    ]);
    host.append(this.root);
  }

  buildScene() {
    // A software GPU (SwiftShader, llvmpipe: no graphics card) pays 2 to 4 times a frame for MSAA
    // (measured, bench/RESULTS.md); a graphics card keeps it.
    this.software = softwareGpu();
    const renderer = this.renderer = new THREE.WebGLRenderer({ antialias: !this.software, alpha: false });
    renderer.setPixelRatio(window.devicePixelRatio || 1);
    this.poseVersion = 0;
    renderer.outputColorSpace = THREE.SRGBColorSpace;
    this.canvas = renderer.domElement;
    this.canvas.className = "wb-av-canvas";
    this.canvasBox.prepend(this.canvas);

    this.scene = new THREE.Scene();
    this.camera = new THREE.PerspectiveCamera(FOV, 1, 0.01, 100);
    this.camera.position.set(0, 1, 4);
    this.lights = new THREE.Group();
    this.scene.add(this.lights);
    // The ground shadow's plane; its material comes with the model's skeleton (contact_shadow.js).
    this.ground = new THREE.Mesh(new THREE.PlaneGeometry(1, 1), new THREE.MeshBasicMaterial({ visible: false }));
    this.ground.rotation.x = -Math.PI / 2;
    this.scene.add(this.ground);
    this.normalMaterial = new THREE.MeshNormalMaterial();

    const controls = this.controls = new OrbitControls(this.camera, this.canvas);
    controls.enableDamping = true;
    controls.dampingFactor = DAMPING;
    controls.screenSpacePanning = true;
    controls.zoomToCursor = true;
    controls.autoRotateSpeed = 4;
    controls.addEventListener("change", () => { this.dirty = true; this.cameraMoved = true; });
    controls.addEventListener("end", () => this.sendCamera());
    controls.addEventListener("start", () => { this.leading = true; });  // the view a person moves leads its group

    this.resizer = new ResizeObserver(() => this.resize());
    this.resizer.observe(this.canvasBox);
    this.resize();
    this.applyLook();
  }

  // -- the model and its clips arrive from the kernel -------------------------------------------
  onMessage(msg, buffers) {
    if (msg.type === "model" && !this.gltf) {
      this.parse(buffers[0]).then(gltf => this.setModel(gltf), e => this.fail("the model", e));
    } else if (msg.type === "clip" && this.pending.has(msg.name)) {
      this.parse(buffers[0]).then(g => {
        const clip = g.animations[0];
        if (!clip) throw new Error(`no animation in the GLB of clip ${msg.name}`);
        clip.name = msg.name;
        this.clips.set(msg.name, clip);
        this.pending.delete(msg.name);
        if (this.model.get("clip") === msg.name) this.showClip();
      }).catch(e => this.fail(`clip ${msg.name}`, e));
    } else if (msg.type === "lod" && this.gltf && !this.lowPose) {
      this.parse(buffers[0]).then(g => this.setMovingLod(g, msg.level), e => this.fail(`LOD ${msg.level}`, e));
    } else if (msg.type === "error") {
      this.say(msg.message);
    }
  }

  parse(view) {
    const buf = view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength);
    return new Promise((ok, no) => new GLTFLoader().parse(buf, "", ok, no));
  }

  fail(what, e) {
    this.say(`could not read ${what}: ${e && e.message || e}`);
    this.root.dataset.error = String(e && e.message || e);
  }

  setModel(gltf) {
    this.gltf = gltf;
    const avatar = gltf.scene;
    const meshes = [];
    avatar.traverse(o => {
      if (o.isMesh) {
        o.frustumCulled = false;  // skinned meshes move outside their bind-pose bounds
        o.userData.material = o.material;
        meshes.push(o);
        if (o.morphTargetDictionary) this.morphMeshes.push(o);
      }
    });
    this.meshes = meshes;
    this.scene.add(avatar);
    // A software GPU spends a frame in the vertex shader (skinning, 52 morph targets, twice with the
    // shadow): there the CPU poses the meshes, once per pose (cpu_pose.js).
    if (this.software) this.cpuPose = new CpuPose(avatar, this.scene);
    for (const c of gltf.animations) this.clips.set(c.name, c);
    this.mixer = new THREE.AnimationMixer(avatar);

    // Framing: the bind pose's bounds; the camera's distance for zoom 1 shows all of it.
    const box = new THREE.Box3().setFromObject(avatar);
    this.box = box;
    this.center = box.getCenter(new THREE.Vector3());
    this.radius = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 0.01);
    this.distance = this.radius / Math.sin(THREE.MathUtils.degToRad(FOV / 2)) * 1.02;
    this.controls.minDistance = this.radius * 0.03;
    this.controls.maxDistance = this.distance * 8;
    this.camera.near = this.radius / 200;
    this.camera.far = this.distance * 20;
    this.camera.updateProjectionMatrix();
    // The ground only as large as the shadow can reach (its canvas's texels stay small).
    this.groundSize = this.radius * 1.6;
    this.ground.scale.set(this.groundSize, this.groundSize, 1);
    this.ground.position.set(this.center.x, box.min.y, this.center.z);

    this.skeletonHelper = new THREE.SkeletonHelper(avatar);
    this.skeletonHelper.visible = false;
    this.scene.add(this.skeletonHelper);
    this.bones = this.skeletonHelper.bones.filter(b => b.name);
    this.contact = new ContactShadow(new Map(this.bones.map(b => [b.name, b])));
    this.ground.material = this.contact.material;

    this.buildMorphs();
    if (this.software) this.model.send({ type: "lod" });  // a lighter level to draw while the view moves
    this.applyLook();
    this.applyCamera();
    this.showClips();
    this.showClip(true);
    this.dirty = true;
    this.picture.remove();
    this.root.dataset.ready = "1";
    this.root.dataset.bones = String(this.bones.length);
  }

  // A software GPU sets up its triangles one by one (about 1 µs each): while the view moves it draws
  // the next lighter level of detail the kernel has (AvatarViewer's lods), its meshes bound to the main
  // model's bones, so the clip, the crossfades and the morph weights pose it with no second mixer.
  setMovingLod(gltf, level) {
    const bones = new Map(this.bones.map(b => [b.name, b]));
    const meshes = [];
    let whole = true;
    gltf.scene.traverse(o => {
      if (!o.isMesh) return;
      meshes.push(o);
      o.userData.material = o.material;
      if (o.isSkinnedMesh) {
        const mine = o.skeleton.bones.map(b => bones.get(b.name));
        if (mine.some(b => !b)) whole = false;
        else o.bind(new THREE.Skeleton(mine, o.skeleton.boneInverses), o.bindMatrix);
      }
    });
    if (!whole) return;  // another skeleton: the main model moves as it is
    this.scene.add(gltf.scene);
    this.lowPose = new CpuPose(gltf.scene, this.scene);
    this.lowPose.group.visible = false;
    this.meshes.push(...meshes);
    this.morphMeshes.push(...meshes.filter(o => o.morphTargetDictionary));
    this.setMorphs(this.model.get("weights"), false);
    this.applyLook();
    this.root.dataset.movingLod = String(level);
  }

  // -- camera: the kernel's yaw, elevation, zoom and target <-> OrbitControls ----------------------
  applyCamera() {
    if (!this.gltf) return;
    const m = this.model;
    const t = m.get("target");
    const target = t && t.length === 3 ? new THREE.Vector3(...t) : this.center.clone();
    const yaw = THREE.MathUtils.degToRad(m.get("yaw")), el = THREE.MathUtils.degToRad(m.get("elevation"));
    const r = this.distance / m.get("zoom");
    // yaw turns the avatar counter-clockwise seen from above: the camera goes the other way.
    const offset = new THREE.Vector3(-Math.sin(yaw) * Math.cos(el), Math.sin(el), Math.cos(yaw) * Math.cos(el)).multiplyScalar(r);
    this.controls.target.copy(target);
    this.camera.position.copy(target).add(offset);
    this.camera.lookAt(target);
    this.controls.update();
    this.dirty = true;
    this.showReadout();
  }

  cameraState() {
    const offset = this.camera.position.clone().sub(this.controls.target);
    const r = offset.length();
    return {
      yaw: round(THREE.MathUtils.radToDeg(Math.atan2(-offset.x, offset.z)), 2),
      elevation: round(THREE.MathUtils.radToDeg(Math.asin(THREE.MathUtils.clamp(offset.y / r, -1, 1))), 2),
      zoom: round(this.distance / r, 4),
      target: this.controls.target.toArray().map(v => round(v, 4)),
    };
  }

  sendCamera() {
    if (!this.gltf) return;
    const s = this.cameraState();
    const m = this.model;
    if (s.yaw === m.get("yaw") && s.elevation === m.get("elevation") && s.zoom === m.get("zoom")
        && JSON.stringify(s.target) === JSON.stringify(m.get("target"))) return;
    this.ownCamera = true;
    m.set(s);
    this.ownCamera = false;
    m.save_changes();
  }

  focusOn(name) {
    if (!this.gltf) return;
    const pick = re => this.bones.filter(b => re.test(b.name));
    let bones = [];
    if (name === "face") bones = pick(/^(Head|HeadTop_End)$/);
    else if (name === "hands") bones = pick(/^(Left|Right)Hand$|Hand(Middle|Index)[14]$/);
    else if (name === "feet") bones = pick(/^(Left|Right)(Foot|ToeBase|Toe_End)$/);
    const m = this.model;
    let target, r;
    if (name === "full" || !bones.length) {
      target = this.center.clone();
      r = this.distance;
    } else {
      this.scene.updateMatrixWorld(true);
      const box = new THREE.Box3();
      for (const b of bones) box.expandByPoint(b.getWorldPosition(new THREE.Vector3()));
      target = box.getCenter(new THREE.Vector3());
      const span = Math.max(box.getSize(new THREE.Vector3()).length(), this.radius * 0.12);
      r = (span / 2 + this.radius * 0.12) / Math.sin(THREE.MathUtils.degToRad(FOV / 2));
    }
    m.set({ target: target.toArray().map(v => round(v, 4)), zoom: round(this.distance / r, 4),
            elevation: name === "feet" ? 20 : name === "full" ? 0 : m.get("elevation") });
    m.save_changes();
    this.applyCamera();
  }

  resetCamera() {
    this.model.set({ yaw: 0, elevation: 0, zoom: 1, target: [], focus: "full", auto_rotate: false });
    this.model.save_changes();
    this.applyCamera();
    this.showLook();
  }

  // -- look ---------------------------------------------------------------------------------------
  applyLook() {
    const m = this.model;
    this.scene.background = new THREE.Color(m.get("background"));
    const kind = m.get("light");
    if (kind !== this.lightKind) {
      this.lightKind = kind;
      this.lights.clear();
      const r = this.radius || 1, c = this.center || new THREE.Vector3(0, 1, 0);
      const sun = (color, intensity, x, y, z) => {
        const l = new THREE.DirectionalLight(color, intensity);
        l.position.set(c.x + x * r, c.y + y * r, c.z + z * r);
        l.target.position.copy(c);
        this.lights.add(l, l.target);
      };
      if (kind === "studio") {
        this.lights.add(new THREE.HemisphereLight(0xffffff, 0x8a8a99, 1.2));
        sun(0xffffff, 2.2, 1.2, 2.0, 2.0);     // key, front right above
        sun(0xdde6ff, 0.8, -2.0, 0.8, 1.0);    // fill
        sun(0xffffff, 1.2, 0.0, 1.5, -2.5);    // rim
      } else if (kind === "outdoor") {
        this.lights.add(new THREE.HemisphereLight(0xbfdcff, 0x6b5a3a, 1.4));
        sun(0xfff1d6, 3.0, -1.5, 3.0, 1.2);
      } else {
        this.lights.add(new THREE.AmbientLight(0xffffff, 2.6));
      }
    }
    const shadow = m.get("shadow");
    this.ground.visible = shadow;
    const wire = m.get("wireframe"), normals = m.get("normals");
    for (const mesh of this.meshes || []) {
      mesh.material = normals ? this.normalMaterial : mesh.userData.material;
      for (const mat of [].concat(mesh.material)) mat.wireframe = wire;
    }
    if (this.skeletonHelper) this.skeletonHelper.visible = m.get("skeleton");
    if (!m.get("skeleton")) this.tip.hidden = true;
    this.controls.autoRotate = m.get("auto_rotate");
    this.poseVersion++;
    this.dirty = true;
    this.showLook();
  }

  showLook() {
    const m = this.model, d = this.root.dataset;
    this.light.value = m.get("light");
    this.background.value = m.get("background");
    this.shadow.checked = d.shadow = m.get("shadow");
    this.wire.checked = d.wireframe = m.get("wireframe");
    this.normals.checked = d.normals = m.get("normals");
    this.skeleton.checked = d.skeleton = m.get("skeleton");
    this.autoRotate.checked = m.get("auto_rotate");
    this.focus.value = m.get("focus");
    this.label.textContent = m.get("label");
    this.label.hidden = !m.get("label");
    this.root.style.setProperty("--wb-av-height", `${m.get("size")}px`);
  }

  // -- clips and the timeline ---------------------------------------------------------------------
  showClips() {
    const names = this.model.get("clips");
    this.clip.replaceChildren(el("option", { value: "", textContent: "(no clip)" }),
      ...names.map(n => el("option", { value: n, textContent: n })));
    this.clip.value = this.model.get("clip");
  }

  showClip(first = false) {
    const m = this.model, name = m.get("clip");
    this.clip.value = name;
    this.root.dataset.clip = name;
    if (!this.mixer) return;
    if (!name) {
      if (this.action) { this.action.fadeOut(first ? 0 : CROSSFADE_S); this.previous = this.action; }
      this.fadeUntil = performance.now() / 1000 + CROSSFADE_S;
      this.action = null;
      if (first) this.mixer.stopAllAction();
      this.showTime();
      return;
    }
    const clip = this.clips.get(name);
    if (!clip) {  // a clip of its own file: ask the kernel for it
      if (!this.pending.has(name)) { this.pending.set(name, true); m.send({ type: "clip", name }); }
      this.say(`loading ${name}…`);
      return;
    }
    this.say("");
    const next = this.mixer.clipAction(clip);
    if (next === this.action) return;
    next.reset();
    next.time = Math.min(m.get("time"), clip.duration);
    this.applyLoop(next);
    next.play();
    if (this.previous) this.previous.stop();
    this.previous = null;
    if (this.action && !first) {
      this.action.crossFadeTo(next, CROSSFADE_S, false);
      this.previous = this.action;
      this.fadeUntil = performance.now() / 1000 + CROSSFADE_S;
    } else if (this.action) this.action.stop();
    this.action = next;
    this.mixer.update(0);
    this.poseVersion++;
    this.dirty = true;
    if (Math.abs(m.get("duration") - clip.duration) > 1e-3) { m.set("duration", clip.duration); m.save_changes(); }
    this.showTime();
  }

  applyLoop(action = this.action) {
    if (!action) return;
    action.setLoop(this.model.get("loop") ? THREE.LoopRepeat : THREE.LoopOnce, Infinity);
    action.clampWhenFinished = true;
  }

  seek(t) {
    if (!this.action) return;
    const d = this.action.getClip().duration;
    t = Math.min(Math.max(t, 0), d);
    // Scrubbing shows the new clip alone, at once: no crossfade left over.
    if (this.previous) { this.previous.stop(); this.previous = null; }
    this.action.enabled = true;
    this.action.setEffectiveWeight(1);
    this.action.paused = false;
    this.action.time = t;
    this.mixer.update(0);
    this.poseVersion++;
    this.action.paused = !this.model.get("playing");
    this.dirty = true;
    this.showTime(t);
  }

  currentTime() {
    return this.action ? this.action.time : 0;
  }

  showTime(t = this.currentTime()) {
    const m = this.model, d = this.action ? this.action.getClip().duration : 0;
    this.time.max = String(d || 1);
    this.time.value = String(t);
    this.time.disabled = this.play.disabled = this.back.disabled = this.fwd.disabled = !this.action;
    this.timeLabel.textContent = `${t.toFixed(2)} / ${d.toFixed(2)} s`;
    this.play.textContent = m.get("playing") ? "❚❚" : "▶";
    this.speed.value = String(m.get("speed"));
    this.loopBox.checked = m.get("loop");
    Object.assign(this.root.dataset, { time: t.toFixed(3), speed: String(m.get("speed")), playing: String(m.get("playing")) });
  }

  setPlaying(on) {
    const m = this.model;
    if (on && this.action && this.currentTime() >= this.action.getClip().duration - 1e-6 && !m.get("loop")) this.seek(0);
    m.set({ playing: on, time: round(this.currentTime(), 3) });
    m.save_changes();
    if (this.action) this.action.paused = !on;
    this.showTime();
  }

  // -- morph targets --------------------------------------------------------------------------------
  buildMorphs() {
    const names = new Set();
    for (const mesh of this.morphMeshes) for (const n of Object.keys(mesh.morphTargetDictionary)) names.add(n);
    this.morphNames = [...names];
    this.morphInputs = new Map();
    if (!this.morphNames.length) { this.morphBox.hidden = true; return; }
    this.morphBox.hidden = false;
    this.morphSummary.textContent = `morph targets (${this.morphNames.length})`;
    const has = preset => PRESETS[preset].some(([, w]) => Object.keys(w).some(n => names.has(n)));
    for (const p of Object.keys(PRESETS)) {
      const b = button(`wb-av-preset wb-av-preset-${p}`, p, `play the ${p} preset`);
      b.disabled = !has(p);
      b.addEventListener("click", () => this.playPreset(p));
      this.presetBar.append(b);
    }
    const zero = button("wb-av-preset wb-av-preset-zero", "zero", "all weights to 0");
    zero.addEventListener("click", () => this.setMorphs({}, true));
    this.presetBar.append(zero);
    for (const n of this.morphNames) {
      const input = el("input", { type: "range", min: 0, max: 1, step: 0.01, value: 0, className: "wb-av-morph", title: n, dataset: { name: n } });
      input.addEventListener("input", () => this.setMorphs({ ...this.model.get("weights"), [n]: parseFloat(input.value) }, true));
      this.morphInputs.set(n, input);
      this.sliders.append(el("label", { className: "wb-av-morph-row" }, [el("span", { textContent: n }), input]));
    }
    this.root.dataset.morphTargets = String(this.morphNames.length);
    this.setMorphs(this.model.get("weights"), false);
  }

  setMorphs(weights, send) {
    for (const mesh of this.morphMeshes) {
      const dict = mesh.morphTargetDictionary, inf = mesh.morphTargetInfluences;
      for (const [n, i] of Object.entries(dict)) inf[i] = weights[n] || 0;
    }
    for (const [n, input] of this.morphInputs || []) input.value = String(weights[n] || 0);
    this.root.dataset.morphs = JSON.stringify(weights);
    this.poseVersion++;
    this.dirty = true;
    if (send) {
      const clean = Object.fromEntries(Object.entries(weights).filter(([n, w]) => w > 0 && this.morphNames.includes(n)).map(([n, w]) => [n, round(w, 3)]));
      clearTimeout(this.morphTimer);
      this.morphTimer = setTimeout(() => { this.model.set("weights", clean); this.model.save_changes(); }, 120);
    }
  }

  playPreset(name) {
    this.preset = { keys: PRESETS[name], start: performance.now() / 1000, base: { ...this.model.get("weights") }, name };
  }

  stepPreset(now) {
    const p = this.preset, t = now - p.start, keys = p.keys;
    const end = keys[keys.length - 1][0];
    let i = keys.findIndex(([k]) => k > t);
    if (i < 0) i = keys.length - 1;
    const [t0, w0] = keys[Math.max(0, i - 1)], [t1, w1] = keys[i];
    const a = t >= end ? 1 : Math.min(1, Math.max(0, (t - t0) / Math.max(t1 - t0, 1e-6)));
    const names = new Set([...Object.keys(w0), ...Object.keys(w1)]);
    const w = name => (w0[name] || 0) * (1 - a) + (w1[name] || 0) * a;
    const weights = { ...p.base };
    for (const n of this.morphNames) if (!(n in p.base)) weights[n] = 0;
    for (const n of names) weights[n] = w(n);
    this.setMorphs(weights, t >= end);
    if (t >= end) this.preset = null;
  }

  // -- input ----------------------------------------------------------------------------------------
  listen() {
    const m = this.model, on = (ev, fn) => { m.on(ev, fn); this.handlers.push([ev, fn]); };
    this.onMessage = this.onMessage.bind(this);
    m.on("msg:custom", this.onMessage);
    const camera = () => { if (!this.ownCamera) this.applyCamera(); };
    for (const k of ["yaw", "elevation", "zoom", "target"]) on(`change:${k}`, camera);
    for (const k of ["light", "background", "shadow", "wireframe", "normals", "skeleton", "auto_rotate", "label", "size"]) on(`change:${k}`, () => this.applyLook());
    on("change:clips", () => this.showClips());
    on("change:clip", () => this.showClip());
    on("change:time", () => { if (!m.get("playing") && Math.abs(m.get("time") - this.currentTime()) > 1e-3) this.seek(m.get("time")); });
    on("change:playing", () => { if (this.action) this.action.paused = !m.get("playing"); this.showTime(); });
    on("change:speed", () => this.showTime());
    on("change:loop", () => { this.applyLoop(); this.showTime(); });
    on("change:weights", () => this.setMorphs(m.get("weights"), false));
    on("change:focus", () => this.focusOn(m.get("focus")));
    on("change:frame", () => this.showStill());

    const send = values => { m.set(values); m.save_changes(); };
    this.clip.addEventListener("change", () => send({ clip: this.clip.value, time: 0, playing: !!this.clip.value }));
    this.play.addEventListener("click", () => this.setPlaying(!m.get("playing")));
    this.back.addEventListener("click", () => this.step(-1));
    this.fwd.addEventListener("click", () => this.step(1));
    this.time.addEventListener("input", () => {
      if (m.get("playing")) send({ playing: false });
      this.seek(parseFloat(this.time.value));
      clearTimeout(this.timeTimer);
      this.timeTimer = setTimeout(() => send({ time: round(this.currentTime(), 3) }), 150);
    });
    this.speed.addEventListener("change", () => send({ speed: parseFloat(this.speed.value) }));
    this.loopBox.addEventListener("change", () => send({ loop: this.loopBox.checked }));
    this.focus.addEventListener("change", () => { send({ focus: this.focus.value }); this.focusOn(this.focus.value); });
    for (const b of this.viewButtons) b.addEventListener("click", () => this.turnTo(VIEWS[b.dataset.view]));
    this.autoRotate.addEventListener("change", () => send({ auto_rotate: this.autoRotate.checked }));
    this.reset.addEventListener("click", () => this.resetCamera());
    this.full.addEventListener("click", () => this.toggleFullscreen());
    this.shot.addEventListener("click", () => this.download());
    this.light.addEventListener("change", () => send({ light: this.light.value }));
    this.background.addEventListener("input", () => send({ background: this.background.value }));
    this.shadow.addEventListener("change", () => send({ shadow: this.shadow.checked }));
    this.wire.addEventListener("change", () => send({ wireframe: this.wire.checked }));
    this.normals.addEventListener("change", () => send({ normals: this.normals.checked }));
    this.skeleton.addEventListener("change", () => send({ skeleton: this.skeleton.checked }));

    this.canvas.addEventListener("dblclick", () => this.resetCamera());
    this.canvas.addEventListener("pointerdown", () => this.root.focus({ preventScroll: true }));
    this.canvas.addEventListener("pointermove", e => this.hover(e));
    this.canvas.addEventListener("pointerleave", () => { this.tip.hidden = true; });
    this.canvas.addEventListener("contextmenu", e => e.preventDefault());
    // Keys typed while the viewer has focus are the viewer's: none reaches the notebook's shortcuts
    // (JupyterLab's "r" would turn the cell into a raw cell, "d d" delete it).
    for (const type of ["keydown", "keyup", "keypress"]) {
      const stop = e => {
        if (e.target instanceof HTMLInputElement && e.target.type === "color") return;
        e.stopPropagation();
        if (type === "keydown") this.key(e);
      };
      this.root.addEventListener(type, stop);
    }
    document.addEventListener("fullscreenchange", this.onFullscreen = () => this.resize());
    document.addEventListener("visibilitychange", this.onVisible = () => { this.last = undefined; });
    this.dprQuery = () => {
      const q = matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`);
      q.addEventListener("change", () => { this.resize(); this.dprQuery(); }, { once: true });
    };
    this.dprQuery();
    this.showLook();
    this.showClips();
    this.showTime();
    this.showStill();
  }

  key(e) {
    const m = this.model, k = e.key;
    const orbit = (dy, de) => {
      const s = this.cameraState();
      m.set({ yaw: round(s.yaw + dy, 2), elevation: round(THREE.MathUtils.clamp(s.elevation + de, -89, 89), 2) });
      m.save_changes();
      this.applyCamera();
    };
    const pan = (dx, dy) => {  // screen directions, a tenth of the view per press
      const step = this.camera.position.distanceTo(this.controls.target) * 0.1;
      const move = new THREE.Vector3().setFromMatrixColumn(this.camera.matrix, 0).multiplyScalar(dx * step)
        .add(new THREE.Vector3().setFromMatrixColumn(this.camera.matrix, 1).multiplyScalar(dy * step));
      this.controls.target.add(move);
      this.camera.position.add(move);
      this.controls.update();
      this.sendCamera();
    };
    const zoom = f => { m.set("zoom", round(THREE.MathUtils.clamp(this.cameraState().zoom * f, 0.125, 30), 4)); m.save_changes(); this.applyCamera(); };
    const acts = {
      ArrowLeft: () => e.shiftKey ? pan(-1, 0) : orbit(-10, 0), ArrowRight: () => e.shiftKey ? pan(1, 0) : orbit(10, 0),
      ArrowUp: () => e.shiftKey ? pan(0, 1) : orbit(0, 10), ArrowDown: () => e.shiftKey ? pan(0, -1) : orbit(0, -10),
      "+": () => zoom(1.25), "=": () => zoom(1.25), "-": () => zoom(0.8),
      " ": () => this.setPlaying(!m.get("playing")), ",": () => this.step(-1), ".": () => this.step(1),
      f: () => this.focusOn("face"), h: () => this.focusOn("hands"), b: () => this.focusOn("full"),
      "0": () => this.resetCamera(), r: () => this.resetCamera(),
      "1": () => this.turnTo(0), "2": () => this.turnTo(90), "3": () => this.turnTo(180),
      w: () => { m.set("wireframe", !m.get("wireframe")); m.save_changes(); },
      s: () => { m.set("skeleton", !m.get("skeleton")); m.save_changes(); },
      g: () => { m.set("shadow", !m.get("shadow")); m.save_changes(); },
      a: () => { m.set("auto_rotate", !m.get("auto_rotate")); m.save_changes(); },
    };
    const act = acts[k] || acts[k.toLowerCase()];
    if (act && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      act();
    }
    this.root.dataset.lastKey = k;
  }

  step(n) {
    if (!this.action) return;
    const m = this.model;
    if (m.get("playing")) { m.set("playing", false); this.action.paused = true; }
    const d = this.action.getClip().duration;
    let t = Math.round(this.currentTime() / FRAME_STEP + n) * FRAME_STEP;
    // A looping clip steps round its end (and back past its start); a clip played once stops there.
    if (m.get("loop") && d > 0 && (t > d + 1e-6 || t < -1e-6)) t = ((t % d) + d) % d;
    this.seek(t);
    m.set("time", round(this.currentTime(), 3));
    m.save_changes();
  }

  turnTo(yaw) {
    this.model.set({ yaw, elevation: 0 });
    this.model.save_changes();
    this.applyCamera();
  }

  hover(e) {
    if (!this.model.get("skeleton") || !this.bones || e.buttons) { this.tip.hidden = true; return; }
    const rect = this.canvas.getBoundingClientRect();
    const x = e.clientX - rect.left, y = e.clientY - rect.top;
    const v = new THREE.Vector3();
    let best = null, bestD = HOVER_PX;
    for (const b of this.bones) {
      b.getWorldPosition(v).project(this.camera);
      const px = (v.x + 1) / 2 * rect.width, py = (1 - v.y) / 2 * rect.height;
      const d = Math.hypot(px - x, py - y);
      if (d < bestD && v.z < 1) { best = b; bestD = d; }
    }
    this.tip.hidden = !best;
    if (best) {
      this.tip.textContent = best.name;
      this.tip.style.left = `${x + 12}px`;
      this.tip.style.top = `${y - 8}px`;
    }
    this.root.dataset.hoverBone = best ? best.name : "";
  }

  toggleFullscreen() {
    if (document.fullscreenElement === this.root) document.exitFullscreen();
    else if (this.root.requestFullscreen) this.root.requestFullscreen();
  }

  // -- drawing ----------------------------------------------------------------------------------------
  resize() {
    const full = document.fullscreenElement === this.root;
    const w = Math.max(64, Math.floor(this.canvasBox.clientWidth || 512));
    const h = full ? Math.max(64, window.innerHeight - 140) : Math.min(this.model.get("size"), Math.round(w * 1.5));
    this.renderer.setPixelRatio(window.devicePixelRatio || 1);
    this.renderer.setSize(w, h, true);
    this.width = w;
    this.height = h;
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.root.dataset.canvas = `${w}x${h}@${window.devicePixelRatio || 1}`;
    this.dirty = true;
  }

  loop(nowMs) {
    this.raf = requestAnimationFrame(this.loop.bind(this));
    // Real time however slow the frames (a clip plays at its speed); a tab in the background gets
    // no frames, and its return restarts the clock (visibilitychange) rather than jumping.
    const now = nowMs / 1000, dt = this.last === undefined ? 0 : now - this.last;
    this.last = now;
    if (!this.gltf) return;
    const m = this.model;
    if (this.preset) this.stepPreset(now);
    const playing = m.get("playing") && this.action;
    if (this.mixer && (playing || now < (this.fadeUntil || 0))) {
      const before = this.currentTime();
      this.mixer.update(dt * m.get("speed"));
      this.poseVersion++;
      this.clipClock = (this.clipClock || 0) + dt * m.get("speed");
      Object.assign(this.root.dataset, { clipClock: this.clipClock.toFixed(4), clipClockAt: nowMs.toFixed(1) });
      if (playing && !m.get("loop") && this.currentTime() >= this.action.getClip().duration - 1e-6 && before === this.currentTime()) {
        this.setPlaying(false);
      }
      this.dirty = true;
      this.showTime();
      if (playing && now - (this.sentTime || 0) > 1) {  // the kernel learns the time once a second, not every frame
        this.sentTime = now;
        m.set("time", round(this.currentTime(), 3));
        m.save_changes();
      }
    }
    // Damping by time, not by frame: at 60 frames/s a quarter of the motion goes per frame, and a
    // slow machine's fewer frames end it as soon.
    this.controls.dampingFactor = 1 - Math.pow(1 - DAMPING, Math.max(dt, 1 / 60) * 60);
    const turning = this.controls.update(dt);
    if (turning) this.dirty = true;
    if (this.cameraMoved && nowMs - (this.cameraSentAt || 0) > CAMERA_SEND_MS) {
      this.cameraSentAt = nowMs;  // a long motion (auto-rotate) reaches the kernel twice a second
      this.cameraMoved = false;
      this.sendCamera();
    }
    if (!this.dirty) {
      // Idle: the camera goes to the kernel once the motion (damping included) has stopped, and
      // the picture once the view has stayed the same for SETTLE_MS.
      if (this.cameraMoved) { this.cameraMoved = false; this.sendCamera(); }
      this.leading = false;
      if (!this.sharp) { this.dirty = true; this.still = true; return; }  // the still view, at full resolution
      if (this.pictureDue && nowMs - this.lastRender > SETTLE_MS) { this.pictureDue = false; this.sendPicture(); }
      return;
    }
    this.dirty = false;
    // While the view moves on a slow GPU, frames are drawn at half the pixels (each frame's cost is
    // mostly per pixel there); the still view is drawn again at full resolution (loop's idle branch).
    const moving = (turning || playing) && !this.still;
    this.still = false;
    if (moving && this.lastMotion !== undefined && nowMs - this.lastMotion < 2000) {
      const since = nowMs - this.lastMotion;
      this.interval = this.interval === undefined ? since : 0.8 * this.interval + 0.2 * since;
    }
    this.lastMotion = moving ? nowMs : undefined;
    this.slow = this.interval > 40;  // under 25 frames a second
    // A software GPU's frame, posed on the CPU, costs mostly per pixel: it always moves at half.
    this.setRatio(moving && (this.software || this.slow) ? 0.5 : 1);
    // The ground shadow follows the pose (not the camera), redrawn from the skeleton: well under a millisecond.
    if (this.contact && this.ground.visible && this.shadowPose !== this.poseVersion) {
      this.contact.update(this.ground, this.groundSize, this.box.max.y - this.box.min.y);
      this.shadowPose = this.poseVersion;
    }
    this.draw(moving);
    this.lastRender = nowMs;
    this.pictureDue = true;
    this.sharp = this.renderer.getPixelRatio() === (window.devicePixelRatio || 1);
    this.frames += 1;
    this.root.dataset.frames = String(this.frames);
    this.root.dataset.frameTime = String(performance.now());
    if (this.frames === 1) { this.root.dataset.firstFrameAt = String(performance.now()); }
    this.showReadout();
    this.linkOthers();
  }

  // One draw of the scene as it stands; on a software GPU the CPU poses the meshes first when the
  // pose (or the look) changed since the last draw.
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

  setRatio(scale) {
    const ratio = (window.devicePixelRatio || 1) * scale;
    if (ratio !== this.renderer.getPixelRatio()) {
      this.renderer.setPixelRatio(ratio);
      this.renderer.setSize(this.width, this.height, false);
    }
  }

  showReadout() {
    if (!this.gltf) return;
    const s = this.cameraState(), d = this.root.dataset;
    Object.assign(d, { yaw: s.yaw.toFixed(2), elevation: s.elevation.toFixed(2), zoom: s.zoom.toFixed(3), target: s.target.join(",") });
    this.readout.textContent = `yaw ${s.yaw.toFixed(0)}° · elevation ${s.elevation.toFixed(0)}° · zoom ${s.zoom.toFixed(2)}` +
      (this.notice ? ` · ${this.notice}` : "");
  }

  say(text) {
    this.notice = text;
    this.readout.textContent = text;
  }

  // Views in one comparison share the camera (and optionally clip and time) page-side, every frame.
  linkOthers() {
    const group = this.model.get("link_group");
    if (!group || !(this.leading || this.model.get("auto_rotate") || this.model.get("playing"))) return;
    let set = groups.get(group);
    if (!set) groups.set(group, set = new Set());
    set.add(this);
    if (this.following) return;
    for (const other of set) {
      if (other === this || !other.gltf) continue;
      other.following = true;
      other.controls.target.copy(this.controls.target);
      other.camera.position.copy(this.camera.position);
      other.controls.update();
      if (this.model.get("link_time") && other.action && this.action && Math.abs(other.currentTime() - this.currentTime()) > 1e-3) {
        other.action.time = this.currentTime();
        other.mixer.update(0);
        other.poseVersion++;
      }
      other.dirty = true;
      other.following = false;
    }
  }

  picturePng() {
    this.setRatio(1);
    this.sharp = true;
    this.draw();  // the drawing buffer is read in the same task as it is drawn
    return new Promise(ok => this.canvas.toBlob(ok, "image/png"));
  }

  async sendPicture() {
    if (!this.gltf || !this.root.isConnected) return;
    const blob = await this.picturePng();
    const buf = await blob.arrayBuffer();
    this.model.set("frame", new DataView(buf));
    this.model.set("frame_size", this.canvas.width);
    this.model.set("frame_quality", "canvas");
    this.model.set("frame_id", this.model.get("frame_id") + 1);
    this.model.save_changes();
    this.root.dataset.pictureSent = String(this.model.get("frame_id"));
  }

  async download() {
    const blob = await this.picturePng();
    const a = el("a", { href: URL.createObjectURL(blob), download: `avatar-${new Date().toISOString().replace(/[:.]/g, "-")}.png` });
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    this.sendPicture();
  }

  showStill() {
    // Before the model arrives (a notebook opened without its kernel), the last picture stands in.
    const data = this.model.get("frame");
    if (this.gltf || !data || !data.byteLength) return;
    if (this.stillUrl) URL.revokeObjectURL(this.stillUrl);
    this.stillUrl = URL.createObjectURL(new Blob([data], { type: "image/png" }));
    this.picture.src = this.stillUrl;
  }

  dispose() {
    cancelAnimationFrame(this.raf);
    for (const [ev, fn] of this.handlers) this.model.off(ev, fn);
    this.model.off("msg:custom", this.onMessage);
    this.resizer.disconnect();
    document.removeEventListener("fullscreenchange", this.onFullscreen);
    document.removeEventListener("visibilitychange", this.onVisible);
    const set = groups.get(this.model.get("link_group"));
    if (set) set.delete(this);
    this.controls.dispose();
    this.renderer.dispose();
    if (this.stillUrl) URL.revokeObjectURL(this.stillUrl);
  }
}

export default { render };
