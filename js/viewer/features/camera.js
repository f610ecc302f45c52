// The camera: OrbitControls (drag orbits, right or shift drag pans, the wheel zooms toward the pointer,
// two fingers pinch), the kernel's yaw, elevation, zoom and target, focus on a body part, front, side
// and back views, auto-rotate, reset, fullscreen and the PNG screenshot, and their keys.
//
// The kernel keeps the camera code reads and sets; the page sends it when a gesture ends and, during
// a long motion (auto-rotate), twice a second; never per frame. Ranges and menus come from the
// kernel (the `rules` traitlet, workbench/widgets/view_rules.py).

import * as THREE from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import { FOV } from "../core.js";
import { button, check, clamp, el, put, round, select } from "../dom.js";

const CAMERA_SEND_MS = 500;  // while the camera moves, the kernel learns it this often
const DAMPING = 0.25;
const FOCUS_TEXT = { full: "full body" };
// Focus presets: the bones a part is framed on.
const PARTS = {
  face: /^(Head|HeadTop_End)$/,
  hands: /^(Left|Right)Hand$|Hand(Middle|Index)[14]$/,
  feet: /^(Left|Right)(Foot|ToeBase|Toe_End)$/,
};

export function camera(v) {
  const m = v.model, rules = v.rules;
  // OrbitControls listens for the Control key on the canvas's root node and asks for that node again
  // when it lets go: a canvas made in a cell's output before the output is in the page and disposed
  // after (or the other way round) would leave the listener, and this viewer with it, on the wrong
  // node. The canvas's root is the page's document, whatever the output's state.
  v.canvas.getRootNode = () => document;
  const controls = v.controls = new OrbitControls(v.camera, v.canvas);
  controls.enableDamping = true;
  controls.dampingFactor = DAMPING;
  controls.screenSpacePanning = true;
  controls.zoomToCursor = true;
  controls.autoRotateSpeed = 4;
  v.onDispose(() => controls.dispose());
  let moved = false, sentAt = 0, ownChange = false;
  controls.addEventListener("change", () => { v.dirty = true; moved = true; });
  controls.addEventListener("end", () => send());

  // -- controls -------------------------------------------------------------------------------------
  const focus = select("wb-av-focus", rules.focus.map(f => [f, FOCUS_TEXT[f] || f]), "focus");
  const views = Object.keys(rules.views).map(name => {
    const b = button(`wb-av-view wb-av-view-${name}`, name, `${name} view`);
    v.listen(b, "click", () => turnTo(rules.views[name]));
    return b;
  });
  const [autoRotate, autoRotateLabel] = check("wb-av-autorotate", "turn", "auto-rotate");
  const reset = button("wb-av-reset", "reset", "reset the camera (double-click)");
  const full = button("wb-av-fullscreen", "fullscreen", "fullscreen (Esc leaves)");
  const shot = button("wb-av-screenshot", "PNG", "save a screenshot (PNG)");
  v.toolbar(focus, ...views, autoRotateLabel, reset, full, shot);

  // -- the kernel's camera <-> OrbitControls ------------------------------------------------------
  const apply = () => {
    if (!v.gltf) return;
    const t = m.get("target");
    const target = t && t.length === 3 ? new THREE.Vector3(...t) : v.center.clone();
    const yaw = THREE.MathUtils.degToRad(m.get("yaw")), up = THREE.MathUtils.degToRad(m.get("elevation"));
    const r = v.distance / m.get("zoom");
    // yaw turns the avatar counter-clockwise seen from above: the camera goes the other way.
    const offset = new THREE.Vector3(-Math.sin(yaw) * Math.cos(up), Math.sin(up), Math.cos(yaw) * Math.cos(up)).multiplyScalar(r);
    controls.target.copy(target);
    v.camera.position.copy(target).add(offset);
    v.camera.lookAt(target);
    controls.update();
    v.dirty = true;
    readout();
  };
  const state = () => {
    const offset = v.camera.position.clone().sub(controls.target);
    const r = offset.length();
    return {
      yaw: round(THREE.MathUtils.radToDeg(Math.atan2(-offset.x, offset.z)), 2),
      elevation: round(THREE.MathUtils.radToDeg(Math.asin(THREE.MathUtils.clamp(offset.y / r, -1, 1))), 2),
      zoom: round(v.distance / r, 4),
      target: controls.target.toArray().map(x => round(x, 4)),
    };
  };
  const send = () => {
    if (!v.gltf) return;
    const s = state();
    if (s.yaw === m.get("yaw") && s.elevation === m.get("elevation") && s.zoom === m.get("zoom")
        && JSON.stringify(s.target) === JSON.stringify(m.get("target"))) return;
    ownChange = true;
    m.set(s);
    ownChange = false;
    m.save_changes();
  };
  const readout = () => {
    if (!v.gltf) return;
    const s = state();
    v.data({ yaw: s.yaw.toFixed(2), elevation: s.elevation.toFixed(2), zoom: s.zoom.toFixed(3), target: s.target.join(",") });
    put(v.readout, "textContent", `yaw ${s.yaw.toFixed(0)}° · elevation ${s.elevation.toFixed(0)}° · zoom ${s.zoom.toFixed(2)}` +
      (v.notice ? ` · ${v.notice}` : ""));
  };
  const focusOn = name => {
    if (!v.gltf) return;
    const bones = PARTS[name] ? v.bones.filter(b => PARTS[name].test(b.name)) : [];
    let target, r;
    if (!bones.length) {
      target = v.center.clone();
      r = v.distance;
    } else {
      v.scene.updateMatrixWorld(true);
      const box = new THREE.Box3();
      for (const b of bones) box.expandByPoint(b.getWorldPosition(new THREE.Vector3()));
      target = box.getCenter(new THREE.Vector3());
      const span = Math.max(box.getSize(new THREE.Vector3()).length(), v.radius * 0.12);
      r = (span / 2 + v.radius * 0.12) / Math.sin(THREE.MathUtils.degToRad(FOV / 2));
    }
    v.set({ target: target.toArray().map(x => round(x, 4)), zoom: round(clamp(v.distance / r, rules.zoom), 4),
            elevation: name === "feet" ? 20 : name === "full" ? 0 : m.get("elevation") });
    apply();
  };
  const resetCamera = () => {
    v.set({ yaw: 0, elevation: 0, zoom: 1, target: [], focus: "full", auto_rotate: false });
    apply();
    show();
  };
  const turnTo = yaw => { v.set({ yaw, elevation: 0 }); apply(); };
  const show = () => {
    autoRotate.checked = m.get("auto_rotate");
    controls.autoRotate = m.get("auto_rotate");
    focus.value = m.get("focus");
    v.dirty = true;
  };
  v.cameraState = state;
  // Frame a part as the focus menu does (a face slider touched frames the face: morphs.js), where the
  // model has the bones of that part.
  v.hasPart = name => !!PARTS[name] && v.bones.some(b => PARTS[name].test(b.name));
  v.lookAt = name => {
    v.set({ focus: name });
    focusOn(name);
    show();
  };

  // -- what the kernel and the model change ----------------------------------------------------------
  for (const k of ["yaw", "elevation", "zoom", "target"]) v.on(k, () => { if (!ownChange) apply(); });
  v.on("focus", () => focusOn(m.get("focus")));
  v.on("auto_rotate", show);
  v.signal("model", () => {
    // One zoom range, the kernel's: the camera's distance is zoom 1's divided by it.
    controls.minDistance = v.distance / rules.zoom[1];
    controls.maxDistance = v.distance / rules.zoom[0];
    v.camera.near = v.radius / 200;
    v.camera.far = v.distance * 20;
    v.camera.updateProjectionMatrix();
    apply();
  });
  v.signal("drawn", readout);
  show();

  // -- input --------------------------------------------------------------------------------------
  v.listen(focus, "change", () => { v.set({ focus: focus.value }); focusOn(focus.value); });
  v.listen(autoRotate, "change", () => v.set({ auto_rotate: autoRotate.checked }));
  v.listen(reset, "click", resetCamera);
  v.listen(full, "click", () => {
    if (document.fullscreenElement === v.root) document.exitFullscreen();
    else if (v.root.requestFullscreen) v.root.requestFullscreen();
  });
  v.listen(shot, "click", async () => {
    const blob = await v.picturePng();
    const a = el("a", { href: URL.createObjectURL(blob), download: `avatar-${new Date().toISOString().replace(/[:.]/g, "-")}.png` });
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    if (v.sendPicture) v.sendPicture();
  });
  v.listen(v.canvas, "dblclick", resetCamera);
  v.listen(v.canvas, "pointerdown", () => v.root.focus({ preventScroll: true }));
  v.listen(v.canvas, "contextmenu", e => e.preventDefault());

  const orbit = (dYaw, dUp) => {
    const s = state();
    v.set({ yaw: round(s.yaw + dYaw, 2), elevation: round(clamp(s.elevation + dUp, rules.elevation), 2) });
    apply();
  };
  const pan = (dx, dy) => {  // screen directions, a tenth of the view per press
    const step = v.camera.position.distanceTo(controls.target) * 0.1;
    const move = new THREE.Vector3().setFromMatrixColumn(v.camera.matrix, 0).multiplyScalar(dx * step)
      .add(new THREE.Vector3().setFromMatrixColumn(v.camera.matrix, 1).multiplyScalar(dy * step));
    controls.target.add(move);
    v.camera.position.add(move);
    controls.update();
    send();
  };
  const zoom = f => { v.set({ zoom: round(clamp(state().zoom * f, rules.zoom), 4) }); apply(); };
  v.key("ArrowLeft", e => e.shiftKey ? pan(-1, 0) : orbit(-10, 0));
  v.key("ArrowRight", e => e.shiftKey ? pan(1, 0) : orbit(10, 0));
  v.key("ArrowUp", e => e.shiftKey ? pan(0, 1) : orbit(0, 10));
  v.key("ArrowDown", e => e.shiftKey ? pan(0, -1) : orbit(0, -10));
  v.key(["+", "="], () => zoom(1.25));
  v.key("-", () => zoom(0.8));
  v.key("f", () => focusOn("face"));
  v.key("h", () => focusOn("hands"));
  v.key("b", () => focusOn("full"));
  v.key(["0", "r"], resetCamera);
  v.key("1", () => turnTo(rules.views.front));
  v.key("2", () => turnTo(rules.views.side));
  v.key("3", () => turnTo(rules.views.back));
  v.key("a", () => v.set({ auto_rotate: !m.get("auto_rotate") }));

  // -- every frame ----------------------------------------------------------------------------------
  v.tick(t => {
    // Damping by time, not by frame: at 60 frames/s a quarter of the motion goes per frame, and a
    // slow machine's fewer frames end it as soon.
    controls.dampingFactor = 1 - Math.pow(1 - DAMPING, Math.max(t.dt, 1 / 60) * 60);
    if (controls.update(t.dt)) { v.dirty = true; t.moving = true; }
    if (moved && t.ms - sentAt > CAMERA_SEND_MS) {  // a long motion (auto-rotate) reaches the kernel twice a second
      sentAt = t.ms;
      moved = false;
      send();
    }
  });
  v.signal("idle", () => { if (moved) { moved = false; send(); } });  // the camera once the motion has stopped
}
