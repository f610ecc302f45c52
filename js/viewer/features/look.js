// The look: light presets fixed to the world, the background colour, the ground shadow (a contact
// shadow drawn from the skeleton, contact_shadow.js), wireframe, normals, the skeleton with a bone's
// name on hover, and their keys ("w", "s", "g").

import * as THREE from "three";
import { ContactShadow } from "../contact_shadow.js";
import { check, el, select } from "../dom.js";

const HOVER_PX = 14;

// Each light preset: what it adds round the figure's centre `c`, `r` its radius.
const PRESETS = {
  studio: sun => [new THREE.HemisphereLight(0xffffff, 0x8a8a99, 1.2),
                  sun(0xffffff, 2.2, 1.2, 2.0, 2.0),     // key, front right above
                  sun(0xdde6ff, 0.8, -2.0, 0.8, 1.0),    // fill
                  sun(0xffffff, 1.2, 0.0, 1.5, -2.5)],   // rim
  outdoor: sun => [new THREE.HemisphereLight(0xbfdcff, 0x6b5a3a, 1.4), sun(0xfff1d6, 3.0, -1.5, 3.0, 1.2)],
  flat: () => [new THREE.AmbientLight(0xffffff, 2.6)],
};

export function look(v) {
  const m = v.model;
  const lights = new THREE.Group();
  v.scene.add(lights);
  // The ground shadow's plane; its material comes with the model's skeleton.
  const ground = new THREE.Mesh(new THREE.PlaneGeometry(1, 1), new THREE.MeshBasicMaterial({ visible: false }));
  ground.rotation.x = -Math.PI / 2;
  v.scene.add(ground);
  const normalMaterial = new THREE.MeshNormalMaterial();
  v.onDispose(() => normalMaterial.dispose());
  let lightKind = null, contact = null, groundSize = 1, skeletonHelper = null, shadowPose = -1;

  const light = select("wb-av-light", v.rules.lights.map(l => [l, l]), "light");
  const background = el("input", { className: "wb-av-background", type: "color", title: "background" });
  const [shadow, shadowLabel] = check("wb-av-shadow", "shadow", "ground shadow");
  const [wire, wireLabel] = check("wb-av-wireframe", "wireframe", "wireframe");
  const [normals, normalsLabel] = check("wb-av-normals", "normals", "shade by normals");
  const [skeleton, skeletonLabel] = check("wb-av-skeleton", "skeleton", "skeleton; hover a joint for its name");
  v.toolbar(light, background, shadowLabel, wireLabel, normalsLabel, skeletonLabel);
  const tip = el("div", { className: "wb-av-tip", hidden: true });
  v.stage.append(tip);

  const apply = () => {
    v.scene.background = new THREE.Color(m.get("background"));
    const kind = m.get("light");
    if (kind !== lightKind) {
      lightKind = kind;
      lights.clear();
      const r = v.radius || 1, c = v.center || new THREE.Vector3(0, 1, 0);
      const sun = (color, intensity, x, y, z) => {
        const l = new THREE.DirectionalLight(color, intensity);
        l.position.set(c.x + x * r, c.y + y * r, c.z + z * r);
        l.target.position.copy(c);
        lights.add(l.target);
        return l;
      };
      lights.add(...(PRESETS[kind] || PRESETS.flat)(sun));
    }
    ground.visible = m.get("shadow");
    const isWire = m.get("wireframe"), isNormals = m.get("normals");
    for (const mesh of v.meshes) {
      mesh.material = isNormals ? normalMaterial : mesh.userData.material;
      for (const mat of [].concat(mesh.material)) mat.wireframe = isWire;
    }
    if (skeletonHelper) skeletonHelper.visible = m.get("skeleton");
    if (!m.get("skeleton")) tip.hidden = true;
    v.posed();
    show();
  };
  const show = () => {
    const d = v.root.dataset;
    light.value = m.get("light");
    background.value = m.get("background");
    shadow.checked = d.shadow = m.get("shadow");
    wire.checked = d.wireframe = m.get("wireframe");
    normals.checked = d.normals = m.get("normals");
    skeleton.checked = d.skeleton = m.get("skeleton");
  };
  const hover = e => {
    if (!m.get("skeleton") || !v.bones || e.buttons) { tip.hidden = true; return; }
    const rect = v.canvas.getBoundingClientRect();
    const x = e.clientX - rect.left, y = e.clientY - rect.top;
    const p = new THREE.Vector3();
    let best = null, bestD = HOVER_PX;
    for (const b of v.bones) {
      b.getWorldPosition(p).project(v.camera);
      const d = Math.hypot((p.x + 1) / 2 * rect.width - x, (1 - p.y) / 2 * rect.height - y);
      if (d < bestD && p.z < 1) { best = b; bestD = d; }
    }
    tip.hidden = !best;
    if (best) {
      tip.textContent = best.name;
      tip.style.left = `${x + 12}px`;
      tip.style.top = `${y - 8}px`;
    }
    v.root.dataset.hoverBone = best ? best.name : "";
  };

  for (const k of ["light", "background", "shadow", "wireframe", "normals", "skeleton"]) v.on(k, apply);
  v.signal("model", gltf => {
    lightKind = null;  // the lights placed round the figure, now that its size is known
    // The ground only as large as the shadow can reach (its canvas's texels stay small).
    groundSize = v.radius * 1.6;
    ground.scale.set(groundSize, groundSize, 1);
    ground.position.set(v.center.x, v.box.min.y, v.center.z);
    skeletonHelper = new THREE.SkeletonHelper(gltf.scene);
    v.scene.add(skeletonHelper);
    contact = new ContactShadow(new Map(v.bones.map(b => [b.name, b])));
    ground.material.dispose();
    ground.material = contact.material;
    apply();
  });
  v.signal("meshes", apply);
  // The ground shadow follows the pose (not the camera), redrawn from the skeleton: well under a millisecond.
  v.signal("draw", () => {
    if (contact && ground.visible && shadowPose !== v.poseVersion) {
      contact.update(ground, groundSize, v.box.max.y - v.box.min.y);
      shadowPose = v.poseVersion;
    }
  });
  apply();

  const send = values => v.set(values);
  v.listen(light, "change", () => send({ light: light.value }));
  v.listen(background, "input", () => send({ background: background.value }));
  v.listen(shadow, "change", () => send({ shadow: shadow.checked }));
  v.listen(wire, "change", () => send({ wireframe: wire.checked }));
  v.listen(normals, "change", () => send({ normals: normals.checked }));
  v.listen(skeleton, "change", () => send({ skeleton: skeleton.checked }));
  v.listen(v.canvas, "pointermove", hover);
  v.listen(v.canvas, "pointerleave", () => { tip.hidden = true; });
  v.key("w", () => send({ wireframe: !m.get("wireframe") }));
  v.key("s", () => send({ skeleton: !m.get("skeleton") }));
  v.key("g", () => send({ shadow: !m.get("shadow") }));
}
