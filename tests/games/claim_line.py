"""Claim the Line: a tiny third game that exists only for the tests.

Two or three players claim the cells of a 3x3 grid in turn; three in a line wins, a full
grid is a draw (CL-1). Each player is dealt one hidden card from a shuffled deck of 1-6
(CL-2). Right after a claim, every other player who still holds a card may contest it, all
at once (an out-of-turn window, CL-3): the highest contesting card, if it beats the
claimer's card, takes the cell for its holder; every contesting card is then spent. The
window stays open ``window_seconds`` (an option, CL-5). A turn that times out claims the
first free cell; a window that times out allows (CL-4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rules import chance
from rules.choices import kinds_of, values_of
from rules.contract import ActionKind, Decision, OnTimeout, Param, Result, Timing, Value
from rules.errors import GameOver, IllegalAction, InvalidState, NotYourTurn, RulesError
from rules.events import Event
from rules.presentation import (
    CommandOption,
    CommandSpec,
    DecisionWords,
    OptionSpec,
    RuleSection,
    Shown,
)
from rules.rng import Rng

NAME = "claim_line"
CELLS = tuple(f"{c}{r}" for r in "123" for c in "abc")
LINES = (
    *(tuple(f"{c}{r}" for c in "abc") for r in "123"),
    *(tuple(f"{c}{r}" for r in "123") for c in "abc"),
    ("a1", "b2", "c3"),
    ("c1", "b2", "a3"),
)
SIDES = ("cross", "nought", "star")
WINDOW = (5, 600)
"""The bounds of the ``window_seconds`` option (CL-5)."""


@dataclass(frozen=True, slots=True)
class Claim:
    """CL-1: claim an empty cell."""

    kind: ClassVar[str] = "claim"
    cell: str

    def to_dict(self) -> dict[str, Any]:
        """A JSON-compatible dict."""
        return {"kind": self.kind, "cell": self.cell}


@dataclass(frozen=True, slots=True)
class Contest:
    """CL-3: contest the claim just made, with your card."""

    kind: ClassVar[str] = "contest"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-compatible dict."""
        return {"kind": self.kind}


