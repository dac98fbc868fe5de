"""What the bot asks the game registry: which decisions go on private panels and what
they are called, and the game options a server may default."""

from __future__ import annotations

from rules import contract
from rules.presentation import OptionSpec

from .catalogue import _
from .errors import UserError


def is_panel(kind: str) -> bool:
    """True when a decision of ``kind`` is answered on a private panel in a registered
    game that has it (its presentation's ``panel_decisions``); turns are played with the
    slash commands."""
    return any(
        kind in contract.game_named(name).presentation.panel_decisions()
        for name in contract.game_names()
    )


def decision_name(game: str, kind: str) -> str:
    """What a decision of ``kind`` is called in ``game`` for its decider ("the duel"); the
    kind itself if the game does not say."""
    spoken = contract.game_named(game).presentation.decisions().get(kind)
    return spoken.name if spoken is not None else kind


def panel_names(game: str) -> list[str]:
    """What ``game``'s decisions answered on private panels are called, in its order."""
    words = contract.game_named(game).presentation
    return [decision_name(game, kind) for kind in words.panel_decisions()]


def offered_options() -> dict[str, OptionSpec]:
    """Every option a registered game offers a host, by name (the first game's spec of a
    name shared by several): what a server may set a default for."""
    out: dict[str, OptionSpec] = {}
    for name in contract.game_names():
        for spec in contract.game_named(name).presentation.options():
            out.setdefault(spec.name, spec)
    return out


FLAG_WORDS = {"yes": True, "on": True, "true": True, "no": False, "off": False, "false": False}


def option_value(spec: OptionSpec, text: str) -> bool | int | str | None:
    """The value of option ``spec`` a user means by ``text`` (a flag's yes / no, a
    number's digits, a word or its label; ``default``: back to each game's own default).

    Raises:
        UserError: words that are no value of the option.
    """
    typed = text.strip().lower()
    if typed == "default":
        return None
    if spec.kind == "flag" and typed in FLAG_WORDS:
        return FLAG_WORDS[typed]
    if spec.kind == "number" and typed.lstrip("-").isdigit():
        return int(typed)
    if spec.kind == "word":
        for choice in spec.choices:
            if typed in (choice.lower(), spec.label(choice).lower()):
                return choice
    raise UserError(
        _("{value} is not a value of {option}: pick one from the list.").format(
            value=repr(text[:40]), option=repr(spec.summary[:60])
        )
    )
