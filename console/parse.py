"""Reading what a console player types: the words of the turn commands turned into
actions or options, the answers to the open question, and the console's own commands.

A game with a :class:`~rules.presentation.LineReader` reads its own words (forgiving
names, answer words of its decisions); any other game's turn commands are split into the
options of its command spec and read by the service. Pure functions over a
:class:`Context`; nothing here talks to the service.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules import contract
from rules.contract import Param
from rules.presentation import CommandOption, LineReader, Typed, Unreadable
from service import command_union
from service.choices import not_in_game
from service.rulebook import topics

from .catalogue import _
from .commands import ArgumentError, commands_of, game_of_word, split_options

Context = Typed
"""What the parser may know when reading one line for one player."""

QUERY_ALIASES: dict[str, tuple[str, ...]] = {
    "hand": (),
    "hint": ("suggest",),
    "board": (),
    "status": (),
    "log": (),
    "rules": (),
    "help": ("?", "h"),
    "choices": ("options", "legal"),
    "draw": (),
    "resign": (),
    "undo": ("takeback",),
    "quit": ("exit", "q", "save"),
}
"""The console's own commands (not game actions) and their aliases."""
QUERIES = frozenset(QUERY_ALIASES)
"""Commands that are not game actions (the console handles them itself)."""


class ParseError(ValueError):
    """The line cannot be understood; the message says why, for the player."""


@dataclass(frozen=True, slots=True)
class Command:
    """One understood line: a game action, or a console command with its argument."""

    name: str
    """The canonical command word (``act`` for a bare choice number)."""
    action: Any = None
    arg: str = ""
    words: tuple[str, ...] = field(default=())
    options: Mapping[str, str] | None = None
    """A turn command read from its game's spec alone: its options as typed, for the
    service to read and act on (:meth:`service.GameService.command`)."""


def reader_of(variant: str) -> LineReader | None:
    """The game's own reader of typed lines, if it has one."""
    return contract.game_named(variant).presentation.reader()


def game_words() -> dict[str, tuple[str, ...]]:
    """The words of every registered game's reader (answers and aliases), merged."""
    out: dict[str, tuple[str, ...]] = {}
    for name in contract.game_names():
        reader = reader_of(name)
        for word, al in (reader.words() if reader is not None else {}).items():
            out[word] = tuple(dict.fromkeys((*out.get(word, ()), *al)))
    return out


def aliases() -> dict[str, tuple[str, ...]]:
    """Every canonical command word (the registered games' turn commands first, then the
    words their readers add, then the console's own) and its aliases."""
    out: dict[str, tuple[str, ...]] = {c.name: () for c in command_union()}
    return out | game_words() | QUERY_ALIASES


def command_words() -> dict[str, str]:
    """Every accepted command word -> its canonical command."""
    return {w: c for c, al in aliases().items() for w in (c, *al)}


# ---------------------------------------------------------------------- names
def slug(text: str) -> str:
    """A name as one typeable word: ``North Africa`` -> ``north-africa``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def split_words(line: str) -> list[str]:
    """Split a line into words, honouring quotes when they are balanced."""
    try:
        return shlex.split(line)
    except ValueError:
        return line.replace('"', " ").replace("'", " ").split()


# ---------------------------------------------------------------------- commands
def parse(line: str, ctx: Context) -> Command:
    """Understand one line typed by the player whose context is ``ctx``.

    Returns a :class:`Command`: ``action`` is set for game actions the game's reader
    read (already checked against the open question's choices where names were
    ambiguous), ``options`` for turn commands read from the spec; console commands
    (``hand``, ``log 5``, ``rules duel`` …) come back with their argument.

    Raises:
        ParseError: an unknown word, a name that cannot be read, a command of another
            game, a choice number out of range.
    """
    words = split_words(line)
    if not words:
        return Command("")
    head = words[0].lower()
    rest = words[1:]
    if head.isdigit() and not rest:
        return Command("act", _numbered(ctx, int(head)), words=tuple(words))
    name = command_words().get(head)
    if name is None:
        raise ParseError(
            _("Unknown command {word}. Type help for the list.").format(word=repr(words[0]))
        )
    _check_variant(name, ctx.variant)
    if name in QUERIES:
        return Command(name, None, " ".join(rest), tuple(words))
    reader = reader_of(ctx.variant)
    if reader is not None:
        try:
            action = reader.read(name, rest, ctx)
        except Unreadable as exc:
            raise ParseError(str(exc)) from None
        if action is not None:
            return Command(name, action, words=tuple(words))
    spec = commands_of(contract.game_named(ctx.variant)).get(name)
    if spec is None:
        raise ParseError(_("{command} cannot be played here.").format(command=repr(name)))
    try:
        options = split_options(spec, rest, _reader(ctx))
    except ArgumentError as exc:
        raise ParseError(str(exc)) from None
    return Command(name, None, words=tuple(words), options=options)


def _reader(ctx: Context) -> Callable[[CommandOption, str], bool]:
    """Whether typed text names a value of an option, as the game's words read it."""
    words = contract.game_named(ctx.variant).presentation

    def readable(option: CommandOption, text: str) -> bool:
        if option.choices:
            return text.lower() in {c.word for c in option.choices}
        param = Param(option.fills[0], option.kind)
        return words.value_of(param, text, ctx.view, ctx.names) is not None

    return readable


