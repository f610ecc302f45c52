// One copy of each GLB per page, shared by the page's viewers: the kernel names GLB bytes by a key
// (their SHA-256, workbench/widgets/page_link.py) and sends them only to a page that lacks them.
// A GLB stays while a viewer uses it and a while after the last one closes (a cell run again shows
// the same model at once), then goes.

const GRACE_MS = 30000;
// One store per page, whichever bundle copy loads first.
const store = (globalThis.__wbAvatarGlbs ||= { entries: new Map(), pending: new Map() });

// The keys this page holds (a request's `have`).
export const heldKeys = () => [...store.entries.keys()];

// The bytes of `key` for `user` (a viewer), or undefined when the page lacks them.
export function use(key, user) {
  const entry = store.entries.get(key);
  if (!entry) return undefined;
  clearTimeout(entry.drop);
  entry.users.add(user);
  return entry.buffer;
}

// Keep `view` (a DataView from a message) as `key`'s bytes, used by `user`; the kept ArrayBuffer.
export function keep(key, view, user) {
  if (!store.entries.has(key)) {
    const buffer = view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength);
    store.entries.set(key, { buffer, users: new Set(), drop: null });
  }
  return use(key, user);
}

// `fetch()` once for `key` however many viewers want it at the same moment.
export function once(key, fetch) {
  if (!store.pending.has(key)) store.pending.set(key, fetch().finally(() => store.pending.delete(key)));
  return store.pending.get(key);
}

// `user` is done with every GLB it used.
export function release(user) {
  for (const [key, entry] of store.entries) {
    if (entry.users.delete(user) && !entry.users.size) {
      clearTimeout(entry.drop);
      entry.drop = setTimeout(() => { if (!entry.users.size) store.entries.delete(key); }, GRACE_MS);
    }
  }
}
