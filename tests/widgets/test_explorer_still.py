"""The preview explorer carries a still of its current image beside the live widget, so a saved or
converted notebook (and the tour's report) shows a picture instead of nothing."""

from __future__ import annotations


def test_the_explorer_mimebundle_has_the_widget_and_a_png(server):
    from workbench.widgets import PreviewExplorer

    with server.client() as c:
        mid = c.avatars.register({"gender": "feminine"}).model_id
        explorer = PreviewExplorer(c, mid, size=64, camera="full")
        bundle = explorer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["image/png"] == explorer.current.content and bundle["image/png"].startswith(b"\x89PNG")
