"""The first hour at the terminal: every mistake is one or two lines naming the problem and the fix,
with a non-zero status and no traceback; every option has help; ``workbench --version`` exists.
"""

from __future__ import annotations

import argparse

import pytest
from conftest import free_port
from helpers import cli_in_process

from workbench.cli import build_parser

MISTAKES = [
    # (arguments, words the message must hold)
    (("export", "--out", "{tmp}/lake", "--local-url", "http://127.0.0.1:{port}/_local"), ("cannot reach", "workbench serve")),
    (("synth", "{tmp}/events.csv"), (".jsonl or .parquet",)),
    (("synth", "{tmp}/e.jsonl", "--days", "0"), ("--days", "at least 1")),
    (("synth", "{tmp}/e.jsonl", "--events", "many"), ("--events", "whole number")),
    (("synth",), ("output file",)),
    (("token", "create", "--data-dir", "{tmp}/typo-data"), ("no service database", "--init")),
    (("serve", "--port", "99999"), ("--port", "65535")),
    (("serve", "--allowed-hosts", "http://x"), ("--allowed-hosts",)),
    (("analyze", "{tmp}/nothing-here"), ("nothing-here",)),
    (("check", "--base-url", "http://x"), ("--avatar-base-url",)),
    (("analyze", "{tmp}", "--steps", "viewer_loaded,cta_clikced"), ("cta_clikced", "did you mean cta_clicked")),
]


@pytest.mark.parametrize("args,words", MISTAKES, ids=[" ".join(a[:2]) + f"-{i}" for i, (a, _) in enumerate(MISTAKES)])
def test_each_mistake_is_one_or_two_lines_and_no_traceback(tmp_path, capsys, args, words):
    port = free_port()  # nothing listens there
    out = cli_in_process(capsys, *[a.format(tmp=tmp_path, port=port) for a in args])
    text = out.stderr.strip()
    assert out.returncode != 0, out
    assert "Traceback" not in out.stderr + out.stdout, out.stderr
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("usage:")
             and not line.startswith("       ")]
    assert 1 <= len(lines) <= 2, text
    for w in words:
        assert w in text, (w, text)


def test_version(capsys):
    out = cli_in_process(capsys, "--version")
    assert out.returncode == 0 and out.stdout.startswith("workbench ") and out.stdout.split()[1][0].isdigit()


def _parsers(parser: argparse.ArgumentParser, path=("workbench",)):
    yield path, parser
    for action in parser._actions:  # argparse has no public walk of its subcommands
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, path + (name,))


def test_every_option_has_help():
    missing = [f"{' '.join(path)} {'/'.join(a.option_strings) or a.dest}"
               for path, parser in _parsers(build_parser()) for a in parser._actions
               if not isinstance(a, argparse._SubParsersAction) and a.help in (None, "") and a.dest != "help"]
    assert not missing, "options without help: " + ", ".join(missing)


def test_a_misspelt_funnel_step_warns_in_python():
    import warnings

    import pandas as pd

    from workbench.tracking.analysis import funnel

    df = pd.DataFrame({"sessionId": ["s"], "key": ["viewer_loaded"], "timestamp": pd.to_datetime([0], utc=True)})
    with pytest.warns(UserWarning, match="'cta_clikced' is neither an event key nor in the data, so it counts 0; did you mean cta_clicked"):
        funnel(df, ["viewer_loaded", "cta_clikced"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        funnel(df, ["viewer_loaded", "cta_clicked"])  # a real key the data lacks: a real 0, no warning


@pytest.mark.parametrize("days", [1, 7])
def test_synth_days_writes_exactly_that_many_days(tmp_path, capsys, days):
    # By the command's main in this process: what is measured is the lake's days, not the process (test_cli.py
    # runs synth in its own interpreter); an interpreter importing the lake's writers is a second or more of CPU.
    out = cli_in_process(capsys, "synth", "--out", str(tmp_path / "lake"), "--events", "20000", "--days", str(days))
    assert out.returncode == 0, out.stderr
    folders = sorted(p.name for p in (tmp_path / "lake").iterdir() if p.name.startswith("date="))
    assert len(folders) == days and folders[0] == "date=2026-11-01", folders


def test_rank_names_a_wrong_key_or_field():
    import pandas as pd

    from workbench.tracking.analysis import rank

    df = pd.DataFrame({"sessionId": ["a"], "key": ["hotspot_opened"], "payload": [{"hotspotId": "h1"}]})
    with pytest.raises(ValueError, match="hotspot_opened has no payload field 'hotspotid'; its fields are hotspotId"):
        rank(df, "hotspot_opened", "hotspotid")
    with pytest.warns(UserWarning, match="'hotspot_openned' is neither an event key nor in the data"):
        rank(df, "hotspot_openned", "hotspotId")
    assert rank(df, "hotspot_opened", "hotspotId")["hotspotId"].tolist() == ["h1"]
