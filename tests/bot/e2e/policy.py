"""A deterministic, aggressive player policy for the end-to-end tests.

With seed 197 and three players it ends a European War game in 26 decisions that include
a sabotage, a spy, a duel with cards from both sides, a diplomacy stop by the third
player, a retreat choice, a shrink and a destroyed small (checked in the tests).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules import pyramids
from rules.pyramids.cards import duel_value


@dataclass
class Policy:
    """Chooses among legal actions; counts attacks to time its one diplomacy stop."""

    stats: dict[str, Any] = field(default_factory=dict)
    steps: int = 0

    def choose(
        self, g: pyramids.GameState, seat: int, kind: str, acts: list[pyramids.Action]
    ) -> pyramids.Action:
        """The policy's action for ``seat``'s decision of ``kind``."""
        acts = [a for a in acts if a in g.legal_actions(seat)] or acts

        def of(name: str) -> list[Any]:
            return [a for a in acts if a.kind == name]

        st = self.stats
        if kind == "setup":
            return acts[0]
        if kind in ("turn", "action"):
            if of("sabotage") and not st.get("sabotaged"):
                st["sabotaged"] = True
                return of("sabotage")[0]
            if of("spy") and not st.get("spied"):
                st["spied"] = True
                return of("spy")[0]
            att = of("attack")
            if (att and g.turn % 2 == 0) or (att and len(g.hands[seat]) >= 4):

                def score(a: Any) -> tuple[int, int]:
                    s, d = g.pieces[a.src][1], g.pieces[a.dst][1]
                    return (s - d, s)

                st["attacks"] = st.get("attacks", 0) + 1
                return max(att, key=score)
            if of("conscript"):
                return of("conscript")[-1]
            if len(g.hands[seat]) < 4 and of("arm"):
                return of("arm")[0]
            if att:
                st["attacks"] = st.get("attacks", 0) + 1
                return att[0]
            if of("move"):
                moves = of("move")
                return moves[g.turn % len(moves)]
            return acts[-1]
        if kind == "diplomacy":
            stops = of("stop_attack")
            if stops and st.get("attacks", 0) >= 2 and not st.get("stopped"):
                st["stopped"] = True
                return stops[0]
            return pyramids.LetPass()
        if kind == "duel":
            b = g.battle
            assert b is not None
            cards = of("play_card")
            me = seat == b.attacker
            mine = b.attacker_cards if me else b.defender_cards
            theirs = b.defender_cards if me else b.attacker_cards
            if cards and (not mine or sum(map(duel_value, mine)) <= sum(map(duel_value, theirs))):
                return max(cards, key=lambda a: duel_value(a.card))
            return of("stop_playing")[0] if of("stop_playing") else cards[0]
        if kind == "retreat":
            return acts[-1]
        return acts[0]


def aggressive_computer(
    game: str, view: pyramids.View, legal: Any, level: str, seed: int
) -> pyramids.Action:
    """A computer-seat chooser for tests (sees only its view): attacks when it can, plays
    its best duel cards, lets attacks pass, conscripts, arms; fast and deterministic."""
    acts = list(legal)

    def of(kind: str) -> list[Any]:
        return [a for a in acts if a.kind == kind]

    for kind in ("place_all", "place_piece"):
        if of(kind):
            return of(kind)[0]
    if of("attack"):
        return max(of("attack"), key=lambda a: view.pieces[a.src][1] - view.pieces[a.dst][1])
    b = view.battle
    if b is not None and (of("play_card") or of("stop_playing")):
        me = view.viewer == b.attacker
        mine, theirs = (
            (b.attacker_total, b.defender_total) if me else (b.defender_total, b.attacker_total)
        )
        played = b.attacker_cards if me else b.defender_cards
        cards = of("play_card")
        if cards and (mine <= theirs or not played):
            return max(cards, key=lambda a: duel_value(a.card))
        return (of("stop_playing") or cards)[0]
    for kind in ("let_pass", "retreat"):
        if of(kind):
            return of(kind)[0]
    if of("conscript"):
        return of("conscript")[-1]
    if of("arm"):
        return of("arm")[0]
    return acts[seed % len(acts)]
