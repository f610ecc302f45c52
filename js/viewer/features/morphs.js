// Morph targets: a slider per target (ARKit names on the avatars), the blink, smile and viseme presets
// and "zero", beside the canvas (below it in a narrow output); touching one frames the face. A slider
// being dragged draws as a moving view does (the lighter level, fewer pixels on a slow GPU), so it keeps
// a drag's frame rate; the kernel learns the weights when the slider rests.

import { button, el, round } from "../dom.js";

const SEND_MS = 120;     // the weights go to the kernel this long after the last change
const SLIDING_MS = 250;  // a slider moved this recently (or three frames ago, on a slow page) is still being dragged

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

export function morphs(v) {
  const m = v.model, inputs = new Map();
  let names = [], preset = null, timer, slidAt = -Infinity;
  const summary = el("summary", { textContent: "morph targets" });
  const presetBar = el("div", { className: "wb-av-presets" });
  const sliders = el("div", { className: "wb-av-sliders" });
  const box = el("details", { className: "wb-av-morphs", hidden: true }, [summary, presetBar, sliders]);
  v.onDispose(() => clearTimeout(timer));

  const setMorphs = (weights, send) => {
    for (const mesh of v.meshes) {
      const dict = mesh.morphTargetDictionary, inf = mesh.morphTargetInfluences;
      if (dict) for (const [n, i] of Object.entries(dict)) inf[i] = weights[n] || 0;
    }
    // Only the sliders whose value changed: each one set costs the page a style and layout pass.
    for (const [n, input] of inputs) {
      const value = String(weights[n] || 0);
      if (input.value !== value) input.value = value;
    }
    v.root.dataset.morphs = JSON.stringify(weights);
    v.posed();
    if (send) {
      const clean = Object.fromEntries(Object.entries(weights).filter(([n, w]) => w > 0 && names.includes(n)).map(([n, w]) => [n, round(w, 3)]));
      clearTimeout(timer);
      timer = setTimeout(() => v.set({ weights: clean }), SEND_MS);
    }
  };
  const build = () => {
    const found = new Set();
    for (const mesh of v.meshes) for (const n of Object.keys(mesh.morphTargetDictionary || {})) found.add(n);
    names = [...found];
    if (!names.length) return;
    box.hidden = false;
    v.place(box);
    summary.textContent = `morph targets (${names.length})`;
    const has = p => PRESETS[p].some(([, w]) => Object.keys(w).some(n => found.has(n)));
    for (const p of Object.keys(PRESETS)) {
      const b = button(`wb-av-preset wb-av-preset-${p}`, p, `play the ${p} preset`);
      b.disabled = !has(p);
      v.listen(b, "click", () => { preset = { keys: PRESETS[p], start: performance.now() / 1000, base: { ...m.get("weights") } }; });
      presetBar.append(b);
    }
    const zero = button("wb-av-preset wb-av-preset-zero", "zero", "all weights to 0");
    v.listen(zero, "click", () => setMorphs({}, true));
    presetBar.append(zero);
    for (const n of names) {
      const input = el("input", { type: "range", min: 0, max: 1, step: 0.01, value: 0, className: "wb-av-morph", title: n, dataset: { name: n } });
      v.listen(input, "input", () => {
        slidAt = performance.now();
        setMorphs({ ...m.get("weights"), [n]: parseFloat(input.value) }, true);
      });
      inputs.set(n, input);
      sliders.append(el("label", { className: "wb-av-morph-row" }, [el("span", { textContent: n }), input]));
    }
    v.root.dataset.morphTargets = String(names.length);
    setMorphs(m.get("weights"), false);
  };
  const stepPreset = now => {
    const p = preset, t = now - p.start, keys = p.keys;
    const end = keys[keys.length - 1][0];
    let i = keys.findIndex(([k]) => k > t);
    if (i < 0) i = keys.length - 1;
    const [t0, w0] = keys[Math.max(0, i - 1)], [t1, w1] = keys[i];
    const a = t >= end ? 1 : Math.min(1, Math.max(0, (t - t0) / Math.max(t1 - t0, 1e-6)));
    const weights = { ...p.base };
    for (const n of names) if (!(n in p.base)) weights[n] = 0;
    for (const n of new Set([...Object.keys(w0), ...Object.keys(w1)])) weights[n] = (w0[n] || 0) * (1 - a) + (w1[n] || 0) * a;
    setMorphs(weights, t >= end);
    if (t >= end) preset = null;
  };

  // Open, the sliders sit beside the canvas, so the face stays in view while they move; closed, the
  // summary waits under it with the other controls (the canvas keeps the output's width).
  v.listen(box, "toggle", () => {
    const had = box.contains(document.activeElement) && document.activeElement;
    if (box.open) v.beside(box);
    else v.place(box);
    if (had) had.focus({ preventScroll: true });  // moved, the summary keeps the keyboard's focus
  });

  // A face slider or preset touched frames the face (once: the camera is the person's again after it),
  // so the face is in view, and large, while its shapes move; a model without a head keeps its camera.
  const faceFirst = e => {
    if (e.target.matches("input.wb-av-morph, .wb-av-preset") && m.get("focus") !== "face" && v.hasPart("face")) v.lookAt("face");
  };
  for (const type of ["pointerdown", "focusin"]) v.listen(box, type, faceFirst);

  v.on("weights", () => setMorphs(m.get("weights"), false));
  v.signal("model", build);
  v.signal("meshes", () => setMorphs(m.get("weights"), false));
  v.tick(t => {
    if (preset) stepPreset(t.now);
    if (preset || performance.now() - slidAt < Math.max(SLIDING_MS, 3 * (v.interval || 0))) t.moving = true;
  });
}
