# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 00 · Quick start
#
# **What this shows:** how to connect the workbench to the Avatar, Viewer and Space Template service,
# what its two base URLs are, how to register an avatar and get its model and preview, and what errors
# look like.
#
# **What it needs:** nothing. With no deployment named, `workbench.connect()` starts a local reference
# service in the background of this kernel. To run the same notebook against a real deployment, set
# `WORKBENCH_BASE_URL`, `WORKBENCH_AVATAR_BASE_URL` and `WORKBENCH_TOKEN` before starting Jupyter.
#
# Every notebook ends with checks (`assert`s), so the set doubles as a regression suite run by nbval.
#
# **Where to edit:** `notebooks/00_quickstart.py` (or this notebook in JupyterLab
# with jupytext, which saves both), then `python tools/build_notebooks.py 00`
# to run it and save its outputs.

# %% tags=["parameters"]
preview_size = 256  # px of the preview shown (a power of two from 64 to 1024)

# %%
import httpx
import workbench

client = workbench.connect()

# %% [markdown]
# ## The two base URLs
#
# The service has two halves, each with its own base URL:
#
# | half | base URL | paths |
# |---|---|---|
# | avatar | `avatar_base_url` | `/avatar`, `/model/:id.glb`, `/preview/:id.png`, `/animations`, `/animations/:gender/:name.glb` |
# | platform | `base_url` | `/viewers/...`, `/resources/...` |
#
# The local service serves both under one port, as `/avatars` and `/api`, so a client that mixes them
# up fails at once. It also has a control API (`/_local`) that makes viewers, templates and tokens;
# that part is not in a real deployment, and cells that need it say so and skip themselves there.

# %%
print("avatar_base_url:", client.config.avatar_base_url)
print("base_url:       ", client.config.base_url)
print("control API:    ", client.config.local_url or "none (a deployment)")

# %% [markdown]
# ## Register an avatar
#
# `POST {avatar_base_url}/avatar` takes avatar settings (the fields are in `docs/contract.md`, section 4)
# and needs a token with the `avatar:write` scope. The client checks the settings with the same rules
# as the service before it sends anything.

# %% tags=["op:avatars.register"]
settings = {
    "gender": "feminine",
    "bodyShape": "athletic",
    "height": 170,
    "skinTone": "#8D5524",
    "hair": {"style": "long", "color": "#3B2314"},
    "outfit": {"top": "#C0392B", "bottom": "#2C3E50", "shoes": "#ECF0F1"},
    "glasses": "clear",
    "name": "Quickstart",
}
registration = client.avatars.register(settings)
registration

# %% [markdown]
# The answer carries the avatar's id and two absolute download URLs. Both are public: anyone with the
# URL can fetch the model and the preview, no token needed.

# %% tags=["nbval-check-output"]
mid = registration.model_id
print(len(mid), "hex characters:", all(c in "0123456789abcdef" for c in mid))
print(registration.model_url == f"{client.config.avatar_base_url}/model/{mid}.glb")
print(registration.preview_url == f"{client.config.avatar_base_url}/preview/{mid}.png")

# %% [markdown]
# ## Download the model and look at the preview

# %% tags=["op:avatars.model"]
model = client.avatars.model(mid)
print(model.content[:4], model.content_type, f"{len(model) / 1e6:.2f} MB")

# %% tags=["image-check", "op:avatars.preview"]
preview = client.avatars.preview(mid, size=preview_size)
preview

# %% [markdown]
# ## What errors look like
#
# There are two kinds. An option that breaks the interface's rules never leaves your machine: the
# client raises `workbench.OptionError`, naming the field and the rule. Anything the service refuses
# comes back as an `APIError` subclass (`BadRequestError`, `UnauthorizedError`, `NotFoundError`, ...)
# with the HTTP `status`, a stable `code`, a `message`, `details` and the raw `response`.

# %% tags=["nbval-check-output"]
try:
    client.avatars.register({"gender": "robot", "height": 250, "hat": "top"})
except workbench.OptionError as e:
    for p in e.problems:
        print(f"{p.field:8} {p.code:14} {p.message}")

# %% tags=["op:avatars.register", "nbval-check-output"]
try:
    client.with_options(token="wb_not_a_real_token").avatars.register({"gender": "masculine"})
except workbench.UnauthorizedError as e:
    print(type(e).__name__, e.status, e.code)
    print(e.message)
    print("WWW-Authenticate:", e.response.headers["www-authenticate"])

# %% tags=["op:avatars.model", "nbval-check-output"]
try:
    client.avatars.model("000000000000000000000000")
except workbench.NotFoundError as e:
    print(e.status, e.code)

# %% [markdown]
# Every JSON answer of the local service uses one envelope. Sent past the client's checks (here with
# plain httpx), bad settings come back as a 400 with one `details` entry per problem:

# %% tags=["op:avatars.register", "nbval-check-output"]
r = httpx.post(f"{client.config.avatar_base_url}/avatar", json={"gender": "robot", "height": 250},
               headers={"Authorization": f"Bearer {client.config.token}"})
print(r.status_code)
body = r.json()
print(body["status"], body["error"]["code"])
for d in body["error"]["details"]:
    print(d)

# %% [markdown]
# ## Checks

# %%
assert len(mid) == 24
assert model.content[:4] == b"glTF"
assert preview.size == (256, 256)
assert r.status_code == 400 and {d["field"] for d in body["error"]["details"]} == {"gender", "height"}
print("quickstart checks passed")
