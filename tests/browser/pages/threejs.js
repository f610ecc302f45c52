// A three.js viewer as a web page would write it: GLTFLoader fetches the model from the service
// (another origin), AnimationMixer plays a clip. The test calls the two functions below.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

const loader = new GLTFLoader();
const cache = new Map();

async function load(url) {
  if (!cache.has(url)) cache.set(url, loader.loadAsync(url));
  return cache.get(url);
}

// What the page sees of a loaded model: meshes, skins, bones and clips.
function describe(gltf) {
  const meshes = [], skinned = [];
  gltf.scene.traverse(o => { if (o.isMesh) meshes.push(o); if (o.isSkinnedMesh) skinned.push(o); });
  const skeletons = new Set(skinned.map(m => m.skeleton.bones.map(b => b.name).join(',')));
  const bones = skinned.length ? skinned[0].skeleton.bones.map(b => b.name) : [];
  const textures = new Set();
  for (const m of meshes) for (const mat of [].concat(m.material)) if (mat.map) textures.add(mat.map.uuid);
  return {
    meshes: meshes.length, skinnedMeshes: skinned.length, skeletons: skeletons.size, bones,
    clips: gltf.animations.map(a => a.name), durations: gltf.animations.map(a => a.duration),
    // A mesh of several primitives is a Group of meshes named after its node. three.js makes names
    // unique (a node named like the scene becomes "Avatar_1") and keeps the file's in userData.name.
    meshNames: [...new Set(meshes.map(m => m.parent && m.parent.isGroup && m.parent !== gltf.scene ? m.parent : m)
                              .map(o => o.userData.name || o.name))],
    texturesWithImages: [...textures].length,
    morphs: meshes.filter(m => m.morphTargetDictionary).map(morphReport),
  };
}

// A mesh's morph targets as three.js names them, and how far `jawOpen` at full weight lowers the
// mesh's lowest point (three.js applies the morph on the CPU in getVertexPosition as on the GPU).
function morphReport(m) {
  const names = Object.entries(m.morphTargetDictionary).sort((a, b) => a[1] - b[1]).map(e => e[0]);
  const lowest = () => {
    const v = new THREE.Vector3();
    let y = Infinity;
    for (let i = 0; i < m.geometry.attributes.position.count; i++) y = Math.min(y, m.getVertexPosition(i, v).y);
    return y;
  };
  const k = m.morphTargetDictionary.jawOpen;
  const before = lowest();
  m.morphTargetInfluences[k] = 1;
  const after = lowest();
  m.morphTargetInfluences[k] = 0;
  const owner = m.parent && m.parent.isGroup && m.parent.userData.name ? m.parent : m;
  return {mesh: owner.userData.name || owner.name, names, jawDrop: before - after};
}

function bonePositions(scene, names) {
  scene.updateMatrixWorld(true);
  const out = {}, v = new THREE.Vector3();
  for (const n of names) {
    const o = scene.getObjectByName(n);
    if (o) { o.getWorldPosition(v); out[n] = [v.x, v.y, v.z]; }
  }
  return out;
}

// Play `clip` on `gltf.scene` at `time` s and read the bones; the mixer is released afterwards,
// which puts every animated property back to its rest value for the next clip.
function posed(gltf, clip, time, names) {
  const mixer = new THREE.AnimationMixer(gltf.scene);
  const action = mixer.clipAction(clip);
  action.play();
  mixer.setTime(time);
  const pos = bonePositions(gltf.scene, names);
  action.stop();
  mixer.uncacheRoot(gltf.scene);
  return pos;
}

// cases: [{model, clips: [{file?, name, times}]}]; a clip with `file` comes from an animation GLB,
// otherwise it is the model's own clip `name`.
async function inspectModels(cases) {
  const results = [];
  for (const c of cases) {
    const gltf = await load(c.model);
    const info = describe(gltf);
    info.rest = bonePositions(gltf.scene, info.bones);
    info.posed = [];
    for (const want of c.clips || []) {
      let clip;
      if (want.file) {
        const anim = await load(want.file);
        clip = anim.animations[0];
      } else {
        clip = gltf.animations.find(a => a.name === want.name);
      }
      if (!clip) throw new Error(`no clip ${want.name} in ${want.file || c.model}`);
      for (const t of want.times) {
        info.posed.push({name: clip.name, file: want.file || null, time: t, duration: clip.duration,
                         positions: posed(gltf, clip, t, info.bones)});
      }
    }
    results.push(info);
  }
  return results;
}

// Draw the model in the clip's pose with the workbench preview's camera (view matrix row-major,
// vertical fov) on a transparent background; the test compares the silhouettes. With `samples`
// (default 1) the canvas is that many times larger and not multisampled: one sample at the centre
// of each of a pixel's samples x samples cells, the grid the workbench renderer supersamples on
// (the browser's own 4x MSAA puts its samples elsewhere, which moves an edge pixel's coverage).
async function silhouette(c) {
  const gltf = await load(c.model);
  const samples = c.samples || 1;
  const size = c.size * samples;
  const renderer = new THREE.WebGLRenderer({antialias: samples === 1, alpha: true, preserveDrawingBuffer: true});
  renderer.setPixelRatio(1);
  renderer.setSize(size, size);
  renderer.setClearColor(0x000000, 0);
  document.body.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2.0));
  const sun = new THREE.DirectionalLight(0xffffff, 2.0);
  sun.position.set(-1, 1, 1);
  scene.add(sun);
  scene.add(gltf.scene);
  let mixer = null;
  if (c.clip) {
    const anim = await load(c.clip);
    mixer = new THREE.AnimationMixer(gltf.scene);
    mixer.clipAction(anim.animations[0]).play();
    mixer.setTime(c.time);
  }
  const camera = new THREE.PerspectiveCamera(c.fov, 1, c.near, 1000);
  const view = new THREE.Matrix4().fromArray(c.view).transpose();   // row-major in, column-major here
  view.invert().decompose(camera.position, camera.quaternion, camera.scale);
  renderer.render(scene, camera);
  const url = renderer.domElement.toDataURL('image/png');
  if (mixer) { mixer.stopAllAction(); mixer.uncacheRoot(gltf.scene); }
  scene.remove(gltf.scene);
  renderer.domElement.remove();
  renderer.dispose();
  return url;
}

window.workbench = {inspectModels, silhouette, describe};
window.pageReady = true;
