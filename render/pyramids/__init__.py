"""Images of European War and World War 5: pure functions from a view (and the last
events) to PNG bytes, registered for both games (:data:`IMAGES`, :mod:`render.registry`).

- :func:`board_png` — the board as the channel sees it (1280x800): map, pieces, the
  last action, the side panel; drawn from public data only.
- :func:`board_summary` — the board in words (alt text for screen readers).
- :func:`hand_png` — a player's cards.
- :func:`duel_png` — a duel: both pieces, the cards played face up, totals, the result.
- :func:`warm_up` — build the per-process caches ahead of the first image (optional).

Every function is thread-safe and fork-safe (the bot calls them in worker processes, or
in threads): cached layers and sprites are only ever read, the one cache that changes
(the board panel's mapped parts, :mod:`render.pyramids.compose`) is bounded, locked and gets a
fresh lock in a forked child, and no module keeps a thread or a pool, so a process
forked at any time renders on its own. Caches only save work: an image's bytes depend
on its inputs alone, never on what the process drew before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import rules
from render import registry
from render.encode import DEFAULT_LEVEL, png_bytes
from render.pngwrite import write_rows
from rules import pyramids
from rules.pyramids.cards import card_name

from .board import summary, use_arcade
from .catalogue import _
from .compose import board_rows, static_rows
from .duel import duel_image
from .hand import hand_image
from .png_palette import board_palette, duel_palette, hand_palette

BAND_ROWS = 16
"""Boards are deflated in bands of this many rows, and a band seen before is not
deflated again (:mod:`render.pngwrite`): successive boards of a game share about half
of them, and 16 rows matched more than 32 (42%) and cost less than 8 (more flushes)."""

BOARD_LEVEL = 2
"""zlib level of board PNGs. Over the bands a board deflates anew (zlib-ng, 100 games
played at random), level 2 against 4: ~0.5 ms less CPU a board (3.0 against 3.5 ms in
all), and PNGs of 94 / 103 / 108 KB median / p90 / max against 90 / 98 / 103. Level 1
is faster still but makes boards of up to 135 KB. The bot deflates this level with
ISA-L (:mod:`bot.deflate`): ~0.4 ms less again, boards of 99 / 108 / 114 KB. Hands and
duels, small and drawn far less often, stay at :data:`render.encode.DEFAULT_LEVEL`."""

BOARD_MAX_BYTES = 120 * 1024
"""The most bytes a board's PNG may take: a larger one is deflated again at
:data:`render.encode.DEFAULT_LEVEL` (none was, of 5,400 boards of random playouts)."""


def board_png(
    view: pyramids.View,
    names: Sequence[str],
    events: Sequence[rules.Event] = (),
    *,
    pyramid_arcade: bool | None = None,
) -> bytes:
    """The board image of ``view`` as PNG bytes (1280x800, palette mode).

    Args:
        view: any view of the game (a seat's or a spectator's): only its public fields
            are drawn, so every seat's view gives the same image.
        names: display names by seat (cleaned of glyphs the font lacks; cut to fit).
        events: the events to show (a front end passes the turn's so far, oldest
            first); only public ones (``to is None``) are used: told in the last-action
            box, arrows for moves, voyages, attacks and retreats, marks on shrunk,
            destroyed, sabotaged and new pieces.
        pyramid_arcade: World War 5's Pyramid Arcade printing; ``None`` takes it from
            the view's options (ignored for a board without that printing).
    """
    arcade = use_arcade(view, pyramid_arcade)
    rows, (width, height) = board_rows(view, names, events, arcade)
    colours = board_palette(view.board_id, arcade).getpalette() or [0, 0, 0]
    png = write_rows(rows, width, height, colours, BOARD_LEVEL, band_rows=BAND_ROWS)
    if len(png) > BOARD_MAX_BYTES:
        png = write_rows(rows, width, height, colours, DEFAULT_LEVEL, band_rows=BAND_ROWS)
    return png


def board_summary(view: pyramids.View, names: Sequence[str]) -> str:
    """The board in plain words for screen readers (at most 1024 characters)."""
    return summary(view, names)


def hand_png(cards: Sequence[int], *, title: str = "", side: str | None = None) -> bytes:
    """A hand of cards as PNG bytes.

    Cards are shown in a fixed order: number cards by rank (2 to 10), then the figures
    J, Q, K, A, each rank by suit (♣ ♦ ♥ ♠) — i.e. by card number. An empty hand
    gives a small "no cards" image. ``title`` (optional) is written above the cards;
    ``side`` (the power holding them, optional) gives the image its colour.
    """
    return png_bytes(hand_image(cards, title=title, side=side), hand_palette())


def duel_png(
    view: pyramids.View,
    names: Sequence[str],
    result: rules.Event | None = None,
    *,
    events: Sequence[rules.Event] = (),
) -> bytes:
    """A duel as PNG bytes (1000x560).

    While a duel is on, it is drawn from ``view.battle``; once it is over, pass the
    ``duel_over`` event as ``result`` (its cards, totals and winner are drawn). The
    pieces' declared sizes come from ``view.battle``, else from an ``attack_declared``
    among ``events``, else from the pieces on the board.
    """
    return png_bytes(duel_image(view, names, result, events=events), duel_palette())


def warm_up(board_ids: Sequence[str] = ("european_war", "world_war_5")) -> None:
    """Build the cached static layers, sprites and palettes now (about a second per
    board) instead of on the first image; optional, e.g. in a worker process's
    initializer."""
    from .static_layer import static_board

    for board_id in board_ids:
        static_board(board_id)
        board_palette(board_id)
        static_rows(board_id, False)
    hand_palette()
    duel_palette()


class PyramidImages:
    """The pyramid games' :class:`~render.registry.GameImages`: the board, the hand of
    cards (private) and the duel (extra)."""

    extras: tuple[str, ...] = ("duel",)
    contest: str | None = "duel"
    """A declared attack's diplomacy window and duel, and the duel's result."""

    def __init__(self, game: str) -> None:
        self.game = game

    def board(self, view: Any, names: Sequence[str], events: Sequence[rules.Event] = ()) -> bytes:
        """See :func:`board_png`."""
        return board_png(view, names, events)

    def board_text(self, view: Any, names: Sequence[str]) -> str:
        """See :func:`board_summary`."""
        return board_summary(view, names)

    def holding(self, view: Any) -> Any:
        """The seat's card numbers, sorted, and its side, whose colour the hand's image
        carries: ``{"cards": [...], "side": power}`` (``None`` for a spectator)."""
        hand = getattr(view, "hand", None)
        if hand is None:
            return None
        seat = view.viewer
        side = view.seats[seat].power if seat is not None and 0 <= seat < len(view.seats) else None
        return {"cards": sorted(hand), "side": side}

    def private(self, holding: Any, title: str = "") -> bytes | None:
        """See :func:`hand_png` (a holding kept by an older version, a plain list of card
        numbers, is drawn without a side's colour)."""
        cards, side = _held(holding)
        return hand_png(cards, title=title, side=side)

    def private_text(self, holding: Any) -> str:
        """The cards by name, lowest first."""
        cards, _side = _held(holding)
        if not cards:
            return _("Your cards: none")
        return _("Your cards: {cards}").format(cards=", ".join(card_name(c) for c in sorted(cards)))

    def extra(
        self,
        name: str,
        view: Any,
        names: Sequence[str],
        result: rules.Event | None = None,
        events: Sequence[rules.Event] = (),
    ) -> bytes:
        """The duel (see :func:`duel_png`).

        Raises:
            KeyError: ``name`` is not ``"duel"``.
        """
        if name != "duel":
            raise KeyError(name)
        return duel_png(view, names, result, events=events)

    def extra_text(self, name: str) -> str:
        """The duel's alt text."""
        if name != "duel":
            raise KeyError(name)
        return _("The duel: cards played face up and totals.")

    def warm_up(self) -> None:
        """Build this board's caches, then draw one board so text and piece caches are
        warm too."""
        game, _events = pyramids.new_game(self.game, [None] * 3, seed=1)
        warm_up((game.board.id,))
        board_png(pyramids.view_for(game, None), ["P0", "P1", "P2"])


def _held(holding: Any) -> tuple[list[int], str | None]:
    """The cards and side of a holding (:meth:`PyramidImages.holding`, or the plain list
    of card numbers that older versions kept)."""
    if isinstance(holding, dict):
        return list(holding.get("cards") or ()), holding.get("side")
    return list(holding or ()), None


IMAGES: dict[str, PyramidImages] = {
    name: PyramidImages(name) for name in ("european_war", "world_war_5")
}
"""The images of each pyramid game, by registry name (both registered on import)."""
for _name, _images in IMAGES.items():
    registry.register(_name, _images)

__all__ = [
    "IMAGES",
    "PyramidImages",
    "board_png",
    "board_summary",
    "duel_png",
    "hand_png",
    "warm_up",
]
