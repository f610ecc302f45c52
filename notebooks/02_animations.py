# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 02 · The animation library
#
# **What this shows:** `GET {avatar_base_url}/animations` (the list) and
# `GET {avatar_base_url}/animations/:gender/:name.glb` (one clip per file, per gender). We look inside
# the clips (skeleton, tracks, durations), see that the two genders have their own skeletons, plot a
# joint's rotation over a clip, see the motion as poses, and embed clips into an avatar's model.
#
# **What it needs:** nothing; these endpoints are public.
#
# **Where to edit:** `notebooks/02_animations.py` (or this notebook in JupyterLab
# with jupytext, which saves both), then `python tools/build_notebooks.py 02`
# to run it and save its outputs.

# %% tags=["parameters"]
embedded_clips = "walk,wave,nod"  # library clips embedded into the model (comma separated)

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import workbench
from workbench.gltf import inspect
from workbench.gltf.tracks import tracks
from workbench.render import grid, pose_sequence

client = workbench.connect()

# %% tags=["op:animations.list", "nbval-check-output"]
library = client.animations.list()
display(library.frame())

# %% [markdown]
# ## Download clips for both genders

# %% tags=["op:animations.download", "nbval-check-output"]
clips = {(g, n): client.animations.download(g, n) for g in ("masculine", "feminine") for n in ("walk", "wave", "jump", "nod")}
rows = []
for (g, n), clip in clips.items():
    s = clip.inspect()
    a = s.animations.iloc[0]
    rows.append({"gender": g, "clip": n, "joints": len(s.skeleton), "duration_s": round(float(a["duration_s"]), 3),
                 "channels": int(a["channels"]), "frames": int(a["frames"]), "KB": round(len(clip) / 1024, 1)})
display(pd.DataFrame(rows))


# %% [markdown]
# ## Each gender has its own skeleton
#
# The joint names are the same (so a clip fits any avatar of that gender), but the proportions differ.
# Here are the rest positions of a few joints (metres, Y up) from each gender's walk file:

# %% tags=["nbval-check-output"]
def rest_heights(glb):
    from workbench.gltf.glb import read_glb
    doc, _ = read_glb(glb)
    nodes = doc["nodes"]
    parent = {c: i for i, n in enumerate(nodes) for c in n.get("children", [])}
    def world_y(i):
        y = 0.0
        while i is not None:
            y += nodes[i].get("translation", [0, 0, 0])[1]
            i = parent.get(i)
        return y
    return {nodes[i]["name"]: round(world_y(i), 3) for i in range(len(nodes))
            if nodes[i].get("name") in ("Hips", "Neck", "Head", "LeftHand", "LeftFoot")}
heights = pd.DataFrame({g: rest_heights(clips[(g, "walk")].content) for g in ("masculine", "feminine")})
display(heights)

# %% [markdown]
# ## A joint's rotation over a clip
#
# `workbench.gltf.tracks` reads the keyframes into a DataFrame. The walk's thighs swing in opposition,
# and the right forearm does the waving:

# %% tags=["image-check"]
walk = tracks(clips[("masculine", "walk")].content)
wave = tracks(clips[("masculine", "wave")].content)
fig, axes = plt.subplots(1, 2, figsize=(12, 3.5))
for j in ("LeftUpLeg", "RightUpLeg", "LeftArm", "RightArm"):
    d = walk[(walk.joint == j) & (walk.path == "rotation")]
    axes[0].plot(d["time"], d["x"], label=j)
axes[0].set_title("walk: rotation quaternion x"); axes[0].set_xlabel("s"); axes[0].legend()
for j in ("RightArm", "RightForeArm", "RightHand"):
    d = wave[(wave.joint == j) & (wave.path == "rotation")]
    axes[1].plot(d["time"], d["angle_deg"], label=j)
axes[1].set_title("wave: degrees from the first key"); axes[1].set_xlabel("s"); axes[1].legend()
plt.tight_layout(); plt.show()

# %% tags=["nbval-check-output"]
cyc = walk[walk.path == "rotation"].groupby("joint")
first = cyc.first()[["x", "y", "z", "w"]]
last = cyc.last()[["x", "y", "z", "w"]]
print("walk closes exactly (largest difference first to last key):", float((first - last).abs().max().max()))
left = walk[(walk.joint == "LeftUpLeg") & (walk.path == "rotation")]["x"].to_numpy()
right = walk[(walk.joint == "RightUpLeg") & (walk.path == "rotation")]["x"].to_numpy()
print("thighs in opposition (correlation < 0):", bool(np.corrcoef(left, right)[0, 1] < 0))

# %% [markdown]
# ## The motion as poses (rendered locally, no browser needed)
#
# `pose_sequence` frames a clip's poses once (one camera that fits every pose), so the figure keeps
# its size and place along a row: the jump rises in the frame instead of being re-centred.

