"""The game state shared by every variant, its storage form, and who must decide now.

A :class:`GameState` is mutable and cheap to copy by hand (:meth:`GameState.copy`). The
rules of each variant live in a :class:`~rules.variant.VariantRules` object; the state
delegates ``deciders``, ``legal_actions`` and ``apply`` to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..choices import kinds_of, values_of
from ..contract import Decision, OnTimeout, Result, Value
from ..errors import InvalidState, RulesError
from ..rng import Rng
from .board import Board, load_board
from .catalogue import p_
from .options import VARIANTS, Options

if TYPE_CHECKING:
    from ..events import Event
    from .actions import Action
    from .variant import VariantRules
    from .view import View

SCHEMA_VERSION = 1
SMALL, MEDIUM, LARGE = 1, 2, 3
SIZE_NAMES = {SMALL: "small", MEDIUM: "medium", LARGE: "large"}
"""The sizes' ids (as stored and typed); :func:`size_word` names them for people."""


def size_word(size: int) -> str:
    """A piece of ``size`` in the current language, as the subject of a sentence (or
    standing alone): "small", "kleine Figur"."""
    words = {
        SMALL: p_("piece", "small"),
        MEDIUM: p_("piece", "medium"),
        LARGE: p_("piece", "large"),
    }
    return words[size]


def size_label(size: int) -> str:
    """A size as a short label in the current language ("small", "klein"): a board's
    tag, a column of the board as text."""
    words = {
        SMALL: p_("size", "small"),
        MEDIUM: p_("size", "medium"),
        LARGE: p_("size", "large"),
    }
    return words[size]


def size_object(size: int) -> str:
    """A piece of ``size`` in the current language as the object of a sentence ("placed
    a small"): "small", "malou figurku"."""
    words = {
        SMALL: p_("piece, object", "small"),
        MEDIUM: p_("piece, object", "medium"),
        LARGE: p_("piece, object", "large"),
    }
    return words[size]


PIECES_PER_SIZE = 3

# Phases: who decides what (see GameState.deciders).
SETUP = "setup"
TURN = "turn"
DIPLOMACY = "diplomacy"
DUEL = "duel"
RETREAT = "retreat"
OVER = "over"
PHASES = (SETUP, TURN, DIPLOMACY, DUEL, RETREAT, OVER)

# Decision kinds.
DECIDE_SETUP = "setup"
DECIDE_TURN = "turn"
"""The turn's special phase and action (EW-8, EW-11), or World War 5's one option."""
DECIDE_ACTION = "action"
"""An action after a stopped attack: no special phase, no attack (EW-14)."""
DECIDE_DIPLOMACY = "diplomacy"
DECIDE_DUEL = "duel"
DECIDE_RETREAT = "retreat"


