"""The JSON API: the same engine and store as the pages. Errors are ``{"error": "..."}`` with a 4xx.
One blueprint in parts: ``base`` (the one write, the refusals mapped to status codes), ``games``,
``nights`` and ``players``."""

from . import games, nights, players  # noqa: F401 (their routes, on the one blueprint)
from .base import bp

__all__ = ["bp"]
