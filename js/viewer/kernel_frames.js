// The AvatarViewer's kernel-frame front-end: shows the frames the kernel renders and sends the camera
// back. Used where the three.js bundle (static/viewer.js) was not built or the browser has no WebGL;
// the bundle imports it for the latter, and without a bundle the widget serves it with dom.js in front
// (workbench/widgets/frontend.py). It loads nothing from any host (the frames arrive in the widget's
// state); its zoom range and elevation limits are the kernel's (the `rules` traitlet).
//
// Drag: orbit (yaw, elevation); wheel: zoom; double-click: frame the whole avatar (zoom 1).
// While a drag lasts the kernel answers with cheap frames; on release, with the full one.
// At most one camera change is in flight: the next goes when its frame arrives (or after a
// short wait), so a fast drag never queues up frames the kernel would draw for nothing.

import { clamp, el, keepKeys } from "./dom.js";

const DEG_PER_PX = 0.5;
const WAIT_MS = 400;

function render({ model, el: host }) {
  const rules = model.get("rules");
  const img = el("img", { className: "wb-av-frame", draggable: false, alt: "avatar frame" });
  const stage = el("div", { className: "wb-av-stage", title: "drag: orbit · wheel: zoom · double-click: frame" }, [img]);
  const clipSelect = el("select", { className: "wb-av-clip", title: "clip" });
  const play = el("button", { className: "wb-av-play", type: "button", textContent: "▶", title: "play / pause" });
  const slider = el("input", { className: "wb-av-time", type: "range", min: 0, max: 1, step: 0.01, value: 0, title: "time" });
  const loop = el("input", { className: "wb-av-loop", type: "checkbox" });
  const skeleton = el("input", { className: "wb-av-skeleton", type: "checkbox" });
  const timeLabel = el("span", { className: "wb-av-timelabel" });
  const readout = el("span", { className: "wb-av-readout" });
  const notice = el("div", { className: "wb-av-notice", textContent: model.get("notice") || "" });
  const bar = el("div", { className: "wb-av-toolbar" }, [
    clipSelect, play, slider, timeLabel,
    el("label", {}, [loop, " loop"]), el("label", {}, [skeleton, " skeleton"]),
  ]);
  const root = el("div", { className: "wb-avatar-viewer wb-av-kernel" }, [stage, bar, readout, notice]);
  root.dataset.renderer = "kernel";
  const releaseKeys = keepKeys(root);
  host.append(root);

  // -- sending changes: one in flight at a time ---------------------------------
  let inflight = false, dirty = false, timer = null;
  function release() {
    inflight = false;
    clearTimeout(timer);
    if (dirty) { dirty = false; push(); }
  }
  function push() {
    if (inflight) { dirty = true; return; }
    inflight = true;
    model.save_changes();
    timer = setTimeout(release, WAIT_MS);
  }

  // -- showing what the kernel sends ------------------------------------------
  let url = null;
  function showFrame() {
    const data = model.get("frame");
    if (!data || !data.byteLength) return;
    const type = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp" }[model.get("format")] || "image/png";
    const next = URL.createObjectURL(new Blob([data], { type }));
    img.onload = () => { if (url && url !== next) URL.revokeObjectURL(url); url = next; };
    img.src = next;
    root.dataset.frameId = String(model.get("frame_id"));
    root.dataset.frameSize = String(model.get("frame_size"));
    root.dataset.quality = model.get("frame_quality");
    release();
  }
  function showCamera() {
    const yaw = model.get("yaw"), elevation = model.get("elevation"), zoom = model.get("zoom");
    root.dataset.yaw = yaw.toFixed(2);
    root.dataset.elevation = elevation.toFixed(2);
    root.dataset.zoom = zoom.toFixed(3);
    readout.textContent = `yaw ${yaw.toFixed(1)}° · elevation ${elevation.toFixed(1)}° · zoom ${zoom.toFixed(2)}`;
  }
  function showClips() {
    const current = model.get("clip");
    clipSelect.replaceChildren(el("option", { value: "", textContent: "(preview pose)" }),
      ...model.get("clips").map(n => el("option", { value: n, textContent: n })));
    clipSelect.value = current;
  }
  function showTime() {
    const d = model.get("duration"), t = model.get("time");
    slider.max = String(d || 1);
    slider.value = String(t);
    slider.disabled = play.disabled = !model.get("clip");
    timeLabel.textContent = `${t.toFixed(2)} / ${d.toFixed(2)} s`;
    root.dataset.clip = model.get("clip");
    root.dataset.time = t.toFixed(3);
  }
  function showSize() {
    // Drag frames are smaller: shown at the full frame's size, so the picture keeps its place.
    root.style.setProperty("--wb-av-size", `${model.get("size")}px`);
  }
  function showToggles() {
    loop.checked = model.get("loop");
    skeleton.checked = model.get("skeleton");
    play.textContent = model.get("playing") ? "❚❚" : "▶";
  }

  // -- orbit, zoom, frame -------------------------------------------------------
  let drag = null;
  stage.addEventListener("pointerdown", e => {
    if (e.button !== 0) return;
    root.focus({ preventScroll: true });  // keys go to the viewer, not the notebook
    stage.setPointerCapture(e.pointerId);
    drag = { x: e.clientX, y: e.clientY, yaw: model.get("yaw"), elevation: model.get("elevation") };
    model.set("dragging", true);
    push();
    e.preventDefault();
  });
  stage.addEventListener("pointermove", e => {
    if (!drag) return;
    const yaw = drag.yaw + (e.clientX - drag.x) * DEG_PER_PX;
    const elevation = clamp(drag.elevation + (e.clientY - drag.y) * DEG_PER_PX, rules.elevation);
    model.set({ yaw: Math.round(yaw * 100) / 100, elevation: Math.round(elevation * 100) / 100 });
    push();
  });
  function endDrag(e) {
    if (!drag) return;
    drag = null;
    if (stage.hasPointerCapture(e.pointerId)) stage.releasePointerCapture(e.pointerId);
    model.set("dragging", false);
    // The full frame goes now, whatever is in flight: it is the one that stays on screen.
    dirty = false; inflight = false; clearTimeout(timer); push();
  }
  stage.addEventListener("pointerup", endDrag);
  stage.addEventListener("pointercancel", endDrag);
  stage.addEventListener("wheel", e => {
    e.preventDefault();
    const zoom = clamp(model.get("zoom") * Math.exp(-e.deltaY * 0.0015), rules.zoom);
    model.set("zoom", Math.round(zoom * 1000) / 1000);
    push();
  }, { passive: false });
  stage.addEventListener("dblclick", () => { model.set("zoom", 1.0); push(); });

  // -- clips, time, play ---------------------------------------------------------
  clipSelect.addEventListener("change", () => {
    model.set({ clip: clipSelect.value, time: 0.0, playing: false });
    push();
  });
  slider.addEventListener("input", () => {
    model.set({ time: Math.round(parseFloat(slider.value) * 1000) / 1000, playing: false });
    push();
  });
  loop.addEventListener("change", () => { model.set("loop", loop.checked); model.save_changes(); });
  skeleton.addEventListener("change", () => { model.set("skeleton", skeleton.checked); push(); });
  let last = null, raf = null;
  function tick(now) {
    raf = null;
    if (!model.get("playing")) return;
    if (last !== null && !inflight) {
      const d = model.get("duration");
      let t = model.get("time") + (now - last) / 1000;
      if (t > d) {
        if (model.get("loop") && d > 0) t = t % d;
        else { t = d; model.set("playing", false); }
      }
      model.set("time", Math.round(t * 1000) / 1000);
      push();
    }
    if (last === null || !inflight) last = now;
    raf = requestAnimationFrame(tick);
  }
  play.addEventListener("click", () => {
    const on = !model.get("playing");
    if (on && model.get("time") >= model.get("duration")) model.set("time", 0.0);
    model.set("playing", on);
    model.save_changes();
    last = null;
    if (on && raf === null) raf = requestAnimationFrame(tick);
  });
  function onPlaying() { showToggles(); if (model.get("playing") && raf === null) { last = null; raf = requestAnimationFrame(tick); } }

  const handlers = [
    ["change:frame", showFrame], ["change:yaw", showCamera], ["change:elevation", showCamera],
    ["change:zoom", showCamera], ["change:clips", showClips], ["change:clip", () => { showClips(); showTime(); }],
    ["change:time", showTime], ["change:duration", showTime], ["change:loop", showToggles],
    ["change:skeleton", showToggles], ["change:playing", onPlaying], ["change:size", showSize],
  ];
  for (const [ev, fn] of handlers) model.on(ev, fn);
  showSize(); showClips(); showTime(); showToggles(); showCamera(); showFrame();
  root.dataset.ready = "1";

  return () => {
    releaseKeys();
    for (const [ev, fn] of handlers) model.off(ev, fn);
    if (raf !== null) cancelAnimationFrame(raf);
    clearTimeout(timer);
    if (url) URL.revokeObjectURL(url);
  };
}

export default { render };