class Battle:
    """A declared attack: the diplomacy window, the duel and the retreat that follow."""

    __slots__ = (
        "attacker",
        "attacker_cards",
        "attacker_done",
        "attacker_next",
        "attacker_size",
        "defender",
        "defender_cards",
        "defender_done",
        "defender_size",
        "dst",
        "retreat_options",
        "src",
    )

    def __init__(
        self,
        attacker: int,
        defender: int,
        src: str,
        dst: str,
        attacker_size: int,
        defender_size: int,
    ) -> None:
        self.attacker = attacker
        self.defender = defender
        self.src = src
        self.dst = dst
        self.attacker_size = attacker_size
        self.defender_size = defender_size
        self.attacker_cards: list[int] = []
        self.defender_cards: list[int] = []
        self.attacker_done = False
        self.defender_done = False
        self.attacker_next = True
        self.retreat_options: list[str] = []

    def copy(self) -> Battle:
        """Return an independent copy."""
        b = Battle(
            self.attacker,
            self.defender,
            self.src,
            self.dst,
            self.attacker_size,
            self.defender_size,
        )
        b.attacker_cards = self.attacker_cards[:]
        b.defender_cards = self.defender_cards[:]
        b.attacker_done = self.attacker_done
        b.defender_done = self.defender_done
        b.attacker_next = self.attacker_next
        b.retreat_options = self.retreat_options[:]
        return b

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-compatible dict."""
        return {name: getattr(self, name) for name in self.__slots__}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Battle:
        """Rebuild from :meth:`to_dict` output (types checked by the caller's validation)."""
        b = Battle(
            int(data["attacker"]),
            int(data["defender"]),
            str(data["src"]),
            str(data["dst"]),
            int(data["attacker_size"]),
            int(data["defender_size"]),
        )
        b.attacker_cards = [int(c) for c in data["attacker_cards"]]
        b.defender_cards = [int(c) for c in data["defender_cards"]]
        b.attacker_done = bool(data["attacker_done"])
        b.defender_done = bool(data["defender_done"])
        b.attacker_next = bool(data["attacker_next"])
        b.retreat_options = [str(f) for f in data["retreat_options"]]
        return b


_RULES: dict[str, VariantRules] = {}
"""The rules object of each variant asked for so far (see :attr:`GameState.rules`)."""


class GameState:
    """Everything about one game. Mutated only through :meth:`apply`.

    Seats are numbered 0..n-1 in turn (clockwise) order; the player after you in that
    order is your arch-enemy (EW-6). ``origins[i]`` is the index, in the list given to
    :func:`rules.new_game`, of the player who got seat ``i``.
    """

    __slots__ = (
        "attack_barred",
        "battle",
        "board",
        "chance_steps",
        "current",
        "discard",
        "draw",
        "eliminated",
        "end_reason",
        "first",
        "forced",
        "hands",
        "knowledge",
        "last_roll",
        "options",
        "origins",
        "pending",
        "phase",
        "pieces",
        "pile",
        "rng",
        "round",
        "sabotage_used",
        "seats",
        "setup_queue",
        "special_over",
        "turn",
        "variant",
        "winners",
    )

    def __init__(self, variant: str, options: Options, seats: list[str], seed: int) -> None:
        self.variant = variant
        self.options = options
        self.board: Board = load_board(
            "world_war_5" if variant == "world_war_5" else "european_war",
            options.pyramid_arcade and variant == "world_war_5",
        )
        self.seats = seats
        self.origins = list(range(len(seats)))
        self.pieces: dict[str, tuple[int, int]] = {}
        self.phase = SETUP
        self.current = 0
        self.first = 0
        self.turn = 0
        self.round = 0
        self.rng = Rng(seed)
        self.forced: list[Any] = []
        self.chance_steps: list[Event] = []
        self.setup_queue: list[tuple[int, int]] = []
        self.hands: list[list[int]] = [[] for _seat in seats]
        self.pile: list[int] = []
        self.discard: list[int] = []
        self.sabotage_used = False
        self.special_over = False
        self.attack_barred = False
        self.battle: Battle | None = None
        self.pending: list[int] = []
        self.knowledge: list[dict[int, list[int]]] = [{} for _seat in seats]
        self.eliminated: list[bool] = [False for _seat in seats]
        self.last_roll: dict[str, Any] | None = None
        self.winners: list[int] = []
        self.draw = False
        self.end_reason = ""

    # ------------------------------------------------------------------ rules access
    @property
    def rules(self) -> VariantRules:
        """The variant's rules object (looked up once per variant: playouts ask often)."""
        found = _RULES.get(self.variant)
        if found is None:
            from .variant import rules_for

            found = _RULES[self.variant] = rules_for(self.variant)
        return found

    @property
    def over(self) -> bool:
        """True once the game has ended (winners or a draw)."""
        return self.phase == OVER

    def deciders(self) -> list[Decision]:
        """Who must decide now, and what (several players during a diplomacy window)."""
        return self.rules.deciders(self)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal action for ``seat`` now (empty when it need not decide)."""
        return self.rules.legal_actions(self, seat)

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Check and apply ``action`` by ``seat``; return the events it caused.

        The state is changed only when the action is legal.

        Raises:
            GameOver: the game has ended.
            NotYourTurn: ``seat`` need not decide now.
            IllegalAction: the action breaks a rule (the message names it).
        """
        try:
            events = self.rules.apply(self, seat, action)
        except RulesError:
            self.chance_steps.clear()
            raise
        return self.take_chance_steps() + events if self.chance_steps else events

    def _apply_unchecked(self, seat: int, action: Action) -> None:
        """The private, unchecked twin of :meth:`apply`, for the computer players'
        playouts: ``action`` must be one of :meth:`legal_actions` for a deciding ``seat``.

        It skips what a legal action cannot fail (the game being over, whose decision it
        is, a draw or a timeout) and keeps no events; an action that is not legal may
        leave the state inconsistent. Anything a person or the platform sends goes
        through :meth:`apply`.
        """
        self.rules.apply_unchecked(self, seat, action)
        self.chance_steps.clear()

    def take_chance_steps(self) -> list[Event]:
        """The chance events recorded since the last call, oldest first (then forgotten)."""
        steps, self.chance_steps = self.chance_steps, []
        return steps

    # ------------------------------------------------------------------ the game contract
    @property
    def game_name(self) -> str:
        """The registry name of the game (its variant)."""
        return self.variant

    def result(self) -> Result | None:
        """How the game ended (winning seats, or a draw), or ``None`` while it goes on."""
        if not self.over:
            return None
        return Result(tuple(self.winners), self.draw, self.end_reason)

    def kinds(self, seat: int) -> tuple[str, ...]:
        """The action kinds ``seat`` may take now, in the order the rules list them."""
        return kinds_of(self.legal_actions(seat))

    def values(self, seat: int, kind: str, chosen: Mapping[str, Value]) -> tuple[Value, ...]:
        """The legal values of ``kind``'s next parameter, given the ones ``chosen``."""
        return values_of(self.legal_actions(seat), kind, chosen)

    def is_legal(self, seat: int, action: Action) -> bool:
        """True when ``seat`` may take ``action`` now (checked on a copy)."""
        try:
            self.copy().apply(seat, action)
        except RulesError:
            return False
        return True

    def on_timeout(self, decision: Decision) -> OnTimeout:
        """What happens when ``decision``'s time runs out (the variant's rule)."""
        return self.rules.on_timeout(self, decision)

    def view_for(self, seat: int | None) -> View:
        """What ``seat`` (``None``: a spectator) may see; see :func:`rules.view.view_for`."""
        from .view import view_for

        return view_for(self, seat)

    def force_chance(self, outcomes: Sequence[Any]) -> None:
        """Make the next chance steps come out as ``outcomes`` (see :mod:`rules.chance`)."""
        self.forced.extend(outcomes)

    @property
    def sides(self) -> tuple[str, ...]:
        """Each seat's power (European War) or continent (World War 5)."""
        return tuple(self.seats)

    # ------------------------------------------------------------------ shared facts
    @property
    def player_count(self) -> int:
        """Number of seats."""
        return len(self.seats)

    def home_fields(self, seat: int) -> tuple[str, ...]:
        """The three original fields of ``seat``'s power (EW-12)."""
        return self.board.powers[self.seats[seat]].fields

    def supply(self, seat: int) -> list[int]:
        """Pieces of ``seat`` not on the board, indexed by size (index 0 unused)."""
        counts = [0, PIECES_PER_SIZE, PIECES_PER_SIZE, PIECES_PER_SIZE]
        for owner, size in self.pieces.values():
            if owner == seat:
                counts[size] -= 1
        return counts

    def next_seat(self, seat: int) -> int:
        """The next seat in turn order that is still in the game."""
        n = len(self.seats)
        s = (seat + 1) % n
        while self.eliminated[s] and s != seat:
            s = (s + 1) % n
        return s

    def previous_seat(self, seat: int) -> int:
        """The seat still in the game that plays right before ``seat``."""
        n = len(self.seats)
        s = (seat - 1) % n
        while self.eliminated[s] and s != seat:
            s = (s - 1) % n
        return s

    def arch_enemy(self, seat: int) -> int:
        """The player on ``seat``'s left, who plays right after it (EW-6, EW-22)."""
        return self.next_seat(seat)

    def seat_of_power(self, power: str) -> int | None:
        """The seat playing ``power``, or ``None`` for an unplayed power."""
        return self.seats.index(power) if power in self.seats else None

    # ------------------------------------------------------------------ copy and storage
    def copy(self) -> GameState:
        """Return an independent copy (hand-written: far cheaper than ``deepcopy``)."""
        g = GameState.__new__(GameState)
        g.variant = self.variant
        g.options = self.options
        g.board = self.board
        g.seats = self.seats[:]
        g.origins = self.origins[:]
        g.pieces = dict(self.pieces)
        g.phase = self.phase
        g.current = self.current
        g.first = self.first
        g.turn = self.turn
        g.round = self.round
        g.rng = Rng(self.rng.state)
        g.forced = self.forced[:]
        g.chance_steps = []
        g.setup_queue = self.setup_queue[:]
        g.hands = [h[:] for h in self.hands]
        g.pile = self.pile[:]
        g.discard = self.discard[:]
        g.sabotage_used = self.sabotage_used
        g.special_over = self.special_over
        g.attack_barred = self.attack_barred
        g.battle = self.battle.copy() if self.battle is not None else None
        g.pending = self.pending[:]
        g.knowledge = [{t: cs[:] for t, cs in k.items()} for k in self.knowledge]
        g.eliminated = self.eliminated[:]
        g.last_roll = dict(self.last_roll) if self.last_roll is not None else None
        g.winners = self.winners[:]
        g.draw = self.draw
        g.end_reason = self.end_reason
        return g

    def to_dict(self) -> dict[str, Any]:
        """Return the whole state as a JSON-compatible dict with a schema version."""
        return {
            "schema": SCHEMA_VERSION,
            "variant": self.variant,
            "options": self.options.to_dict(),
            "seats": self.seats[:],
            "origins": self.origins[:],
            "pieces": {f: [s, z] for f, (s, z) in self.pieces.items()},
            "phase": self.phase,
            "current": self.current,
            "first": self.first,
            "turn": self.turn,
            "round": self.round,
            "rng": self.rng.state,
            "setup_queue": [[s, z] for s, z in self.setup_queue],
            "hands": [h[:] for h in self.hands],
            "pile": self.pile[:],
            "discard": self.discard[:],
            "sabotage_used": self.sabotage_used,
            "special_over": self.special_over,
            "attack_barred": self.attack_barred,
            "battle": self.battle.to_dict() if self.battle is not None else None,
            "pending": self.pending[:],
            "knowledge": [{str(t): cs[:] for t, cs in k.items()} for k in self.knowledge],
            "eliminated": self.eliminated[:],
            "last_roll": self.last_roll,
            "winners": self.winners[:],
            "draw": self.draw,
            "end_reason": self.end_reason,
        }

    @staticmethod
    def from_dict(data: Any) -> GameState:
        """Rebuild a state from :meth:`to_dict` output and validate it.

        Raises:
            InvalidState: unknown schema version, missing keys, wrong types, or a state
                that breaks an invariant (two pieces on a field, lost cards, ...).
        """
        from .validate import validate_state

        if not isinstance(data, dict):
            raise InvalidState("a stored game must be an object")
        if data.get("schema") != SCHEMA_VERSION:
            raise InvalidState(f"unsupported stored game schema {data.get('schema')!r}")
        try:
            variant = data["variant"]
            if variant not in VARIANTS:
                raise InvalidState(f"unknown variant {variant!r}")
            g = GameState(variant, Options.from_dict(data["options"]), list(data["seats"]), 0)
            g.origins = [int(i) for i in data["origins"]]
            g.pieces = {str(f): (int(sz[0]), int(sz[1])) for f, sz in data["pieces"].items()}
            g.phase = str(data["phase"])
            g.current = int(data["current"])
            g.first = int(data["first"])
            g.turn = int(data["turn"])
            g.round = int(data["round"])
            g.rng = Rng(int(data["rng"]))
            g.setup_queue = [(int(s), int(z)) for s, z in data["setup_queue"]]
            g.hands = [[int(c) for c in h] for h in data["hands"]]
            g.pile = [int(c) for c in data["pile"]]
            g.discard = [int(c) for c in data["discard"]]
            g.sabotage_used = bool(data["sabotage_used"])
            g.special_over = bool(data["special_over"])
            g.attack_barred = bool(data["attack_barred"])
            g.battle = Battle.from_dict(data["battle"]) if data["battle"] is not None else None
            g.pending = [int(s) for s in data["pending"]]
            g.knowledge = [
                {int(t): [int(c) for c in cs] for t, cs in k.items()} for k in data["knowledge"]
            ]
            g.eliminated = [bool(e) for e in data["eliminated"]]
            g.last_roll = data["last_roll"]
            g.winners = [int(s) for s in data["winners"]]
            g.draw = bool(data["draw"])
            g.end_reason = str(data["end_reason"])
        except InvalidState:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise InvalidState(f"stored game is corrupt: {exc!r}") from exc
        validate_state(g)
        return g

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable: equal by value, so unhashable
