"""The same settings give the same model on another x86-64 machine (issue 45, item 6): numpy picks its vectorised
loops by the CPU it runs on (AVX-512, AVX2, or neither), and some of them round differently, so a model made on
a machine with AVX-512 and one made without differed in the Eyelashes' texture coordinates. A machine without
them is stood in for by ``NPY_DISABLE_CPU_FEATURES`` (numpy's own switch) in a second process."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from conftest import ROOT

BUILD = """
import hashlib, sys
from workbench.gltf import build_avatar
from workbench.options import ModelOptions, normalize_avatar_settings
settings = {"gender": "feminine", "bodyShape": "slim", "height": 172, "skinTone": "#F1C27D", "glasses": "clear",
            "hair": {"style": "bun", "color": "#6A4E42"}, "outfit": {"top": "#8E44AD", "bottom": "#34495E"}}
glb = build_avatar(normalize_avatar_settings(settings), ModelOptions())
print(len(glb), hashlib.sha256(glb).hexdigest())
"""


def _dispatched_features() -> list[str]:
    """The CPU features numpy's dispatched loops use on this machine beyond its baseline (AVX2, AVX-512...)."""
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    return [f for f in __cpu_dispatch__ if __cpu_features__.get(f)]


def _build(env: dict) -> str:
    out = subprocess.run([sys.executable, "-c", BUILD], env={**os.environ, "PYTHONPATH": str(ROOT), **env},
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.split()[-1]


@pytest.mark.slow   # two processes each build a model
def test_a_model_is_the_same_bytes_with_and_without_numpys_vectorised_loops():
    features = _dispatched_features()
    if not features:
        pytest.skip(f"numpy {np.__version__} uses no vectorised loops beyond its baseline on this CPU: nothing to switch off")
    here = _build({})
    assert _build({"NPY_DISABLE_CPU_FEATURES": " ".join(features)}) == here
