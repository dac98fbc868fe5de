"""Europe at War as a plug-in of the game contract: its table, options, timings, and how
a game starts (EA-2, EA-3) or is loaded.

Interpretations: players who ask for no nation get the first free ones of EA-2's
suggested line-up (France, Austria, Russia, Britain, Prussia); the Teams option needs
four players (seats 1 and 3 against 2 and 4, so team-mates do not play one after the
other).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import chance
from ..contract import ActionKind, Timing, quiet
from ..errors import RulesError
from ..events import Event
from ..rng import Rng
from .actions import ACTION_KINDS, Action, action_from_dict
from .catalogue import _
from .data import NATIONS, deck
from .options import Options
from .state import NAME, EaState
from .words import EaWords

LINEUP = ("france", "austria", "russia", "britain", "prussia")
"""EA-2's suggested line-ups, in the order nations join the table."""
SETUP_CHITS = 10
HAND = 5

WINDOW = Timing(option="window_seconds", window=True)
TIMINGS: dict[str, Timing] = {
    "setup": Timing("setup", 600.0, restarts=True),
    "discard": Timing(),
    "hand": Timing(),
    "plan": Timing(),
    "battle": Timing(),
    "recruit": Timing(),
    "place": Timing(),
    "upkeep": Timing(),
    "deposit": Timing(),
    "w1": WINDOW,
    "w2": WINDOW,
    "answer": WINDOW,
    "sealed": WINDOW,
    "cards": Timing("battle card", 120.0, restarts=True),
    "casualties": Timing("casualties", 120.0, restarts=True),
    "capture": Timing("capture", 120.0),
    "retreat": Timing("retreat", 120.0),
    "loss": Timing("loss", 120.0, restarts=True),
}
"""Own-turn decisions run on the table's turn time; the windows (and the sealed battle
cards and Lost Orders answers) on the ``window_seconds`` option; the steps of a battle
and a payment on limits of their own."""


UNDOABLE = frozenset({"place", "move", "drop", "compel", "undo", "deposit", "pay_loss"})
"""The action kinds that may be taken back when they revealed nothing (see
:meth:`EaGame.undoable`)."""


class EaGame:
    """The definition of Europe at War."""

    name = NAME
    min_players = 2
    presentation = EaWords()

    @property
    def action_kinds(self) -> Mapping[str, ActionKind]:
        """Every action kind and its parameters."""
        return ACTION_KINDS

    @property
    def timings(self) -> Mapping[str, Timing]:
        """How each decision kind is timed (see :data:`TIMINGS`)."""
        return TIMINGS

    def max_players(self, options: Any) -> int:
        """EA-2: five nations have a unit list."""
        return 5

    def undoable(self, before: EaState, seat: int, action: Action, events: Sequence[Event]) -> bool:
        """A placement in view of all (EA-3, EA-29), an order of the move plan before it
        is shown (a move, a drop-off, a Compel order, taking one back: EA-10, EA-15 step 1,
        EA-33) and a deposit or a loss's payment (EA-28) may be taken back, if nothing came
        of them but public events (not the deal that ends the setup, EA-3.4). Never a card
        played or discarded (EA-5, EA-32, EA-33: it is seen), the plan's submission (the
        window W1, EA-15), a battle's steps (EA-16 to EA-24), a purchase (a chit drawn,
        EA-29), a disbanding or a new top unit (what others see of a stack changes,
        EA-6, EA-30), an answer in a window, a timeout."""
        return action.kind in UNDOABLE and quiet(events)

    def agreed_draw(self) -> None:
        """The text has no draw by agreement."""
        return None

    def sides(self, options: Any) -> tuple[str, ...]:
        """The nations a player may ask for (EA-2)."""
        return NATIONS

    def options_from_dict(self, data: Any) -> Options:
        """The options from JSON data.

        Raises:
            RulesError: an unknown option or a bad value.
        """
        return Options.from_dict(data)

    def options_to_dict(self, options: Any) -> dict[str, Any]:
        """Every option as JSON data."""
        assert isinstance(options, Options)
        return options.to_dict()

    def new_game(
        self, sides: Sequence[str | None], seed: int, options: Any, arranged: bool = False
    ) -> tuple[EaState, list[Event]]:
        """EA-2, EA-3: seat the players (in random order unless ``arranged``), give each
        his home country, his General and Admiral and 10 random chits to place, and
        shuffle the deck.

        Raises:
            RulesError: not 2-5 players, an unknown or doubled nation, Teams without four.
        """
        assert isinstance(options, Options)
        n = len(sides)
        if not 2 <= n <= 5:
            raise RulesError(_("Europe at War takes 2 to 5 players (EA-2)."))
        asked = [s for s in sides if s is not None]
        if any(s not in NATIONS for s in asked) or len(set(asked)) != len(asked):
            raise RulesError(
                _("Each player needs a different nation: {nations}.").format(
                    nations=", ".join(NATIONS)
                )
            )
        if options.teams and n != 4:
            raise RulesError(_("The Teams option needs four players (EA-36)."))
        free = [s for s in LINEUP if s not in asked]
        by_player = [s if s is not None else free.pop(0) for s in sides]
        order = list(range(n))
        probe = EaState(by_player, options, seed)
        if not arranged:
            chance.shuffle(probe, order, "seat order")
        g = EaState([by_player[p] for p in order], options, 0)
        g.rng = Rng(probe.rng.state)
        g.forced = probe.forced
        g.chance_steps = probe.chance_steps
        g.origins = order
        events = [Event("started", {"nations": g.nations[:], "origins": order})]
        for seat in range(n):
            home = g.map.home(g.nations[seat])
            for tid in home.territories:
                g.control[tid] = seat
            g.drawn[seat] = _leaders(g, seat)
            got = []
            pile = g.piles[seat]
            for _n in range(min(SETUP_CHITS, len(pile))):
                got.append(pile.pop(chance.below(g, len(pile), "setup chit")))
            g.drawn[seat] += got
            drawn = g.drawn[seat][:]
            events.append(
                Event("setup_draw", {"chits": drawn, "names": g.names_of(drawn)}, to=seat)
            )
        g.deck = list(deck())
        chance.shuffle(g, g.deck, "deck")
        g.step = "setup"
        g.setup_seat = 0
        steps, g.chance_steps = g.chance_steps, []
        return g, steps + events

    def load(self, data: Any) -> EaState:
        """A stored game, validated.

        Raises:
            InvalidState: corrupt or inconsistent data.
        """
        return EaState.from_dict(data)

    def action_from_dict(self, data: Any) -> Action:
        """An action from its dict.

        Raises:
            InvalidState: unknown kind or bad fields.
        """
        return action_from_dict(data)


def _leaders(g: EaState, seat: int) -> list[int]:
    """EA-3: one General and one Admiral from the pile (every one with the Leaders in
    play option)."""
    pile = g.piles[seat]
    out = []
    for t in ("G", "D"):
        mine = [c for c in pile if g.kind(c).type == t]
        out += mine if g.options.leaders_in_play else mine[:1]
    for c in out:
        pile.remove(c)
    return out
