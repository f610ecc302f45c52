"""The package's public names stay what they are whatever else has been imported: a submodule imported by
anyone (a test, a notebook, ``python -m``) is set on the package under its own name, so no submodule may be
named like a public name (``workbench.connect`` was both, and the module won once it had been imported)."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_every_submodule_imported_leaves_the_public_names_as_they_are():
    # A fresh interpreter: this process may have bound the names already, in whatever order its tests ran.
    script = textwrap.dedent("""
        import importlib, inspect, pkgutil
        import workbench

        for found in pkgutil.iter_modules(workbench.__path__):
            importlib.import_module("workbench." + found.name)
        shadowed = [n for n in workbench.__all__ if inspect.ismodule(getattr(workbench, n))]
        assert not shadowed, f"submodules named like public names: {shadowed}"
        assert inspect.isfunction(workbench.connect), workbench.connect
        print(workbench.connect.__name__)
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["connect"]
