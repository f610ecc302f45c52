"""The analytics explorer: a question asked of events by hand in a notebook (:func:`explore`).

:mod:`.data` holds the events and their slices, :mod:`.asking` the settings, the one call each
question makes and the code shown for it, :mod:`.ui` the ipywidgets controls.
"""

from .asking import QUESTIONS, Settings, call_of, code_for
from .ui import Explorer, explore

__all__ = ["explore", "Explorer", "Settings", "QUESTIONS", "call_of", "code_for"]
