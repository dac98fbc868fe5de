"""Decisions answered by counts per type (a battle's casualties, chits to buy, units to
disband, RP to leave in cities): a panel shows each type with + and − (or a toggle), a
running total against the game's bound, a place where the choices go when the game
names places, and Confirm, starting at the game's suggestion; Confirm takes the counted
choices one after another, and then the game's finishing action, all or none. Made from
the game's presentation (``panel_decisions`` says ``counts``; ``tally`` groups the legal
actions), so nothing here knows any game.

A front end keeps the counts in its panel's components with the prompt's version, and
asks :meth:`TallyOps.counts_now` at each click (the types again, checked against the
game as it stands) and :meth:`TallyOps.act_counts` on Confirm.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.errors import RulesError
from rules.presentation import Tally

from .catalogue import _
from .core import NOT_PLAYING, OLD_BUTTON, ServiceBase, ServiceError, StalePrompt
from .live import LiveGame
from .outcome import Outcome


@dataclass(frozen=True, slots=True)
class Counts:
    """Where a player stands on a counts panel made at ``version``: the game's
    ``tally`` of the decision, the count chosen for each of its groups (in order) and
    the place chosen (an index into the tally's places; 0 when it has none)."""

    version: int
    tally: Tally
    counts: tuple[int, ...]
    place: int = 0

    @property
    def chosen(self) -> int:
        """The running total: each group's count times its cost."""
        return sum(g.cost * n for g, n in zip(self.tally.groups, self.counts, strict=True))

    def limit(self, group: int) -> int:
        """The most group ``group`` may count at the chosen place."""
        return len(self.tally.groups[group].at(self.place))

    def actions(self) -> list[Any]:
        """The choices the counts stand for (at the chosen place)."""
        return [
            a
            for g, n in zip(self.tally.groups, self.counts, strict=True)
            for a in g.taken(n, self.place)
        ]


def upper_first(text: str) -> str:
    """``text`` with its first letter a capital (the rest kept: "RP" stays "RP")."""
    return text[:1].upper() + text[1:]


def suggested(tally: Tally) -> tuple[int, ...]:
    """The counts a panel starts at: the game's suggestion."""
    return tuple(g.suggested for g in tally.groups)


def opening(version: int, tally: Tally) -> Counts:
    """A counts panel made at ``version`` as it opens: at the game's suggestion and
    place, each count kept within what its group offers there."""
    counts = tuple(min(g.suggested, len(g.at(tally.place))) for g in tally.groups)
    return Counts(version, tally, counts, tally.place)


def shortfall(counts: Counts) -> str | None:
    """Why ``counts`` cannot be confirmed (a total the tally's bound refuses), or None."""
    tally = counts.tally
    total, noun, chosen = tally.total, upper_first(tally.noun), counts.chosen
    if tally.bound == "at most" and chosen > total:
        return _("{noun}: no more than {total}; you have chosen {chosen}.").format(
            noun=noun, total=total, chosen=chosen
        )
    if tally.bound == "at least" and chosen < total:
        return _("{noun}: at least {total}; you have chosen {chosen}.").format(
            noun=noun, total=total, chosen=chosen
        )
    if tally.bound == "exactly" and chosen != total:
        return _("{noun}: choose exactly {total}; you have chosen {chosen}.").format(
            noun=noun, total=total, chosen=chosen
        )
    return None


class TallyOps(ServiceBase):
    """Counts panels of :class:`service.GameService`."""

    def _tally(self, live: LiveGame, user_id: int, version: int) -> tuple[int, Tally]:
        """The seat of ``user_id`` and the tally of its open decision, for a panel made
        at ``version`` (see :func:`tally_of`).

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
        tally = tally_of(live, live.state, seat, live.views().of(seat))
        if tally is None:
            raise StalePrompt(_(OLD_BUTTON))
        return seat, tally

    async def counts_now(
        self,
        game_id: int,
        user_id: int,
        version: int,
        counts: Sequence[int] | None = None,
        place: int | None = None,
        *,
        fit: bool = False,
    ) -> Counts:
        """Where ``user_id`` stands on a counts panel made at the game's ``version``, with
        ``counts`` per group (``None``: the game's suggestion) and ``place`` (``None``:
        the game's); with ``fit``, a count more than its group offers at ``place`` is
        lowered to what it offers (the place was just changed). Changes nothing.

        Raises:
            ServiceError: the game is not running, the user has nothing to decide, or
                (:class:`StalePrompt`) the panel is out of date, or a count or the place
                is out of its range.
        """
        live = await self._live(game_id, cache=False)
        _seat, tally = self._tally(live, user_id, version)
        if fit and counts is not None and place is not None and 0 <= place < len(tally.places):
            counts = [min(n, len(g.at(place))) for g, n in zip(tally.groups, counts, strict=False)]
        return _counted(version, tally, counts, place)

    async def act_counts(
        self,
        game_id: int,
        user_id: int,
        version: int,
        counts: Sequence[int],
        place: int | None = None,
        *,
        finish: bool = True,
    ) -> Outcome:
        """Confirm a counts panel made at ``version``: the counted choices are taken one
        after another, then (with ``finish``) the tally's finishing action unless they
        opened new choices, as one outcome. Refused, with nothing changed, when the panel
        is out of date, the total breaks the tally's bound, nothing would be done, or the
        game refuses any of them (its own reason)."""

        async def body(live: LiveGame) -> Outcome:
            seat, tally = self._tally(live, user_id, version)
            counted = _counted(version, tally, counts, place)
            reason = shortfall(counted)
            if reason is not None:
                raise ServiceError(reason)
            actions = counted.actions()
            trial = live.state.copy() if live.state is not None else None
            assert trial is not None
            try:  # all or none: the game checks each in turn first
                for action in actions:
                    trial.apply(seat, action)
                if finish and tally.finish is not None and _unopened(live, tally, trial, seat):
                    trial.apply(seat, tally.finish)
                    actions.append(tally.finish)
            except RulesError as exc:
                raise ServiceError(str(exc)) from None
            if not actions:
                raise ServiceError(_("Nothing is chosen: count something first."))
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


def _counted(
    version: int, tally: Tally, counts: Sequence[int] | None, place: int | None = None
) -> Counts:
    """``counts`` (None: the suggestion) at ``place`` (None: the game's) on ``tally``,
    checked against each group's size there.

    Raises:
        StalePrompt: not one count per group, one out of its group's range, or a place
            the tally lacks.
    """
    if counts is None:
        begun = opening(version, tally)
        counts, place = begun.counts, begun.place if place is None else place
    at = tally.place if place is None else place
    if tally.places and not 0 <= at < len(tally.places):
        raise StalePrompt(_(OLD_BUTTON))
    chosen = tuple(counts)
    if len(chosen) != len(tally.groups) or any(
        not 0 <= n <= len(g.at(at)) for g, n in zip(tally.groups, chosen, strict=True)
    ):
        raise StalePrompt(_(OLD_BUTTON))
    return Counts(version, tally, chosen, at)


def tally_of(live: LiveGame, state: Any, seat: int, view: Any) -> Tally | None:
    """The tally of ``seat``'s open decision answered by counts on ``state`` (seen as
    ``view``), or None when it has none."""
    words = live.game.presentation
    kinds = [d.kind for d in state.deciders() if d.seat == seat]
    legal = state.legal_actions(seat) if kinds else []
    for kind in kinds:
        if words.panel_decisions().get(kind) == "counts":
            tally = words.tally(kind, legal, view, live.names())
            if tally is not None:
                return tally
    return None


def _unopened(live: LiveGame, tally: Tally, trial: Any, seat: int) -> bool:
    """True when ``seat`` still answers ``tally``'s decision by counts on ``trial`` and
    the counted choices opened none it did not offer (a bonus draw of chits would): its
    finishing action is then due."""
    after = tally_of(live, trial, seat, trial.view_for(seat))
    if after is None:
        return False
    offered = [a for g in tally.groups for p in range(max(1, len(tally.places))) for a in g.at(p)]
    return all(
        a in offered
        for g in after.groups
        for p in range(max(1, len(after.places)))
        for a in g.at(p)
    )
