// Posing on the CPU for a software GPU (SwiftShader, llvmpipe: WebGL without a graphics card).
//
// There, a frame's time goes to the vertex shader, not the pixels (bench/RESULTS.md, issue 26):
// three.js skins every vertex with four bone matrices read from a texture and adds the morph
// targets (52 ARKit shapes on the avatars) on every draw (and a shadow map's pass did it all again).
// Half the pixels saved little; a software GPU's texture reads in the vertex stage are what cost.
// JavaScript does the same sums for the avatar's 18,000 vertices in a few milliseconds, once per
// pose (an orbit does not change the pose at all), so on a software GPU each skinned or morphed
// mesh is drawn as a plain mesh whose positions and normals the CPU writes: the same pose to
// float precision and a vertex shader with nothing to do.
// A graphics card keeps three.js's own skinning (Viewer.buildScene decides).
//
// The sums are three.js's: position = bindMatrixInverse · Σ wᵢ boneMatrixᵢ · bindMatrix · (p + Σ kⱼ Δⱼ)
// (SkinnedMesh.applyBoneTransform, morphtarget_vertex.glsl with relative targets), normals by the
// same matrix and normalized, as skinnormal_vertex.glsl does.

import * as THREE from "three";

const _m = new THREE.Matrix4();

// An attribute's values as a Float32Array of `size` per vertex: its own array when it is one
// (read only here), else read out (interleaved or normalized integers).
function copyOut(attr, size) {
  if (!attr.isInterleavedBufferAttribute && !attr.normalized && attr.itemSize === size && attr.array instanceof Float32Array) {
    return attr.array.length === attr.count * size ? attr.array : attr.array.subarray(0, attr.count * size);
  }
  const out = new Float32Array(attr.count * size);
  const get = ["getX", "getY", "getZ", "getW"];
  for (let i = 0; i < attr.count; i++) for (let c = 0; c < size; c++) out[i * size + c] = attr[get[c]](i);
  return out;
}

class Posed {
  constructor(mesh) {
    const g = mesh.geometry, n = g.attributes.position.count;
    this.mesh = mesh;
    this.skinned = !!mesh.isSkinnedMesh;
    this.base = copyOut(g.attributes.position, 3);
    this.baseNormal = g.attributes.normal ? copyOut(g.attributes.normal, 3) : null;
    this.morphs = (g.morphAttributes.position || []).map(a => copyOut(a, 3));
    this.morphNormals = (g.morphAttributes.normal || []).map(a => copyOut(a, 3));
    this.relative = g.morphTargetsRelative;
    if (this.skinned) {
      this.index = Uint16Array.from(copyOut(g.attributes.skinIndex, 4));
      this.weight = copyOut(g.attributes.skinWeight, 4);
      this.bones = new Float32Array(mesh.skeleton.bones.length * 16);
    }
    // The mesh the GPU draws: the geometry's other attributes shared (same GPU buffers), the
    // positions and normals its own, rewritten per pose.
    const out = new THREE.BufferGeometry();
    for (const [name, attr] of Object.entries(g.attributes)) {
      if (!["position", "normal", "skinIndex", "skinWeight"].includes(name)) out.setAttribute(name, attr);
    }
    out.setIndex(g.index);
    for (const group of g.groups) out.addGroup(group.start, group.count, group.materialIndex);
    this.position = new THREE.BufferAttribute(new Float32Array(n * 3), 3).setUsage(THREE.DynamicDrawUsage);
    out.setAttribute("position", this.position);
    if (this.baseNormal) {
      this.normal = new THREE.BufferAttribute(new Float32Array(n * 3), 3).setUsage(THREE.DynamicDrawUsage);
      out.setAttribute("normal", this.normal);
    }
    this.work = new Float32Array(n * 3);
    this.workNormal = this.baseNormal ? new Float32Array(n * 3) : null;
    // In world space: the mesh's own transform is in the sums.
    const drawn = this.drawn = new THREE.Mesh(out, mesh.material);
    drawn.name = `${mesh.name} (posed on the CPU)`;
    drawn.matrixAutoUpdate = false;
    drawn.frustumCulled = false;
    drawn.renderOrder = mesh.renderOrder;
  }

  // The morph targets applied: the rest shape plus each target with a weight.
  morphed(base, targets, out) {
    const inf = this.mesh.morphTargetInfluences || [];
    const active = [];
    for (let k = 0; k < targets.length; k++) if (inf[k]) active.push(k);
    if (!active.length) return base;
    out.set(base);
    for (const k of active) {
      const w = inf[k], d = targets[k];
      if (this.relative) for (let i = 0; i < d.length; i++) out[i] += w * d[i];
      else for (let i = 0; i < d.length; i++) out[i] += w * (d[i] - base[i]);
    }
    return out;
  }

