// Level of detail: a software GPU sets up its triangles one by one (about 1 µs each), so while the
// view moves it draws the next lighter level the kernel has (AvatarViewer's lods), its meshes bound
// to the main model's bones, so the clip, the crossfades and the morph weights pose it with no
// second mixer. The still view is always the full model at full resolution (core.js, draw).

import * as THREE from "three";
import { CpuPose } from "../cpu_pose.js";

export function levelOfDetail(v) {
  const bind = (gltf, level) => {
    if (v.disposed || v.lowPose) return;
    const bones = new Map(v.bones.map(b => [b.name, b]));
    const meshes = [];
    let whole = true;
    gltf.scene.traverse(o => {
      if (!o.isMesh) return;
      meshes.push(o);
      if (o.isSkinnedMesh) {
        const mine = o.skeleton.bones.map(b => bones.get(b.name));
        if (mine.some(b => !b)) whole = false;
        else o.bind(new THREE.Skeleton(mine, o.skeleton.boneInverses), o.bindMatrix);
      }
    });
    if (!whole) return;  // another skeleton: the main model moves as it is
    v.scene.add(gltf.scene);
    v.lowPose = new CpuPose(gltf.scene, v.scene);
    v.lowPose.group.visible = false;
    v.addMeshes(meshes);
    v.root.dataset.movingLod = String(level);
  };
  v.signal("model", () => {
    if (!v.software) return;  // the kernel answers with no GLB when it has no lighter level
    v.glb({ type: "lod" })
      .then(answer => answer.buffer && v.parse(answer.buffer).then(gltf => bind(gltf, answer.msg.level)))
      .catch(e => v.fail("a lighter level of detail", e));
  });
}
