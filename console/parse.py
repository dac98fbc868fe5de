"""Reading what a console player types: the words of the slash commands turned into engine
actions, with forgiving field, player and card names.

Field names are case-insensitive and ignore spaces and punctuation (``france``,
``France+Benelux``, ``north-africa``, ``"north africa"``, ``north_africa``), a unique
prefix or the start of one word of a name is enough (``benelux``), and several names in a
row are split where they fit the board (``invade north africa italy``). When a name could
mean several fields, the legal actions of the open prompt decide; if they cannot, the
player is asked which one was meant.

Pure functions over a :class:`Context`; nothing here talks to the service.
"""

from __future__ import annotations

import itertools
import re
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules import contract, pyramids
from rules.contract import Param
from rules.presentation import CommandOption
from rules.pyramids.cards import ACE, JACK, KING, QUEEN, card_name, parse_card, rank
from rules.pyramids.words import action_label
from service import command_union
from service.choices import not_in_game

from .commands import ArgumentError, commands_of, game_of_word, split_options

# canonical command -> aliases, beside the turn commands of every registered game's spec
# (the slash commands' names, see aliases()): the words that answer the pyramid games'
# panels and the console's own commands
EXTRA_ALIASES: dict[str, tuple[str, ...]] = {
    "invade": ("attack",),
    "play": (),
    "stop": (),
    "k": ("stop-attack", "stopattack", "king"),
    "let": ("let-pass", "letpass", "let-it-pass"),
    "retreat": (),
    "hand": (),
    "board": (),
    "status": (),
    "log": (),
    "rules": (),
    "help": ("?", "h"),
    "choices": ("options", "legal"),
    "draw": (),
    "resign": (),
    "quit": ("exit", "q", "save"),
}


def aliases() -> dict[str, tuple[str, ...]]:
    """Every canonical command word (the registered games' turn commands first) and its
    aliases."""
    out: dict[str, tuple[str, ...]] = {c.name: () for c in command_union()}
    return out | EXTRA_ALIASES


def command_words() -> dict[str, str]:
    """Every accepted command word -> its canonical command."""
    return {w: c for c, al in aliases().items() for w in (c, *al)}


QUERIES = frozenset(
    {"hand", "board", "status", "log", "rules", "help", "choices", "draw", "resign", "quit"}
)
"""Commands that are not game actions (the console handles them itself)."""
HAND_READ = frozenset(
    {"place", "conscript", "grow", "build", "move", "invade", "arm", "pass", "sabotage", "spy"}
    | {"play", "stop", "k", "let", "retreat"}
)
"""The pyramid games' words this module reads by hand (forgiving field names split
against the board, an A standing in for a figure when that is what the hand allows);
any other game's turn commands are read from its spec alone."""

CARD_WORDS = frozenset({"play", "stop", "k", "let"})
"""Panel words of a game played with cards (European War's duels and diplomacy)."""

_ACE_WORDS = {
    "a": True,
    "ace": True,
    "j": False,
    "jack": False,
    "q": False,
    "queen": False,
    "k": False,
    "king": False,
}
_RANK_WORDS = {
    "j": JACK,
    "jack": JACK,
    "q": QUEEN,
    "queen": QUEEN,
    "k": KING,
    "king": KING,
    "a": ACE,
    "ace": ACE,
}


class ParseError(ValueError):
    """The line cannot be understood; the message says why, for the player."""


@dataclass(frozen=True, slots=True)
class Context:
    """What the parser may know when reading one line for one player."""

    board: pyramids.Board
    variant: str
    names: Sequence[str]
    """Display names by engine seat."""
    powers: Sequence[str] = ()
    """Power (continent) id by engine seat."""
    seat: int | None = None
    hand: Sequence[int] = ()
    prompt_kind: str | None = None
    """The kind of the player's open decision (setup, turn, action, diplomacy, duel,
    retreat), or None when the player need not decide."""
    choices: Sequence[pyramids.Action] = ()
    """The open prompt's choices (the legal actions; numbered from 1 for the player)."""
    view: Any = None
    """The player's view, for the game's words to read typed values."""


@dataclass(frozen=True, slots=True)
class Command:
    """One understood line: a game action, or a console command with its argument."""

    name: str
    """The canonical command word (``act`` for a bare choice number)."""
    action: pyramids.Action | None = None
    arg: str = ""
    words: tuple[str, ...] = field(default=())
    options: Mapping[str, str] | None = None
    """A turn command read from its game's spec alone: its options as typed, for the
    service to read and act on (:meth:`service.GameService.command`)."""


