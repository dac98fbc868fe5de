"""Words the console prints: what a turn allows, numbered choices, help, the end of a
game, and Discord markup turned into plain terminal text. Pure functions (a game's own
words for a text screen come from its :class:`~rules.presentation.LineReader`)."""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from typing import Any

from rules import contract
from rules.contract import Game
from service import Prompt
from service.rulebook import topics

from .commands import help_lines, usage
from .parse import QUERIES, playable


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


def numbered(labels: Sequence[str], numbers: Sequence[int] = ()) -> list[str]:
    """``  1) label`` lines, each label with its number (``numbers``; empty: 1, 2, …)."""
    shown = list(numbers) or list(range(1, len(labels) + 1))
    width = len(str(max(shown, default=0)))
    return [f"  {n:>{width}}) {label}" for n, label in zip(shown, labels, strict=True)]


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
    game's spec, then the words that answer its panels, then the console's own (those
    the game has no use for left out), in aligned columns."""
    game = contract.game_named(variant)
    reader = game.presentation.reader()
    actions = help_lines(game) + (reader.help_lines() if reader is not None else [])
    rulings = [t for t in topics(variant) if any(ch.isdigit() for ch in t)]
    example = rulings[len(rulings) // 2] if rulings else ""
    number = f" ({example.rsplit('-', 1)[-1]} or {example})" if "-" in example else ""
    info = [
        ("NUMBER", "pick a numbered choice of the open question"),
        ("choices", "list every legal move, numbered"),
        ("board", "the board, as text and as an image"),
        ("status", "the table: whose turn it is, where everyone stands"),
        ("hand", "what only you can see"),
        ("hint", "what the strongest computer would do in your place, and why"),
        ("log", "the last events (log 20: the last 20)"),
        ("rules", f"the rules (rules TOPIC: a ruling's number{number} or a word)"),
        ("draw", "agree to a draw, once confirmed (every person at the table must)"),
        ("undo", "take back your last action (within 30 s, if it revealed nothing)"),
        ("resign", "a computer takes your seat for the rest of the game"),
        ("quit", "stop here; the game is saved (continue with --resume)"),
    ]
    own = [(w, what) for w, what in info if w not in QUERIES or playable(w, variant)]
    rows = [_columns(line) for line in actions] + own
    width = max(len(w) for w, what in rows if what) + 2
    notes = reader.help_notes() if reader is not None else []

    def line(words: str, what: str) -> str:
        return f"  {words:<{width}}{what}".rstrip() if what else f"  {words}"

    return "\n".join(
        [
            "Game commands:",
            *(line(*_columns(a)) for a in actions),
            "Other commands:",
            *(line(w, what) for w, what in own),
            *notes,
        ]
    )


def _columns(line: str) -> tuple[str, str]:
    """A help line split into its usage and what it does (at the first run of two or
    more spaces); a line without one is a remark of its own."""
    parts = re.split(r"\s{2,}", line.strip(), maxsplit=1)
    if len(parts) < 2 or line.startswith(" "):
        return line.strip(), ""
    return parts[0], parts[1]
