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
