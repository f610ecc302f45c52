// Loaded into threejs.html (its import map) by tests/browser/test_studio_colour.py. A product page's
// studio in three.js: the model lit only by three.js's RoomEnvironment (an
// image-based light, pre-filtered by PMREMGenerator), Khronos PBR Neutral tone mapping at exposure 1,
// sRGB output, as three.js's own examples set up a model viewer. The test draws a model with the
// camera of a workbench preview, with face shapes, and a mask of one mesh's pixels, and compares the
// colours with what the workbench renders.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { RoomEnvironment } from 'three/addons/environments/RoomEnvironment.js';
import { clone as cloneSkinned } from 'three/addons/utils/SkeletonUtils.js';

const loader = new GLTFLoader();
const TONE = {neutral: THREE.NeutralToneMapping, aces: THREE.ACESFilmicToneMapping, agx: THREE.AgXToneMapping,
              none: THREE.NoToneMapping};

// c: {model, size, view (row-major world-to-view), fov, near, animation?, time?, morphs? {name: weight},
//     yaw? (degrees, turning the model as the workbench's render(yaw_deg=) does, about `pivot`),
//     tone? ('neutral'), exposure? (1), mask? (a mesh name: that mesh white, the rest black, unlit),
//     background? ([r, g, b] 0..255, default transparent),
//     probe? ({mesh, albedo}: that mesh's base colour texture replaced by a flat linear albedo, drawn in linear
//     light without tone mapping: how the studio lights each of its pixels),
//     masks? ([mesh names]: after the shot, a mask of each of them drawn from the same posed scene, unlit as `mask`
//     is; the call then gives [shot, ...masks], one parse of the model for them all),
//     shots? ([overrides of the keys above]: each drawn as `c` with its overrides, all from one parse of the model;
//     the call then gives a list, a result a shot)}
//
// One renderer and one pre-filtered RoomEnvironment serve every shot of the page, and a model's bytes are
// fetched once (parsed again for each call, its shots drawn from copies of that parse): on a software GPU the
// environment's PMREM passes, a WebGL context and a parse's texture uploads each cost seconds, the same each time.
let studio = null;
const bytes = new Map();

function shared() {
  if (!studio) {
    const renderer = new THREE.WebGLRenderer({antialias: true, alpha: true, preserveDrawingBuffer: true});
    renderer.setPixelRatio(1);
    document.body.appendChild(renderer.domElement);
    const pmrem = new THREE.PMREMGenerator(renderer);
    const env = pmrem.fromScene(new RoomEnvironment(), 0.04).texture;
    pmrem.dispose();
    studio = {renderer, env};
  }
  return studio;
}

async function load(url) {
  if (!bytes.has(url)) bytes.set(url, fetch(url).then(r => r.ok ? r.arrayBuffer() : Promise.reject(new Error(`${url}: ${r.status}`))));
  return loader.parseAsync(await bytes.get(url), '');
}

function release(root) {
  root.traverse(o => {
    if (o.geometry) o.geometry.dispose();
    for (const m of [].concat(o.material || [])) {
      for (const t of Object.values(m)) if (t && t.isTexture) t.dispose();
      m.dispose();
    }
  });
}

async function render(c) {
  const gltf = await load(c.model);
  // Each shot draws a copy of the parsed scene (its bones bound again): the copies share the parse's geometry and
  // textures, uploaded to the GPU once, and change only their own materials, morph weights and placement.
  const shots = c.shots || [{}];
  const results = shots.map(shot => draw(cloneSkinned(gltf.scene), gltf.animations, {...c, shots: undefined, ...shot}));
  release(gltf.scene);
  return c.shots ? results : results[0];
}

// One shot of `root` (a copy of a parsed scene) as `render` describes; its own materials (a probe's, the
// masks') disposed after, the parse's own left to `release`.
function draw(root, animations, c) {
  const {renderer, env} = shared();
  renderer.setSize(c.size, c.size);
  renderer.toneMapping = c.mask || c.probe ? THREE.NoToneMapping : TONE[c.tone || 'neutral'];
  renderer.toneMappingExposure = c.exposure || 1;
  renderer.outputColorSpace = c.probe ? THREE.LinearSRGBColorSpace : THREE.SRGBColorSpace;
  if (c.background) renderer.setClearColor(new THREE.Color().setRGB(...c.background.map(v => v / 255), THREE.SRGBColorSpace), 1);
  else renderer.setClearColor(0x000000, 0);
  const scene = new THREE.Scene();
  if (!c.mask) scene.environment = env;
  const holder = new THREE.Group();
  holder.add(root);
  scene.add(holder);
  let mixer = null;
  if (c.animation) {   // one of the model's own clips, by name
    mixer = new THREE.AnimationMixer(root);
    mixer.clipAction(animations.find(a => a.name === c.animation)).play();
    mixer.setTime(c.time || 0);
  }
  const drawn = [];   // the materials this shot made or replaced: disposed after it
  root.traverse(o => {
    if (!o.isMesh) return;
    if (o.morphTargetDictionary && c.morphs) {
      for (const [name, w] of Object.entries(c.morphs)) {
        const k = o.morphTargetDictionary[name];
        if (k !== undefined) o.morphTargetInfluences[k] = w;
      }
    }
    const owner = o.parent && o.parent.isGroup && o.parent.userData.name ? o.parent : o;
    const name = owner.userData.name || owner.name;
    if (c.probe && name === c.probe.mesh) {
      o.material = o.material.clone();
      drawn.push(o.material);
      o.material.map = null;
      o.material.color.setRGB(c.probe.albedo, c.probe.albedo, c.probe.albedo, THREE.LinearSRGBColorSpace);
    }
    if (c.mask) {
      o.material = new THREE.MeshBasicMaterial({color: name === c.mask ? 0xffffff : 0x000000,
                                                side: [].concat(o.material)[0].side});
      drawn.push(o.material);
    }
  });
  if (c.yaw) {
    // The workbench turns the posed model about the vertical through its bounds' centre.
    root.updateMatrixWorld(true);
    const pivot = new THREE.Vector3(...c.pivot);
    holder.position.copy(pivot);
    root.position.sub(pivot);
    holder.rotation.y = THREE.MathUtils.degToRad(c.yaw);
  }
  const camera = new THREE.PerspectiveCamera(c.fov, 1, c.near, 1000);
  const view = new THREE.Matrix4().fromArray(c.view).transpose();
  view.invert().decompose(camera.position, camera.quaternion, camera.scale);
  renderer.render(scene, camera);
  const url = renderer.domElement.toDataURL('image/png');
  const urls = [url];
  for (const mask of c.masks || []) {   // as `mask` draws it: its mesh white, the rest black, unlit
    renderer.toneMapping = THREE.NoToneMapping;
    renderer.outputColorSpace = THREE.SRGBColorSpace;
    scene.environment = null;
    root.traverse(o => {
      if (!o.isMesh) return;
      const owner = o.parent && o.parent.isGroup && o.parent.userData.name ? o.parent : o;
      const name = owner.userData.name || owner.name;
      o.material = new THREE.MeshBasicMaterial({color: name === mask ? 0xffffff : 0x000000,
                                                side: [].concat(o.material)[0].side});
      drawn.push(o.material);
    });
    renderer.render(scene, camera);
    urls.push(renderer.domElement.toDataURL('image/png'));
  }
  if (mixer) { mixer.stopAllAction(); mixer.uncacheRoot(root); }
  holder.remove(root);
  for (const m of drawn) m.dispose();   // a probe's copy shares the parse's textures: `release` disposes those
  return c.masks ? urls : url;
}

window.studio = {render};
