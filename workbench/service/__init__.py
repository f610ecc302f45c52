"""The local reference service: backend state (``Backend`` and its parts, one per resource), Starlette handlers, and how to run it."""

from workbench.service.app import create_app
from workbench.service.backend import Backend
from workbench.service.server import LocalService, serve

__all__ = ["Backend", "create_app", "LocalService", "serve"]
