# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 01 · Avatars and their models
#
# **What this shows:** `GET {avatar_base_url}/model/:id.glb` with every option of the interface:
# level of detail (`lod`), `animations`, `textureFormat`, `mergeMesh` and `textureAtlasSize`, and
# how they combine. Each model is inspected (nodes, skeleton, meshes, triangles, materials, textures,
# animations, extensions) and compared in a table and a chart.
#
# **What it needs:** a token with `avatar:write` to register avatars (the local service's
# development token, or `WORKBENCH_TOKEN`). Downloads are public.
#
# **Where to edit:** `notebooks/01_avatars.py` (or this notebook in JupyterLab
# with jupytext, which saves both), then `python tools/build_notebooks.py 01`
# to run it and save its outputs.

# %% tags=["parameters"]
viewer_size = 384  # px of the live viewers

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import pandas as pd
import workbench
from tqdm.auto import tqdm
from workbench.gltf import compare, inspect, validate_many, validator_available

client = workbench.connect()

# %% [markdown]
# ## Register a few avatars

# %% tags=["op:avatars.register"]
people = {
    "Ada": {"gender": "feminine", "bodyShape": "slim", "height": 172, "skinTone": "#F1C27D",
            "hair": {"style": "bun", "color": "#6A4E42"}, "outfit": {"top": "#8E44AD", "bottom": "#34495E", "shoes": "#222222"},
            "glasses": "clear", "name": "Ada"},
    "Bo": {"gender": "masculine", "bodyShape": "heavy", "height": 185, "skinTone": "#8D5524",
           "hair": {"style": "curly", "color": "#1B1B1B"}, "outfit": {"top": "#27AE60", "bottom": "#2C3E50", "shoes": "#ECF0F1"},
           "glasses": "sunglasses", "name": "Bo"},
    "Cy": {"gender": "masculine", "bodyShape": "athletic", "hair": {"style": "none"}, "name": "Cy"},
}
ids = {name: client.avatars.register(s).model_id for name, s in people.items()}
print(", ".join(ids))

# %% [markdown]
# ## One model, inspected
#
# The default download is LOD 0 with no animations, JPEG textures for opaque materials and PNG for
# transparent ones (the glasses), one skinned mesh per part on a 65-joint Mixamo-compatible skeleton.

# %% tags=["op:avatars.model"]
ada = client.avatars.model(ids["Ada"])
summary = ada.inspect()
summary

# %% tags=["nbval-check-output"]
print(len(summary.skeleton), "joints:", ", ".join(summary.skeleton[:8]), "...")
display(summary.meshes[["name", "primitives", "triangles", "skinned"]])
display(summary.materials[["name", "alphaMode"]])
display(summary.textures[["mimeType", "width", "height"]].value_counts().to_frame())

# %% [markdown]
# ## Turn it round
#
# `.view()` opens the model in a live viewer drawn in your browser by three.js (bundled with the
# workbench; the GLB travels from the kernel, nothing is loaded from the internet): drag to turn it,
# right-drag to pan, scroll to zoom toward the pointer, double-click to reset; presets frame the
# face, hands or feet, and the face's ARKit shapes have sliders. A notebook saved or converted
# without a kernel keeps the last frame as a picture.

# %%
ada.view(size=viewer_size, yaw=25)

# %% [markdown]
# ## Levels of detail
#
# `lod=1` keeps 50% of the triangles and `lod=2` 25%. What a model is (its triangles, meshes,
# materials, textures) is the same on every machine; its bytes are the same from run to run on one
# machine (and so its `ETag`), but another machine's arithmetic may round a few numbers' last bits
# otherwise, and a few bytes with them (contract section 14): the sizes are shown apart.

# %% tags=["op:avatars.model", "nbval-check-output"]
lods = {f"lod={lod}": client.avatars.model(ids["Ada"], lod=lod) for lod in (0, 1, 2)}
table = compare({k: m.inspect() for k, m in lods.items()})
table["share_of_lod0"] = (table["triangles"] / table["triangles"].iloc[0]).round(3)
display(table.drop(columns="bytes"))

# %%
table[["bytes"]]

# %% [markdown]
# LOD 0 and LOD 2 side by side on one camera: turning or zooming either turns both, so the
# difference shows where it matters (the hands, the hair's edge).

