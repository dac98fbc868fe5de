"""A European War game's log with its hidden cards dealt again: the same actions, the
same public events, other cards in the hands (the replay and record tests compare what
the two logs show)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rules
from rules import contract, pyramids
from rules.chance import CHANCE
from rules.pyramids.cards import is_figure
from service.models import ActionRecord, GameRecord


@dataclass
class Played:
    """A stored game played again from its log: what every seat held at each step, and
    which cards were ever seen by all."""

    hands: list[list[tuple[int, ...]]] = field(default_factory=list)
    """Per step (the start, then each action), each seat's hand, sorted."""
    public: set[int] = field(default_factory=set)
    """Cards that were ever face up: the discard pile, a duel's cards, a public event."""
    events: list[list[dict[str, Any]]] = field(default_factory=list)
    """Each action's events, as stored."""
    state: dict[str, Any] = field(default_factory=dict)
    """The final position, as stored."""

    def held(self) -> set[int]:
        """Every card some hand ever held."""
        return {c for step in self.hands for hand in step for c in hand}


def _cards_in(data: Any) -> set[int]:
    """Card numbers in an event's ``card`` and ``cards`` fields (nested ones too)."""
    out: set[int] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "card" and isinstance(value, int):
                out.add(value)
            elif key == "cards" and isinstance(value, list):
                out |= {c for c in value if isinstance(c, int)}
            else:
                out |= _cards_in(value)
    elif isinstance(data, list):
        for item in data:
            out |= _cards_in(item)
    return out


def play(rec: GameRecord, records: Sequence[ActionRecord], deck: list[int] | None = None) -> Played:
    """Play ``rec`` again from its creation and the actions of ``records``, each with its
    recorded chance, but the deck's first shuffle coming out as ``deck`` if given."""
    assert rec.creation is not None
    game: contract.Game = contract.game_named(rec.variant)
    c = rec.creation
    state, start = game.new_game(
        c["powers"], int(c["seed"]), game.options_from_dict(c["options"]), c["arranged"]
    )
    table = state  # the same game, seen as the pyramid game it is (its hands)
    assert isinstance(table, pyramids.GameState)
    out = Played()

    def look(events: Sequence[rules.Event]) -> None:
        out.hands.append([tuple(sorted(h)) for h in table.hands])
        view = table.view_for(None)
        out.public |= set(view.discard)
        if view.battle is not None:
            out.public |= {*view.battle.attacker_cards, *view.battle.defender_cards}
        for e in events:
            if e.public:
                out.public |= _cards_in(e.data)

    look(start)
    for r in records:
        chance = []
        for e in r.events:
            if e["kind"] == CHANCE and e["to"] == rules.HIDDEN:
                first_deck = e["data"]["what"] == "deck" and deck is not None
                chance.append(list(deck or ()) if first_deck else e["data"]["outcome"])
        state.force_chance(chance)
        events = state.apply(r.seat, game.action_from_dict(r.action))
        out.events.append([e.to_dict() for e in events])
        look(events)
    out.state = json.loads(json.dumps(state.to_dict()))
    return out


def deck_order(records: Sequence[ActionRecord]) -> list[int]:
    """The order the deck was first shuffled into."""
    for r in records:
        for e in r.events:
            if e["kind"] == CHANCE and e["data"]["what"] == "deck":
                return list(e["data"]["outcome"])
    raise AssertionError("the deck was never shuffled")


def redealt_deck(order: list[int], public: set[int]) -> list[int]:
    """``order`` with the number cards that were never face up moved round by one place
    among themselves. Figures stay: a figure power spends the lowest card of its rank in
    the hand, so another J in a hand could change which one is spent."""
    hidden = [i for i, c in enumerate(order) if c not in public and not is_figure(c)]
    assert len(hidden) >= 2, "too few hidden cards to deal again"
    out = list(order)
    for i, j in zip(hidden, hidden[1:] + hidden[:1], strict=True):
        out[j] = order[i]
    return out


def rewrite(path: Path, game_id: int, played: Played) -> None:
    """Store ``played``'s events and final position as game ``game_id``'s in the SQLite
    file ``path`` (its log keeps its actions, times and seats; the log's guard against
    changes is lifted for the rewrite, then put back)."""
    conn = sqlite3.connect(path)
    try:
        [(guard,)] = conn.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'actions_append_only_update'"
        ).fetchall()
        with conn:
            conn.execute("DROP TRIGGER actions_append_only_update")
            for seq, events in enumerate(played.events, start=1):
                conn.execute(
                    "UPDATE actions SET events = ? WHERE game_id = ? AND seq = ?",
                    (json.dumps(events), game_id, seq),
                )
            conn.execute(
                "UPDATE games SET state = ? WHERE id = ?", (json.dumps(played.state), game_id)
            )
            conn.execute(guard)
    finally:
        conn.close()