@dataclass(frozen=True, slots=True)
class Allow:
    """CL-3: let the claim stand."""

    kind: ClassVar[str] = "allow"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-compatible dict."""
        return {"kind": self.kind}


@dataclass(frozen=True, slots=True)
class Expire:
    """CL-4: the decider's time ran out."""

    kind: ClassVar[str] = "timeout"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-compatible dict."""
        return {"kind": self.kind}


ClaimAction = Claim | Contest | Allow | Expire


@dataclass(frozen=True, slots=True)
class ClaimView:
    """What one seat (or a spectator: ``viewer`` None) may know."""

    viewer: int | None
    sides: tuple[str, ...]
    grid: dict[str, int]
    current: int
    deciders: tuple[Decision, ...]
    card: int | None
    holding: tuple[bool, ...]
    claim: str | None
    winners: tuple[int, ...]
    over: bool


class ClaimState:
    """One game of Claim the Line."""

    def __init__(self, sides: list[str], seed: int) -> None:
        self.sides = sides
        self.grid: dict[str, int] = {}
        self.cards: list[int | None] = [None for _ in sides]
        self.current = 0
        self.turn = 0
        self.claim: str | None = None
        self.pending: list[int] = []
        self.contests: list[int] = []
        self.winners: list[int] = []
        self.draw = False
        self.rng = Rng(seed)
        self.forced: list[Any] = []
        self.chance_steps: list[Event] = []

    # -------------------------------------------------------------- the contract
    @property
    def game_name(self) -> str:
        """``claim_line``."""
        return NAME

    @property
    def player_count(self) -> int:
        """Two or three."""
        return len(self.sides)

    @property
    def origins(self) -> tuple[int, ...]:
        """Seats follow the players' order (no deal)."""
        return tuple(range(len(self.sides)))

    @property
    def over(self) -> bool:
        """True once someone has a line or the grid is full."""
        return bool(self.winners) or self.draw

    def result(self) -> Result | None:
        """The winner, or a draw, once over."""
        if not self.over:
            return None
        return Result(tuple(self.winners), self.draw, "full grid" if self.draw else "line")

    def deciders(self) -> list[Decision]:
        """The player to claim, or everyone yet to answer a claim (CL-3)."""
        if self.over:
            return []
        if self.claim is not None:
            return [Decision(s, "respond") for s in self.pending]
        return [Decision(self.current, "turn")]

    def legal_actions(self, seat: int) -> list[ClaimAction]:
        """Every legal action of ``seat``."""
        kinds = {d.kind for d in self.deciders() if d.seat == seat}
        if "turn" in kinds:
            return [Claim(c) for c in CELLS if c not in self.grid]
        if "respond" in kinds:
            return [Contest(), Allow()]
        return []

    def kinds(self, seat: int) -> tuple[str, ...]:
        """The kinds ``seat`` may take now."""
        return kinds_of(self.legal_actions(seat))

    def values(self, seat: int, kind: str, chosen: Mapping[str, Value]) -> tuple[Value, ...]:
        """The legal values of ``kind``'s next parameter."""
        return values_of(self.legal_actions(seat), kind, chosen)

    def is_legal(self, seat: int, action: Any) -> bool:
        """True when ``seat`` may take ``action`` now."""
        return action in self.legal_actions(seat)

    def apply(self, seat: int, action: Any) -> list[Event]:
        """Check and apply ``action``.

        Raises:
            GameOver, NotYourTurn, IllegalAction: the action is refused; nothing changed.
        """
        if self.over:
            raise GameOver("The game is over.")
        mine = [d for d in self.deciders() if d.seat == seat]
        if not mine:
            raise NotYourTurn("Not your turn.")
        if isinstance(action, Expire):
            if mine[0].kind == "turn":
                action = Claim(next(c for c in CELLS if c not in self.grid))
            else:
                action = Allow()
        if action not in self.legal_actions(seat):
            raise IllegalAction(f"You cannot {action.kind} now (CL-1, CL-3).")
        events = self._apply(seat, action)
        steps, self.chance_steps = self.chance_steps, []
        return steps + events

    def _apply(self, seat: int, action: ClaimAction) -> list[Event]:
        if isinstance(action, Claim):
            self.grid[action.cell] = seat
            self.claim = action.cell
            self.pending = [s for s in range(len(self.sides)) if s != seat and self.cards[s]]
            events = [Event("claimed", {"seat": seat, "cell": action.cell})]
            return events + (self._settle() if not self.pending else [])
        self.pending.remove(seat)
        if isinstance(action, Contest):
            self.contests.append(seat)
        events = [
            Event(action.kind + "ed" if action.kind == "allow" else "contested", {"seat": seat})
        ]
        return events + (self._settle() if not self.pending else [])

    def _settle(self) -> list[Event]:
        assert self.claim is not None
        cell, claimer = self.claim, self.grid[self.claim]
        events: list[Event] = []
        if self.contests:
            shown = {s: self.cards[s] for s in [claimer, *self.contests]}
            best = max(self.contests, key=lambda s: (shown[s] or 0, -s))
            if (shown[best] or 0) > (shown[claimer] or 0):
                self.grid[cell] = best
            events.append(
                Event(
                    "revealed",
                    {
                        "cards": {str(s): c for s, c in shown.items()},
                        "cell": cell,
                        "owner": self.grid[cell],
                    },
                )
            )
            for s in self.contests:
                self.cards[s] = None
        self.claim, self.contests = None, []
        for line in LINES:
            owners = {self.grid.get(c) for c in line}
            if len(owners) == 1 and None not in owners:
                self.winners = [owners.pop()]  # type: ignore[list-item]
                return events + [Event("won", {"seat": self.winners[0], "line": list(line)})]
        if len(self.grid) == len(CELLS):
            self.draw = True
            return events + [Event("drawn", {})]
        self.current = (claimer + 1) % len(self.sides)
        self.turn += 1
        return events

    def on_timeout(self, decision: Decision) -> OnTimeout:
        """CL-4."""
        return OnTimeout(Expire())

    def view_for(self, seat: int | None) -> ClaimView:
        """The grid for everyone; a seat's own card for that seat only."""
        own = seat is not None and 0 <= seat < len(self.sides)
        return ClaimView(
            viewer=seat if own else None,
            sides=tuple(self.sides),
            grid=dict(self.grid),
            current=self.current,
            deciders=tuple(self.deciders()),
            card=self.cards[seat] if own and seat is not None else None,
            holding=tuple(c is not None for c in self.cards),
            claim=self.claim,
            winners=tuple(self.winners),
            over=self.over,
        )

    def force_chance(self, outcomes: Sequence[Any]) -> None:
        """The next chance steps come out as ``outcomes``."""
        self.forced.extend(outcomes)

    def copy(self) -> ClaimState:
        """An independent copy."""
        twin = ClaimGame().load(self.to_dict())
        twin.forced = self.forced[:]
        return twin

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible data."""
        return {
            "schema": 1,
            "sides": self.sides[:],
            "grid": dict(self.grid),
            "cards": self.cards[:],
            "current": self.current,
            "turn": self.turn,
            "claim": self.claim,
            "pending": self.pending[:],
            "contests": self.contests[:],
            "winners": self.winners[:],
            "draw": self.draw,
            "rng": self.rng.state,
        }


RULINGS = {
    "CL-1": "Players take turns to claim an empty cell; three in a line wins, a full grid "
    "is a draw.",
    "CL-2": "Each player is dealt one hidden card from a shuffled deck of 1 to 6.",
    "CL-3": "After a claim, every other player still holding a card may contest it, all at "
    "once; the highest contesting card takes the cell if it beats the claimer's; contesting "
    "cards are spent.",
    "CL-4": "A turn that times out claims the first free cell; a window that times out allows.",
    "CL-5": "(option) The window to contest a claim stays open 60 seconds, or as the table "
    "chooses between 5 and 600.",
}


COMMANDS = (
    CommandSpec(
        "claim",
        "Claim an empty cell of the grid (CL-1)",
        ("claim",),
        (CommandOption("cell", "The empty cell you claim (a1 to c3)", ("cell",), "space"),),
    ),
)


DECISIONS = {
    "turn": DecisionWords(
        "your turn",
        "▶ {who}, your turn{until}.",
        " — time runs out {time}",
        computer="▶ {who} is to play.",  # its name says it is a computer
        ping=True,
    ),
    "respond": DecisionWords("the claim to contest"),
}
"""A turn is announced and pinged; the window to contest a claim only goes to panels."""


class ClaimWords:
    """The words of Claim the Line."""

    title = "Claim the Line"
    side_word = "mark"
    space_word = "cell"

    def options(self) -> tuple[OptionSpec, ...]:
        """How long the window to contest a claim stays open (CL-5)."""
        return (
            OptionSpec(
                "window_seconds",
                "number",
                "Seconds to contest a claim",
                low=WINDOW[0],
                high=WINDOW[1],
            ),
        )

    def option_words(self, options: Mapping[str, Any]) -> list[str]:
        """The contest window's length (CL-5)."""
        return [f"{options.get('window_seconds', 60)} s to contest a claim"]

    def help_text(self) -> None:
        """None: a front end makes the help from the title and the commands."""
        return None

    def side_name(self, side: str) -> str:
        """ "Cross"."""
        return side.capitalize()

    def find_side(self, text: str) -> str | None:
        """A mark by its name."""
        key = text.strip().lower()
        return key if key in SIDES else None

    def computer_name(self, side: str) -> str:
        """ "Cross (computer)"."""
        return f"{self.side_name(side)} (computer)"

    def describe(self, event: Event, view: Any, names: Sequence[str]) -> str | None:
        """One sentence per event."""
        d = event.data
        if event.kind == "dealt":
            return f"Your card is {d['card']}."
        if event.kind == "started":
            return f"{names[d['first']]} claims first."
        if event.kind == "claimed":
            return f"{names[d['seat']]} claims {d['cell']}."
        if event.kind in ("contested", "allowed"):
            return f"{names[d['seat']]} {event.kind} the claim."
        if event.kind == "revealed":
            shown = ", ".join(f"{names[int(s)]} {c}" for s, c in d["cards"].items())
            return f"Cards shown: {shown}; {d['cell']} goes to {names[d['owner']]}."
        if event.kind == "won":
            return f"{names[d['seat']]} wins with {'-'.join(d['line'])}."
        if event.kind == "drawn":
            return "The grid is full: a draw."
        return None

    def action_label(self, action: Any, view: Any, names: Sequence[str]) -> str:
        """ "Claim b2", "Contest", "Allow"."""
        if isinstance(action, Claim):
            return f"Claim {action.cell}"
        return str(action.kind).capitalize()

    def value_label(self, param: Param, value: Value, view: Any, names: Sequence[str]) -> str:
        """A cell's name as it is."""
        return str(value)

    def prompt(self, kind: str, view: Any, names: Sequence[str]) -> str:
        """Claim a cell, or answer a claim."""
        if kind == "turn":
            return "Your turn: claim an empty cell (CL-1)."
        return f"{names[view.grid[view.claim]]} claims {view.claim}: contest or allow (CL-3)."

    def offered(self, kind: str, legal: Sequence[Any]) -> tuple[Any, ...]:
        """The legal actions."""
        return tuple(legal)

    def status_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """Who still holds a card."""
        holders = [names[s] for s, held in enumerate(view.holding) if held]
        return [f"Holding a card: {', '.join(holders) or 'nobody'}."]

    def summary_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """The grid's claimed cells."""
        cells = ", ".join(f"{c} {names[s]}" for c, s in sorted(view.grid.items()))
        return [f"Claimed: {cells or 'nothing yet'}."]

    def private_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """The viewer's card."""
        return [f"Your card: {view.card}."] if view.card is not None else []

    def hand_changed(self, before: Any, after: Any) -> bool:
        """The viewer's card was spent."""
        return bool(before.card != after.card)

    def board_changed(self, before: Any, after: Any, events: Sequence[Event]) -> bool:
        """A cell changed hands, or the game started or ended."""
        return before.grid != after.grid or any(
            e.kind in ("started", "won", "drawn") for e in events
        )

    def result_line(self, view: Any, names: Sequence[str]) -> str | None:
        """The winner, or a draw."""
        if not view.over:
            return None
        return f"Winner: {names[view.winners[0]]}." if view.winners else "A draw."

    def timeout_note(self, kind: str, name: str) -> str | None:
        """No computer steps in on a timeout."""
        return None

    def rulebook(self) -> tuple[RuleSection, ...]:
        """One section."""
        return (RuleSection("Claim the Line", RULINGS),)

    def commands(self) -> tuple[CommandSpec, ...]:
        """/claim (a contest is answered on a panel)."""
        return COMMANDS

    def look_up(
        self, command: str, typed: Mapping[str, str], view: Any, names: Sequence[str]
    ) -> Shown:
        """No look-ups.

        Raises:
            RulesError: always.
        """
        raise RulesError(f"Claim the Line has no /{command}.")

    def panel_decisions(self) -> Mapping[str, str]:
        """The contest window (CL-3), on buttons."""
        return {"respond": "buttons"}

    def tally(self, kind: str, legal: Sequence[Any], view: Any, names: Sequence[str]) -> None:
        """None: no decision is answered by counts."""
        return None

    def decisions(self) -> Mapping[str, DecisionWords]:
        """A turn, and the window to contest a claim (CL-3)."""
        return DECISIONS

    def contest(self) -> None:
        """None: each claim and answer is a message of its own."""
        return None

    def choice_tone(self, kind: str) -> str:
        """Contesting in red, allowing quietly."""
        return {"contest": "danger", "allow": "secondary"}.get(kind, "primary")

    def value_of(self, param: Param, text: str, view: Any, names: Sequence[str]) -> Value | None:
        """A cell by its name ("b2")."""
        key = text.strip().lower()
        return key if key in CELLS else None

    def reader(self) -> None:
        """None: its commands read well from their spec alone."""
        return None


