# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 03 · Previews
#
# **What this shows:** `GET {avatar_base_url}/preview/:id.png` with every option: `size` (32 to 512,
# rounded to the nearest power of two, a tie rounding up), `camera` (`portrait`: head and shoulders;
# `full`: head to toe) and `background` (`R,G,B`, or transparent when omitted). Then what the
# workbench adds for looking at avatars in a notebook: a grid of avatars, a turntable and a pose from
# a library clip, all rendered locally from a GLB by the workbench's own software renderer, and live
# controls.
#
# **What it needs:** a token with `avatar:write` to register avatars. Previews are public.
#
# **Where to edit:** `notebooks/03_previews.py` (or this notebook in JupyterLab
# with jupytext, which saves both), then `python tools/build_notebooks.py 03`
# to run it and save its outputs.

# %% tags=["parameters"]
avatar_id = None    # an avatar of the deployment to look at; None registers a new one
preview_size = 512  # px of the first preview

# %% tags=["op:avatars.register"]
import io

import numpy as np
import pandas as pd
from IPython.display import Image as Show, display
from PIL import Image

import workbench
from workbench.render import grid, pose_sequence, render, turntable
from workbench.widgets import PreviewExplorer

client = workbench.connect()
avatar = avatar_id or client.avatars.register({
    "gender": "feminine", "height": 168, "skinTone": "#C68642", "hair": {"style": "long", "color": "#2B1B10"},
    "outfit": {"top": "#C0392B", "bottom": "#1F3A5F", "shoes": "#F5F5F5"}, "glasses": "clear"}).model_id

# %% [markdown]
# ## The default: 512 px, portrait, transparent

# %% tags=["image-check", "op:avatars.preview"]
default = client.avatars.preview(avatar, size=preview_size)
default

# %% [markdown]
# ## `size`: rounded to the nearest power of two

# %% tags=["op:avatars.preview", "nbval-check-output"]
sizes = [32, 47, 48, 64, 100, 200, 384, 512]
got = {s: client.avatars.preview(avatar, size=s) for s in sizes}
display(pd.DataFrame({"asked": sizes, "got": [got[s].size[0] for s in sizes]}))

# %% [markdown]
# ## `camera` and `background`, side by side

# %% tags=["image-check", "op:avatars.preview"]
combos = [(cam, bg) for cam in ("portrait", "full") for bg in (None, (255, 255, 255), (40, 44, 52), (214, 234, 248))]
images = {c: client.avatars.preview(avatar, size=192, camera=c[0], background=c[1]).image for c in combos}
grid([[images[(cam, bg)] for bg in (None, (255, 255, 255), (40, 44, 52), (214, 234, 248))] for cam in ("portrait", "full")],
     row_labels=["portrait", "full"], col_labels=["transparent", "255,255,255", "40,44,52", "214,234,248"])

# %% tags=["nbval-check-output"]
rows = []
for (cam, bg), im in images.items():
    a = np.asarray(im.convert("RGBA"))
    figure = np.where(a[..., 3].max(axis=1) > 0)[0] if bg is None else None
    rows.append({"camera": cam, "background": "transparent" if bg is None else ",".join(map(str, bg)),
                 "mode": im.mode, "corner": tuple(int(v) for v in a[0, 0]),
                 "opaque": bool((a[..., 3] == 255).all())})
display(pd.DataFrame(rows))

# %% [markdown]
# ## A grid of avatars

# %% tags=["image-check", "op:avatars.register", "op:avatars.preview"]
cast = {
    "slim": {"gender": "feminine", "bodyShape": "slim", "hair": {"style": "bun", "color": "#B55239"}, "outfit": {"top": "#16A085"}},
    "average": {"gender": "masculine", "hair": {"style": "short"}, "outfit": {"top": "#2980B9"}, "glasses": "clear"},
    "athletic": {"gender": "masculine", "bodyShape": "athletic", "skinTone": "#8D5524", "hair": {"style": "none"}, "outfit": {"top": "#F39C12"}},
    "heavy": {"gender": "feminine", "bodyShape": "heavy", "skinTone": "#F1C27D", "hair": {"style": "curly", "color": "#111111"},
              "outfit": {"top": "#8E44AD"}, "glasses": "sunglasses"},
}
cast_ids = {k: client.avatars.register(s).model_id for k, s in cast.items()}
grid([[client.avatars.preview(cast_ids[k], size=160, camera=cam, background=(236, 240, 241)).image for k in cast]
      for cam in ("portrait", "full")], row_labels=["portrait", "full"], col_labels=list(cast))

