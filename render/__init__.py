"""Images of the games: a shared drawing kit, and each game's pictures in its own room.

The kit (used by every game's room):

- :mod:`render.text` and :mod:`render.fonts` — the shipped fonts, text that fits, cached
  glyph masks;
- :mod:`render.palette` — colour arithmetic, contrast, a side's piece colours and
  the side panel's interface colours;
- :mod:`render.encode` and :mod:`render.pngwrite` — palette-mode PNG encoding;
- :mod:`render.drawing`, :mod:`render.shapes` and :mod:`render.arrows` — polygons,
  strokes, dashes and curves, antialiased rounded boxes and dice, arrows between points.

The rooms: :mod:`render.pyramids` (European War and World War 5). Each registers its
:class:`~render.registry.GameImages` by the game's registry name; a front end asks
:func:`images_for` (``None``: the game has no images, show it in words). Importing
:mod:`render` registers the built-in games' images, as importing :mod:`rules`
registers their rules.

Every drawing function is thread-safe and fork-safe, and caches only save work: an
image's bytes depend on its inputs alone (see :mod:`render.pyramids`).
"""

from __future__ import annotations

from . import pyramids
from .registry import GameImages, drawn_games, images_for, register, unregister

__all__ = ["GameImages", "drawn_games", "images_for", "pyramids", "register", "unregister"]
