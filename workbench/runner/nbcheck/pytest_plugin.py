"""pytest plugin: nbval compares a notebook's pictures within a tolerance, and masks what changes run to run.

nbval (0.11) runs each code cell as an ``IPyNbCell`` item and compares its text outputs, but
skips ``image/png`` (or, with ``--nbdime``, compares it byte for byte, which a renderer or PNG
encoder of another version never passes). With ``--nbimages`` (or ``nbimages = true`` in the ini
file) this plugin:

1. compares every ``image/png`` output of a cell tagged ``nbval-check-output`` or ``image-check``
   (or marked ``# NBVAL_CHECK_OUTPUT``, or any cell under ``--nbval``) with the one saved in the
   .ipynb, by :func:`workbench.runner.nbcheck.compare_png`; a failure writes expected, actual and their
   difference side by side into one PNG (``--nbimages-dir``, default ``.nbimages/`` under the
   rootdir) and names it in the report;
2. hands nbval the volatile masks of :mod:`workbench.runner.nbcheck.masks` (widget ids, timestamps,
   durations) after those of ``--nbval-sanitize-with``, through that option;
3. starts nbval's kernels on Unix sockets, not TCP ports (:mod:`workbench.runner.kernels`), so that a
   suite starting kernels and servers at once cannot lose a kernel to a taken port.

Limits, most specific first: the cell's metadata ``{"workbench": {"image": {"max_fraction": 0.01,
"max_rms": 3, "threshold": 24}}}``, the cell's tags ``image-tolerance=0.01`` (max_fraction),
``image-max-rms=3``, ``image-threshold=24``; then ``--nbimages-max-fraction``,
``--nbimages-max-rms``, ``--nbimages-threshold``; then the ini's ``nbimages_max_fraction``,
``nbimages_max_rms``, ``nbimages_threshold``; then :class:`~workbench.runner.nbcheck.Tolerance`'s defaults.

How it meets nbval: hook wrappers only, around ``pytest_runtest_call`` (after nbval's own run and
text comparison of the cell pass, the images are compared) and ``pytest_runtest_makereport`` (the
report shows this plugin's message, not nbval's "pytest plugin exception"), and one assignment: nbval's
``nbval.kernel.KernelManager``, which its ``start_new_kernel`` reads. It reads three
attributes of nbval's items, none of them private but none documented either: ``cell`` (the saved
cell), ``test_outputs`` (the outputs of this run) and ``options`` (nbval's markers); under
``--nbdime`` it also adds ``image/png`` to the notebook's ``skip_compare`` so nbval's exact
comparison gives way to this one. A version of nbval without them fails with a message naming it.

Entry point ``workbench.runner.nbcheck.pytest_plugin`` (pyproject.toml): named like the module so that
``-p workbench.runner.nbcheck.pytest_plugin`` and the installed entry point are one plugin, not two.

>>> from workbench.runner.nbcheck.cells import cell_tolerance
>>> from workbench.runner.nbcheck import Tolerance
>>> cell_tolerance({"tags": ["image-tolerance=0.01"], "workbench": {"image": {"max_rms": 3}}}, Tolerance())
Tolerance(threshold=16, max_fraction=0.01, max_rms=3)
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Protocol, cast

import pytest

from workbench.runner.nbcheck.cells import CHECK_TAGS, PNG, cell_tolerance, compare_cell, number
from workbench.runner.nbcheck.images import Tolerance
from workbench.runner.nbcheck.iri import defer_iri_grammar
from workbench.runner.nbcheck.masks import sanitize_cfg

# Before nbval's plugin (an entry point, loaded after pyproject's ``-p`` of this one) imports jsonschema: its IRI
# grammar is built on the first IRI checked, not in every pytest process (1.4 s of CPU each, docs/testing.md).
defer_iri_grammar()

NBVAL_ITEM_ATTRS = ("cell", "test_outputs", "options")


class _NbvalCell(Protocol):
    """What this plugin reads of nbval's IPyNbCell (nbval has no types; :func:`check_images` checks the names)."""

    nodeid: str
    cell: dict[str, Any]
    test_outputs: list[dict[str, Any]] | None
    options: dict[str, Any] | None


