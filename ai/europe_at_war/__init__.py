"""Europe at War's computer players (see :mod:`.player`)."""

from .player import EaPlayer

__all__ = ["EaPlayer"]
