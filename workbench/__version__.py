"""The package's version, in one place: ``pyproject.toml`` reads it (hatch's version source), and so
do ``workbench.__version__``, the client's User-Agent and the service's OpenAPI document.

>>> __version__.count(".")
2
"""

__version__ = "0.1.0"
