"""The game contract: what the platform asks of every game, and the registry of games.

A game is a plug-in. Its :class:`Game` (registered by name) says who may play and how to
start or load one; a :class:`State` is one game in progress. Front ends and computer
players reach a game only through these two protocols and the value types below:

- **who decides now**: :meth:`State.deciders`, one seat or several (an out-of-turn window);
- **structured choices**: an action kind, then its parameters one by one, each with the
  legal values given the ones chosen before (:meth:`State.kinds`, :meth:`State.values`),
  which is what autocomplete, buttons, the console and computer players all need; any
  single action can be checked with :meth:`State.is_legal` without listing them all;
- **apply** (checked; a refusal raises a :class:`~rules.errors.RulesError` worded for
  the player) returns events, public or addressed to one seat;
- **chance** (shuffles, dice) is taken through :class:`~rules.chance.Chance`, which records
  every outcome as a hidden ``chance`` event and can be forced, so a log, a replay or a test
  sees and sets what chance did;
- **the view** for a seat or a spectator is the only way information leaves the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, Self, runtime_checkable

from .catalogue import _
from .errors import RulesError
from .events import Event

if TYPE_CHECKING:
    from .presentation import Presentation

Value = str | int | bool
"""A parameter value: a space's id, a seat, a card, a yes/no."""

SYSTEM = -1
"""The seat under which the table itself acts (an agreed draw)."""


