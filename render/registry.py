"""The images of each game, by the game's registry name (:func:`rules.game_named`'s name).

A game with pictures registers a :class:`GameImages` under its name, the way its rules
register with :func:`rules.register` (the pyramid games do so when :mod:`render`
imports :mod:`render.pyramids`). A game without pictures registers nothing:
:func:`images_for` gives ``None`` and a front end shows it in words only.

Every method is a pure function of its arguments (views, names and events are
picklable, so a front end may call them in worker processes: every process that
imports :mod:`render` has the built-in games' images registered).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from rules import Event


class GameImages(Protocol):
    """What a game can draw: its board, a seat's private image, and any extra images."""

    @property
    def extras(self) -> tuple[str, ...]:
        """The names of the game's extra images (for example ``("duel",)``)."""
        ...

    @property
    def contest(self) -> str | None:
        """Which of :attr:`extras` shows the game's contest under way, or how one ended
        (:meth:`rules.presentation.Presentation.contest`), or ``None``: none does."""
        ...

    def board(self, view: Any, names: Sequence[str], events: Sequence[Event] = ()) -> bytes:
        """The board as the channel sees it, as PNG bytes.

        Args:
            view: any view of the game (a seat's or a spectator's): only its public
                parts are drawn, so every view of one position gives the same image.
            names: display names by seat.
            events: the events to show: a front end passes those of the turn so far
                (every action of the turn under way, oldest first); only public ones
                (``to is None``) may be drawn.
        """
        ...

    def board_text(self, view: Any, names: Sequence[str]) -> str:
        """The board in plain words (the image's alt text, at most 1024 characters)."""
        ...

    def holding(self, view: Any) -> Any:
        """What the seat of ``view`` holds privately, as JSON-able data, with whatever
        its image needs besides (the pyramid games: its card numbers and the seat's side,
        whose colour the image carries), or ``None`` (a spectator's view; nothing held).
        A front end may keep it and draw it later with :meth:`private`, also after an
        upgrade: :meth:`private` reads what older versions of the game's images gave."""
        ...

    def private(self, holding: Any, title: str = "") -> bytes | None:
        """The image of one seat's :meth:`holding` (its hand) as PNG bytes, or ``None``
        when the game shows it in words only. ``title`` goes above it, if drawn."""
        ...

    def private_text(self, holding: Any) -> str:
        """The private image in plain words (its alt text)."""
        ...

    def extra(
        self,
        name: str,
        view: Any,
        names: Sequence[str],
        result: Event | None = None,
        events: Sequence[Event] = (),
    ) -> bytes:
        """The extra image ``name`` (one of :attr:`extras`) as PNG bytes.

        Args:
            view: the spectator's view.
            names: display names by seat.
            result: the event that ended what the image shows, if it has ended (the
                pyramid duel: ``duel_over``).
            events: the events of the turn so far, as for :meth:`board`.

        Raises:
            KeyError: the game has no extra image of that name.
        """
        ...

    def extra_text(self, name: str) -> str:
        """The extra image in plain words (its alt text)."""
        ...

    def warm_up(self) -> None:
        """Build the per-process caches now (static layers, palettes, sprites, one
        sample board) instead of on the first image; optional."""
        ...


_IMAGES: dict[str, GameImages] = {}


def register(name: str, images: GameImages) -> GameImages:
    """Draw the game registered as ``name`` with ``images``; returns ``images``.

    Raises:
        ValueError: another :class:`GameImages` is already registered under ``name``.
    """
    if _IMAGES.get(name, images) is not images:
        raise ValueError(f"images for the game {name!r} are already registered")
    _IMAGES[name] = images
    return images


def unregister(name: str) -> None:
    """Forget the images of ``name`` (tests that register their own)."""
    _IMAGES.pop(name, None)


def images_for(name: str) -> GameImages | None:
    """The images of the game registered as ``name``; ``None``: it has none (words only)."""
    return _IMAGES.get(name)


def drawn_games() -> tuple[str, ...]:
    """The names of every game with images, in registration order."""
    return tuple(_IMAGES)