# %% [markdown]
# ## Stances: the `pose` setting
#
# The stance a preview shows, which the model also carries as its first animation (contract section 4), fitted to
# each body and its clothes. The same avatar in each (`hands_behind_back` from the front shows its elbows, its hands
# are at the small of the back):

# %% tags=["image-check", "op:avatars.register", "op:avatars.preview"]
poses = ("relaxed", "hand_on_hip", "hands_on_hips", "hands_clasped", "wave", "hands_behind_back")
stance_ids = {p: client.avatars.register({**cast["average"], "pose": p}).model_id for p in poses}
grid([[client.avatars.preview(stance_ids[p], size=160, camera="full", background=(236, 240, 241)).image for p in poses]],
     col_labels=list(poses))

# %% [markdown]
# ## A turntable, rendered locally
#
# The workbench's renderer draws the downloaded GLB itself (numpy and Pillow, no GPU, no browser),
# so a notebook can show the avatar from every side, standing in the pose previews show (idle):

# %% tags=["op:avatars.model"]
glb = client.avatars.model(avatar, lod=1).content
spin = turntable(glb, frames=16, size=160, camera="full", background=(236, 240, 241), fmt="gif")
Show(data=spin, format="gif")

# %% [markdown]
# The same avatar turned by hand: while you drag, the viewer draws small LOD 2 frames, and the full
# frame when you let go. `library_clips=True` puts the library's clips for its gender in the menu.

# %% tags=["op:avatars.model"]
client.avatars.model(avatar, lod=1).view(size=384, yaw=40, library_clips=True, clip="library/wave", time=0.8,
                                         lods={2: client.avatars.model(avatar, lod=2)})

# %% [markdown]
# ## Poses from a library clip
#
# `pose_image` draws one pose; `pose_sequence` draws several with one camera, framed once on all of
# them, so the avatar keeps its size and place from frame to frame:

# %% tags=["image-check", "op:animations.download"]
clip = client.animations.download("feminine", "dance").content
times = (0.0, 0.4, 0.8, 1.2, 1.6)
grid([pose_sequence(glb, clip, times, size=150, camera=cam, background=(236, 240, 241)) for cam in ("full", "portrait")],
     row_labels=["full", "portrait"], col_labels=[f"{t} s" for t in times])

# %% [markdown]
# How the avatars looked before their looks were reworked, next to how they look now, and what
# still falls short of a hand-made avatar: `01_avatars`, under *How the avatars look: before and after*.

# %% [markdown]
# ## Skin tones
#
# The renderer's lights are fixed to the world, so a figure turned away from the camera shows its
# back in the key light's shadow; skin takes the light with a warm wrap; the GLB's baked ambient
# occlusion darkens folds; a soft contact shadow grounds the feet. Skin tones from #FFE0C4 to
# #3B2416 keep their colour:

# %% tags=["image-check"]
import runpy
from pathlib import Path

DATA = Path.cwd().parent / "data"
looks = runpy.run_path(str(DATA / "make_looks_grid.py"))
looks["skin_sheet"]()

# %% [markdown]
# ## Live controls
#
# Move the controls to ask the service for another preview. (Widgets need a live kernel; the saved
# notebook shows the static image of the current setting below them.)

# %% tags=["op:avatars.preview"]
explorer = PreviewExplorer(client, avatar, size=256, camera="full")
explorer

# %% tags=["image-check"]
explorer.current

# %% [markdown]
# ## Errors

# %% tags=["op:avatars.preview", "nbval-check-output"]
for kw in ({"size": 16}, {"size": 600}, {"camera": "side"}, {"background": (256, 0, 0)}, {"background": "red"}):
    try:
        client.avatars.preview(avatar, **kw)
    except workbench.OptionError as e:
        print(e)

# %% [markdown]
# ## Checks

# %%
assert default.size == (512, 512) and default.image.mode == "RGBA"
assert [got[s].size[0] for s in sizes] == [32, 32, 64, 64, 128, 256, 512, 512]
assert all(r["opaque"] == (r["background"] != "transparent") for r in rows)
assert client.avatars.preview(avatar, size=64).content == client.avatars.preview(avatar, size=64).content
portrait = np.asarray(client.avatars.preview(avatar, size=128).image.convert("RGBA"))
assert portrait[-1, :, 3].max() == 255, "portrait is cut at the shoulders"
full = np.asarray(images[("full", None)].convert("RGBA"))
filled = np.where(full[..., 3].max(axis=1) > 0)[0]
assert filled[0] > 0 and filled[-1] < full.shape[0] - 1, "full shows head to toe with a margin"
print("preview checks passed")
