"""The service's logger, made in one place.

A library stays quiet unless the application configures logging (``workbench serve`` does); without
the null handler, a fault inside a local service would print its traceback into the notebook.

>>> log.name
'workbench.service'
"""

import logging

log = logging.getLogger("workbench.service")
log.addHandler(logging.NullHandler())