# ---------------------------------------------------------------------- names
def norm(text: str) -> str:
    """Lower case, letters and digits only: how names are compared."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


def slug(text: str) -> str:
    """A name as one typeable word: ``North Africa`` -> ``north-africa``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def split_words(line: str) -> list[str]:
    """Split a line into words, honouring quotes when they are balanced."""
    try:
        return shlex.split(line)
    except ValueError:
        return line.replace('"', " ").replace("'", " ").split()


def field_matches(board: pyramids.Board, text: str) -> tuple[list[str], bool]:
    """The fields ``text`` may name, and whether the match is exact.

    Tried in order, the first level with any hit wins: the whole id or name; a prefix of
    the name or id; the start of one word of the name.
    """
    key = norm(text)
    if not key:
        return [], False
    fields = list(board.fields.values())
    exact = [f.id for f in fields if key in (norm(f.id), norm(f.name))]
    if exact:
        return exact, True
    prefix = [f.id for f in fields if norm(f.name).startswith(key) or norm(f.id).startswith(key)]
    if prefix:
        return prefix, False
    words = [
        f.id
        for f in fields
        if any(norm(w).startswith(key) for w in re.split(r"[^A-Za-z0-9]+", f.name) if w)
    ]
    return words, False


def _compositions(n: int, parts: int) -> list[tuple[int, ...]]:
    """Ways to cut ``n`` words into ``parts`` non-empty runs (as run lengths)."""
    if parts <= 0 or n < parts:
        return []
    out = []
    for cuts in itertools.combinations(range(1, n), parts - 1):
        bounds = (0, *cuts, n)
        out.append(tuple(bounds[i + 1] - bounds[i] for i in range(parts)))
    return out


def resolve_fields(
    board: pyramids.Board,
    words: Sequence[str],
    count: int,
) -> list[tuple[str, ...]]:
    """Every reading of ``words`` as ``count`` field names, best first.

    Readings whose names match exactly come first; within the best score every
    combination of the candidates of each name is returned (so the legal actions can
    choose between them).

    Raises:
        ParseError: too few words, or a word that starts no field name.
    """
    what = "one field" if count == 1 else f"{count} fields"
    if len(words) < count:
        raise ParseError(f"Name {what} here.")
    scored: list[tuple[int, list[list[str]]]] = []
    for lengths in _compositions(len(words), count):
        groups, start, exact_hits = [], 0, 0
        for length in lengths:
            cands, exact = field_matches(board, " ".join(words[start : start + length]))
            if not cands:
                break
            groups.append(cands)
            exact_hits += exact
            start += length
        else:
            scored.append((exact_hits, groups))
    if not scored:
        for i, word in enumerate(words):
            if not any(
                field_matches(board, " ".join(words[i:j]))[0] for j in range(i + 1, len(words) + 1)
            ):
                raise ParseError(
                    f"Unknown field {word!r}. The fields are: "
                    + ", ".join(f.name for f in board.fields.values())
                    + "."
                )
        raise ParseError(f"I could not read {' '.join(words)!r} as {what}.")
    best = max(score for score, _ in scored)
    out: list[tuple[str, ...]] = []
    for score, groups in scored:
        if score == best:
            for combo in itertools.product(*groups):
                if combo not in out:
                    out.append(combo)
    return out


def resolve_player(ctx: Context, text: str) -> list[int]:
    """The seats ``text`` may name: a player's name, a power's (continent's) name, or a
    unique start of either."""
    key = norm(text)
    if not key:
        return []
    names = [norm(n) for n in ctx.names]
    shorts = [norm(n.replace("(computer)", "")) for n in ctx.names]
    exact = [s for s in range(len(names)) if key in (names[s], shorts[s])]
    if exact:
        return exact
    power = ctx.board.power_by_name(text)
    if power is not None and power in ctx.powers:
        return [list(ctx.powers).index(power)]
    return [s for s in range(len(names)) if names[s].startswith(key) or shorts[s].startswith(key)]


def resolve_card(ctx: Context, text: str) -> list[int]:
    """The cards ``text`` may name: a card (``10h``, ``K♠``, ``qs``) or a rank held in the
    hand (``10``, ``k``, ``king``). A rank gives every such card in the hand.

    Raises:
        ParseError: no card of that name (or rank) in the hand, or not a card at all.
    """
    t = text.strip().lower()
    try:
        card = parse_card(t)
    except ValueError:
        card = None
    if card is not None:
        return [card]
    wanted = _RANK_WORDS.get(t)
    if wanted is None and t.isdigit() and 2 <= int(t) <= 10:
        wanted = int(t)
    if wanted is None:
        raise ParseError(f"{text!r} is not a card: try 10h, K♠, qs or just a rank like 7 or k.")
    held = [c for c in sorted(ctx.hand) if rank(c) == wanted]
    if not held:
        raise ParseError(f"You hold no {text.upper()}. Your hand: " + hand_text(ctx.hand))
    return held


