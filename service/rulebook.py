"""The rules text behind ``/rules [topic]``: each game's rule book (its presentation
spec's sections and rulings), searched by ruling number, title or word."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules import contract
from rules.presentation import RuleSection

from .catalogue import _


@dataclass(frozen=True)
class Section:
    """A section of a game's rule book with its rulings (ruling number -> text)."""

    title: str
    variant: str
    """The registry name of the game it belongs to."""
    rulings: dict[str, str]

    def text(self) -> str:
        """The section as Markdown: the title, then each ruling with its number in bold."""
        return RuleSection(self.title, self.rulings).text()


def sections() -> tuple[Section, ...]:
    """Every registered game's rule book sections, game by game, in order."""
    return tuple(
        Section(part.title, name, dict(part.rulings))
        for name in contract.game_names()
        for part in contract.game_named(name).presentation.rulebook()
    )


def topics(variant: str | None = None) -> list[str]:
    """Every topic name (section titles and ruling numbers) for autocomplete."""
    out: list[str] = []
    for s in sections():
        if variant is None or s.variant == variant:
            out.append(s.title)
            out.extend(s.rulings)
    return out


_NUMBER = re.compile(r"([a-z]*)[\s_-]*(\d+)")
"""A ruling's number as people type it: ``EW-13``, ``ew13``, ``ew 13``, ``13``."""


def _rulings_named(topic: str, chosen: list[Section]) -> list[tuple[Section, str]]:
    """The rulings ``topic`` names by number: with a prefix that ruling in any game
    (any case, the hyphen optional); a bare number, the ruling of that number in the
    ``chosen`` game's sections."""
    found = _NUMBER.fullmatch(topic.strip().lower())
    if found is None:
        return []
    prefix, number = found.group(1).upper(), int(found.group(2))
    order = chosen + [s for s in sections() if s not in chosen] if prefix else chosen
    hits = []
    for s in order:
        for key in s.rulings:
            head, _dash, tail = key.rpartition("-")
            if tail.isdigit() and int(tail) == number and prefix in ("", head.upper()):
                hits.append((s, key))
    return hits


def lookup(topic: str | None, variant: str | None = None) -> str:
    """The text for ``topic``: a ruling number (``EW-13``, any case, the hyphen
    optional, or just ``13``: this game's ruling of that number), a section title or a
    word in it, looked for in ``variant``'s rule book first (default: the first registered
    game's); without a topic, the list of sections of ``variant``. Always returns text.
    """
    registered = contract.game_names()
    game = variant if variant is not None else (registered[0] if registered else "")
    chosen = [s for s in sections() if s.variant == game]
    if not topic:
        names = "\n".join(f"- {s.title} ({', '.join(s.rulings)})" for s in chosen)
        return _("Rules sections — ask `/rules topic:<name or number>`:\n{sections}").format(
            sections=names
        )
    named = _rulings_named(topic, chosen)
    if named:
        s, key = named[0]
        return f"**{key}** ({s.title}) {s.rulings[key]}"
    if topic.strip().isdigit() and chosen:
        numbers = [n for s in chosen for n in s.rulings]
        title = contract.game_named(game).presentation.title
        return _("{game} has no ruling {number}: its rulings are {first} to {last}.").format(
            game=title, number=topic.strip(), first=numbers[0], last=numbers[-1]
        )
    low = topic.strip().lower()
    for s in chosen + [s for s in sections() if s not in chosen]:
        if low and low in s.title.lower():
            return s.text()
    hits = [
        f"**{n}** {body}" for s in chosen for n, body in s.rulings.items() if low in body.lower()
    ]
    if hits:
        return "\n".join(hits[:6])
    return _("No rule matches {topic}. Try `/rules` for the list of sections.").format(
        topic=repr(topic)
    )
