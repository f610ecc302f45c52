"""A wait on the service over two seconds shows a bar saying what is asked (workbench.progress), and a
quick answer shows nothing: the service is made slow by its own fault injection (a 503 with
``Retry-After: 2.5`` before the answer, docs/local-service.md), as a busy deployment would be.

Outside Jupyter the bar is tqdm's text on stderr, which the tests read; in a notebook it is a widget.
"""

from __future__ import annotations

import asyncio

import workbench


def test_a_slow_answer_shows_a_bar_saying_what_it_waits_for(server, model_id, capsys):
    with server.client() as client:
        client.local.fault("avatars.model", count=1, status=503, retry_after=2.5)
        model = client.avatars.model(model_id, lod=2)
    err = capsys.readouterr().err
    assert model.content[:4] == b"glTF"
    assert f"Waiting for GET {server.avatar_base_url}/model/{model_id}.glb" in err, err
    assert "trying again in 2.5 s" in err, err


def test_the_async_client_shows_it_too(server, model_id, capsys):
    async def main():
        async with workbench.AsyncClient(server.base_url, server.avatar_base_url, server.token,
                                         local_url=server.local_url) as client:
            await client.local.fault("avatars.preview", count=1, status=503, retry_after=2.5)
            return await client.avatars.preview(model_id, size=64)

    preview = asyncio.run(main())
    err = capsys.readouterr().err
    assert preview.content[:4] == b"\x89PNG"
    assert f"Waiting for GET {server.avatar_base_url}/preview/{model_id}.png" in err, err


def test_a_quick_answer_shows_no_bar(server, capsys):
    with server.client() as client:
        client.animations.list()
    assert capsys.readouterr().err == ""
