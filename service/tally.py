"""Decisions answered by counts per type (a battle's casualties): a panel shows each type
with + and −, a running total and Confirm, starting at the game's suggestion; Confirm
takes the counted choices one after another, all or none. Made from the game's
presentation (``panel_decisions`` says ``counts``; ``tally`` groups the legal actions),
so nothing here knows any game.

A front end keeps the counts in its panel's components with the prompt's version, and
asks :meth:`TallyOps.counts_now` at each click (the types again, checked against the
game as it stands) and :meth:`TallyOps.act_counts` on Confirm.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.presentation import Tally

from .catalogue import _
from .core import NOT_PLAYING, OLD_BUTTON, ServiceBase, ServiceError, StalePrompt
from .live import LiveGame
from .outcome import Outcome


@dataclass(frozen=True, slots=True)
class Counts:
    """Where a player stands on a counts panel made at ``version``: the game's
    ``tally`` of the decision and the count chosen for each of its groups (in order)."""

    version: int
    tally: Tally
    counts: tuple[int, ...]

    @property
    def chosen(self) -> int:
        """How many are chosen in all."""
        return sum(self.counts)

    def actions(self) -> list[Any]:
        """The choices the counts stand for: the first ``n`` of each group's."""
        return [
            a for g, n in zip(self.tally.groups, self.counts, strict=True) for a in g.actions[:n]
        ]


def suggested(tally: Tally) -> tuple[int, ...]:
    """The counts a panel starts at: the game's suggestion."""
    return tuple(g.suggested for g in tally.groups)


def shortfall(counts: Counts) -> str | None:
    """Why ``counts`` cannot be confirmed (a total other than the one asked), or None."""
    total, noun = counts.tally.total, counts.tally.noun
    if counts.chosen != total:
        return _("{noun}: choose exactly {total}; you have chosen {chosen}.").format(
            noun=noun.capitalize(), total=total, chosen=counts.chosen
        )
    return None


class TallyOps(ServiceBase):
    """Counts panels of :class:`service.GameService`."""

    def _tally(self, live: LiveGame, user_id: int, version: int) -> tuple[int, Tally]:
        """The seat of ``user_id`` and the tally of its open decision, for a panel made
        at ``version``.

        Raises:
            ServiceError: the game is not running, the user has nothing to decide, or
                (:class:`StalePrompt`) the panel is out of date or not a counts panel.
        """
        if live.state is None or not live.running:
            raise ServiceError(_("This game is not running."))
        seat = live.seat_of(user_id)
        if seat is None:
            raise ServiceError(_(NOT_PLAYING))
        kinds = [d.kind for d in live.state.deciders() if d.seat == seat]
        if not kinds:
            raise ServiceError(_("You have nothing to decide now: it is someone else's move."))
        if not self._current(live, seat, version):
            raise StalePrompt(_(OLD_BUTTON))
        words = live.game.presentation
        view = live.views().of(seat)
        legal = live.state.legal_actions(seat)
        for kind in kinds:
            if words.panel_decisions().get(kind) == "counts":
                tally = words.tally(kind, legal, view, live.names())
                if tally is not None:
                    return seat, tally
        raise StalePrompt(_(OLD_BUTTON))

    async def counts_now(
        self, game_id: int, user_id: int, version: int, counts: Sequence[int] | None = None
    ) -> Counts:
        """Where ``user_id`` stands on a counts panel made at the game's ``version``, with
        ``counts`` per group (``None``: the game's suggestion). Changes nothing.

        Raises:
            ServiceError: the game is not running, the user has nothing to decide, or
                (:class:`StalePrompt`) the panel is out of date, or a count is out of
                its group's range.
        """
        live = await self._live(game_id, cache=False)
        _seat, tally = self._tally(live, user_id, version)
        return _counted(version, tally, counts)

    async def act_counts(
        self, game_id: int, user_id: int, version: int, counts: Sequence[int]
    ) -> Outcome:
        """Confirm a counts panel made at ``version``: the counted choices are taken one
        after another, as one outcome. Refused, with nothing changed, when the panel is
        out of date, the total is not the one asked, or the game refuses any of them."""

        async def body(live: LiveGame) -> Outcome:
            seat, tally = self._tally(live, user_id, version)
            counted = _counted(version, tally, counts)
            reason = shortfall(counted)
            if reason is not None:
                raise ServiceError(reason)
            actions = counted.actions()
            trial = live.state.copy() if live.state is not None else None
            assert trial is not None
            for action in actions:  # all or none: the game checks each in turn first
                trial.apply(seat, action)
            out: Outcome | None = None
            for n, action in enumerate(actions):  # each applied changes ``live`` in place
                step = await self._apply(
                    live,
                    seat,
                    action,
                    user_id=user_id,
                    source="player",
                    expect=version if n == 0 else None,
                )
                out = step if out is None else out.then(step)
            assert out is not None
            return out

        return await self._guarded(game_id, lambda: self._retrying(game_id, body))


def _counted(version: int, tally: Tally, counts: Sequence[int] | None) -> Counts:
    """``counts`` (None: the suggestion) on ``tally``, checked against each group's size.

    Raises:
        StalePrompt: not one count per group, or one out of its group's range.
    """
    chosen = suggested(tally) if counts is None else tuple(counts)
    if len(chosen) != len(tally.groups) or any(
        not 0 <= n <= len(g.actions) for g, n in zip(tally.groups, chosen, strict=True)
    ):
        raise StalePrompt(_(OLD_BUTTON))
    return Counts(version, tally, chosen)
