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

from .commands import help_lines, usage


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
    game = contract.game_named(variant)
    reader = game.presentation.reader()
    actions = help_lines(game) + (reader.help_lines() if reader is not None else [])
    info = [
        "NUMBER                      pick a numbered choice of the open question",
        "choices                     list every legal move, numbered",
        "hand · board · status       your cards · the board (text + image) · the table",
        "log [n]                     the last n events",
        "rules [topic]               the rules: a number (EW-13) or a word (duel)",
        "draw                        agree to a draw, once confirmed (every person must)",
        "resign                      a computer takes your seat (EW-25)",
        "quit                        stop here; the game is saved (continue with --resume)",
    ]
    notes = reader.help_notes() if reader is not None else []
    return "\n".join(
        [
            "Game commands:",
            *("  " + a for a in actions),
            "Other commands:",
            *("  " + i for i in info),
            *notes,
        ]
    )
