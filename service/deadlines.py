"""Which decisions are open after an action, and when each one runs out. Pure functions.

A decision is ``(seat, kind)`` from ``GameState.deciders()``. Its deadline is kept while
the *same* decision stays open across actions, and a new one starts otherwise:

- diplomacy (EW-15): one window, one length — the remaining players keep their deadline
  when another answers;
- turn: one clock for the whole turn, special phase included (a spy does not restart it);
  a new turn number is a new decision;
- duel (EW-17): each card is its own decision — the player who just played gets a fresh
  deadline when it plays again (after the other stopped);
- setup by size: each placement is its own decision.

Durations come from the game's settings; ``None`` means no limit. While a game is paused
no deadline runs (``due_at`` None); on resume every open decision gets its full duration
again from that moment. One reminder goes out ``reminder_lead`` before a deadline, only
when the decision lasts more than twice the lead (no reminder for a 30-second window).
"""

from __future__ import annotations

from rules import pyramids

from .models import DecisionRecord, GameSettings

RESTARTING_KINDS = frozenset({"duel", "setup"})
"""Kinds where the acting player's continued decision is a new one."""


def timed(
    kind: str, seat: int, version: int, settings: GameSettings, now: float, paused: bool
) -> DecisionRecord:
    """A newly opened decision with its deadline and reminder."""
    duration = settings.duration(kind)
    if duration is None or paused:
        return DecisionRecord(seat, kind, version, duration, None, None)
    due = now + duration
    lead = settings.reminder_lead
    remind = due - lead if lead > 0 and duration > 2 * lead else None
    return DecisionRecord(seat, kind, version, duration, due, remind)


def decisions_after(
    old: dict[tuple[int, str], DecisionRecord],
    before: pyramids.GameState,
    after: pyramids.GameState,
    actor: int,
    version: int,
    settings: GameSettings,
    now: float,
    paused: bool,
) -> dict[tuple[int, str], DecisionRecord]:
    """The open decisions once ``actor``'s action took the game from ``before`` to
    ``after`` (now at ``version``)."""
    new: dict[tuple[int, str], DecisionRecord] = {}
    same_turn = before.turn == after.turn  # 0 all through setup
    for d in after.deciders():
        key = (d.seat, d.kind)
        prev = old.get(key)
        keep = (
            prev is not None and same_turn and not (d.seat == actor and d.kind in RESTARTING_KINDS)
        )
        new[key] = (
            prev
            if keep and prev is not None
            else timed(d.kind, d.seat, version, settings, now, paused)
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
    decisions: dict[tuple[int, str], DecisionRecord], settings: GameSettings, now: float
) -> dict[tuple[int, str], DecisionRecord]:
    """Every open decision with its full duration again from ``now`` (resume)."""
    return {
        k: timed(d.kind, d.seat, d.opened_version, settings, now, False)
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
