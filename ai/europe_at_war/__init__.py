"""Europe at War's computer players (see :mod:`.player`), registered on import."""

from ..players import register
from .player import EaPlayer

register("europe_at_war", EaPlayer())

__all__ = ["EaPlayer"]
