// Loaded into model-viewer.html by tests/browser/test_studio_colour.py: a picture of a model as model-viewer
// draws it by default (its neutral environment, its default tone mapping), from a given orbit, and the same
// view as a mask of one material (that material glowing white, every other one black).
const viewer = document.getElementById('viewer');
const frames = (n) => new Promise(r => { const step = () => (n-- > 0 ? requestAnimationFrame(step) : r()); step(); });

async function show(c) {
  if (viewer.src !== c.model) {
    await new Promise((resolve, reject) => {
      viewer.addEventListener('load', resolve, {once: true});
      viewer.addEventListener('error', e => reject(new Error('model-viewer: ' + JSON.stringify(e.detail && e.detail.type))), {once: true});
      viewer.src = c.model;
    });
  }
  viewer.interactionPrompt = 'none';
  viewer.cameraTarget = c.target;
  viewer.cameraOrbit = c.orbit;
  viewer.fieldOfView = c.fov;
  viewer.jumpCameraToGoal();
  const saved = [];
  if (c.mask) {
    for (const m of viewer.model.materials) {
      const pbr = m.pbrMetallicRoughness;
      saved.push([m, pbr.baseColorFactor.slice(), m.emissiveFactor.slice(), pbr.baseColorTexture.texture]);
      pbr.setBaseColorFactor([0, 0, 0, 1]);
      if (pbr.baseColorTexture.texture) pbr.baseColorTexture.setTexture(null);
      m.setEmissiveFactor(m.name === c.mask ? [1, 1, 1] : [0, 0, 0]);
    }
  }
  await viewer.updateComplete;
  await frames(8);
  const url = viewer.toDataURL('image/png');
  for (const [m, base, emissive, tex] of saved) {
    m.pbrMetallicRoughness.setBaseColorFactor(base);
    if (tex) m.pbrMetallicRoughness.baseColorTexture.setTexture(tex);
    m.setEmissiveFactor(emissive);
  }
  return url;
}

window.mvStudio = {show};
