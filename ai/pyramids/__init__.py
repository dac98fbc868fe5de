"""Computer players for European War and World War 5.

Pure and deterministic like the engine: a decision is a function of one seat's view,
the level, a seed and a search budget (plus an optional wall-clock deadline). Imports
only the standard library and :mod:`rules`.

    action = ai.pyramids.choose(pyramids.view_for(game, seat), "hard", seed=1234)
    advice = ai.pyramids.hint(pyramids.view_for(game, seat), seed=1234)  # action, why
"""

from ..players import register
from .api import DEFAULT_ITERATIONS, LEVELS, PyramidPlayer, choose, hint

for _name in ("european_war", "world_war_5"):
    _player = PyramidPlayer()
    register(_name, _player, _player)

__all__ = ["DEFAULT_ITERATIONS", "LEVELS", "PyramidPlayer", "choose", "hint"]
