"""Computer players for European War and World War 5.

Pure and deterministic like the engine: a decision is a function of one seat's view,
the level, a seed and a search budget (plus an optional wall-clock deadline). Imports
only the standard library and :mod:`rules`.

    action = ai.pyramids.choose(pyramids.view_for(game, seat), "hard", seed=1234)
"""

from ..players import register
from .api import DEFAULT_ITERATIONS, LEVELS, PyramidPlayer, choose

for _name in ("european_war", "world_war_5"):
    register(_name, PyramidPlayer())

__all__ = ["DEFAULT_ITERATIONS", "LEVELS", "PyramidPlayer", "choose"]
