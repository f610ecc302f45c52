"""A pytest plugin for this repository's own test runs only (pyproject's addopts ``-p``; not an entry point, so a
pytest run of another project where the workbench is installed never loads it): before nbval's plugin (an entry
point, loaded after the ``-p`` plugins) imports jsonschema, jsonschema's IRI grammar is deferred to the first IRI
checked (:func:`workbench.runner.nbcheck.iri.defer_iri_grammar`: 1.4 s of CPU in each pytest process otherwise,
docs/testing.md).

>>> import sys
>>> import workbench.runner.nbcheck.iri_plugin
>>> module = sys.modules.get("rfc3987_syntax")   # the stand-in, the real module, or none where not installed
>>> module is None or callable(module.is_valid_syntax)
True
"""

from workbench.runner.nbcheck.iri import defer_iri_grammar

defer_iri_grammar()
