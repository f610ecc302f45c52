"""The ``workbench`` command: serve, token, tour, check, synth.

>>> build_parser().parse_args(["serve", "--port", "9000"]).port
9000
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="workbench", description="Workbench for the Avatar, Viewer and Space Template service.")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("serve", help="run the local reference service in the foreground")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8080)
    s.add_argument("--data-dir", default=".wb-data", help="where the database and files live (default .wb-data)")

    t = sub.add_parser("token", help="manage tokens of a local service's data folder")
    tsub = t.add_subparsers(dest="token_command", required=True)
    tc = tsub.add_parser("create", help="make a token and print it once")
    tc.add_argument("--scopes", default="avatar:write,viewer:write,space:write", help="comma list of scopes")
    tc.add_argument("--account", default="dev")
    tc.add_argument("--data-dir", default=".wb-data")

    r = sub.add_parser("tour", help="run every notebook headless against a local service and write an HTML report")
    r.add_argument("--out", default="tour", help="folder for the executed notebooks and index.html (default ./tour)")
    r.add_argument("--notebooks", default=None, help="folder of notebooks (default: the project's notebooks/)")
    r.add_argument("--timeout", type=int, default=600, help="seconds per cell")

    c = sub.add_parser("check", help="run the notebooks against a deployment and report which operations conform")
    c.add_argument("--base-url", required=True)
    c.add_argument("--avatar-base-url", required=True)
    c.add_argument("--token", default=os.environ.get("WORKBENCH_TOKEN"))
    c.add_argument("--out", default="check")
    c.add_argument("--notebooks", default=None)

    y = sub.add_parser("synth", help="write synthetic tracking events (JSON lines or Parquet)")
    y.add_argument("path", help="output file: .jsonl or .parquet")
    y.add_argument("--events", type=int, default=10_000)
    y.add_argument("--seed", type=int, default=0)
    y.add_argument("--viewers", type=int, default=5)
    y.add_argument("--days", type=int, default=7)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "serve":
        from workbench.service.server import serve

        serve(args.host, args.port, args.data_dir)
        return 0
    if args.command == "token":
        from workbench.service.backend import Backend

        b = Backend(args.data_dir, generate_library=False)
        if b.new_dev_token:
            print(f"new data folder: development token (shown once): {b.new_dev_token}")
        t = b.create_token({"account": args.account, "scopes": [s.strip() for s in args.scopes.split(",") if s.strip()]})
        print(t["token"])
        b.close()
        return 0
    if args.command == "tour":
        from workbench.tour import run_tour

        return run_tour(Path(args.out), notebooks=args.notebooks, timeout=args.timeout)
    if args.command == "check":
        from workbench.tour import run_check

        return run_check(Path(args.out), base_url=args.base_url, avatar_base_url=args.avatar_base_url,
                         token=args.token, notebooks=args.notebooks)
    if args.command == "synth":
        from workbench.tracking.synth import write_events

        path = write_events(args.path, args.events, seed=args.seed, viewers=args.viewers, days=args.days)
        print(f"wrote {args.events} events to {path}")
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
