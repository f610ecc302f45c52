"""Benchmark: our GLB packer (``workbench.gltf.glb.pack_glb``) against pygltflib packing the same document.

Run: ``python bench/glb.py``. For each document (as our generators hold it: a JSON dict and one
binary chunk) it times, in the same process, interleaved, best of several rounds:

- ours: ``pack_glb(doc, binary)``, what ``GlbWriter.to_bytes`` does;
- pygltflib, its best case: ``GLTF2.save_to_bytes`` of a document already held as pygltflib objects;
- pygltflib from our dict: ``GLTF2.from_dict`` + ``set_binary_blob`` + ``save_to_bytes``, what
  writing through pygltflib would cost our generators, which build dicts.

and prints each time and the ratios pygltflib / ours (above 1: ours is faster). Both outputs are
read back and compared (same accessors, same binary chunk), so the two pack the same thing.
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygltflib  # noqa: E402

from workbench.gltf import build_animation, build_avatar  # noqa: E402
from workbench.gltf.glb import pack_glb, read_accessor, read_glb  # noqa: E402
from workbench.options import ANIMATIONS, ModelOptions, normalize_avatar_settings  # noqa: E402
from workbench.regeneration.product import build_product_glb  # noqa: E402

ROUNDS = 7


def documents() -> dict[str, bytes]:
    settings = normalize_avatar_settings({"gender": "masculine"})
    return {
        "avatar LOD 0, 1024 atlas, all 18 clips": build_avatar(
            settings, ModelOptions(lod=0, texture_atlas_size=1024, animations=ANIMATIONS)),
        "avatar LOD 0 default": build_avatar(settings, ModelOptions()),
        "animation clip (walk)": build_animation("masculine", "walk"),
        "product viewer model": build_product_glb("bench"),
    }


def best_of(fns: dict[str, callable], rounds: int = ROUNDS) -> dict[str, float]:
    """Minimum time of each function, the functions interleaved round by round (load hits all alike)."""
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(rounds):
        for name, fn in fns.items():
            t = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - t)
    return best


def main() -> None:
    # dataclasses_json warns that an embedded image has no uri; that is how GLB images are.
    warnings.filterwarnings("ignore", category=RuntimeWarning, module="dataclasses_json")
    print(f"best of {ROUNDS} interleaved rounds; ratio = pygltflib time / our time\n")
    print(f"{'document':<40} {'bytes':>10} {'ours':>9} {'pygltflib':>10} {'from dict':>10} {'ratio':>6} {'ratio':>10}")
    print(f"{'':<40} {'':>10} {'ms':>9} {'saves, ms':>10} {'ms':>10} {'save':>6} {'from dict':>10}")
    for label, glb in documents().items():
        doc, binary = read_glb(glb)
        prebuilt = pygltflib.GLTF2.from_dict(doc)
        prebuilt.set_binary_blob(binary)

        def theirs_from_dict(doc=doc, binary=binary):
            g = pygltflib.GLTF2.from_dict(doc)
            g.set_binary_blob(binary)
            return b"".join(g.save_to_bytes())

        fns = {"ours": lambda doc=doc, binary=binary: pack_glb(doc, binary),
               "save": lambda prebuilt=prebuilt: b"".join(prebuilt.save_to_bytes()),
               "dict": theirs_from_dict}
        # Fairness check: both pack the same document. pygltflib writes its own JSON (defaults such
        # as byteOffset 0 spelled out), so compare what the files mean: binary, accessors, nodes.
        for out in (fns["ours"](), fns["save"](), fns["dict"]()):
            doc2, binary2 = read_glb(out)
            assert binary2 == binary and len(doc2["accessors"]) == len(doc["accessors"])
            assert all((read_accessor(doc2, binary2, i) == read_accessor(doc, binary, i)).all()
                       for i in range(len(doc["accessors"])))
            assert [n.get("name") for n in doc2["nodes"]] == [n.get("name") for n in doc["nodes"]]
        t = best_of(fns)
        print(f"{label:<40} {len(glb):>10,} {t['ours'] * 1e3:>9.2f} {t['save'] * 1e3:>10.2f} {t['dict'] * 1e3:>10.2f}"
              f" {t['save'] / t['ours']:>5.1f}x {t['dict'] / t['ours']:>9.1f}x")


if __name__ == "__main__":
    main()