class _NbvalFile(Protocol):
    """What this plugin changes of nbval's IPyNbFile, a cell's parent: the output keys it leaves uncompared."""

    skip_compare: tuple[str, ...]


@dataclass
class Settings:
    tolerance: Tolerance
    out_dir: Path
    sanitize_dir: str | None = None  # the temporary folder of the combined sanitize file


SETTINGS = pytest.StashKey[Settings]()


class ImageMismatch(Exception):
    """A cell's pictures differ from the saved ones by more than the tolerance (the message says how)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("nbimages", "notebook images compared within a tolerance (workbench.runner.nbcheck)")
    group.addoption("--nbimages", action="store_true", default=None,
                    help="compare image/png outputs of nbval's checked cells within a tolerance, and mask widget "
                         "ids, timestamps and durations (ini: nbimages = true)")
    group.addoption("--no-nbimages", action="store_false", dest="nbimages", help="turn --nbimages off")
    defaults = Tolerance()
    for name, what in (("max_fraction", "share of pixels allowed to differ"),
                       ("max_rms", "RMS difference allowed, of 255"),
                       ("threshold", "a pixel differs when a channel moves by more than this, of 255")):
        flag = "--nbimages-" + name.replace("_", "-")
        group.addoption(flag, type=float, default=None, dest="nbimages_" + name,
                        help=f"{what} (default {getattr(defaults, name)}; a cell's own limits win)")
        parser.addini("nbimages_" + name, f"{what}, for {flag}")
    group.addoption("--nbimages-dir", default=None,
                    help="where a failed comparison writes its picture (default .nbimages/ under the rootdir)")
    parser.addini("nbimages", "compare notebook images within a tolerance (as --nbimages)", type="bool", default=False)
    parser.addini("nbimages_dir", "as --nbimages-dir, relative to the rootdir")


def enabled(config: pytest.Config) -> bool:
    flag = config.getoption("nbimages")
    return bool(config.getini("nbimages") if flag is None else flag)


@pytest.hookimpl(trylast=True)  # after nbval's own pytest_configure settles its options
def pytest_configure(config: pytest.Config) -> None:
    if getattr(config.option, "dist", None) == "load":
        # pytest -n N: nbval runs a notebook's cells in order in one kernel, so they must stay on one
        # worker: "loadfile" sends each file (a notebook, a test module) to one worker. ("loadgroup" with
        # xdist_group marks would spread the rest finer, but xdist 3.8 renames nodeids for it through
        # Item._nodeid, which pytest 9.2 no longer reads, so the groups fall apart there.)
        config.option.dist = "loadfile"
    if not enabled(config):
        return
    try:
        tol = Tolerance().with_(**{n: _ini_float(config, "nbimages_" + n) for n in ("threshold", "max_fraction", "max_rms")})
        tol = tol.with_(**{n: config.getoption("nbimages_" + n) for n in ("threshold", "max_fraction", "max_rms")})
    except ValueError as e:
        raise pytest.UsageError(f"--nbimages: {e}") from None
    if config.getoption("nbimages_dir"):
        out_dir = config.invocation_params.dir / config.getoption("nbimages_dir")
    else:
        out_dir = config.rootpath / (config.getini("nbimages_dir") or ".nbimages")
    settings = Settings(tol, out_dir)
    config.stash[SETTINGS] = settings
    opt = config.option
    if getattr(opt, "nbval", False) or getattr(opt, "nbval_lax", False):
        # nbval reads one sanitize file: give it the user's rules, then the masks, in one file of ours.
        settings.sanitize_dir = tempfile.mkdtemp(prefix="nbimages-")
        combined = Path(settings.sanitize_dir) / "sanitize.cfg"
        own = getattr(opt, "nbval_sanitize_with", None)
        text = (config.invocation_params.dir / own).read_text(encoding="utf-8") + "\n\n" if own else ""
        combined.write_text(text + sanitize_cfg(), encoding="utf-8")
        opt.nbval_sanitize_with = str(combined)
        _kernels_on_sockets()


def _kernels_on_sockets() -> None:
    """nbval's kernels on Unix sockets (:mod:`workbench.runner.kernels`): one on TCP can lose a port its
    manager picked to a server or kernel starting at the same moment, and die. nbval has no option
    for it; its ``start_new_kernel`` makes its manager from its module's ``KernelManager``."""
    import nbval.kernel

    from workbench.runner.kernels import on_sockets

    nbval.kernel.KernelManager = on_sockets(nbval.kernel.KernelManager)


