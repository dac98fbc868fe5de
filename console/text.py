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

from .catalogue import _, n_, p_
from .commands import help_lines, usage
from .parse import QUERIES, playable


def turn_hint(prompt: Prompt, game: Game) -> str:
    """What the player may do now, by the game's turn commands, with how many ways each."""
    parts = []
    for spec in game.presentation.commands():
        n = sum(action.kind in spec.kinds for action in prompt.choices)
        words = usage(spec, required_only=True)
        if n:
            ways = n_("{usage} ({n} way)", "{usage} ({n} ways)", n).format(usage=words, n=n)
            parts.append(words if n == 1 or " " not in words else ways)
    return _(
        "You can: {moves}. Type `choices` for every legal move, `help` for all commands."
    ).format(moves=" · ".join(parts))


def numbered(labels: Sequence[str], numbers: Sequence[int] = ()) -> list[str]:
    """``  1) label`` lines, each label with its number (``numbers``; empty: 1, 2, …)."""
    shown = list(numbers) or list(range(1, len(labels) + 1))
    width = len(str(max(shown, default=0)))
    return [f"  {n:>{width}}) {label}" for n, label in zip(shown, labels, strict=True)]


def plain(text: str) -> str:
    """Discord markup made terminal-friendly: no bold, ``/rules`` written as the console
    command (its option's hint in any language), relative timestamps as clock times."""
    text = text.replace("**", "")
    text = re.sub(r"`/rules topic:<[^<>`]*>`", "`rules TOPIC`", text)
    text = text.replace("`/rules`", "`rules`")

    def stamp(match: re.Match[str]) -> str:
        return time.strftime("%H:%M:%S", time.localtime(int(match.group(1))))

    return re.sub(r"<t:(\d+):[A-Za-z]>", stamp, text)


def level_name(level: str) -> str:
    """A computer level (``easy``, ``normal``, ``hard``) in the reader's language."""
    names = {
        "easy": p_("computer level", "easy"),
        "normal": p_("computer level", "normal"),
        "hard": p_("computer level", "hard"),
    }
    return names.get(level, level)


def status_word(status: str) -> str:
    """A game's stored status (``lobby``, ``running``, ``finished``, ``cancelled``,
    ``archived``) in the reader's language."""
    words = {
        "lobby": p_("game status", "in its lobby"),
        "running": p_("game status", "running"),
        "finished": p_("game status", "finished"),
        "cancelled": p_("game status", "cancelled"),
        "archived": p_("game status", "archived"),
    }
    return words.get(status, status)


def result_text(result: Mapping[str, Any] | None, names: Sequence[str]) -> str:
    """The end of a game in one line, from the stored result."""
    if not result:
        return _("The game is over.")
    if result.get("draw"):
        return _("The game ended in a draw.")
    winners = [names[s] for s in result.get("winners", []) if 0 <= s < len(names)]
    if not winners:
        return _("The game ended in a draw.")
    return n_("Winner: {names}.", "Winners: {names}.", len(winners)).format(
        names=", ".join(winners)
    )


def help_text(variant: str) -> str:
    """Every console command, for the variant being played: its turn commands from the
    game's spec, then the words that answer its panels, then the console's own (those
    the game has no use for left out), in aligned columns."""
    game = contract.game_named(variant)
    reader = game.presentation.reader()
    actions = help_lines(game) + (reader.help_lines() if reader is not None else [])
    rulings = [t for t in topics(variant) if any(ch.isdigit() for ch in t)]
    example = rulings[len(rulings) // 2] if rulings else ""
    if "-" in example:
        rules = _("the rules (rules TOPIC: a ruling's number ({short} or {full}) or a word)")
        rules = rules.format(short=example.rsplit("-", 1)[-1], full=example)
    else:
        rules = _("the rules (rules TOPIC: a ruling's number or a word)")
    info = [
        ("NUMBER", _("pick a numbered choice of the open question")),
        ("choices", _("list every legal move, numbered")),
        ("board", _("the board, as text and as an image")),
        ("status", _("the table: whose turn it is, where everyone stands")),
        ("hand", _("what only you can see")),
        ("hint", _("what the strongest computer would do in your place, and why")),
        ("log", _("the last events (log 20: the last 20)")),
        ("rules", rules),
        ("draw", _("agree to a draw, once confirmed (every person at the table must)")),
        ("undo", _("take back your last action (within 30 s, if it revealed nothing)")),
        ("resign", _("a computer takes your seat for the rest of the game")),
        ("quit", _("stop here; the game is saved (continue with --resume)")),
    ]
    own = [(w, what) for w, what in info if w not in QUERIES or playable(w, variant)]
    rows = [_columns(line) for line in actions] + own
    width = max(len(w) for w, what in rows if what) + 2
    notes = reader.help_notes() if reader is not None else []

    def line(words: str, what: str) -> str:
        return f"  {words:<{width}}{what}".rstrip() if what else f"  {words}"

    return "\n".join(
        [
            _("Game commands:"),
            *(line(*_columns(a)) for a in actions),
            _("Other commands:"),
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
