// The viewer's one DOM helper, shared by the three.js viewer and the kernel-frame viewer.
//
// This file imports nothing: without a bundle (a package built without Node.js) the widget module
// (workbench/widgets/frontend.py) serves it in front of kernel_frames.js as one module.

// An element: `props` are its properties (className, textContent, value...), `dataset` its data
// attributes, anything else an attribute (title, data-lm-suppress-shortcuts...); `children` appended.
export function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "dataset") Object.assign(node.dataset, v);
    else if (k in node) node[k] = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

export const button = (cls, text, title) => el("button", { className: `wb-av-btn ${cls}`, type: "button", textContent: text, title });

// A checkbox and its label: [box, label].
export const check = (cls, label, title) => {
  const box = el("input", { className: cls, type: "checkbox" });
  return [box, el("label", { title }, [box, ` ${label}`])];
};

// A menu of [value, text] pairs.
export const select = (cls, options, title) => el("select", { className: cls, title },
  options.map(([v, t]) => el("option", { value: String(v), textContent: t })));

export const round = (x, d) => Math.round(x * 10 ** d) / 10 ** d;

export const clamp = (x, [lo, hi]) => Math.min(Math.max(x, lo), hi);

// Keys typed in `root`, whatever has focus in it, stay there: JupyterLab's and Notebook 7's
// shortcuts (the notebook's "r" makes the cell raw, "d d" deletes it) never see them. Lumino checks
// the focused element and its ancestors for data-lm-suppress-shortcuts, stopping at the first it
// matches, and Notebook 7 listens before the page's elements do (the capture phase): so the root
// and every element that takes focus in it carry the attribute, and keys stop at the root besides.
// `onKeydown(event)` gets each key pressed. Returns the function that removes the listeners.
// Set `node[key]` (a property: value, textContent, checked...) only when it differs: a frame that writes
// the page's controls costs it a style and layout pass even when nothing changed.
export function put(node, key, value) {
  if (node[key] !== value) node[key] = value;
}

export function keepKeys(root, onKeydown) {
  const suppress = node => node.setAttribute("data-lm-suppress-shortcuts", "true");
  suppress(root);
  if (root.tabIndex < 0) root.tabIndex = 0;
  const focusin = e => { if (e.target instanceof Element) suppress(e.target); };
  const stop = e => {
    e.stopPropagation();
    if (e.type === "keydown" && onKeydown) onKeydown(e);
  };
  const types = ["keydown", "keyup", "keypress"];
  root.addEventListener("focusin", focusin);
  for (const t of types) root.addEventListener(t, stop);
  return () => {
    root.removeEventListener("focusin", focusin);
    for (const t of types) root.removeEventListener(t, stop);
  };
}
