"""jsonschema's IRI check, its grammar built on the first IRI checked rather than in every pytest process.

nbval's plugin, loaded in every pytest process (xdist's controller and each worker), imports nbformat, which
imports jsonschema, which imports ``rfc3987_syntax`` where it is installed (JupyterLab's jupyter_events brings
it): a Lark Earley grammar built at import, 1.4 s of CPU in each process (of nbval's 1.9 s), for the ``iri``
format checks a test run never makes unless a schema asks for them. :func:`defer_iri_grammar`, called where
this package's pytest plugin is loaded (before nbval's, through pyproject's ``-p``), puts a stand-in of that
module in ``sys.modules`` whose ``is_valid_syntax`` imports the real one on its first call and answers as it
does; any other public name read from the stand-in loads it too. Nothing else is changed: a check of an IRI
is the real grammar's.

tests/runner/test_iri_deferred.py checks, in a new interpreter, that loading this plugin and nbval's builds no
grammar and that jsonschema's ``iri`` check still accepts an IRI and refuses what is not one.

>>> defer_iri_grammar()   # (under pytest the stand-in, or the real module, is in sys.modules already)
False
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types

IRI_MODULE = "rfc3987_syntax"


def _real() -> types.ModuleType:
    """The real module, imported in place of the stand-in (which is put back if the import fails)."""
    stand_in = sys.modules.get(IRI_MODULE)
    if stand_in is not None and getattr(stand_in, "_deferred", False):
        del sys.modules[IRI_MODULE]
    try:
        return importlib.import_module(IRI_MODULE)
    except BaseException:
        if stand_in is not None:
            sys.modules[IRI_MODULE] = stand_in
        raise


def _is_valid_syntax(term: str, value: str) -> bool:
    return bool(_real().is_valid_syntax(term, value))


def _module_getattr(name: str) -> object:
    if name.startswith("__"):   # (the import system asks for __path__ and the like: not a use of the module)
        raise AttributeError(name)
    return getattr(_real(), name)


def defer_iri_grammar() -> bool:
    """Put the stand-in in ``sys.modules``; True if it was put there (False where the module is loaded already
    or not installed)."""
    if IRI_MODULE in sys.modules or importlib.util.find_spec(IRI_MODULE) is None:
        return False
    stand_in = types.ModuleType(IRI_MODULE, "A stand-in: the real module is imported on the first IRI checked "
                                            "(workbench.runner.nbcheck.iri).")
    vars(stand_in).update(_deferred=True, is_valid_syntax=_is_valid_syntax, __getattr__=_module_getattr)
    sys.modules[IRI_MODULE] = stand_in
    return True
