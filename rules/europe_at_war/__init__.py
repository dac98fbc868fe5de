"""Europe at War (EA-1 .. EA-36): 2-5 great powers of the Napoleonic wars on a map of
176 territories and 8 sea zones, with chit piles and a shared 228-card action deck.

The ruling book is ``RULES.md`` beside this file; the data files the rules read are
in ``data/`` (see :mod:`.data`).

The game registers itself with the contract's registry on import (:data:`GAME`).
"""

from ..contract import register
from .game import EaGame

GAME = register(EaGame())

__all__ = ["GAME", "EaGame"]
