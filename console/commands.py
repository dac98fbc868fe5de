"""The console's turn commands, made from the game's command spec (the same one the
bot's slash commands are made from): their words, their usage and help lines, which
game a word belongs to, and splitting the words typed after a command into its options.

Pure functions over :mod:`rules.contract` and :mod:`rules.presentation`; the service
reads and checks the values (:meth:`service.GameService.command`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from rules import contract
from rules.contract import Game
from rules.presentation import CommandOption, CommandSpec

from .catalogue import _

Readable = Callable[[CommandOption, str], bool]
"""Whether the typed text names a value of the option (the game's words read it)."""
MAX_WORDS = 10
"""The most words the options of one command may take (splitting stays cheap)."""


class ArgumentError(ValueError):
    """The words after a command do not fit its options; the message says why."""


def commands_of(game: Game) -> dict[str, CommandSpec]:
    """The game's turn commands by name, in the spec's order."""
    return {c.name: c for c in game.presentation.commands()}


def usage(spec: CommandSpec, required_only: bool = False) -> str:
    """How the command is typed: ``move FROM TO``, ``sabotage TARGET [figure|ace]``
    (``required_only``: ``sabotage TARGET``)."""
    parts = [spec.name]
    for o in spec.options:
        if required_only and not o.required:
            continue
        word = "|".join(c.word for c in o.choices) if o.choices else o.name.upper()
        parts.append(word if o.required else f"[{word}]")
    return " ".join(parts)


def help_lines(game: Game, width: int = 28) -> list[str]:
    """One line per turn command: its usage, then its description (in a column at least
    ``width`` wide)."""
    specs = game.presentation.commands()
    width = max([width - 1, *(len(usage(c)) + 1 for c in specs)])
    return [f"{usage(c):<{width}} {c.description}" for c in specs]


def game_of_word(word: str) -> tuple[str, ...]:
    """The registered games that have a turn command ``word``."""
    return tuple(
        name for name in contract.game_names() if word in commands_of(contract.game_named(name))
    )


def split_options(spec: CommandSpec, words: Sequence[str], readable: Readable) -> dict[str, str]:
    """The options of ``spec`` as typed: ``words`` split into consecutive groups, one
    per option in order (a value may take several words, "north africa"), the split in
    which every group reads as its option's value; an option with fixed choices may be
    left out. With no split that reads, one word per option (the service then says
    which one names nothing).

    Raises:
        ArgumentError: too few or too many words, or several splits read.
    """
    required = [o for o in spec.options if o.required]
    if len(words) > MAX_WORDS:
        raise ArgumentError(_("Too many words: {usage}.").format(usage=usage(spec)))
    if len(words) < len(required):
        raise ArgumentError(
            _("Say {options}: {usage}.").format(
                options=" ".join(o.name.upper() for o in required), usage=usage(spec)
            )
        )
    fits: list[dict[str, str]] = []
    for count in range(len(required), len(spec.options) + 1):
        options = spec.options[:count]
        if any(o.required for o in spec.options[count:]) or count > len(words):
            continue
        if count == 0:
            if not words:
                fits.append({})
            continue
        for cuts in itertools.combinations(range(1, len(words)), count - 1):
            bounds = (0, *cuts, len(words))
            groups = [" ".join(words[a:b]) for a, b in itertools.pairwise(bounds)]
            if all(readable(o, g) for o, g in zip(options, groups, strict=True)):
                fits.append({o.name: g for o, g in zip(options, groups, strict=True)})
    if len(fits) == 1:
        return fits[0]
    if fits:
        shown = "; ".join(" / ".join(f.values()) for f in fits[:4])
        raise ArgumentError(_("Which do you mean: {readings}?").format(readings=shown))
    if len(words) == len(spec.options) or (not spec.options and not words):
        return {o.name: w for o, w in zip(spec.options, words, strict=True)}
    if len(words) == len(required):
        return {o.name: w for o, w in zip(required, words, strict=True)}
    raise ArgumentError(_("That does not fit {usage}.").format(usage=usage(spec)))
