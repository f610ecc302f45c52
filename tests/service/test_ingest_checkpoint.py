"""The tracking writer commits on the event loop, so WAL checkpoints run on a thread of their own
(``Database.checkpoint_in_background``): the WAL's pages reach the database file without a commit
copying them back, and the endpoint starts that thread."""

from __future__ import annotations

import json

from helpers import post_batches, wait_for

from workbench.service import Backend, create_app
from workbench.service.db import Database

HB = {"key": "heartbeat", "payload": {"visible": True}}


def test_background_checkpoints_copy_the_wal_back(tmp_path):
    db = Database(tmp_path / "t.db")
    main = tmp_path / "t.db"
    with db.transaction() as c:  # far under wal_autocheckpoint's 10,000 pages: no commit copies it back
        c.executemany("INSERT INTO accounts (id, created_at) VALUES (?, 0)", [(f"a{i:06d}" + "x" * 200,) for i in range(3000)])
    size = main.stat().st_size
    # nothing else checkpoints: this database has no checkpoint thread until one is asked for (a fact, not a
    # wait; other tests' databases in this process, as under xdist, may have theirs)
    assert db._checkpointer is None
    db.checkpoint_in_background(every=0.01)
    db.checkpoint_in_background(every=0.01)  # once per Database
    assert wait_for(lambda: main.stat().st_size > size + 500_000)
    assert db.one("SELECT count(*) AS n FROM accounts")["n"] == 3000
    db.close()


def test_the_tracking_endpoint_starts_the_checkpoints(tmp_path):
    b = Backend(tmp_path, generate_library=False)
    vt = b.create_viewer({"kind": "product"})["viewerToken"]
    app = create_app(b)
    assert b.db._checkpointer is None
    [answer] = post_batches(app, vt, [json.dumps({"sessionId": "s1", "events": [{**HB, "id": "a"}]})])
    assert answer.status_code == 200
    assert b.db._checkpointer is not None and b.db._checkpointer.is_alive()
    b.close()
    assert wait_for(lambda: not b.db._checkpointer.is_alive())
