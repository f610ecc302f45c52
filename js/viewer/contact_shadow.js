// The ground shadow: a soft contact shadow under the feet, drawn from the skeleton into a small canvas
// laid on the ground (the kernel's previews draw the same kind, workbench/render/raster.py ground_shadow).
//
// It replaced a shadow map cast by the key light: that was a second pass over every triangle whenever
// the pose changed, and a shadow-map lookup in every pixel of the ground and the figure; on a software
// GPU it was half of a playing clip's drawing, 25 ms a frame against 13 (bench/RESULTS.md, issue 26). The key light
// comes from the front, so its cast shadow fell behind the feet where a front view hardly sees it; a
// contact shadow grounds the figure from every side. It follows the pose: each foot, heel to toe, fades
// as it lifts off the ground, over a wide faint pool under the legs.

import * as THREE from "three";

const TEXELS = 128;
const STRENGTH = 0.55;   // the darkest the shadow gets (the previews' is 0.5)
const FEET = [["LeftFoot", "LeftToeBase", "LeftToe_End"], ["RightFoot", "RightToeBase", "RightToe_End"]];
const _p = new THREE.Vector3();

export class ContactShadow {
  // `bones`: the skeleton's bones by name.
  constructor(bones) {
    this.canvas = document.createElement("canvas");
    this.canvas.width = this.canvas.height = TEXELS;
    this.ctx = this.canvas.getContext("2d");
    this.texture = new THREE.CanvasTexture(this.canvas);
    this.texture.colorSpace = THREE.NoColorSpace;
    this.material = new THREE.MeshBasicMaterial({ color: 0x000000, alphaMap: this.texture, transparent: true,
                                                  opacity: STRENGTH, depthWrite: false });
    this.feet = FEET.map(names => names.map(n => bones.get(n)).filter(Boolean)).filter(f => f.length >= 2);
    this.hips = bones.get("Hips");
  }

  // Draw the shadow for the skeleton as it stands now on `ground`, a plane `extent` metres square
  // centred under the figure, for a figure `height` metres tall.
  update(ground, extent, height) {
    const ctx = this.ctx, px = TEXELS / extent;
    const x0 = ground.position.x - extent / 2, z0 = ground.position.z - extent / 2, y0 = ground.position.y;
    const at = b => { b.getWorldPosition(_p); return [(_p.x - x0) * px, (_p.z - z0) * px, _p.y - y0]; };
    // White on black: the plane's alpha map reads the grey (its green channel).
    ctx.filter = "none";
    ctx.fillStyle = "#000";
    ctx.fillRect(0, 0, TEXELS, TEXELS);
    ctx.lineCap = "round";
    const foot = 0.055 * height * px;  // a sole's width, in texels
    // The pool: the legs near the ground, widely blurred (an occlusion of the ground by the body).
    ctx.filter = `blur(${(0.05 * height * px).toFixed(2)}px)`;
    if (this.hips) {
      const [hx, hz, hy] = at(this.hips);
      ctx.fillStyle = `rgba(255,255,255,${(0.55 * Math.max(0, 1 - hy / height)).toFixed(3)})`;
      ctx.beginPath(); ctx.ellipse(hx, hz, 0.16 * height * px, 0.1 * height * px, 0, 0, 2 * Math.PI); ctx.fill();
    }
    // The contact: each foot from heel to toe, darker the nearer it is to the ground.
    ctx.filter = `blur(${(0.012 * height * px).toFixed(2)}px)`;
    for (const chain of this.feet) {
      const pts = chain.map(at);
      const lift = Math.min(...pts.map(p => p[2]));
      const a = 0.9 * Math.max(0, 1 - lift / (0.12 * height));
      if (a <= 0) continue;
      ctx.strokeStyle = `rgba(255,255,255,${a.toFixed(3)})`;
      ctx.lineWidth = foot;
      ctx.beginPath();
      ctx.moveTo(pts[0][0], pts[0][1]);
      for (const p of pts.slice(1)) ctx.lineTo(p[0], p[1]);
      ctx.stroke();
    }
    this.texture.needsUpdate = true;
  }
}