def pytest_unconfigure(config: pytest.Config) -> None:
    settings = config.stash.get(SETTINGS, None)
    if settings and settings.sanitize_dir:
        shutil.rmtree(settings.sanitize_dir, ignore_errors=True)


def pytest_report_header(config: pytest.Config) -> str | None:
    settings = config.stash.get(SETTINGS, None)
    if settings is None:
        return None
    t = settings.tolerance
    return (f"nbimages: threshold {t.threshold:g}, max_fraction {t.max_fraction:g}, max_rms {t.max_rms:g}; "
            f"failures to {settings.out_dir}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Under --nbdime nbval compares image/png byte for byte before this plugin sees the cell.
    if SETTINGS not in config.stash or not getattr(config.option, "nbdime", False):
        return
    for item in items:
        if _is_nbval_cell(item):
            skip = getattr(item.parent, "skip_compare", None)
            if not isinstance(skip, tuple):
                raise pytest.UsageError(_nbval_changed("IPyNbFile.skip_compare (a tuple of output keys)"))
            if PNG not in skip:
                cast(_NbvalFile, item.parent).skip_compare = skip + (PNG,)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    result = yield  # nbval runs the cell and compares its text; if that failed, the images wait
    settings = item.config.stash.get(SETTINGS, None)
    if settings is not None and _is_nbval_cell(item):
        check_images(item, settings)
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    if call.excinfo is not None and isinstance(call.excinfo.value, ImageMismatch):
        report.longrepr = str(call.excinfo.value)
    return report


def check_images(item: pytest.Item, settings: Settings) -> None:
    """Compare the cell's new image/png outputs with the saved ones; raise :class:`ImageMismatch` on a difference."""
    missing = [a for a in NBVAL_ITEM_ATTRS if not hasattr(item, a)]
    if missing:
        raise RuntimeError(_nbval_changed(", ".join(f"IPyNbCell.{a}" for a in missing)))
    nb = cast(_NbvalCell, item)
    cell, outputs = nb.cell, nb.test_outputs or []
    tags = set(cell.get("metadata", {}).get("tags", []) or [])
    if not (tags & CHECK_TAGS or (nb.options or {}).get("check")) or cell.get("execution_count") is None:
        return
    try:
        tol = cell_tolerance(cell.get("metadata", {}), settings.tolerance)
    except ValueError as e:
        raise ImageMismatch(f"{item.nodeid}: {e}") from None
    lines = [line for m in compare_cell(cell, outputs, tol, settings.out_dir,
                                        f"{item.path.stem}-{item.name.replace(' ', '').lower()}") for line in m.lines()]
    if lines:
        raise ImageMismatch("\n".join([f"{item.nodeid}: image/png differs from the saved notebook", *lines,
                                       "  (limits per cell: metadata {\"workbench\": {\"image\": {\"max_fraction\": ..., "
                                       "\"max_rms\": ..., \"threshold\": ...}}} or a tag image-tolerance=F; per run: "
                                       "--nbimages-max-fraction, --nbimages-max-rms, --nbimages-threshold)"]))


def _is_nbval_cell(item: pytest.Item) -> bool:
    try:
        from nbval.plugin import IPyNbCell
    except ImportError:  # no nbval, no notebook items
        return False
    return isinstance(item, IPyNbCell)


def _ini_float(config: pytest.Config, name: str) -> float | None:
    value = config.getini(name)
    return number(value, f"ini {name}") if value else None


def _nbval_changed(what: str) -> str:
    try:
        nbval = version("nbval")
    except PackageNotFoundError:
        nbval = "(version unknown)"
    return (f"workbench.runner.nbcheck reads {what} of nbval's notebook items, which nbval {nbval} does not have "
            f"(written against nbval 0.11); run without --nbimages, or pin nbval to 0.11")
