"""Words the console prints: the board as text, a duel's standing, what a turn allows,
help, and Discord markup turned into plain terminal text. Pure functions."""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from typing import Any

from rules import contract, pyramids
from rules.contract import Game
from rules.pyramids.cards import card_name
from rules.pyramids.state import SIZE_NAMES
from service import Prompt

from .commands import help_lines, usage
from .parse import hand_text

SIZE_LETTERS = {1: "S", 2: "M", 3: "L"}


def board_text(view: pyramids.View, board: pyramids.Board, names: Sequence[str]) -> list[str]:
    """Every field with its piece, grouped by power (or continent), then each player's
    supply and hand size: the alt text of the board image."""
    owner = {sv.power: sv.seat for sv in view.seats}
    width = max(len(f.name) for f in board.fields.values())
    lines: list[str] = []
    for power in board.powers.values():
        seat = owner.get(power.id)
        who = names[seat] if seat is not None and seat < len(names) else "not played"
        lines.append(f"{power.name} — {who}")
        for fid in power.fields:
            f = board.fields[fid]
            piece = view.pieces.get(fid)
            if piece is None:
                where = "·"
            else:
                s, size = piece
                where = f"{SIZE_NAMES[size]:<6} {names[s] if s < len(names) else s}"
            sea = f"  [{f.harbour} harbour]" if f.harbour else ""
            lines.append(f"  {f.name:<{width}}  {where}{sea}")
    lines.append(supply_line(view, names))
    return lines


def supply_line(view: pyramids.View, names: Sequence[str]) -> str:
    """Each player's supply (small/medium/large off the board) and hand size."""
    parts = []
    for sv in view.seats:
        s, m, large = sv.supply
        cards = f", {sv.hand_size} cards" if view.variant == "european_war" else ""
        out = " (out)" if sv.eliminated else ""
        parts.append(f"{names[sv.seat]}{out}: supply {s}S {m}M {large}L{cards}")
    pile = (
        f" · draw pile {view.pile_size}, discard {len(view.discard)}"
        if view.variant == "european_war"
        else ""
    )
    return "Supply — " + "; ".join(parts) + pile


def duel_text(view: pyramids.View, board: pyramids.Board, names: Sequence[str]) -> str | None:
    """The duel's standing: cards played face up, totals and limits (EW-16..18)."""
    b = view.battle
    if b is None or b.stage != "duel":
        return None

    def side(seat: int, size: int, cards: Sequence[int], total: int, limit: int, done: bool) -> str:
        played = " ".join(card_name(c) for c in cards) or "no card yet"
        stopped = ", stopped" if done else ""
        return f"{names[seat]} ({SIZE_NAMES[size]}, up to {limit}): {played} = {total}{stopped}"

    return (
        f"Duel on {board.fields[b.dst].name} — "
        + side(
            b.attacker,
            b.attacker_size,
            b.attacker_cards,
            b.attacker_total,
            b.attacker_limit,
            b.attacker_done,
        )
        + " against "
        + side(
            b.defender,
            b.defender_size,
            b.defender_cards,
            b.defender_total,
            b.defender_limit,
            b.defender_done,
        )
        + ". The attacker needs a higher total (EW-18)."
    )


def turn_hint(prompt: Prompt, game: Game) -> str:
    """What the player may do now, by the game's turn commands, with how many ways each."""
    parts = []
    for spec in game.presentation.commands():
        n = sum(action.kind in spec.kinds for action in prompt.choices)
        words = usage(spec, required_only=True)
        if n:
            parts.append(words if n == 1 or " " not in words else f"{words} ({n} ways)")
    return (
        "You can: " + " · ".join(parts) + ". Type `choices` for every legal move, "
        "`help` for all commands."
    )


def numbered(labels: Sequence[str]) -> list[str]:
    """``  1) label`` lines."""
    width = len(str(len(labels)))
    return [f"  {i:>{width}}) {label}" for i, label in enumerate(labels, start=1)]


def plain(text: str) -> str:
    """Discord markup made terminal-friendly: no bold, ``/rules`` written as the console
    command, relative timestamps as clock times."""
    text = text.replace("**", "")
    text = re.sub(r"`/rules topic:<name or number>`", "`rules TOPIC`", text)
    text = text.replace("`/rules`", "`rules`")

    def stamp(match: re.Match[str]) -> str:
        return time.strftime("%H:%M:%S", time.localtime(int(match.group(1))))

    return re.sub(r"<t:(\d+):[A-Za-z]>", stamp, text)


def result_text(result: Mapping[str, Any] | None, names: Sequence[str]) -> str:
    """The end of a game in one line, from the stored result."""
    if not result:
        return "The game is over."
    if result.get("draw"):
        return "The game ended in a draw."
    winners = [names[s] for s in result.get("winners", []) if 0 <= s < len(names)]
    if not winners:
        return "The game ended in a draw."
    return ("Winner: " if len(winners) == 1 else "Winners: ") + ", ".join(winners) + "."


def help_text(variant: str) -> str:
    """Every console command, for the variant being played: its turn commands from the
    game's spec, then the words that answer its panels, then the console's own."""
    actions = help_lines(contract.game_named(variant))
    if variant == "world_war_5":
        actions += ["retreat FIELD               where your beaten piece goes (WW-3)"]
    else:
        actions += [
            "   (place FIELD when the sizes are placed one at a time)",
            "play CARD / stop            in a duel: 10h, K♠, qs, or a rank (7, k); stop",
            "k / let                     in a diplomacy window: stop it with K (or A), or "
            "let it pass",
            "retreat FIELD               where your beaten piece goes (EW-19)",
        ]
    info = [
        "NUMBER                      pick a numbered choice of the open question",
        "choices                     list every legal move, numbered",
        "hand · board · status       your cards · the board (text + image) · the table",
        "log [n]                     the last n events",
        "rules [topic]               the rules: a number (EW-13) or a word (duel)",
        "draw                        agree to a draw (every person at the table must)",
        "resign                      a computer takes your seat (EW-25)",
        "quit                        stop here; the game is saved (continue with --resume)",
    ]
    notes = (
        "Field names: any case, a unique start is enough (france, north-africa, "
        '"north africa"); Tab completes them.'
    )
    return "\n".join(
        [
            "Game commands:",
            *("  " + a for a in actions),
            "Other commands:",
            *("  " + i for i in info),
            notes,
        ]
    )


def hand_line(hand: Sequence[int] | None) -> str:
    """``Your hand (5): …``."""
    cards = tuple(hand or ())
    return f"Your hand ({len(cards)}): {hand_text(cards)}"
