"""jsonschema's IRI grammar is built on the first IRI checked, not in every pytest process
(workbench.runner.nbcheck.iri: 1.4 s of CPU a process; docs/testing.md)."""

import subprocess
import sys

# A new interpreter loads this package's pytest plugin, then nbval's (as pytest does: pyproject's -p first, then
# the entry points), then checks an IRI and a string that is not one through jsonschema's format checker.
SCRIPT = """
import sys
import workbench.runner.nbcheck.pytest_plugin, nbval.plugin, jsonschema
built_at_load = "rfc3987_syntax.syntax_helpers" in sys.modules
checker = jsonschema.FormatChecker()
print(built_at_load, checker.conforms("http://example.org/caf\\u00e9?q=1#top", "iri"),
      checker.conforms("no scheme here", "iri"), "rfc3987_syntax.syntax_helpers" in sys.modules)
"""


def test_loading_the_plugins_builds_no_iri_grammar_and_the_iri_check_still_works():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    # not built when nbval's plugin loaded; an IRI accepted, a non-IRI refused, by the real grammar built then
    assert done.stdout.split() == ["False", "True", "False", "True"], done.stdout