def hand_text(hand: Sequence[int]) -> str:
    """A hand in words, by rank: ``3♣ 7♥ 10♠ J♦ A♠`` (or ``(no cards)``)."""
    cards = sorted(hand, key=lambda c: (rank(c), c))
    return " ".join(card_name(c) for c in cards) if cards else "(no cards)"


# ---------------------------------------------------------------------- commands
def parse(line: str, ctx: Context) -> Command:
    """Understand one line typed by the player whose context is ``ctx``.

    Returns a :class:`Command`: ``action`` is set for game actions (already checked
    against the open prompt's choices where names were ambiguous); console commands
    (``hand``, ``log 5``, ``rules duel`` …) come back with their argument.

    Raises:
        ParseError: an unknown word, a field or card that cannot be read, a command of
            the other variant, a choice number out of range.
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
        raise ParseError(f"Unknown command {words[0]!r}. Type help for the list.")
    _check_variant(name, ctx.variant)
    if name in QUERIES:
        return Command(name, None, " ".join(rest), tuple(words))
    spec = commands_of(contract.game_named(ctx.variant)).get(name)
    if spec is not None and name not in HAND_READ:
        try:
            options = split_options(spec, rest, _reader(ctx))
        except ArgumentError as exc:
            raise ParseError(str(exc)) from None
        return Command(name, None, words=tuple(words), options=options)
    if rest and len(rest) == 1 and rest[0].isdigit() and name in ("place", "retreat"):
        return Command(name, _numbered(ctx, int(rest[0])), words=tuple(words))
    return Command(name, _action(name, rest, ctx), words=tuple(words))


def _reader(ctx: Context) -> Callable[[CommandOption, str], bool]:
    """Whether typed text names a value of an option, as the game's words read it."""
    words = contract.game_named(ctx.variant).presentation

    def readable(option: CommandOption, text: str) -> bool:
        if option.choices:
            return text.lower() in {c.word for c in option.choices}
        param = Param(option.fills[0], option.kind)
        return words.value_of(param, text, ctx.view, ctx.names) is not None

    return readable


def _numbered(ctx: Context, number: int) -> pyramids.Action:
    if not ctx.choices:
        raise ParseError("There is nothing to choose right now.")
    if not 1 <= number <= len(ctx.choices):
        raise ParseError(f"Choose a number from 1 to {len(ctx.choices)}.")
    return ctx.choices[number - 1]


def _check_variant(name: str, variant: str) -> None:
    """Refuse a turn command of another game (from the games' specs), or a card word
    in World War 5."""
    game = contract.game_named(variant)
    if game_of_word(name) and name not in commands_of(game):
        raise ParseError(not_in_game(game, name, prefix=""))
    if variant == "world_war_5" and name in CARD_WORDS:
        raise ParseError(
            f"{name!r} is not in this variant: World War 5 has no cards. "
            "Use grow, build, move, invade (or pass when nothing is legal)."
        )


