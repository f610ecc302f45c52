"""Typed results of the client's operations: small objects, never raw dicts.

Each shows itself well in Jupyter (a PNG inline, a table) and has a plain-text
form that does not change from run to run, so a notebook's saved output can be
compared by nbval.

>>> Registration("a" * 24, "http://h/avatars/model/x.glb", "http://h/avatars/preview/x.png").model_id[:4]
'aaaa'
"""

from __future__ import annotations

import functools
import hashlib
import html
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.options import LODS

if TYPE_CHECKING:
    import pandas as pd
    import pygltflib
    from PIL import Image

    from workbench.gltf.summary import GlbSummary
    from workbench.gltf.validator import ValidationReport
    from workbench.widgets.viewer import AvatarViewer

__all__ = [
    "Registration",
    "Model",
    "Preview",
    "AnimationList",
    "Animation",
    "RegenerateJob",
    "BatchResult",
    "UploadFinish",
]


class _Binary:
    """Shared behaviour of results that carry file bytes."""

    content: bytes
    suffix = ".bin"

    def save(self, path: str | Path) -> Path:
        """Write the bytes to ``path`` (a folder gets a default file name) and return the path."""
        p = Path(path)
        if p.is_dir():
            p = p / self.default_name()
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(self.content)
        return p

    def default_name(self) -> str:
        return "file" + self.suffix

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.content).hexdigest()

    def __len__(self) -> int:
        return len(self.content)


class _Glb(_Binary):
    """Shared behaviour of results that carry a GLB."""

    suffix = ".glb"

    def inspect(self) -> GlbSummary:
        """Summarise the GLB (nodes, meshes, materials, textures, animations)."""
        from workbench.gltf import inspect

        return inspect(self.content)

    def validate(self) -> ValidationReport:
        """Run the Khronos glTF-Validator over the GLB (needs node)."""
        from workbench.gltf import validate

        return validate(self.content)

    @property
    def gltf(self) -> pygltflib.GLTF2:
        """The GLB parsed by pygltflib, a ``pygltflib.GLTF2`` to poke at (a new one on each call:
        changing it leaves ``content`` as downloaded). ``.binary_blob()`` gives the binary chunk.

        >>> import pygltflib
        >>> glb = b"".join(pygltflib.GLTF2(asset=pygltflib.Asset(version="2.0"), nodes=[pygltflib.Node(name="Hips")]).save_to_bytes())
        >>> Model("a" * 24, glb).gltf.nodes[0].name
        'Hips'
        """
        import pygltflib

        return pygltflib.GLTF2.load_from_bytes(self.content)


@dataclass(frozen=True)
class Registration:
    """What ``POST /avatar`` answered: the id and the two download URLs."""

    model_id: str
    model_url: str
    preview_url: str

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><th style='text-align:left'>{k}</th><td><code>{html.escape(v)}</code></td></tr>"
                       for k, v in (("modelId", self.model_id), ("modelUrl", self.model_url), ("previewUrl", self.preview_url)))
        return f"<table>{rows}</table>"


@dataclass(frozen=True, repr=False)
class Model(_Glb):
    """An avatar's GLB as downloaded, with the options that asked for it.

    fetch: how to download the same avatar again with other options (``lod=``, ``animations=``), set
    by a blocking client; ``view()`` fetches a lighter level of detail with it when a page needs one.
    """

    model_id: str
    content: bytes
    query: dict[str, str] = field(default_factory=dict)
    etag: str | None = None
    content_type: str | None = None
    fetch: Callable[..., Model] | None = field(default=None, compare=False)

    def default_name(self) -> str:
        opts = "_".join(f"{k}-{v}".replace(",", "+") for k, v in sorted(self.query.items()))
        return f"{self.model_id}{'_' + opts if opts else ''}.glb"

    def view(self, **kw: Any) -> AvatarViewer:
        """This avatar in an interactive viewer (``workbench.widgets.viewer.AvatarViewer``): drag to turn it,
        wheel to zoom, play its clips. ``kw`` go to the viewer (``size``, ``library_clips``, ``lods``...).

        A model from a blocking client moves smoothly where there is no graphics card: the viewer
        downloads the next lighter level of detail (without clips) when a page first needs it to
        draw while the view moves; ``lods=`` given replaces that.

        >>> from workbench.render.testing import tiny_rig_glb
        >>> Model("a" * 24, tiny_rig_glb()).view(size=32).snapshot().size
        (32, 32)
        """
        from workbench.widgets.viewer import AvatarViewer  # anywidget loads with the first viewer, not with the client

        lighter = int(self.query.get("lod", 0)) + 1
        if self.fetch is not None and "lods" not in kw and lighter <= max(LODS):
            kw["lods"] = {lighter: functools.partial(_content_of, self.fetch, lighter)}
        return AvatarViewer(self, **kw)

    def __repr__(self) -> str:
        return f"Model(model_id={self.model_id!r}, bytes={len(self.content)}, query={self.query!r})"


