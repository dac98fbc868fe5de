"""The pyramid games typed at a keyboard: their :class:`~rules.presentation.LineReader`.

Field names are case-insensitive and ignore spaces and punctuation (``france``,
``France+Benelux``, ``north-africa``, ``"north africa"``, ``north_africa``), a unique
prefix or the start of one word of a name is enough (``benelux``), and several names in a
row are split where they fit the board (``invade north africa italy``). When a name could
mean several fields, the legal actions of the open decision decide; if they cannot, the
player is asked which one was meant. Cards are read by name or rank, an A stands in for a
figure when that is what the hand allows, and the words play / stop / k / let / retreat
answer the duels, diplomacy windows and retreats. Also the board, a duel and a hand as text.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from ..presentation import Typed, Unreadable
from .actions import (
    Action,
    Arm,
    Attack,
    Build,
    Conscript,
    Grow,
    LetPass,
    Move,
    Pass,
    PlaceAll,
    PlacePiece,
    PlayCard,
    Retreat,
    Sabotage,
    Spy,
    StopAttack,
    StopPlaying,
)
from .board import Board, load_board
from .cards import ACE, JACK, KING, QUEEN, card_name, figure_card, parse_card, rank
from .catalogue import _, n_, p_
from .state import size_label
from .variant import options_words
from .view import View
from .words import action_label

CARD_WORDS: dict[str, tuple[str, ...]] = {
    "play": (),
    "stop": (),
    "k": ("stop-attack", "stopattack", "king"),
    "let": ("let-pass", "letpass", "let-it-pass"),
}
"""The words answering European War's duels and diplomacy windows, with their aliases."""
SHARED_WORDS: dict[str, tuple[str, ...]] = {"invade": ("attack",), "retreat": ()}
"""Words of both games: an alias of /invade, and the answer to a retreat."""
READ = frozenset(
    {"place", "conscript", "grow", "build", "move", "invade", "arm", "pass", "sabotage", "spy"}
    | {"play", "stop", "k", "let", "retreat"}
)
"""The words read here (the other turn commands, none today, read from the spec)."""
FIELD_WORDS = frozenset(
    {"place", "conscript", "grow", "build", "move", "invade", "sabotage", "retreat"}
)
"""Words followed by field names (for completion)."""

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
SIZE_LETTERS = {1: "S", 2: "M", 3: "L"}
COMMAND_WORDS = {
    "european_war": (
        *("place", "conscript", "move", "invade", "arm", "pass", "sabotage", "spy"),
        *("play", "stop", "k", "let", "retreat"),
    ),
    "world_war_5": ("place", "grow", "build", "move", "invade", "pass", "retreat"),
}
"""Each game's typed command words that have a word of their own in another language."""


def local_word(word: str) -> str:
    """The current language's one typeable word for command ``word`` (``word`` itself in
    English)."""
    words = {
        "place": p_("typed word", "place"),
        "conscript": p_("typed word", "conscript"),
        "grow": p_("typed word", "grow"),
        "build": p_("typed word", "build"),
        "move": p_("typed word", "move"),
        "invade": p_("typed word", "invade"),
        "arm": p_("typed word", "arm"),
        "pass": p_("typed word", "pass"),
        "sabotage": p_("typed word", "sabotage"),
        "spy": p_("typed word", "spy"),
        "play": p_("typed word", "play"),
        "stop": p_("typed word", "stop"),
        "k": p_("typed word", "k"),
        "let": p_("typed word", "let"),
        "retreat": p_("typed word", "retreat"),
    }
    found = words.get(word, word).strip().lower()
    return found if found and " " not in found else word


# ---------------------------------------------------------------------- names
def norm(text: str) -> str:
    """Lower case, letters and digits only, accents dropped: how names are compared."""
    plain = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in plain if ch.isalnum())


def slug(text: str) -> str:
    """A name as one typeable word: ``North Africa`` -> ``north-africa``,
    ``Jižní Afrika`` -> ``jižní-afrika``."""
    return re.sub(r"[\W_]+", "-", text.lower()).strip("-")