# %%
from workbench.widgets import AvatarViewer

AvatarViewer.compare(lods["lod=0"], lods["lod=2"], labels=("LOD 0", "LOD 2"), size=viewer_size * 5 // 6, yaw=-30)

# %% [markdown]
# ## Every option, and options combined

# %% tags=["op:avatars.model"]
variants = {
    "default": {},
    "png": {"texture_format": "png"},
    "webp": {"texture_format": "webp"},
    "merged": {"merge_mesh": True},
    "atlas 256": {"texture_atlas_size": 256},
    "atlas 1024": {"texture_atlas_size": 1024},
    "locomotion": {"animations": "locomotion"},
    "gestures": {"animations": "gestures"},
    "all clips": {"animations": "all"},
    "walk,wave": {"animations": "walk,wave"},
    "lod2+merged+atlas512+webp+all": {"lod": 2, "merge_mesh": True, "texture_atlas_size": 512,
                                      "texture_format": "webp", "animations": "all"},
}
models = {name: client.avatars.model(ids["Bo"], **kw)
          for name, kw in tqdm(variants.items(), desc="downloading", unit="model", leave=False)}
summaries = {name: m.inspect() for name, m in models.items()}

# %% tags=["nbval-check-output"]
rows = []
for name, s in summaries.items():
    rows.append({"variant": name, "triangles": s.triangles, "KB": round(s.byte_length / 1024),
                 "meshes": len(s.meshes), "primitives": int(s.meshes["primitives"].sum()),
                 "images": ", ".join(sorted(set(s.textures["mimeType"].str.replace("image/", "")))),
                 "sizes": ", ".join(sorted({f"{w}" for w in s.textures["width"]}, key=int)),
                 "clips": len(s.animations), "extensions": ", ".join(s.extensions_used) or "-"})
options_table = pd.DataFrame(rows)
display(options_table)

# %% tags=["image-check"]
fig, axes = plt.subplots(1, 2, figsize=(12, 4))
options_table.plot.barh(x="variant", y="triangles", ax=axes[0], legend=False, title="triangles")
options_table.plot.barh(x="variant", y="KB", ax=axes[1], legend=False, title="GLB size (KB)", color="tab:orange")
for ax in axes:
    ax.invert_yaxis()
    ax.set_ylabel("")
plt.tight_layout()
plt.show()

# %% [markdown]
# With `mergeMesh=1` the avatar is one mesh `Avatar` with one primitive per material; with an atlas too,
# one primitive per material class (opaque, transparent), so the opaque part draws in one call:

# %% tags=["nbval-check-output"]
display(summaries["merged"].meshes[["name", "primitives", "triangles"]])
display(summaries["lod2+merged+atlas512+webp+all"].meshes[["name", "primitives", "triangles"]])
display(summaries["lod2+merged+atlas512+webp+all"].animations[["name", "duration_s", "channels"]].head(6))

# %% [markdown]
# ## Validation
#
# Every model the service writes must pass the Khronos glTF-Validator with 0 errors. Where node and
# the validator are installed, we run it over every variant in one node process (a second or so each; the bar counts
# them as it finishes each):

# %%
reports = None
if validator_available():
    with tqdm(total=len(models), desc="glTF-Validator", unit="model", leave=False) as bar:
        reports = validate_many([m.content for m in models.values()], on_each=lambda report: bar.update())

# %% tags=["nbval-check-output"]
if reports is not None:
    print("errors per variant:", [r.errors for r in reports])
else:
    print("the Khronos validator is not installed here (needs node); skipped")

# %% [markdown]
# ## The avatars side by side

# %% tags=["op:avatars.model", "nbval-check-output"]
side = compare({name: client.avatars.model(mid, lod=2).inspect() for name, mid in ids.items()})
display(side.drop(columns="bytes"))

# %%
side[["bytes"]]

# %% [markdown]
# ## Errors

# %% tags=["op:avatars.model", "nbval-check-output"]
for kw in ({"lod": 3}, {"texture_atlas_size": 100}, {"animations": "walk,moonwalk"}, {"merge_mesh": 2}):
    try:
        client.avatars.model(ids["Ada"], **kw)
    except workbench.OptionError as e:
        print(e)
try:
    client.avatars.model("ffffffffffffffffffffffff")
except workbench.NotFoundError as e:
    print(e.status, e.code)

# %% [markdown]
# When generation fails, the service answers with a JSON error (500 `model_generation_failed`). The
# local control API can make the next generation fail, to show it:

# %% tags=["op:avatars.model", "nbval-check-output"]
if client.local.can_inject_faults:
    client.local.fault("model.generate", count=1)
    try:
        client.with_options(retries=0).avatars.model(ids["Cy"], lod=1, texture_format="png")
    except workbench.ServerError as e:
        print(e.status, e.code, "|", e.response.headers["content-type"])
    print("next try:", client.avatars.model(ids["Cy"], lod=1, texture_format="png").content[:4])
elif client.local.available:
    print("[skipped: faults are armed only in a service this run started (WORKBENCH_FAULTS=off)]")
else:
    print("[skipped: needs the local control API]")

# %% [markdown]
# ## How the avatars look: before and after
#
# The grid below is eight avatars (both genders, every body shape, every hair style and kind of
# glasses), portrait and full at 128 px, and two of them at 512 px. "Before" is the saved image
# `data/looks_before.png`, the lofted generator (commit 15a6100) drawn by `data/make_looks_grid.py`;
# "after" is the same script run here, live: MakeHuman bodies with the skin, eyes, hair, outfit,
# glasses and shading of `workbench/body/` and `workbench/render/`.

# %% tags=["image-check"]
import runpy
from pathlib import Path

DATA = Path.cwd().parent / "data"
looks = runpy.run_path(str(DATA / "make_looks_grid.py"))
looks["show_before_and_after"](DATA)

# %% [markdown]
# The contact sheets in `docs/` (drawn by the same script) show each option on its own: gender by
# body shape, heights, hair, outfits, skin tones and expressions. Two of them, live:

# %% tags=["image-check"]
looks["bodies_sheet"]()

# %% tags=["image-check"]
looks["expressions_sheet"]()

# %% [markdown]
# What changed, and what still falls short of a hand-made avatar:
#
# - **Body**: MakeHuman's base mesh, shaped by gender, build and height, with real hands, ears,
#   eye sockets and a jaw; the 52 ARKit face shapes (smile, blink, jaw open above) as morph targets.
# - **Skin**: the tone kept, with lip colour, a cheek flush, brows in the hair colour, lighter palms
#   and soles; ambient occlusion baked per body into the GLB; light wrapped warmly round the skin.
# - **Eyes**: iris, pupil, limbal ring and a catchlight.
# - **Hair, clothes, glasses**: fitted to each body and skinned with it; hair ends in strand tips
#   instead of a helmet edge.
# - **Still short of hand-made**: hair is shells and one curtain (no locks or cards), the curly style
#   is a lumpy shell; no cloth folds; the shirt's hem is cut along triangles; one outfit cut
#   (T-shirt and trousers, no skirt), and no eye colour setting.

# %% [markdown]
# ## Explore the options live
#
# Change the controls to download the model with other options and see its summary. (Widgets need a
# live kernel; the saved notebook keeps the summary of the current setting below.)

# %% tags=["op:avatars.model"]
from workbench.widgets import ModelExplorer

model_explorer = ModelExplorer(client, ids["Ada"])
model_explorer

# %% tags=["nbval-check-output"]
display(model_explorer.current.meshes[["name", "triangles"]])

# %% [markdown]
# ## Checks

# %%
shares = table["share_of_lod0"].tolist()
assert summary.triangles >= 20_000 and abs(shares[1] - 0.5) <= 0.05 and abs(shares[2] - 0.25) <= 0.05
assert list(summaries["merged"].meshes["name"]) == ["Avatar"]
assert set(summaries["webp"].textures["mimeType"]) == {"image/webp"}
assert set(summaries["atlas 256"].textures["width"]) == {256}
assert len(summaries["all clips"].animations) == 18
assert client.avatars.model(ids["Bo"], lod=1).content == client.avatars.model(ids["Bo"], lod=1).content
if reports is not None:
    assert all(r.errors == 0 for r in reports)
print("avatar checks passed")
