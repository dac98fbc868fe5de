"""Which decisions are open after an action, and when each one runs out. Pure functions.

A decision is ``(seat, kind)`` from the game's ``deciders()``. Its deadline is kept while
the *same* decision stays open across actions, and a new one starts otherwise:

- in an out-of-turn window every seat keeps its deadline when another answers (one
  window, one length);
- a decision stays the same while the game's turn number stays (a turn's first steps
  do not restart its clock); a new turn is a new decision;
- a kind that ``restarts`` (the game's :class:`~rules.contract.Timing`) is a new
  decision each time the seat that holds it acts (a duel's cards, placements one by one).

Durations come from the game's timings and the table's settings; ``None`` means no
limit. While a game is paused no deadline runs (``due_at`` None); on resume every open
decision gets its full duration again from that moment. One reminder goes out
``reminder_lead`` before a deadline, only when the decision lasts more than twice the
lead (no reminder for a 30-second window).
"""

from __future__ import annotations

from collections.abc import Mapping

from rules import contract

from .models import LOBBY_SEAT, DecisionRecord, GameSettings


def timing_of(timings: Mapping[str, contract.Timing], kind: str) -> contract.Timing:
    """How a decision of ``kind`` is timed in a game with ``timings``."""
    return timings.get(kind, contract.TURN_TIME)


def duration_of(
    kind: str, seat: int, settings: GameSettings, timings: Mapping[str, contract.Timing]
) -> float | None:
    """The time allowed for ``seat``'s decision of ``kind`` (a lobby's expiry at its
    own seat); ``None``: unlimited."""
    if seat == LOBBY_SEAT:
        return settings.lobby_expiry
    return settings.duration(timing_of(timings, kind))


def timed(
    kind: str,
    seat: int,
    version: int,
    settings: GameSettings,
    now: float,
    paused: bool,
    timings: Mapping[str, contract.Timing],
) -> DecisionRecord:
    """A newly opened decision with its deadline and reminder."""
    duration = duration_of(kind, seat, settings, timings)
    if duration is None or paused:
        return DecisionRecord(seat, kind, version, duration, None, None)
    due = now + duration
    lead = settings.reminder_lead
    remind = due - lead if lead > 0 and duration > 2 * lead else None
    return DecisionRecord(seat, kind, version, duration, due, remind)


def decisions_after(
    old: dict[tuple[int, str], DecisionRecord],
    before: contract.State,
    after: contract.State,
    actor: int,
    version: int,
    settings: GameSettings,
    now: float,
    paused: bool,
    timings: Mapping[str, contract.Timing],
) -> dict[tuple[int, str], DecisionRecord]:
    """The open decisions once ``actor``'s action took the game from ``before`` to
    ``after`` (now at ``version``) in a game timed by ``timings``."""
    new: dict[tuple[int, str], DecisionRecord] = {}
    same_turn = before.turn == after.turn
    for d in after.deciders():
        key = (d.seat, d.kind)
        prev = old.get(key)
        restarts = d.seat == actor and timing_of(timings, d.kind).restarts
        new[key] = (
            prev
            if prev is not None and same_turn and not restarts
            else timed(d.kind, d.seat, version, settings, now, paused, timings)
        )
    return new


def diff(
    old: dict[tuple[int, str], DecisionRecord],
    new: dict[tuple[int, str], DecisionRecord],
) -> tuple[list[tuple[int, str]], list[DecisionRecord]]:
    """Keys to delete and rows to write to turn ``old`` into ``new``."""
    removed = [k for k in old if k not in new]
    upserted = [d for k, d in new.items() if old.get(k) != d]
    return removed, upserted


def restarted(
    decisions: dict[tuple[int, str], DecisionRecord],
    settings: GameSettings,
    now: float,
    timings: Mapping[str, contract.Timing],
) -> dict[tuple[int, str], DecisionRecord]:
    """Every open decision with its full duration again from ``now`` (resume)."""
    return {
        k: timed(d.kind, d.seat, d.opened_version, settings, now, False, timings)
        for k, d in decisions.items()
    }


def stopped(
    decisions: dict[tuple[int, str], DecisionRecord],
) -> dict[tuple[int, str], DecisionRecord]:
    """Every open decision with its clock stopped (pause)."""
    return {
        k: DecisionRecord(d.seat, d.kind, d.opened_version, d.duration, None, None)
        for k, d in decisions.items()
    }
