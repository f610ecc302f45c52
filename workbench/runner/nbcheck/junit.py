"""JUnit XML for CI systems: one test case per group of notebook cells (the cells under one heading)
and one per operation of the interface, with each failure's message and, for a changed picture, the
path of its expected | actual | difference image.

Jenkins, GitLab, GitHub Actions' test reporters and Azure read this format: ``testsuites`` >
``testsuite`` (a notebook, or ``operations``) > ``testcase`` with ``failure`` or ``skipped``.

>>> xml = to_junit([Suite("01_avatars", [Case("Register a few avatars", 1.5)])])
>>> xml.splitlines()[1]
'<testsuites name="workbench" tests="1" failures="0" skipped="0" time="1.500">'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.etree import ElementTree as ET

__all__ = ["Case", "Suite", "to_junit"]


@dataclass
class Case:
    """One test case: ``failure`` (a message) or ``skipped`` (why), else it passed; ``output`` goes to system-out."""

    name: str
    seconds: float = 0.0
    failure: str | None = None
    skipped: str | None = None
    output: str = ""


@dataclass
class Suite:
    name: str
    cases: list[Case] = field(default_factory=list)


def to_junit(suites: list[Suite], name: str = "workbench") -> str:
    """The JUnit XML text of the suites (UTF-8, with its declaration)."""
    def counts(cases):
        return (len(cases), sum(c.failure is not None for c in cases), sum(c.skipped is not None for c in cases),
                sum(c.seconds for c in cases))

    all_cases = [c for s in suites for c in s.cases]
    tests, failures, skipped, seconds = counts(all_cases)
    root = ET.Element("testsuites", name=name, tests=str(tests), failures=str(failures), skipped=str(skipped),
                      time=f"{seconds:.3f}")
    for s in suites:
        t, f, k, sec = counts(s.cases)
        suite = ET.SubElement(root, "testsuite", name=s.name, tests=str(t), failures=str(f), errors="0",
                              skipped=str(k), time=f"{sec:.3f}")
        for c in s.cases:
            case = ET.SubElement(suite, "testcase", classname=s.name, name=c.name, time=f"{c.seconds:.3f}")
            if c.failure is not None:
                ET.SubElement(case, "failure", message=c.failure.splitlines()[0][:500] if c.failure else "failed",
                              type="failure").text = c.failure
            elif c.skipped is not None:
                ET.SubElement(case, "skipped", message=c.skipped)
            if c.output:
                ET.SubElement(case, "system-out").text = c.output
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