def _action(name: str, rest: list[str], ctx: Context) -> pyramids.Action:
    b = ctx.board
    kind = ctx.prompt_kind
    if name == "pass":
        if kind == "diplomacy":
            return pyramids.LetPass()
        if kind == "duel":
            return pyramids.StopPlaying()
        return pyramids.Pass()
    if name == "arm":
        return pyramids.Arm()
    if name == "let":
        return pyramids.LetPass()
    if name == "stop":
        return _stop_attack(ctx, rest) if kind == "diplomacy" else pyramids.StopPlaying()
    if name == "k":
        return _stop_attack(ctx, rest)
    if name == "play":
        if len(rest) != 1:
            raise ParseError("Say which card: play 10h (or play k, play 7).")
        return _choose(ctx, [pyramids.PlayCard(c) for c in resolve_card(ctx, rest[0])])
    if name == "spy":
        rest, ace = _figure(rest, QUEEN, ctx)
        if not rest:
            raise ParseError("Say whom to spy on: spy PLAYER (a name or a power).")
        seats = resolve_player(ctx, " ".join(rest))
        if not seats:
            raise ParseError(
                f"No player is called {' '.join(rest)!r}. Players: " + ", ".join(ctx.names) + "."
            )
        return _choose(ctx, [pyramids.Spy(s, a) for s in seats for a in ace])
    if name == "sabotage":
        rest, ace = _figure(rest, JACK, ctx)
        return _choose(
            ctx, [pyramids.Sabotage(f[0], a) for f in resolve_fields(b, rest, 1) for a in ace]
        )
    if name in ("conscript", "grow", "build", "retreat"):
        cls = {
            "conscript": pyramids.Conscript,
            "grow": pyramids.Grow,
            "build": pyramids.Build,
            "retreat": pyramids.Retreat,
        }[name]
        return _choose(ctx, [cls(f[0]) for f in resolve_fields(b, rest, 1)])
    if name in ("move", "invade"):
        if len(rest) < 2:
            raise ParseError(f"Say from where to where: {name} FROM TO.")
        cls2 = pyramids.Move if name == "move" else pyramids.Attack
        return _choose(ctx, [cls2(f[0], f[1]) for f in resolve_fields(b, rest, 2)])
    if name == "place":
        by_size = any(a.kind == "place_piece" for a in ctx.choices)
        if by_size or len(rest) == 1:
            return _choose(ctx, [pyramids.PlacePiece(f[0]) for f in resolve_fields(b, rest, 1)])
        if len(rest) < 3:
            raise ParseError("Say which home field gets each size: place LARGE MEDIUM SMALL.")
        return _choose(ctx, [pyramids.PlaceAll(*f) for f in resolve_fields(b, rest, 3)])
    raise ParseError(f"{name!r} cannot be played here.")  # pragma: no cover - table complete


def _figure(rest: list[str], figure: int, ctx: Context) -> tuple[list[str], list[bool]]:
    """Strip a trailing ``[with] a|ace|j|q`` and say which ``ace`` flags to try, best
    first: what the player named, else the figure itself if held, else an A."""
    if len(rest) > 1 and rest[-1].lower() in _ACE_WORDS:
        ace = _ACE_WORDS[rest[-1].lower()]
        rest = rest[:-1]
        if len(rest) > 1 and rest[-1].lower() == "with":
            rest = rest[:-1]
        return rest, [ace]
    holds_figure = any(rank(c) == figure for c in ctx.hand)
    holds_ace = any(rank(c) == ACE for c in ctx.hand)
    return rest, [True, False] if holds_ace and not holds_figure else [False, True]


def _stop_attack(ctx: Context, rest: list[str]) -> pyramids.Action:
    """Stop with K, or with A as K when named (``k ace``) or when no K is held."""
    if rest and rest[-1].lower() in _ACE_WORDS:
        return pyramids.StopAttack(_ACE_WORDS[rest[-1].lower()])
    holds_king = any(rank(c) == KING for c in ctx.hand)
    holds_ace = any(rank(c) == ACE for c in ctx.hand)
    return pyramids.StopAttack(holds_ace and not holds_king)


def _choose(ctx: Context, candidates: list[pyramids.Action]) -> pyramids.Action:
    """The one candidate the open prompt allows; else the only candidate (the service
    gives the reason it is refused); else ask which was meant."""
    unique = list(dict.fromkeys(candidates))
    legal = [a for a in unique if a in ctx.choices]
    pool = legal or unique
    if len(pool) == 1 or len({_shape(a) for a in pool}) == 1:
        return pool[0]
    labels = [action_label(a, ctx.board, ctx.names) for a in pool]
    raise ParseError(
        "Which do you mean: " + "; ".join(labels[:8]) + ("; …" if len(labels) > 8 else "") + "?"
    )


def _shape(action: pyramids.Action) -> tuple[object, ...]:
    """An action without its ``ace`` flag (J-or-A variants count as one for asking)."""
    d = dict(action.to_dict())
    d.pop("ace", None)
    return tuple(sorted((k, str(v)) for k, v in d.items()))


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
    if name == "spy":
        pool = [slug(n.replace("(computer)", "")) for n in ctx.names]
    elif name == "play":
        pool = [_ascii_card(c) for c in sorted(ctx.hand)]
    elif name == "rules":
        from service.rulebook import topics

        pool = [t if " " not in t else slug(t) for t in topics(ctx.variant)]
    elif name in ("place", "conscript", "grow", "build", "move", "invade", "sabotage", "retreat"):
        pool = [slug(f.name) for f in ctx.board.fields.values()]
    else:
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


def _banned(word: str, variant: str) -> bool:
    try:
        _check_variant(word, variant)
    except ParseError:
        return True
    return False


def _ascii_card(card: int) -> str:
    return card_name(card)[:-1].lower() + "cdhs"[card % 4]
