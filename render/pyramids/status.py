"""What the game is waiting for, in words, from the public part of a view only.

Used by the side panel and the alt-text summary. Nothing here reads ``view.hand`` or
``view.known_cards``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from render.text import display_name
from rules import pyramids

TITLES: dict[str, str] = {"european_war": "European War", "world_war_5": "World War 5"}
"""Short variant names (the boards' own names carry credits)."""

SIZE_WORDS: dict[int, str] = {0: "pieces", 1: "a small", 2: "a medium", 3: "a large"}

TAGS: dict[str, str] = {
    "setup": "placing",
    "turn": "to play",
    "action": "to play",
    "diplomacy": "diplomacy",
    "duel": "duel",
    "retreat": "retreat",
}
"""The short tag a seat row shows for each kind of open decision."""


END_REASONS: dict[str, str] = {
    "occupation": "by occupation",
    "fallen": "an arch-enemy fell",
    "no winner": "nobody wins",
    "agreed draw": "agreed by all",
    "round limit": "the round limit was reached",
    "last player left": "last player standing",
    "no player left": "no player left",
}
"""How the banner and the panel put the engine's ``end_reason``."""


def end_reason(view: pyramids.View) -> str:
    """The game's end reason in words ("" if none)."""
    return END_REASONS.get(view.end_reason, view.end_reason.replace("_", " "))


@dataclass(frozen=True)
class Status:
    """A headline (e.g. "Duel") and a detail line (e.g. "Ann attacks Bob: 7 - 4")."""

    headline: str
    detail: str
    seat: int | None
    """The seat the game waits for most (accent colour), if one."""


def field_name(view: pyramids.View, field: str) -> str:
    """A field's display name (its id if the board does not know it)."""
    b = pyramids.load_board(view.board_id)
    f = b.fields.get(field)
    return f.name if f is not None else field


def names_of(names: Sequence[str], seats: Sequence[int]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    words = [display_name(names, s) for s in seats]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def winners_text(view: pyramids.View, names: Sequence[str]) -> str:
    """ "Ann wins", "Ann and Bob win", or "Draw"."""
    if view.draw or not view.winners:
        return "Draw"
    verb = "wins" if len(view.winners) == 1 else "win"
    return f"{names_of(names, view.winners)} {verb}"


def status(view: pyramids.View, names: Sequence[str]) -> Status:
    """What is being decided now (or how the game ended)."""
    if view.over:
        reason = end_reason(view)
        return Status(
            "Game over",
            f"{winners_text(view, names)}" + (f" ({reason})" if reason else ""),
            view.winners[0] if len(view.winners) == 1 else None,
        )
    battle = view.battle
    deciders = list(view.deciders)
    first = deciders[0].seat if deciders else view.current
    if view.phase == "setup":
        if view.setup_queue:
            seat, size = view.setup_queue[0]
            what = "a large, a medium and a small" if size == 0 else SIZE_WORDS[size]
            return Status(
                f"{display_name(names, seat)} to place", f"Setup: {what} on home ground", seat
            )
        return Status(
            f"{names_of(names, [d.seat for d in deciders])} to place",
            "Setup: pieces on home ground",
            first,
        )
    if battle is not None:
        att, dfn = display_name(names, battle.attacker), display_name(names, battle.defender)
        where = f"{field_name(view, battle.src)} → {field_name(view, battle.dst)}"
        if battle.stage == "diplomacy":
            waiting = names_of(names, battle.waiting_for)
            return Status(
                "Diplomacy",
                f"{att} attacks {dfn} ({where}); waiting for {waiting}",
                battle.attacker,
            )
        if battle.stage == "duel":
            turn = battle.to_play if battle.to_play is not None else battle.attacker
            return Status(
                "Duel",
                f"{att} {battle.attacker_total} - {battle.defender_total} "
                f"{dfn}; {display_name(names, turn)} to play",
                turn,
            )
        if battle.stage == "retreat":
            return Status(
                "Retreat", f"{dfn} retreats from {field_name(view, battle.dst)}", battle.defender
            )
    kind = deciders[0].kind if deciders else "turn"
    who = display_name(names, first)
    if view.variant == "world_war_5":
        return Status(f"{who} to play", "Grow, build, move or invade", first)
    if kind == "action":
        return Status(f"{who} to play", "Attack stopped: another action, no attack", first)
    if view.special_over:
        return Status(f"{who} to play", "Action: conscript, move, attack, arm or pass", first)
    return Status(f"{who} to play", "Sabotage / espionage, then an action", first)


def seat_tag(view: pyramids.View, seat: int) -> str | None:
    """The short tag of a seat row: winner, eliminated, or its open decision."""
    if view.over and seat in view.winners:
        return "winner"
    if view.seats[seat].eliminated:
        return "eliminated"
    if view.over:
        return None
    decision = view.decision_for(seat)
    if decision is not None:
        return TAGS.get(decision.kind, decision.kind)
    return None