  update() {
    const mesh = this.mesh;
    this.drawn.material = mesh.material;  // wireframe and normals swap materials (Viewer.applyLook)
    this.drawn.visible = mesh.visible;
    const p = this.morphed(this.base, this.morphs, this.work);
    const nrm = this.baseNormal && (this.morphNormals.length ? this.morphed(this.baseNormal, this.morphNormals, this.workNormal) : this.baseNormal);
    const P = this.position.array, N = this.normal && this.normal.array, n = P.length / 3;
    if (!this.skinned) {
      const e = mesh.matrixWorld.elements;
      for (let v = 0; v < n; v++) transform(e, 0, p, v * 3, P, N && nrm, N);
    } else {
      // Per bone: matrixWorld · bindMatrixInverse · boneMatrix · bindMatrix, so the blend below
      // gives world positions at once (the skeleton's boneMatrices are bone world · inverse bind).
      const skeleton = mesh.skeleton, B = this.bones;
      skeleton.update();
      const pre = new THREE.Matrix4().multiplyMatrices(mesh.matrixWorld, mesh.bindMatrixInverse);
      let moved = !this.blended;
      for (let b = 0; b < skeleton.bones.length; b++) {
        _m.fromArray(skeleton.boneMatrices, b * 16).premultiply(pre).multiply(mesh.bindMatrix);
        const e = _m.elements;
        for (let c = 0; c < 16 && !moved; c++) moved = B[b * 16 + c] !== e[c];
        B.set(e, b * 16);
      }
      // Each vertex's blend of its bones, kept while the bones stay put: a morph slider moved on a still
      // pose (or a paused clip) costs the morph sums and the transforms, not the blends again.
      const I = this.index, W = this.weight, M = this.blended ||= new Float32Array(n * 16);
      for (let v = 0; v < n; v++) {
        const o = v * 16;
        if (moved) {
          M.fill(0, o, o + 16);
          for (let j = v * 4; j < v * 4 + 4; j++) {
            const w = W[j];
            if (w === 0) continue;
            const b = I[j] * 16;
            for (let c = 0; c < 15; c++) M[o + c] += w * B[b + c];
          }
        }
        transform(M, o, p, v * 3, P, N && nrm, N);
      }
    }
    this.position.needsUpdate = true;
    if (this.normal) this.normal.needsUpdate = true;
  }
}

// out[i..i+2] = M · (p[i..i+2], 1); normals by M's linear part, normalized (column-major M).
function transform(M, o, p, i, P, nrm, N) {
  const x = p[i], y = p[i + 1], z = p[i + 2];
  P[i] = M[o] * x + M[o + 4] * y + M[o + 8] * z + M[o + 12];
  P[i + 1] = M[o + 1] * x + M[o + 5] * y + M[o + 9] * z + M[o + 13];
  P[i + 2] = M[o + 2] * x + M[o + 6] * y + M[o + 10] * z + M[o + 14];
  if (!N) return;
  const a = nrm[i], b = nrm[i + 1], c = nrm[i + 2];
  const nx = M[o] * a + M[o + 4] * b + M[o + 8] * c;
  const ny = M[o + 1] * a + M[o + 5] * b + M[o + 9] * c;
  const nz = M[o + 2] * a + M[o + 6] * b + M[o + 10] * c;
  const len = Math.hypot(nx, ny, nz) || 1;
  N[i] = nx / len; N[i + 1] = ny / len; N[i + 2] = nz / len;
}

// The avatar's skinned and morphed meshes, drawn as plain meshes posed by `update()`; the
// originals stay in the scene, hidden from the renderer (layer 1), for the bones, hover and
// materials that the rest of the viewer reads.
export class CpuPose {
  constructor(avatar, scene) {
    this.items = [];
    avatar.traverse(o => {
      if (o.isMesh && (o.isSkinnedMesh || (o.geometry.morphAttributes.position || []).length)) this.items.push(new Posed(o));
    });
    this.group = new THREE.Group();
    this.group.name = "posed on the CPU";
    for (const item of this.items) {
      item.mesh.layers.set(1);  // the camera sees layer 0 only
      this.group.add(item.drawn);
    }
    scene.add(this.group);
  }

  update(scene) {
    scene.updateMatrixWorld();
    for (const item of this.items) item.update();
  }
}
