"""What the game is waiting for, in words, from the public part of a view only.

Used by the side panel and the alt-text summary. Nothing here reads ``view.hand`` or
``view.known_cards``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from render.text import display_name
from rules import pyramids

from .catalogue import _, n_

TITLES: dict[str, str] = {"european_war": "European War", "world_war_5": "World War 5"}
"""Short variant names (the boards' own names carry credits)."""

TAGS: dict[str, str] = {
    "setup": "placing",
    "turn": "to play",
    "action": "to play",
    "diplomacy": "diplomacy",
    "duel": "duel",
    "retreat": "retreat",
}
"""The short tag a seat row shows for each kind of open decision (its id: see
:func:`tag_label` for its words)."""


def tag_label(tag: str) -> str:
    """A seat row's tag in the current language."""
    labels = {
        "winner": _("★ winner"),
        "eliminated": _("eliminated"),
        "placing": _("placing"),
        "to play": _("to play"),
        "diplomacy": _("diplomacy"),
        "duel": _("duel"),
        "retreat": _("retreat"),
    }
    return labels.get(tag, tag)


def end_reason(view: pyramids.View) -> str:
    """The game's end reason in words, in the current language ("" if none): how the
    banner and the panel put the engine's ``end_reason``."""
    reasons = {
        "occupation": _("by occupation"),
        "fallen": _("an arch-enemy fell"),
        "no winner": _("nobody wins"),
        "agreed draw": _("agreed by all"),
        "round limit": _("the round limit was reached"),
        "last player left": _("last player standing"),
        "no player left": _("no player left"),
    }
    return reasons.get(view.end_reason, view.end_reason.replace("_", " "))


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
    return _("{names} and {last}").format(names=", ".join(words[:-1]), last=words[-1])


def winners_text(view: pyramids.View, names: Sequence[str]) -> str:
    """ "Ann wins", "Ann and Bob win", or "Draw"."""
    if view.draw or not view.winners:
        return _("Draw")
    return n_("{names} wins", "{names} win", len(view.winners)).format(
        names=names_of(names, view.winners)
    )


def status(view: pyramids.View, names: Sequence[str]) -> Status:
    """What is being decided now (or how the game ended)."""
    if view.over:
        reason = end_reason(view)
        winners = winners_text(view, names)
        return Status(
            _("Game over"),
            _("{winners} ({reason})").format(winners=winners, reason=reason) if reason else winners,
            view.winners[0] if len(view.winners) == 1 else None,
        )
    battle = view.battle
    deciders = list(view.deciders)
    first = deciders[0].seat if deciders else view.current
    if view.phase == "setup":
        if view.setup_queue:
            seat, size = view.setup_queue[0]
            what = {
                0: _("Setup: a large, a medium and a small on home ground"),
                1: _("Setup: a small on home ground"),
                2: _("Setup: a medium on home ground"),
                3: _("Setup: a large on home ground"),
            }[size]
            return Status(_("{who} to place").format(who=display_name(names, seat)), what, seat)
        return Status(
            _("{who} to place").format(who=names_of(names, [d.seat for d in deciders])),
            _("Setup: pieces on home ground"),
            first,
        )
    if battle is not None:
        att, dfn = display_name(names, battle.attacker), display_name(names, battle.defender)
        src, dst = field_name(view, battle.src), field_name(view, battle.dst)
        if battle.stage == "diplomacy":
            waiting = names_of(names, battle.waiting_for)
            return Status(
                _("Diplomacy"),
                _("{attacker} attacks {defender} ({src} → {dst}); waiting for {waiting}").format(
                    attacker=att, defender=dfn, src=src, dst=dst, waiting=waiting
                ),
                battle.attacker,
            )
        if battle.stage == "duel":
            turn = battle.to_play if battle.to_play is not None else battle.attacker
            return Status(
                _("Duel"),
                _(
                    "{attacker} {attacker_total} - {defender_total} {defender}; {who} to play"
                ).format(
                    attacker=att,
                    attacker_total=battle.attacker_total,
                    defender_total=battle.defender_total,
                    defender=dfn,
                    who=display_name(names, turn),
                ),
                turn,
            )
        if battle.stage == "retreat":
            return Status(
                _("Retreat"),
                _("{defender} retreats from {field}").format(defender=dfn, field=dst),
                battle.defender,
            )
    kind = deciders[0].kind if deciders else "turn"
    to_play = _("{who} to play").format(who=display_name(names, first))
    if view.variant == "world_war_5":
        return Status(to_play, _("Grow, build, move or invade"), first)
    if kind == "action":
        return Status(to_play, _("Attack stopped: another action, no attack"), first)
    if view.special_over:
        return Status(to_play, _("Action: conscript, move, attack, arm or pass"), first)
    return Status(to_play, _("Sabotage / espionage, then an action"), first)


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