# %% tags=["image-check", "op:avatars.register", "op:avatars.model"]
model = client.avatars.model(client.avatars.register({"gender": "masculine", "outfit": {"top": "#D35400"}}).model_id, lod=2)
rows = []
for name in ("walk", "wave", "jump"):
    clip = clips[("masculine", name)].content
    duration = float(inspect(clip).animations.loc[0, "duration_s"])
    rows.append(pose_sequence(model.content, clip, [duration * f for f in (0.0, 0.25, 0.5, 0.75)], size=160,
                              camera="full", background=(235, 238, 242)))
grid(rows, row_labels=["walk", "wave", "jump"], col_labels=["0%", "25%", "50%", "75%"])

# %% [markdown]
# ## A clip with a face: a blink and a smile
#
# The avatar's model carries the 52 ARKit face shapes as morph targets; `pose_sequence(..., morphs=)`
# plays face weights along a clip (a dict, or a function of the time), here a wave with a blink at
# 0.4 s and a smile that grows.

# %% tags=["image-check", "op:avatars.model"]
# The wave embedded in the model, so it plays on this avatar's own skeleton.
face_model = client.avatars.model(model.model_id, lod=0, animations="wave").content
wave_s = float(inspect(face_model).animations.loc[0, "duration_s"])


def face(t):
    """Face weights at ``t`` seconds: a blink around 0.4 s, a smile rising over the clip."""
    blink = max(0.0, 1.0 - abs(t - 0.4) / 0.12)
    smile = min(1.0, t / wave_s * 1.5)
    return {"eyeBlinkLeft": blink, "eyeBlinkRight": blink, "mouthSmileLeft": 0.8 * smile,
            "mouthSmileRight": 0.8 * smile, "cheekSquintLeft": 0.3 * smile, "cheekSquintRight": 0.3 * smile}


times = [0.0, 0.4, wave_s * 0.5, wave_s * 0.9]
grid([pose_sequence(face_model, face_model, times, size=200, camera="portrait", background=(235, 238, 242),
                    morphs=face)], col_labels=[f"{t:.1f} s" for t in times])

# %% [markdown]
# ## Clips embedded into a model
#
# `animations=` on the model download embeds the library's motions for the avatar's gender, retargeted
# to the avatar's own skeleton: a category (`locomotion`, `gestures`), `all`, or a comma list.

# %% tags=["op:avatars.model", "nbval-check-output"]
embedded = client.avatars.model(model.model_id, lod=2, animations=embedded_clips).inspect()
display(embedded.animations[["name", "duration_s", "channels"]])

# %% [markdown]
# The embedded clips play in the viewer: pick one in the menu, press play or drag the time slider;
# the skeleton overlay shows the joints the clip moves.

# %% tags=["op:avatars.model"]
client.avatars.model(model.model_id, lod=2, animations=embedded_clips).view(clip=embedded_clips.split(",")[0], time=0.5,
                                                                            skeleton=True, size=384)

# %% [markdown]
# ## Errors: 400 for an unknown gender or name

# %% tags=["op:animations.download", "nbval-check-output"]
import httpx
for g, n in (("robot", "walk"), ("feminine", "moonwalk")):
    try:
        client.animations.download(g, n)
    except workbench.OptionError as e:
        print("client:", e)
    r = httpx.get(f"{client.config.avatar_base_url}/animations/{g}/{n}.glb")
    print("service:", r.status_code, r.json()["error"]["code"], [d["field"] for d in r.json()["error"]["details"]])

# %% [markdown]
# **404: the file is missing on the server.** A name that is in the list but whose file is gone is a
# 404, not a 400. On the local service we move one file of the library away for a moment:

# %% tags=["op:animations.download", "nbval-check-output"]
if client.local.available:
    from pathlib import Path
    clip_file = Path(client.local.health()["dataDir"]) / "animations" / "feminine" / "shrug.glb"
    hidden = clip_file.with_name("shrug.glb.away")
    clip_file.rename(hidden)
    try:
        client.animations.download("feminine", "shrug")
    except workbench.NotFoundError as e:
        print(e.status, e.code)
    finally:
        hidden.rename(clip_file)
    print("back:", client.animations.download("feminine", "shrug").content[:4])
else:
    print("[skipped: needs the local control API]")

# %% [markdown]
# ## Checks

# %%
assert library.masculine == library.feminine and len(library.masculine) == 18
assert all(len(c.inspect().skeleton) == 65 for c in clips.values())
assert heights.loc["Head", "masculine"] > heights.loc["Head", "feminine"]
assert float((first - last).abs().max().max()) < 1e-6
assert sorted(embedded.animations["name"]) == ["nod", "walk", "wave"]
print("animation checks passed")
