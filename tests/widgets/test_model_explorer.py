"""The model explorer starts where the interface's defaults are (LOD 0, default textures, no atlas), every
menu names its choice (none shows blank), and choosing a default again asks for the default again."""

from __future__ import annotations

from workbench.options import ModelOptions


def test_the_menus_start_at_the_defaults_by_name_and_come_back_to_them(server, model_id):
    from workbench.widgets import ModelExplorer

    with server.client() as c:
        explorer = ModelExplorer(c, model_id)
        menus = {w.description: (w.label, w.index) for w in (explorer.texture_format, explorer.atlas, explorer.animations)}
        assert menus == {"textures": ("default", 0), "atlas": ("none", 0), "animations": ("none", 0)}, menus
        assert explorer.lod.value == ModelOptions().lod == 0 and explorer.lod.label == "0"
        plain = c.avatars.model(model_id).inspect()
        assert explorer.current.triangles == plain.triangles  # what it shows is the default download: LOD 0

        explorer.texture_format.value, explorer.atlas.value = "png", 256
        assert set(explorer.current.textures["mimeType"]) == {"image/png"}
        assert set(explorer.current.textures["width"]) == {256}
        explorer.texture_format.index, explorer.atlas.index = 0, 0  # a person picking "default" and "none" again
        assert (explorer.texture_format.label, explorer.atlas.label) == ("default", "none")
        assert explorer.request() == {"lod": 0, "animations": "none", "texture_format": None, "merge_mesh": False,
                                      "texture_atlas_size": None}
        assert explorer.current.byte_length == plain.byte_length