def field_matches(board: Board, text: str) -> tuple[list[str], bool]:
    """The fields ``text`` may name, and whether the match is exact.

    Tried in order, the first level with any hit wins: the whole id or name; a prefix of
    the name or id; the start of one word of the name.
    """
    key = norm(text)
    if not key:
        return [], False
    fields = list(board.fields.values())
    exact = [f.id for f in fields if key in (norm(f.id), *map(norm, f.names()))]
    if exact:
        return exact, True
    prefix = [
        f.id
        for f in fields
        if norm(f.id).startswith(key) or any(norm(n).startswith(key) for n in f.names())
    ]
    if prefix:
        return prefix, False
    words = [
        f.id
        for f in fields
        if any(norm(w).startswith(key) for n in f.names() for w in re.split(r"[\W_]+", n) if w)
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


def resolve_fields(board: Board, words: Sequence[str], count: int) -> list[tuple[str, ...]]:
    """Every reading of ``words`` as ``count`` field names, best first.

    Readings whose names match exactly come first; within the best score every
    combination of the candidates of each name is returned (so the legal actions can
    choose between them).

    Raises:
        Unreadable: too few words, or a word that starts no field name.
    """
    if len(words) < count:
        raise Unreadable(n_("Name one field here.", "Name {n} fields here.", count).format(n=count))
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
                raise Unreadable(
                    _("Unknown field {word}. The fields are: {fields}.").format(
                        word=repr(word), fields=", ".join(f.name for f in board.fields.values())
                    )
                )
        raise Unreadable(
            n_(
                "I could not read {words} as one field.",
                "I could not read {words} as {n} fields.",
                count,
            ).format(words=repr(" ".join(words)), n=count)
        )
    best = max(score for score, _groups in scored)
    out: list[tuple[str, ...]] = []
    for score, groups in scored:
        if score == best:
            for combo in itertools.product(*groups):
                if combo not in out:
                    out.append(combo)
    return out


def resolve_player(typed: Typed, board: Board, text: str) -> list[int]:
    """The seats ``text`` may name: a player's name, a power's (continent's) name, or a
    unique start of either."""
    key = norm(text)
    if not key:
        return []
    names = [norm(n) for n in typed.names]
    shorts = [norm(without_computer(n)) for n in typed.names]
    exact = [s for s in range(len(names)) if key in (names[s], shorts[s])]
    if exact:
        return exact
    power = board.power_by_name(text)
    if power is not None and power in typed.powers:
        return [list(typed.powers).index(power)]
    return [s for s in range(len(names)) if names[s].startswith(key) or shorts[s].startswith(key)]


def without_computer(name: str) -> str:
    """A computer player's name without its "(computer)" mark (English or translated)."""
    mark = _("{power} (computer)").format(power="").strip()
    return name.replace("(computer)", "").replace(mark, "").strip()


def resolve_card(hand: Sequence[int], text: str) -> list[int]:
    """The cards ``text`` may name: a card (``10h``, ``K♠``, ``qs``) or a rank held in the
    hand (``10``, ``k``, ``king``). A rank gives every such card in the hand.

    Raises:
        Unreadable: no card of that name (or rank) in the hand, or not a card at all.
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
        raise Unreadable(
            _("{text} is not a card: try 10h, K♠, qs or just a rank like 7 or k.").format(
                text=repr(text)
            )
        )
    held = [c for c in sorted(hand) if rank(c) == wanted]
    if not held:
        raise Unreadable(
            _("You hold no {rank}. Your hand: {hand}").format(
                rank=text.upper(), hand=hand_text(hand)
            )
        )
    return held


def hand_text(hand: Sequence[int]) -> str:
    """A hand in words, by rank: ``3♣ 7♥ 10♠ J♦ A♠`` (or ``(no cards)``)."""
    cards = sorted(hand, key=lambda c: (rank(c), c))
    return " ".join(card_name(c) for c in cards) if cards else _("(no cards)")


def hand_line(hand: Sequence[int] | None) -> str:
    """``Your hand (5): …``."""
    cards = tuple(hand or ())
    return _("Your hand ({n}): {cards}").format(n=len(cards), cards=hand_text(cards))


def ascii_card(card: int) -> str:
    """A card as typed without suit symbols: ``ks``, ``10h``."""
    return card_name(card)[:-1].lower() + "cdhs"[card % 4]


# ---------------------------------------------------------------------- the board as text
def board_text(view: View, board: Board, names: Sequence[str]) -> list[str]:
    """Every field with its piece, grouped by power (or continent), then each player's
    supply and hand size."""
    owner = {sv.power: sv.seat for sv in view.seats}
    width = max(len(f.name) for f in board.fields.values())
    lines: list[str] = []
    for power in board.powers.values():
        seat = owner.get(power.id)
        who = names[seat] if seat is not None and seat < len(names) else _("not played")
        lines.append(_("{power} — {player}").format(power=power.name, player=who))
        for fid in power.fields:
            f = board.fields[fid]
            piece = view.pieces.get(fid)
            if piece is None:
                where = "·"
            else:
                s, size = piece
                label = size_label(size).ljust(max(map(len, map(size_label, (1, 2, 3)))))
                where = f"{label} {names[s] if s < len(names) else s}"
            sea = "  " + harbour_tag(f.harbour) if f.harbour else ""
            lines.append(f"  {f.name:<{width}}  {where}{sea}")
    lines.append(supply_line(view, names))
    return lines


def harbour_tag(group: str) -> str:
    """A field's harbour group as the board text tags it ("[atlantic harbour]")."""
    groups = {"atlantic": _("[atlantic harbour]"), "mediterranean": _("[mediterranean harbour]")}
    return groups.get(group) or _("[{group} harbour]").format(group=group)


def supply_line(view: View, names: Sequence[str]) -> str:
    """Each player's supply (small/medium/large off the board) and hand size."""
    cards_dealt = view.variant == "european_war"
    parts = []
    for sv in view.seats:
        s, m, large = sv.supply
        who = names[sv.seat]
        if sv.eliminated:
            who = _("{player} (out)").format(player=who)
        if cards_dealt:
            part = n_(
                "{player}: supply {small}S {medium}M {large}L, {n} card",
                "{player}: supply {small}S {medium}M {large}L, {n} cards",
                sv.hand_size,
            )
        else:
            part = _("{player}: supply {small}S {medium}M {large}L")
        parts.append(part.format(player=who, small=s, medium=m, large=large, n=sv.hand_size))
    if cards_dealt:
        return _("Supply — {supplies} · draw pile {pile}, discard {discard}").format(
            supplies="; ".join(parts), pile=view.pile_size, discard=len(view.discard)
        )
    return _("Supply — {supplies}").format(supplies="; ".join(parts))


def duel_text(view: View, board: Board, names: Sequence[str]) -> str | None:
    """The duel's standing: cards played face up, totals and limits (EW-16..18)."""
    b = view.battle
    if b is None or b.stage != "duel":
        return None

    def side(seat: int, size: int, cards: Sequence[int], total: int, limit: int, done: bool) -> str:
        played = " ".join(card_name(c) for c in cards) or _("no card yet")
        text = (
            _("{player} ({size}, up to {limit}): {cards} = {total}, stopped")
            if done
            else _("{player} ({size}, up to {limit}): {cards} = {total}")
        )
        return text.format(
            player=names[seat], size=size_label(size), limit=limit, cards=played, total=total
        )

    return _(
        "Duel on {field} — {attacker} against {defender}. "
        "The attacker needs a higher total (EW-18)."
    ).format(
        field=board.fields[b.dst].name,
        attacker=side(
            b.attacker,
            b.attacker_size,
            b.attacker_cards,
            b.attacker_total,
            b.attacker_limit,
            b.attacker_done,
        ),
        defender=side(
            b.defender,
            b.defender_size,
            b.defender_cards,
            b.defender_total,
            b.defender_limit,
            b.defender_done,
        ),
    )


# ---------------------------------------------------------------------- the reader
class PyramidReader:
    """The :class:`~rules.presentation.LineReader` of one pyramid game."""

    def __init__(self, variant: str, cards: bool) -> None:
        self.variant = variant
        self.cards = cards

    @property
    def tagline(self) -> str:
        """ "cards, duels, diplomacy" or "dice", in the current language."""
        return _("cards, duels, diplomacy") if self.cards else _("dice")

    def words(self) -> Mapping[str, tuple[str, ...]]:
        """/invade's alias, the answer to a retreat, and (with cards) play / stop / k / let;
        and the current language's word for each of the game's command words."""
        own = dict(SHARED_WORDS | (CARD_WORDS if self.cards else {}))
        for word in COMMAND_WORDS[self.variant]:
            local = local_word(word)
            if local != word:
                own[word] = (*own.get(word, ()), local)
        return own

    def refusal(self, word: str) -> str | None:
        """Card words, and ``hand``, in the game without cards."""
        if not self.cards and word in CARD_WORDS:
            return _(
                "{word} is not in this variant: World War 5 has no cards. "
                "Use grow, build, move, invade (or pass when nothing is legal)."
            ).format(word=repr(word))
        if not self.cards and word == "hand":
            return _("World War 5 has no cards: nothing is hidden, `board` shows everything.")
        return None

    def read(self, word: str, rest: Sequence[str], typed: Typed) -> Action | None:
        """The action of ``word`` with forgiving names (see the module)."""
        if word not in READ:
            return None
        _check_answer(word, typed)
        if len(rest) == 1 and rest[0].isdigit() and word in ("place", "retreat"):
            return _numbered(typed, int(rest[0]))
        return _action(word, list(rest), typed, _board(typed))

    def completions(self, word: str, typed: Typed) -> list[str] | None:
        """Players after spy, cards after play, field names after the field commands."""
        if word == "spy":
            return [slug(without_computer(n)) for n in typed.names]
        if word == "play":
            return [ascii_card(c) for c in sorted(typed.hand)]
        if word in FIELD_WORDS:
            return [slug(f.name) for f in _board(typed).fields.values()]
        return None

    def help_lines(self) -> list[str]:
        """The answers to retreats (and with cards: duels and diplomacy windows)."""
        if not self.cards:
            return [_help_line("retreat FIELD", _("where your beaten piece goes (WW-3)"))]
        return [
            "   " + _("(place FIELD when the sizes are placed one at a time)"),
            _help_line("play CARD / stop", _("in a duel: 10h, K♠, qs, or a rank (7, k); stop")),
            _help_line(
                "k / let", _("in a diplomacy window: stop it with K (or A), or let it pass")
            ),
            _help_line("retreat FIELD", _("where your beaten piece goes (EW-19)")),
        ]

    def help_notes(self) -> list[str]:
        """How field names may be typed, with names of this game's board."""
        board = load_board(self.variant)
        names = [f.name for f in board.fields.values()]
        one = next(n for n in names if " " not in n)
        two = next((n for n in names if len(n.split()) == 2), one)
        text = (
            _(
                "Field names: any case, a unique start is enough ({one}, {slug}, "
                '"{two}"); Tab completes them.'
            )
            if self.cards
            else _(
                "Territory names: any case, a unique start is enough ({one}, {slug}, "
                '"{two}"); Tab completes them.'
            )
        )
        return [text.format(one=one.lower(), slug=slug(two), two=two.lower())]

    def note(self, action: Any, typed: Typed) -> str | None:
        """Say so when an A is about to be spent in place of a figure (EW-8, EW-13)."""
        if not isinstance(action, Sabotage | Spy | StopAttack) or not action.ace:
            return None
        figure = {Sabotage: JACK, Spy: QUEEN, StopAttack: KING}[type(action)]
        ace = figure_card(typed.hand, figure, True)
        if ace is None:
            return None
        letter = {JACK: "J", QUEEN: "Q", KING: "K"}[figure]
        held = figure_card(typed.hand, figure, False) is not None
        text = (
            _("Your {card} stands in for a {letter}.")
            if held
            else _("Your {card} stands in for a {letter} (you hold no {letter}).")
        )
        return text.format(card=card_name(ace), letter=letter)

    def prompt_lines(
        self, kind: str, text: str, view: Any, names: Sequence[str], seat: int, hand_due: bool
    ) -> list[str]:
        """Whose turn (on a turn), the question, a duel's standing, and the hand."""
        board = _board_of(view)
        me = view.seats[seat] if seat < len(view.seats) else None
        power = board.powers[me.power].name if me is not None and me.power in board.powers else ""
        lines = []
        if kind in ("turn", "action"):
            who = _("{name} ({power})").format(name=names[seat], power=power)
            lines.append(
                _("── Turn {turn}, round {round}: {who} to play ──").format(
                    turn=view.turn, round=view.round, who=who
                )
            )
        lines.append(text)
        duel = duel_text(view, board, names)
        if duel:
            lines.append(duel)
        asks_cards = kind in ("turn", "duel", "diplomacy", "action")
        if self.cards and (asks_cards or (hand_due and view.hand)):
            lines.append(hand_line(view.hand))
        return lines

    def numbers(self, kind: str, view: Any, choices: Sequence[Any]) -> list[int]:
        """A duel's cards by their place in the hand the player began the duel with (as
        a hand is shown, by rank), *Stop playing* after the last of them; a placement's
        home fields by their place among the player's three; any other answer by its
        place in the prompt (a diplomacy window's answers come in a fixed order)."""
        plain = list(range(1, len(choices) + 1))
        me = view.viewer if view is not None else None
        if me is None or not 0 <= me < len(view.seats):
            return plain
        if kind == "duel" and view.battle is not None:
            b = view.battle
            played = b.attacker_cards if me == b.attacker else b.defender_cards
            began = sorted({*(view.hand or ()), *played})  # card order is rank order
            place = {card: n for n, card in enumerate(began, start=1)}
            stop = len(began) + 1
            out = [place.get(a.card, 0) if isinstance(a, PlayCard) else stop for a in choices]
        elif choices and all(isinstance(a, PlacePiece) for a in choices):
            home = list(_board_of(view).powers[view.seats[me].power].fields)
            out = [home.index(a.field) + 1 if a.field in home else 0 for a in choices]
        else:
            return plain
        # a choice this numbering does not know (never expected) falls back to places
        return out if 0 not in out and len(set(out)) == len(out) else plain

    def board_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """Every field with its piece, then the supplies."""
        return board_text(view, _board_of(view), names)

    def hand_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """The hand, and the cards espionage showed."""
        if not self.cards:
            return [_("World War 5 has no cards.")]
        lines = [hand_line(view.hand)]
        for seat, cards in sorted(view.known_cards.items()):
            shown = " ".join(card_name(c) for c in cards)
            lines.append(
                "  "
                + _("{player} holds (you saw): {cards}").format(player=names[seat], cards=shown)
            )
        return lines

    def confirm(self, action: Any, view: Any, seat: int) -> str | None:
        """Moving (or attacking) the last piece out of the player's home fields (EW-20)."""
        if not isinstance(action, Move | Attack) or view is None or seat >= len(view.seats):
            return None
        board = _board_of(view)
        home = board.powers[view.seats[seat].power].fields
        mine = [f for f in home if view.pieces.get(f, (-1, 0))[0] == seat]
        if mine != [action.src]:
            return None
        text = (
            _(
                "Moving out of {field} leaves none of your pieces at home: you would fall, "
                "which can end the game against you (EW-20). Do it?"
            )
            if isinstance(action, Move)
            else _(
                "Winning this attack out of {field} leaves none of your pieces at home: you "
                "would fall, which can end the game against you (EW-20). Do it?"
            )
        )
        return text.format(field=board.fields[action.src].name)


def _board_of(view: View) -> Board:
    return load_board(view.board_id, bool(view.options.get("pyramid_arcade")))


def _board(typed: Typed) -> Board:
    """The board of the line's game: the one given, else the view's."""
    return typed.board if typed.board is not None else _board_of(typed.view)


_ANSWERS = {
    "play": ("duel",),
    "stop": ("duel", "diplomacy"),
    "k": ("diplomacy",),
    "let": ("diplomacy",),
    "retreat": ("retreat",),
}
"""The decisions each answer word answers."""


def _not_now(decision: str, variant: str) -> str:
    """Why an answer word answers nothing now."""
    if decision == "duel":
        return _("There is no duel to play a card in now (EW-17)")
    if decision == "diplomacy":
        return _("No attack waits for a diplomacy answer now (EW-13)")
    if variant == "world_war_5":
        return _("None of your pieces has to retreat now (WW-3)")
    return _("None of your pieces has to retreat now (EW-19)")


def _help_line(words: str, what: str) -> str:
    """A help line: the typed words in a column, then what they do."""
    return f"{words:<28}{what}"


def _check_answer(word: str, typed: Typed) -> None:
    """Refuse an answer word while the player decides something else (without an open
    decision the engine says whose turn it is), naming what the player may do instead.

    Raises:
        Unreadable: the word answers another decision.
    """
    answers = _ANSWERS.get(word)
    if answers is None or typed.prompt_kind is None or typed.prompt_kind in answers:
        return
    why = _not_now(answers[0], typed.variant)
    now = options_words(typed.choices)
    if now:
        raise Unreadable(_("{why}. You can: {options}.").format(why=why, options=now))
    raise Unreadable(_("{why}.").format(why=why))


def _numbered(typed: Typed, number: int) -> Action:
    action: Action = typed.numbered(number)
    return action


def _action(name: str, rest: list[str], typed: Typed, b: Board) -> Action:
    kind = typed.prompt_kind
    if name == "pass":
        if kind == "diplomacy":
            return LetPass()
        if kind == "duel":
            return StopPlaying()
        return Pass()
    if name == "arm":
        return Arm()
    if name == "let":
        return LetPass()
    if name == "stop":
        return _stop_attack(typed, rest) if kind == "diplomacy" else StopPlaying()
    if name == "k":
        return _stop_attack(typed, rest)
    if name == "play":
        if len(rest) != 1:
            raise Unreadable(_("Say which card: play 10h (or play k, play 7)."))
        return _choose(typed, b, [PlayCard(c) for c in resolve_card(typed.hand, rest[0])])
    if name == "spy":
        rest, ace = _figure(rest, QUEEN, typed)
        if not rest:
            raise Unreadable(_("Say whom to spy on: spy PLAYER (a name or a power)."))
        seats = resolve_player(typed, b, " ".join(rest))
        if not seats:
            raise Unreadable(
                _("No player is called {name}. Players: {players}.").format(
                    name=repr(" ".join(rest)), players=", ".join(typed.names)
                )
            )
        return _choose(typed, b, [Spy(s, a) for s in seats for a in ace])
    if name == "sabotage":
        rest, ace = _figure(rest, JACK, typed)
        return _choose(
            typed, b, [Sabotage(f[0], a) for f in resolve_fields(b, rest, 1) for a in ace]
        )
    if name in ("conscript", "grow", "build", "retreat"):
        cls = {"conscript": Conscript, "grow": Grow, "build": Build, "retreat": Retreat}[name]
        return _choose(typed, b, [cls(f[0]) for f in resolve_fields(b, rest, 1)])
    if name in ("move", "invade"):
        if len(rest) < 2:
            raise Unreadable(_("Say from where to where: {command} FROM TO.").format(command=name))
        cls2 = Move if name == "move" else Attack
        return _choose(typed, b, [cls2(f[0], f[1]) for f in resolve_fields(b, rest, 2)])
    # place
    by_size = any(a.kind == "place_piece" for a in typed.choices)
    if by_size or len(rest) == 1:
        return _choose(typed, b, [PlacePiece(f[0]) for f in resolve_fields(b, rest, 1)])
    if len(rest) < 3:
        raise Unreadable(_("Say which home field gets each size: place LARGE MEDIUM SMALL."))
    return _choose(typed, b, [PlaceAll(*f) for f in resolve_fields(b, rest, 3)])


def _figure(rest: list[str], figure: int, typed: Typed) -> tuple[list[str], list[bool]]:
    """Strip a trailing ``[with] a|ace|j|q`` and say which ``ace`` flags to try, best
    first: what the player named, else the figure itself if held, else an A."""
    if len(rest) > 1 and rest[-1].lower() in _ACE_WORDS:
        ace = _ACE_WORDS[rest[-1].lower()]
        rest = rest[:-1]
        if len(rest) > 1 and rest[-1].lower() == "with":
            rest = rest[:-1]
        return rest, [ace]
    holds_figure = any(rank(c) == figure for c in typed.hand)
    holds_ace = any(rank(c) == ACE for c in typed.hand)
    return rest, [True, False] if holds_ace and not holds_figure else [False, True]


def _stop_attack(typed: Typed, rest: list[str]) -> Action:
    """Stop with K, or with A as K when named (``k ace``) or when no K is held."""
    if rest and rest[-1].lower() in _ACE_WORDS:
        return StopAttack(_ACE_WORDS[rest[-1].lower()])
    holds_king = any(rank(c) == KING for c in typed.hand)
    holds_ace = any(rank(c) == ACE for c in typed.hand)
    return StopAttack(holds_ace and not holds_king)


def _choose(typed: Typed, board: Board, candidates: list[Action]) -> Action:
    """The one candidate the open decision allows; else the only candidate (the service
    gives the reason it is refused); else ask which was meant."""
    unique = list(dict.fromkeys(candidates))
    legal = [a for a in unique if a in typed.choices]
    pool = legal or unique
    if len(pool) == 1 or len({_shape(a) for a in pool}) == 1:
        return pool[0]
    labels = [action_label(a, board, typed.names) for a in pool]
    shown = "; ".join(labels[:8]) + ("; …" if len(labels) > 8 else "")
    raise Unreadable(_("Which do you mean: {choices}?").format(choices=shown))


def _shape(action: Action) -> tuple[object, ...]:
    """An action without its ``ace`` flag (J-or-A variants count as one for asking)."""
    d = dict(action.to_dict())
    d.pop("ace", None)
    return tuple(sorted((k, str(v)) for k, v in d.items()))
