// The kernel link: the model's and clips' GLB bytes arrive from the kernel as binary buffers of custom
// messages (workbench/widgets/page_link.py), so a viewer works the same on the local service and a
// deployment and nothing is fetched from any host; and the canvas's picture goes to the kernel when
// the view settles (what snapshot() returns and the notebook keeps as the output's still).
//
// v.ask(message) sends a request and resolves with the answer ({msg, buffer}: its first buffer); an error
// answer rejects. One request of a kind (and name) is in flight at a time. v.glb(message) asks for a GLB
// the page may hold already (glb_store.js: one copy per page) and resolves with {msg, buffer}.

import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import * as glbs from "../glb_store.js";

const SETTLE_MS = 400;  // the view this long unchanged: its picture goes to the kernel

const requestKey = msg => `${msg.type}:${msg.name || ""}`;

export function kernelLink(v) {
  const m = v.model, waiting = new Map();
  v.ask = msg => {
    const key = requestKey(msg);
    if (!waiting.has(key)) {
      waiting.set(key, new Promise((ok, no) => { waiting.set(`${key}/settle`, { ok, no }); }));
      m.send(msg);
    }
    return waiting.get(key);
  };
  const onMessage = (msg, buffers) => {
    const key = requestKey(msg.type === "error" ? { type: msg.request, name: msg.name } : msg);
    const settle = waiting.get(`${key}/settle`);
    if (!settle) {
      if (msg.type === "error") v.say(msg.message);
      return;
    }
    waiting.delete(`${key}/settle`);
    waiting.delete(key);
    if (msg.type === "error") settle.no(new Error(msg.message));
    else settle.ok({ msg, buffer: buffers[0] });
  };
  m.on("msg:custom", onMessage);
  v.onDispose(() => m.off("msg:custom", onMessage));

  v.glb = async (msg, retry = true) => {
    const answer = await v.ask({ ...msg, have: glbs.heldKeys() });
    if (!answer.msg.key) return { msg: answer.msg, buffer: null };  // nothing to send (no lighter level)
    const buffer = answer.buffer ? glbs.keep(answer.msg.key, answer.buffer, v) : glbs.use(answer.msg.key, v);
    if (buffer) return { msg: answer.msg, buffer };
    if (retry) return v.glb({ ...msg }, false);  // the page let it go meanwhile
    throw new Error(`the kernel sent no bytes for ${answer.msg.key}`);
  };
  v.onDispose(() => glbs.release(v));
  v.parse = buffer => new Promise((ok, no) => new GLTFLoader().parse(buffer, "", ok, no));
  v.fail = (what, e) => {
    const text = String(e && e.message || e);
    v.say(`could not read ${what}: ${text}`);
    v.root.dataset.error = text;
  };

  const key = m.get("model_key"), held = glbs.use(key, v);
  (held ? Promise.resolve(held) : glbs.once(key, () => v.glb({ type: "model" })).then(() => glbs.use(key, v)))
    .then(buffer => v.parse(buffer))
    .then(gltf => { if (!v.disposed) v.setModel(gltf); }, e => v.fail("the model", e));

  // The settled view's picture, once per view: a view drawn again as it was (the output moved, the
  // canvas resized to the same size) sends nothing.
  let due = false, lastView = null;
  const view = () => JSON.stringify([v.cameraState(), v.currentTime(), v.width, v.height, v.renderer.getPixelRatio(),
    ...["clip", "weights", "light", "background", "shadow", "wireframe", "normals", "skeleton"].map(k => m.get(k))]);
  v.signal("drawn", () => { due = true; });
  v.signal("idle", t => {
    if (due && v.sharp && t.ms - v.lastRender > SETTLE_MS) {
      due = false;
      if (view() !== lastView) v.sendPicture();
    }
  });
  // The picture goes as a message's binary buffer: the kernel keeps it (snapshot(), the output's still)
  // and sends none of it back.
  let sent = 0;
  v.sendPicture = async () => {
    if (!v.gltf || !v.root.isConnected) return;
    lastView = view();
    const blob = await v.picturePng();
    m.send({ type: "picture" }, undefined, [await blob.arrayBuffer()]);
    v.root.dataset.pictureSent = String(++sent);
  };
}