class ClaimGame:
    """The definition of Claim the Line, as registered."""

    name = NAME
    min_players = 2
    presentation = ClaimWords()
    action_kinds = {
        "claim": ActionKind("claim", (Param("cell", "space"),)),
        "contest": ActionKind("contest"),
        "allow": ActionKind("allow"),
        "timeout": ActionKind("timeout"),
    }

    timings = {
        "turn": Timing(),
        "respond": Timing(option="window_seconds", window=True),
    }
    """A turn runs on the table's turn time; the window to contest, on its option (CL-5)."""

    def max_players(self, options: Any) -> int:
        """Three."""
        return 3

    def undoable(self, before: ClaimState, seat: int, action: Any, events: Sequence[Event]) -> bool:
        """A claim may be taken back when it opened no window (nobody else held a card,
        CL-3) and ended nothing (CL-1); an answer in a window never."""
        return (
            isinstance(action, Claim)
            and not any(c for s, c in enumerate(before.cards) if s != seat)
            and all(e.kind == "claimed" for e in events)
        )

    def agreed_draw(self) -> None:
        """Claim the Line cannot be drawn by agreement."""
        return None

    def sides(self, options: Any) -> tuple[str, ...]:
        """The marks a player may ask for."""
        return SIDES

    def options_from_dict(self, data: Any) -> dict[str, Any]:
        """The options (CL-5: ``window_seconds``, default 60).

        Raises:
            RulesError: an unknown option, or a value out of range.
        """
        if not isinstance(data, dict) or set(data) - {"window_seconds"}:
            raise RulesError("Claim the Line has one option: window_seconds.")
        seconds = data.get("window_seconds", 60)
        if type(seconds) is not int or not WINDOW[0] <= seconds <= WINDOW[1]:
            raise RulesError(f"window_seconds must be between {WINDOW[0]} and {WINDOW[1]}.")
        return {"window_seconds": seconds}

    def options_to_dict(self, options: Any) -> dict[str, Any]:
        """The options as they are (JSON already)."""
        return dict(options)

    def new_game(
        self, sides: Sequence[str | None], seed: int, options: Any, arranged: bool = False
    ) -> tuple[ClaimState, list[Event]]:
        """Seat the players, deal the cards (CL-2) and draw who starts.

        Raises:
            RulesError: not two or three players, or an unknown or doubled mark.
        """
        if not 2 <= len(sides) <= 3:
            raise RulesError("Claim the Line takes 2 or 3 players.")
        chosen = [s for s in sides if s is not None]
        if any(s not in SIDES for s in chosen) or len(set(chosen)) != len(chosen):
            raise RulesError("Each player needs a different mark: cross, nought or star.")
        free = [s for s in SIDES if s not in chosen]
        g = ClaimState([s if s is not None else free.pop(0) for s in sides], seed)
        deck = [1, 2, 3, 4, 5, 6]
        chance.shuffle(g, deck, "deck")
        g.cards = [deck[s] for s in range(len(sides))]
        g.current = chance.below(g, len(sides), "first player")
        g.turn = 1
        events = [Event("dealt", {"card": c}, to=s) for s, c in enumerate(g.cards)]
        events.append(Event("started", {"first": g.current}))
        steps, g.chance_steps = g.chance_steps, []
        return g, steps + events

    def load(self, data: Any) -> ClaimState:
        """A stored game.

        Raises:
            InvalidState: malformed data.
        """
        try:
            if data["schema"] != 1:
                raise InvalidState("unknown schema")
            g = ClaimState(list(data["sides"]), 0)
            g.grid = {str(c): int(s) for c, s in data["grid"].items()}
            g.cards = [None if c is None else int(c) for c in data["cards"]]
            g.current = int(data["current"])
            g.turn = int(data.get("turn", 0))
            g.claim = data["claim"]
            g.pending = [int(s) for s in data["pending"]]
            g.contests = [int(s) for s in data["contests"]]
            g.winners = [int(s) for s in data["winners"]]
            g.draw = bool(data["draw"])
            g.rng = Rng(int(data["rng"]))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InvalidState(f"a stored claim_line game is corrupt: {exc!r}") from exc
        if set(g.grid) - set(CELLS):
            raise InvalidState("a stored claim_line game has unknown cells")
        return g

    def action_from_dict(self, data: Any) -> ClaimAction:
        """An action from its dict.

        Raises:
            InvalidState: unknown kind or bad fields.
        """
        if not isinstance(data, dict):
            raise InvalidState(f"unknown action {data!r}")
        kind = data.get("kind")
        if kind == "claim" and set(data) == {"kind", "cell"} and data["cell"] in CELLS:
            return Claim(data["cell"])
        simple: dict[object, ClaimAction] = {
            "contest": Contest(),
            "allow": Allow(),
            "timeout": Expire(),
        }
        if kind in simple and set(data) == {"kind"}:
            return simple[kind]
        raise InvalidState(f"unknown action {data!r}")
