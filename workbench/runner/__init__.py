"""Running notebooks: ``workbench tour`` and ``workbench check`` and what they stand on.

``tour`` runs a folder of notebooks (against a local service each, or a deployment) and writes the
report (``index.html``, ``junit.xml``); ``execute`` runs one notebook cell by cell with timeouts and
keeps every output; ``kernels`` starts Jupyter kernels on Unix sockets; ``probe`` asks a deployment,
before any notebook runs, whether it is usable at all. The notebooks' picture checks under pytest
live in :mod:`workbench.runner.nbcheck`.
"""
