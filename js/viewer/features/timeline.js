// The timeline: the clip menu, play and pause, frame steps, the time slider, speed and loop, a
// crossfade between clips, and their keys (space, "," and "."). A clip of its own file (the library's)
// is asked of the kernel when it is picked. The kernel learns the time once a second while a clip plays.

import * as THREE from "three";
import { button, check, el, put, round, select } from "../dom.js";

const FRAME_STEP = 1 / 30;  // the clips' key rate: one step is one key
const CROSSFADE_S = 0.3;

export function timeline(v) {
  const m = v.model, clips = new Map();  // name -> AnimationClip
  let mixer = null, action = null, previous = null, fadeUntil = 0, sentTime = 0, clock = 0, timeTimer;

  const clip = el("select", { className: "wb-av-clip", title: "clip" });
  const play = button("wb-av-play", "▶", "play / pause (space)");
  const back = button("wb-av-step-back", "‹", "one frame back (,)");
  const fwd = button("wb-av-step", "›", "one frame on (.)");
  const time = el("input", { className: "wb-av-time", type: "range", min: 0, max: 1, step: 0.001, value: 0, title: "time" });
  const timeLabel = el("span", { className: "wb-av-timelabel" });
  const speed = select("wb-av-speed", v.rules.speeds.map(s => [s, `${s}x`]), "speed");
  const [loopBox, loopLabel] = check("wb-av-loop", "loop", "loop");
  v.toolbar(clip, back, play, fwd, time, timeLabel, speed, loopLabel);

  const current = () => action ? action.time : 0;
  v.currentTime = current;
  const showClips = () => {
    clip.replaceChildren(el("option", { value: "", textContent: "(no clip)" }),
      ...m.get("clips").map(n => el("option", { value: n, textContent: n })));
    clip.value = m.get("clip");
  };
  const showTime = (t = current()) => {  // every frame of a clip playing: only what changed is written
    const d = action ? action.getClip().duration : 0;
    put(time, "max", String(d || 1));
    put(time, "value", String(t));
    for (const b of [time, play, back, fwd]) put(b, "disabled", !action);
    put(timeLabel, "textContent", `${t.toFixed(2)} / ${d.toFixed(2)} s`);
    put(play, "textContent", m.get("playing") ? "❚❚" : "▶");
    put(speed, "value", String(m.get("speed")));
    put(loopBox, "checked", m.get("loop"));
    v.data({ time: t.toFixed(3), speed: String(m.get("speed")), playing: String(m.get("playing")) });
  };
  const applyLoop = (a = action) => {
    if (!a) return;
    a.setLoop(m.get("loop") ? THREE.LoopRepeat : THREE.LoopOnce, Infinity);
    a.clampWhenFinished = true;
  };
  const seek = t => {
    if (!action) return;
    const d = action.getClip().duration;
    t = Math.min(Math.max(t, 0), d);
    // Scrubbing shows the new clip alone, at once: no crossfade left over.
    if (previous) { previous.stop(); previous = null; }
    action.enabled = true;
    action.setEffectiveWeight(1);
    action.paused = false;
    action.time = t;
    mixer.update(0);
    action.paused = !m.get("playing");
    v.posed();
    showTime(t);
  };
  // Another viewer's time (compare(..., link_time=True)), set without a message to the kernel.
  v.followTime = t => {
    if (!action || Math.abs(current() - t) <= 1e-3) return;
    action.time = t;
    mixer.update(0);
    v.posed();
  };
  const setPlaying = on => {
    if (on && action && current() >= action.getClip().duration - 1e-6 && !m.get("loop")) seek(0);
    v.set({ playing: on, time: round(current(), 3) });
    if (action) action.paused = !on;
    showTime();
  };
  const step = n => {
    if (!action) return;
    if (m.get("playing")) { m.set("playing", false); action.paused = true; }
    const d = action.getClip().duration;
    let t = Math.round(current() / FRAME_STEP + n) * FRAME_STEP;
    // A looping clip steps round its end (and back past its start); a clip played once stops there.
    if (m.get("loop") && d > 0 && (t > d + 1e-6 || t < -1e-6)) t = ((t % d) + d) % d;
    seek(t);
    v.set({ time: round(current(), 3) });
  };
  const showClip = (first = false) => {
    const name = m.get("clip");
    clip.value = name;
    v.root.dataset.clip = name;
    if (!mixer) return;
    if (!name) {
      if (action) { action.fadeOut(first ? 0 : CROSSFADE_S); previous = action; }
      fadeUntil = performance.now() / 1000 + CROSSFADE_S;
      action = null;
      if (first) mixer.stopAllAction();
      showTime();
      return;
    }
    const c = clips.get(name);
    if (!c) {  // a clip of its own file: ask the kernel for it
      v.say(`loading ${name}…`);
      v.glb({ type: "clip", name }).then(answer => v.parse(answer.buffer)).then(g => {
        const got = g.animations[0];
        if (!got) throw new Error(`no animation in the GLB of clip ${name}`);
        got.name = name;
        clips.set(name, got);
        if (m.get("clip") === name && !v.disposed) showClip();
      }).catch(e => v.fail(`clip ${name}`, e));
      return;
    }
    v.say("");
    const next = mixer.clipAction(c);
    if (next === action) return;
    next.reset();
    next.time = Math.min(m.get("time"), c.duration);
    applyLoop(next);
    next.play();
    if (previous) previous.stop();
    previous = null;
    if (action && !first) {
      action.crossFadeTo(next, CROSSFADE_S, false);
      previous = action;
      fadeUntil = performance.now() / 1000 + CROSSFADE_S;
    } else if (action) action.stop();
    action = next;
    mixer.update(0);
    v.posed();
    showTime();
  };

  v.on("clips", showClips);
  v.on("clip", () => showClip());
  v.on("time", () => { if (!m.get("playing") && Math.abs(m.get("time") - current()) > 1e-3) seek(m.get("time")); });
  v.on("playing", () => { if (action) action.paused = !m.get("playing"); showTime(); });
  v.on("speed", () => showTime());
  v.on("loop", () => { applyLoop(); showTime(); });
  v.signal("model", gltf => {
    for (const c of gltf.animations) clips.set(c.name, c);
    v.mixer = mixer = new THREE.AnimationMixer(gltf.scene);
    v.onDispose(() => { mixer.stopAllAction(); mixer.uncacheRoot(gltf.scene); });
    showClips();
    showClip(true);
  });
  showClips();
  showTime();

  v.listen(clip, "change", () => v.set({ clip: clip.value, time: 0, playing: !!clip.value }));
  v.listen(play, "click", () => setPlaying(!m.get("playing")));
  v.listen(back, "click", () => step(-1));
  v.listen(fwd, "click", () => step(1));
  v.listen(time, "input", () => {
    if (m.get("playing")) v.set({ playing: false });
    seek(parseFloat(time.value));
    clearTimeout(timeTimer);
    timeTimer = setTimeout(() => v.set({ time: round(current(), 3) }), 150);
  });
  v.onDispose(() => clearTimeout(timeTimer));
  v.listen(speed, "change", () => v.set({ speed: parseFloat(speed.value) }));
  v.listen(loopBox, "change", () => v.set({ loop: loopBox.checked }));
  v.key(" ", () => setPlaying(!m.get("playing")));
  v.key(",", () => step(-1));
  v.key(".", () => step(1));

  v.tick(t => {
    const playing = m.get("playing") && action;
    if (playing) t.moving = true;
    if (!mixer || !(playing || t.now < fadeUntil)) return;
    const before = current();
    mixer.update(t.dt * m.get("speed"));
    clock += t.dt * m.get("speed");
    v.data({ clipClock: clock.toFixed(4), clipClockAt: t.ms.toFixed(1) });
    if (playing && !m.get("loop") && current() >= action.getClip().duration - 1e-6 && before === current()) setPlaying(false);
    v.posed();
    showTime();
    if (playing && t.now - sentTime > 1) {  // the kernel learns the time once a second, not every frame
      sentTime = t.now;
      v.set({ time: round(current(), 3) });
    }
  });
}