@dataclass(frozen=True, repr=False)
class Preview(_Binary):
    """An avatar's preview PNG; shows itself inline in Jupyter."""

    model_id: str
    content: bytes
    query: dict[str, str] = field(default_factory=dict)
    etag: str | None = None
    suffix = ".png"

    def default_name(self) -> str:
        return f"{self.model_id}_preview.png"

    def _repr_png_(self) -> bytes:
        return self.content

    @property
    def image(self) -> Image.Image:
        """The PNG as a Pillow image (RGBA or RGB)."""
        from PIL import Image

        return Image.open(io.BytesIO(self.content))

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size

    def __repr__(self) -> str:
        w, h = self.size
        return f"Preview(model_id={self.model_id!r}, {w}x{h} {self.image.mode}, bytes={len(self.content)})"


@dataclass(frozen=True)
class AnimationList:
    """The animation names per gender (``GET /animations``)."""

    masculine: tuple[str, ...]
    feminine: tuple[str, ...]

    def frame(self) -> pd.DataFrame:
        """One row per name, a column per gender saying whether it is offered."""
        import pandas as pd

        names = sorted(set(self.masculine) | set(self.feminine))
        return pd.DataFrame({"name": names,
                             "masculine": [n in self.masculine for n in names],
                             "feminine": [n in self.feminine for n in names]})

    def _repr_html_(self) -> str:
        table: str = self.frame().to_html(index=False)
        return table


@dataclass(frozen=True, repr=False)
class Animation(_Glb):
    """One animation clip's GLB."""

    gender: str
    name: str
    content: bytes

    def default_name(self) -> str:
        return f"{self.gender}_{self.name}.glb"

    def __repr__(self) -> str:
        return f"Animation(gender={self.gender!r}, name={self.name!r}, bytes={len(self.content)})"


@dataclass(frozen=True)
class RegenerateJob:
    """A started (or already running) regeneration job of a viewer."""

    viewer_token: str
    kind: str
    job_id: str
    state: str
    outputs: tuple[str, ...]
    status_code: int = 200


@dataclass(frozen=True)
class BatchResult:
    """What the tracking batch endpoint answered (200 or 207).

    ``errors`` is a DataFrame with columns index, code, message, field (one row
    per rejected event); ``events_with_errors(events)`` joins them back.
    """

    status_code: int
    accepted: int
    rejected: int
    duplicates: int
    error_list: tuple[Any, ...] = ()

    @property
    def errors(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(list(self.error_list), columns=["index", "code", "message", "field"])

    def events_with_errors(self, events: list[dict[str, Any]]) -> pd.DataFrame:
        """The sent events as a DataFrame with each one's error code, message and field (None when accepted)."""
        import pandas as pd

        df = pd.DataFrame({"index": range(len(events)), "event": list(events)})
        return df.merge(self.errors, on="index", how="left")

    @property
    def ok(self) -> bool:
        return self.rejected == 0

    def __repr__(self) -> str:
        return (f"BatchResult(status_code={self.status_code}, accepted={self.accepted}, "
                f"rejected={self.rejected}, duplicates={self.duplicates})")


@dataclass(frozen=True)
class UploadFinish:
    """The answer of finish-upload: 201 finalized or 200 cancelled."""

    space_template_id: str
    state: str
    status_code: int
    data: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


def _content_of(fetch: Callable[..., Model], lod: int) -> bytes:
    """The GLB of the same avatar at ``lod``, without clips (a viewer's lighter level, Model.view)."""
    return fetch(lod=lod, animations=[]).content


def envelope_data(body: Any) -> Any:
    """The ``data`` of a success envelope, or the body itself from a deployment without one."""
    if isinstance(body, dict) and body.get("status") == "ok" and "data" in body:
        return body["data"]
    return body
