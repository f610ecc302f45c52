"""jsonschema's IRI grammar is built on the first IRI checked, not in every pytest process
(workbench.runner.nbcheck.iri: 1.4 s of CPU a process; docs/testing.md)."""

import importlib.util
import subprocess
import sys

import pytest

# A new interpreter loads this repository's IRI plugin, then nbval's (as pytest does: pyproject's -p first, then
# the entry points), asks importlib where the module is (a tool's question, not a use), then checks an IRI and a
# string that is not one through jsonschema's format checker.
SCRIPT = """
import importlib.util, sys
import workbench.runner.nbcheck.iri_plugin, nbval.plugin, jsonschema
built_at_load = "rfc3987_syntax.syntax_helpers" in sys.modules
found = importlib.util.find_spec("rfc3987_syntax") is not None
checker = jsonschema.FormatChecker()
print(built_at_load, found, checker.conforms("http://example.org/caf\\u00e9?q=1#top", "iri"),
      checker.conforms("no scheme here", "iri"), "rfc3987_syntax.syntax_helpers" in sys.modules)
"""


@pytest.mark.skipif(importlib.util.find_spec("rfc3987_syntax") is None, reason="rfc3987_syntax is not installed here")
def test_loading_the_plugins_builds_no_iri_grammar_and_the_iri_check_still_works():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    # not built when nbval's plugin loaded; found by importlib; an IRI accepted, a non-IRI refused, by the real
    # grammar built then
    assert done.stdout.split() == ["False", "True", "True", "False", "True"], done.stdout
