"""The turn's events: what a board shows of the turn under way (its last-action box, its
arrows), whatever game is played.

A turn is the game's own (:attr:`rules.contract.State.turn`). An action belongs to the
turn it was taken in, so the action that ends a turn (and starts the next one) is told
with the turn it ends. The start of a game is a group of its own. The service keeps the
public events of the latest action's turn with the cached game and hands them to the
front ends with every outcome (:attr:`service.outcome.Outcome.board_events`), so the
board after any action of a turn, the last one included, shows the whole turn so far:
also when a front end shows only the newest of several boards (messages coalesced while
the channel is slow).

A game loaded from the store (a restart) does not know where its turn began:
:func:`replay_turn` finds it by playing the stored log again from the game's creation
record. A game reloaded after another process's write goes on from the position it had
(:func:`play_on`, the new actions only).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import rules
from rules import contract

from .models import ActionRecord

TurnEvents = tuple[int | None, tuple[rules.Event, ...]]
"""(the turn, or None for the start of the game; its public events so far, in order)."""


def public(events: Sequence[rules.Event]) -> tuple[rules.Event, ...]:
    """The events of ``events`` everyone may see, in order."""
    return tuple(e for e in events if e.to is None)


def extend(known: TurnEvents, turn: int, events: Sequence[rules.Event]) -> TurnEvents:
    """``known`` after an action taken in ``turn`` caused ``events``: added to them if the
    action is of the same turn, else the start of a new turn's events."""
    was, so_far = known
    return turn, (so_far if was == turn else ()) + public(events)


def play_on(
    game: contract.Game,
    state: contract.State,
    known: TurnEvents,
    records: Sequence[ActionRecord],
    snapshot: dict[str, Any],
) -> TurnEvents | None:
    """``known`` (the turn's events as of ``state``) after the stored ``records`` that
    follow ``state``, found by playing them on a copy of it; None if they do not lead to
    ``snapshot`` (the stored position): the game was played by another version of its
    rules, or the log is incomplete."""
    try:
        state = state.copy()
        for record in records:
            turn = state.turn
            state.apply(record.seat, game.action_from_dict(record.action))
            known = extend(known, turn, [rules.Event.from_dict(e) for e in record.events])
        if state.to_dict() != snapshot:
            return None
    except (rules.RulesError, KeyError, TypeError, ValueError):
        return None
    return known


def replay_turn(
    game: contract.Game,
    creation: dict[str, Any],
    start_events: Sequence[rules.Event],
    records: Sequence[ActionRecord],
    snapshot: dict[str, Any],
) -> TurnEvents | None:
    """The turn of the last of ``records`` (the game's whole stored log, in order) and
    its public events, found by playing the log again from ``creation`` (the record the
    game was started from); ``start_events`` are what the start announced. None as for
    :func:`play_on`."""
    try:
        state, _ = game.new_game(
            creation["powers"],
            int(creation["seed"]),
            game.options_from_dict(creation.get("options") or {}),
            bool(creation.get("arranged", False)),
        )
    except (rules.RulesError, KeyError, TypeError, ValueError):
        return None
    return play_on(game, state, (None, public(start_events)), records, snapshot)
