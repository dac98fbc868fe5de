"""Images of Europe at War: pure functions from a view (and the last events) to PNG
bytes, registered for the game (:data:`IMAGES`, :mod:`render.registry`).

- :func:`board_png` — the board as the channel sees it: the crop covering the last
  action's spaces (the full map when none does, or with no events), or any frame by
  name (``full`` or a crop of :data:`layout.REGIONS`, ``/map region:``).
- :func:`battle_png` — a battle: both stacks by unit type, the Force breakdown, the
  cards played, and its result.

The shapes come from Natural Earth, cut into the map's territories by
``tools/bake_europe_at_war.py`` (:mod:`.shapes`). Static layers (the label image, the
hatch masks, the names) are drawn once per process; the map of a position is the label
image with each seat's pattern set as palette indices, repainted from the frame's last
map where territories changed hands, turned to RGB by one palette lookup and cached for
the last few positions' owners (:mod:`.board`). Caches only save work: an image's bytes
depend on its inputs alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import rules
from render import registry
from render.encode import png_bytes

from .battle import battle_image
from .board import board_image, summary
from .catalogue import _
from .layout import REGION_IDS, REGIONS

NAME = "europe_at_war"
BOARD_LEVEL = 2
"""zlib level of board PNGs (boards are drawn after every action)."""
FRAMES = ("full", *REGION_IDS)
"""Every frame by name: the full map, then the nine crops."""


def board_png(
    view: Any, names: Sequence[str], events: Sequence[rules.Event] = (), key: str | None = None
) -> bytes:
    """The board image of ``view`` as PNG bytes: frame ``key`` (``full`` or a crop's
    id), or by default the crop covering the last action's public ``events``."""
    return png_bytes(board_image(view, names, events, key), level=BOARD_LEVEL)


def battle_png(
    view: Any,
    names: Sequence[str],
    result: rules.Event | None = None,
    events: Sequence[rules.Event] = (),
) -> bytes:
    """The battle under way in ``view`` (or the one ``result`` ended) as PNG bytes."""
    return png_bytes(battle_image(view, names, result, events))


def warm_up() -> None:
    """Build the full map's static layers, the seats' pattern masks and the battle's
    side cards now (about 0.25 s); the crops' layers are built when first drawn (about
    0.15 s each)."""
    from .battle import side_card
    from .colours import PATTERNS
    from .static import hatch, static

    static("full", False)
    for pattern in range(len(PATTERNS)):
        hatch(pattern)
    side_card()


class EaImages:
    """Europe at War's :class:`~render.registry.GameImages`: the board (a crop or the
    full map), the battle (the contest) and each frame by name (``map_<frame>``)."""

    extras: tuple[str, ...] = ("battle", *(f"map_{k}" for k in FRAMES))
    contest: str | None = "battle"

    def board(self, view: Any, names: Sequence[str], events: Sequence[rules.Event] = ()) -> bytes:
        """See :func:`board_png` (the crop covering the last action)."""
        return board_png(view, names, events)

    def board_text(self, view: Any, names: Sequence[str]) -> str:
        """The position in words: each player's territories, units and money."""
        return summary(view, names)

    def holding(self, view: Any) -> Any:
        """Nothing drawn: the hand is told in words (grouped by when it is played)."""
        return None

    def private(self, holding: Any, title: str = "") -> bytes | None:
        """No private image: see :meth:`holding`."""
        return None

    def private_text(self, holding: Any) -> str:
        """No private image."""
        return ""

    def extra(
        self,
        name: str,
        view: Any,
        names: Sequence[str],
        result: rules.Event | None = None,
        events: Sequence[rules.Event] = (),
    ) -> bytes:
        """The battle, or the frame ``map_<frame>``.

        Raises:
            KeyError: no such image.
        """
        if name == "battle":
            return battle_png(view, names, result, events)
        if name.startswith("map_") and name[4:] in FRAMES:
            return board_png(view, names, events, name[4:])
        raise KeyError(name)

    def extra_text(self, name: str) -> str:
        """The extra image's alt text."""
        if name == "battle":
            return _("The battle: both stacks, their Force and the cards played.")
        key = name[4:]
        if key == "full":
            return _("The whole map.")
        found = next((_(r.name) for r in REGIONS if r.id == key), key)
        return _("The map: {region}.").format(region=found)

    def warm_up(self) -> None:
        """See :func:`warm_up`."""
        warm_up()


IMAGES = EaImages()
registry.register(NAME, IMAGES)

__all__ = ["FRAMES", "IMAGES", "EaImages", "battle_png", "board_png", "warm_up"]
