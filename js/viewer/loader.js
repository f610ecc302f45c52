// The AvatarViewer's module as the widget state holds it: a small loader. The three.js front-end
// (static/viewer.js, about 650 KB) comes from the kernel as a binary buffer when a page opens the
// viewer, once per page and version, so a notebook saved with its widget state keeps this loader
// and a picture, not a copy of three.js per viewer. Without a kernel (a notebook opened later, an
// export), the viewer shows its last picture (the `frame` traitlet).

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
  const still = document.createElement("img");
  still.className = "wb-av-still";
  still.alt = "the viewer's last picture";
  const data = model.get("frame");
  let url = null;
  if (data && data.byteLength) {
    url = URL.createObjectURL(new Blob([data], { type: "image/png" }));
    still.src = url;
  }
  el.append(still);
  const viewer = await bundle(model);
  still.remove();
  if (url) URL.revokeObjectURL(url);
  return viewer.render({ model, el });
}

export default { render };
