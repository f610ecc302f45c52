"""``workbench.client`` hands on its names one by one (no star import), so a new error class or result must be
named there too: every public name of ``errors`` and ``results`` is handed on, as the same object."""

from __future__ import annotations


def test_the_client_package_hands_on_every_error_and_result():
    import workbench.client as client
    from workbench.client import errors, results

    for module in (errors, results):
        missing = [n for n in module.__all__ if n not in client.__all__]
        assert not missing, f"add {missing} to workbench/client/__init__.py"
        assert all(getattr(client, n) is getattr(module, n) for n in module.__all__)
    assert client.SendReport.__name__ == "SendReport"  # the lazy one