def _numbered(ctx: Context, number: int) -> Any:
    try:
        return ctx.numbered(number)
    except Unreadable as exc:
        raise ParseError(str(exc)) from None


def _check_variant(name: str, variant: str) -> None:
    """Refuse a turn command of another game (from the games' specs), or a word only
    another game's reader knows (in this game's words if its reader has them)."""
    game = contract.game_named(variant)
    reader = reader_of(variant)
    own = name in commands_of(game) or (reader is not None and name in reader.words())
    if game_of_word(name) and not own:
        # another game's command, unless this game's reader has its own word for it
        why = reader.refusal(name) if reader is not None else None
        raise ParseError(why or not_in_game(game, name, prefix=""))
    if name in QUERIES:
        why = reader.refusal(name) if reader is not None else None
        if why:
            raise ParseError(why)
        return
    if name in commands_of(game):
        return
    if reader is not None and name in reader.words():
        return
    why = reader.refusal(name) if reader is not None else None
    raise ParseError(
        why
        or _("{command} is not in this variant: this table plays {game}.").format(
            command=repr(name), game=game.presentation.title
        )
    )


# ---------------------------------------------------------------------- completion
def completions(line: str, text: str, ctx: Context) -> list[str]:
    """Tab-completion candidates for the word ``text`` being typed at the end of
    ``line`` (the whole line so far)."""
    before = split_words(line[: len(line) - len(text)]) if line else []
    low = text.lower()
    if not before:
        known = [w for w in aliases() if not _banned(w, ctx.variant)]
        return sorted(w + " " for w in known if w.startswith(low))
    name = command_words().get(before[0].lower(), "")
    reader = reader_of(ctx.variant)
    pool = reader.completions(name, ctx) if reader is not None else None
    if pool is None and name == "rules":
        pool = [t if " " not in t else slug(t) for t in topics(ctx.variant)]
    elif pool is None:
        pool = _spec_values(name, len(before) - 1, ctx)
    return sorted(p + " " for p in dict.fromkeys(pool) if p.lower().startswith(low))


def _spec_values(name: str, index: int, ctx: Context) -> list[str]:
    """For a command read from its spec alone: the values of its ``index``-th option
    among the open prompt's legal choices."""
    spec = commands_of(contract.game_named(ctx.variant)).get(name)
    if spec is None or not 0 <= index < len(spec.options):
        return []
    option = spec.options[index]
    if option.choices:
        return [c.word for c in option.choices]
    out = []
    for action in ctx.choices:
        data = action.to_dict()
        if action.kind in spec.kinds:
            out += [str(data[p]) for p in option.fills if p in data][:1]
    return out


def playable(word: str, variant: str) -> bool:
    """Whether command ``word`` (canonical) means something in ``variant``."""
    return not _banned(word, variant)


def _banned(word: str, variant: str) -> bool:
    try:
        _check_variant(word, variant)
    except ParseError:
        return True
    return False
