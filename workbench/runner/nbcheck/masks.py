r"""What changes from run to run in a notebook's text outputs, and what stands in for it when they are compared.

Each mask is a regular expression and its replacement, applied in order (nbval's sanitize rules:
``re.sub`` on every text output, the saved one and the new one alike). These are the masks of any
notebook, so they live here, with the plugin that applies them (``--nbimages``); what only this
project's notebooks print (ports, resource ids) stays in ``notebooks/sanitize.cfg``.

- widget model ids: a widget's own view (``application/vnd.jupyter.widget-view+json``) is never
  compared by nbval, but its id also shows in text as ``IPY_MODEL_<32 hex>`` (a widget's state,
  a container's children) and as ``model_id`` in a printed dict or JSON;
- ISO 8601 timestamps (``2026-11-20T09:00:01.5Z``, ``datetime.now().isoformat()``): with the ``T``
  and down to the minute at least. A bare date, and the ``2026-11-01 00:02:45+00:00`` form pandas
  and ``str(datetime)`` print, stay compared: the tracking notebooks print seeded event times that
  are part of what they check;
- durations: ``1.23 s``, ``123 ms``, ``40us``, ``0:00:01``, and tqdm's ``[00:01<00:02, 3.10it/s]``.

>>> from workbench.runner.nbcheck.masks import mask
>>> mask("slider IPY_MODEL_0123456789abcdef0123456789abcdef, {'model_id': '0123456789abcdef0123456789abcdef'}")
"slider IPY_MODEL_WIDGET_ID, {'model_id': 'WIDGET_ID'}"
>>> mask("at 2026-11-20T09:00:01.250Z took 1.23 s (then 45 ms, total 0:00:02)")
'at TIMESTAMP took DURATION (then DURATION, total DURATION)'
>>> mask("sending: 100%|##########| 977/977 [00:01<00:00, 512.3batch/s]")
'sending: 100%|##########| 977/977 [ELAPSED<REMAINING, RATE]'
>>> mask("on 2026-11-20, 3 items of 5 sizes, md5 0123456789abcdef0123456789abcdef")
'on 2026-11-20, 3 items of 5 sizes, md5 0123456789abcdef0123456789abcdef'
>>> mask("from 2026-11-01 00:14:07.302+00:00; std 169.6 / min 0.0")
'from 2026-11-01 00:14:07.302+00:00; std 169.6 / min 0.0'
"""

from __future__ import annotations

import re

__all__ = ["MASKS", "mask", "sanitize_cfg"]

_UNIT = r"(?:ns|us|\u00b5s|ms|s|sec|secs|seconds?)"  # \u00b5: µ, kept ASCII for nbval's reader

#: (name, regex, replacement), applied in this order: a timestamp's time of day before the
#: ``h:mm:ss`` duration that would eat it, tqdm's bracket before the plain durations inside it.
MASKS: tuple[tuple[str, str, str], ...] = (
    ("widget_refs", r"IPY_MODEL_[0-9a-f]{32}", "IPY_MODEL_WIDGET_ID"),
    ("widget_model_ids", r"""(\bmodel_id['"]?\s*[:=]\s*['"]?)[0-9a-f]{32}\b""", r"\1WIDGET_ID"),
    ("timestamps", r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?(?![\w:])", "TIMESTAMP"),
    ("tqdm_times", r"\[(?:\d+:)?\d{2}:\d{2}<[^,\]]*,\s*[^\]]*\]", "[ELAPSED<REMAINING, RATE]"),
    ("clock_durations", r"(?<!\d{4}-\d{2}-\d{2} )\b\d+:\d{2}:\d{2}(?:\.\d+)?\b", "DURATION"),
    ("durations", rf"(?<![\w.])\d+(?:\.\d+)? ?{_UNIT}(?![\w/])", "DURATION"),
)


def mask(text: str, masks: tuple[tuple[str, str, str], ...] = MASKS) -> str:
    """``text`` with every mask applied, as nbval applies them."""
    for _, regex, replacement in masks:
        text = re.sub(regex, replacement, text)
    return text


def sanitize_cfg(masks: tuple[tuple[str, str, str], ...] = MASKS) -> str:
    """The masks in nbval's sanitize file format (``--nbval-sanitize-with``), so nbval alone can use them too.

    >>> print(sanitize_cfg(MASKS[:1]), end="")
    [widget_refs]
    regex: IPY_MODEL_[0-9a-f]{32}
    replace: IPY_MODEL_WIDGET_ID
    <BLANKLINE>
    """
    return "".join(f"[{name}]\nregex: {regex}\nreplace: {replacement}\n\n" for name, regex, replacement in masks)
