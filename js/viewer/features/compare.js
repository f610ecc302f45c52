// Compare: viewers of one group (AvatarViewer.compare) share the camera page-side, every frame, and
// with link_time the clip's time: the view a person moves (or one turning or playing by itself) leads.

// One registry per page, whichever bundle copy loads first.
const groups = (globalThis.__wbAvatarViewerGroups ||= new Map());

export function compare(v) {
  const m = v.model;
  let leading = false;
  v.controls.addEventListener("start", () => { leading = true; });
  v.signal("idle", () => { leading = false; });
  const join = () => {
    const name = m.get("link_group");
    if (!name) return null;
    if (!groups.has(name)) groups.set(name, new Set());
    return groups.get(name).add(v);
  };
  v.onDispose(() => {
    const set = groups.get(m.get("link_group"));
    if (set && set.delete(v) && !set.size) groups.delete(m.get("link_group"));
  });
  join();
  v.on("link_group", join);
  v.signal("drawn", () => {
    if (!(leading || m.get("auto_rotate") || m.get("playing")) || v.following) return;
    const set = join();
    if (!set) return;
    for (const other of set) {
      if (other === v || !other.gltf) continue;
      other.following = true;
      other.controls.target.copy(v.controls.target);
      other.camera.position.copy(v.camera.position);
      other.controls.update();
      if (m.get("link_time") && other.followTime) other.followTime(v.currentTime());
      other.dirty = true;
      other.following = false;
    }
  });
}