class UnknownGame(RulesError):
    """No game is registered under that name."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One seat that must decide now, and what kind of decision it is."""

    seat: int
    kind: str


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of an action kind: the action's field ``name``, and ``kind``, which
    tells front ends how to offer its values: ``space`` (a place on the board), ``seat``
    (a player), ``card`` (a card in the chooser's hand), ``flag`` (yes or no) or ``word``
    (one of a few named values)."""

    name: str
    kind: str


@dataclass(frozen=True, slots=True)
class ActionKind:
    """An action kind and its parameters, in the order a player chooses them."""

    name: str
    params: tuple[Param, ...] = ()


@dataclass(frozen=True, slots=True)
class OnTimeout:
    """What happens when a decision's time runs out: ``action`` is applied for the seat,
    or, with ``computer``, the seat's computer player decides instead."""

    action: Action | None = None
    computer: bool = False


@dataclass(frozen=True, slots=True)
class Timing:
    """How the platform times decisions of one kind (see :attr:`Game.timings`).

    ``limit`` names the time limit the kind runs on: ``"turn"`` is the table's turn
    time (the host's choice, or the server's default); any other name is a limit of its
    own, ``seconds`` long unless the table changes it (``None``: no limit). ``option``
    takes the length from that game option instead (whole seconds). In a ``window``
    several seats decide at once, out of turn: a computer player answers after its own
    seeded delay, so how long the window stays open says nothing of what it holds. With
    ``restarts``, a seat that acts and still has a decision of this kind gets a new one,
    with a new clock (otherwise an open decision keeps its clock until the turn changes).
    """

    limit: str = "turn"
    seconds: float | None = None
    option: str | None = None
    window: bool = False
    restarts: bool = False


TURN_TIME = Timing()
"""The timing of a decision kind a game does not list: the table's turn time."""


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: the winning seats (several share a win), or a draw."""

    winners: tuple[int, ...]
    draw: bool
    reason: str


@runtime_checkable
class Action(Protocol):
    """A player's decision: a small frozen value with a stable ``kind``."""

    @property
    def kind(self) -> str:
        """The action kind's name (a key of :attr:`Game.action_kinds`)."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """A JSON-compatible dict, ``{"kind": ..., **parameters}``."""
        ...


class State(Protocol):
    """One game in progress. Mutated only through :meth:`apply`."""

    @property
    def game_name(self) -> str:
        """The registry name of the game being played."""
        ...

    @property
    def player_count(self) -> int:
        """How many seats the table has (seats are ``0 .. player_count - 1``)."""
        ...

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        ...

    @property
    def sides(self) -> Sequence[str]:
        """The side of each seat (``sides[seat]``: a power, a colour, a mark)."""
        ...

    @property
    def origins(self) -> Sequence[int]:
        """For each seat, the index of the player who got it in the ``sides`` list given
        to :meth:`Game.new_game` (seats may be dealt at random)."""
        ...

    @property
    def turn(self) -> int:
        """The number of the turn under way (0 before the first): a decision still open
        after an action that changed it starts a new clock."""
        ...

    def result(self) -> Result | None:
        """How the game ended, or ``None`` while it goes on."""
        ...

    def deciders(self) -> list[Decision]:
        """Who must decide now: one seat, several in an out-of-turn window, none at the end."""
        ...

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """Every legal action of ``seat`` now (empty when it need not decide)."""
        ...

    def kinds(self, seat: int) -> tuple[str, ...]:
        """The action kinds ``seat`` may take now, in the game's order."""
        ...

    def values(self, seat: int, kind: str, chosen: Mapping[str, Value]) -> tuple[Value, ...]:
        """The legal values of ``kind``'s first parameter not in ``chosen``, given the
        values ``chosen`` for the ones before it (empty if none is legal)."""
        ...

    def is_legal(self, seat: int, action: Any) -> bool:
        """True when ``seat`` may take ``action`` (one of this game's actions) now."""
        ...

    def apply(self, seat: int, action: Any) -> list[Event]:
        """Check and apply ``action`` (one of this game's actions) by ``seat``; return the
        events it caused.

        Raises:
            RulesError: the action is refused (not your turn, a broken rule, game over);
                the message is worded for the player and the state is unchanged.
        """
        ...

    def on_timeout(self, decision: Decision) -> OnTimeout:
        """What happens when ``decision``'s time runs out."""
        ...

    def view_for(self, seat: int | None) -> Any:
        """What ``seat`` (``None``: a spectator) may know: the only way information leaves."""
        ...

    def force_chance(self, outcomes: Sequence[Any]) -> None:
        """Make the next chance steps come out as ``outcomes`` (tests, replays of a log)."""
        ...

    def copy(self) -> Self:
        """An independent copy."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-compatible data with a schema version."""
        ...


class Game(Protocol):
    """A game's definition: its name, its table, its actions, and how to start or load one."""

    @property
    def name(self) -> str:
        """The registry name (stored with every game; never changes)."""
        ...

    @property
    def min_players(self) -> int:
        """The smallest table."""
        ...

    @property
    def presentation(self) -> Presentation:
        """The game's words, options and rule book."""
        ...

    def max_players(self, options: Any) -> int:
        """The largest table ``options`` allow."""
        ...

    @property
    def timings(self) -> Mapping[str, Timing]:
        """How decisions are timed, by decision kind (a kind left out runs on the turn
        time, :data:`TURN_TIME`)."""
        ...

    def undoable(self, before: Any, seat: int, action: Any, events: Sequence[Event]) -> bool:
        """True when ``seat`` may take back ``action`` (one of this game's), just applied
        to ``before`` (this game's :class:`State` as it was) with
        ``events``: it revealed nothing (no card drawn or seen, no die rolled, no duel,
        battle or window started, nothing hidden dealt) and answered nobody else's
        decision. A game that never allows it returns False; the platform keeps the log
        of a taken-back action and skips it (see :func:`quiet`)."""
        ...

    def agreed_draw(self) -> Action | None:
        """The action the table applies (as :data:`SYSTEM`) once every player agrees to
        a draw, or ``None`` if the game cannot be drawn by agreement."""
        ...

    @property
    def action_kinds(self) -> Mapping[str, ActionKind]:
        """Every action kind of the game, by name."""
        ...

    def sides(self, options: Any) -> tuple[str, ...]:
        """The sides (powers, continents, colours) a player may ask for, in table order."""
        ...

    def options_from_dict(self, data: Any) -> Any:
        """The game's options from JSON data (``{}``: the defaults).

        Raises:
            RulesError: an unknown option or a value out of range.
        """
        ...

    def options_to_dict(self, options: Any) -> dict[str, Any]:
        """The JSON form of ``options`` (every option, defaults included), which
        :meth:`options_from_dict` reads back."""
        ...

    def new_game(
        self, sides: Sequence[str | None], seed: int, options: Any, arranged: bool = False
    ) -> tuple[State, list[Event]]:
        """Start a game: ``sides[i]`` is the side player ``i`` asked for (``None``: any).

        Raises:
            RulesError: wrong player count, an unknown or doubled side.
        """
        ...

    def load(self, data: Any) -> State:
        """Rebuild a state from :meth:`State.to_dict` output, validated.

        Raises:
            InvalidState: unknown schema, corrupt or inconsistent data.
        """
        ...

    def action_from_dict(self, data: Any) -> Action:
        """Rebuild an action from its dict, checking every field.

        Raises:
            InvalidState: unknown kind, missing, extra or wrongly typed fields.
        """
        ...


def quiet(events: Sequence[Event]) -> bool:
    """What every undoable action shares, whatever the game: every event it caused is
    public — nothing hidden or private was dealt, drawn, rolled or seen. (Which kinds
    answer somebody else's decision, or start a contest, each game says by kind; the
    platform itself never keeps an action that ended the game for taking back.)"""
    return all(e.to is None for e in events)


_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Make ``game`` playable under ``game.name``; returns it (usable as a decorator).

    Raises:
        RulesError: another game already has that name.
    """
    if _GAMES.get(game.name, game) is not game:
        raise RulesError(f"a game named {game.name!r} is already registered")
    _GAMES[game.name] = game
    return game


def unregister(name: str) -> None:
    """Forget the game registered as ``name`` (tests that register their own)."""
    _GAMES.pop(name, None)


def game_named(name: str) -> Game:
    """The game registered as ``name``.

    Raises:
        UnknownGame: no game has that name.
    """
    try:
        return _GAMES[name]
    except KeyError:
        raise UnknownGame(_("Unknown game {name}.").format(name=repr(name))) from None


def game_names() -> tuple[str, ...]:
    """The names of every registered game, in registration order."""
    return tuple(_GAMES)
