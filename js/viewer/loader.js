// The AvatarViewer's module as the widget state holds it: a small loader. The three.js front-end
// (static/viewer.js, about 650 KB) comes from the kernel as a binary buffer when a page opens the
// viewer, once per page and version, so a notebook saved with its widget state keeps this loader,
// not a copy of three.js per viewer. Where widgets do not run, the output's still stands in
// (workbench/widgets/still.py).

const bundles = (globalThis.__wbAvatarViewerBundles ||= new Map());

function bundle(model) {
  const id = model.get("bundle_id");
  if (!bundles.has(id)) {
    bundles.set(id, new Promise((ok, no) => {
      const onMessage = (msg, buffers) => {
        if (!msg || msg.type !== "bundle") return;
        model.off("msg:custom", onMessage);
        const url = URL.createObjectURL(new Blob([buffers[0]], { type: "text/javascript" }));
        import(url).then(m => ok(m.default), no).finally(() => URL.revokeObjectURL(url));
      };
      model.on("msg:custom", onMessage);
      model.send({ type: "bundle" });
    }));
  }
  return bundles.get(id);
}

async function render({ model, el }) {
  const viewer = await bundle(model);
  return viewer.render({ model, el });
}

export default { render };
