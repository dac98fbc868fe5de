"""What every variant shares: seating, setup placement, turn order, the end of the game.

A variant subclasses :class:`VariantRules` and supplies its turn options, its combat and
its end check; :func:`rules_for` finds the rules object for a variant id.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

from .. import chance
from ..contract import Decision, OnTimeout
from ..errors import GameOver, IllegalAction, NotYourTurn, RulesError
from ..events import Event
from .actions import SYSTEM, Action, AgreeDraw, PlaceAll, PlacePiece, Timeout
from .catalogue import _
from .mechanics import relocate, retreat_options, shrink
from .options import Options
from .state import (
    DECIDE_ACTION,
    DECIDE_SETUP,
    DECIDE_TURN,
    LARGE,
    MEDIUM,
    OVER,
    RETREAT,
    SETUP,
    SMALL,
    TURN,
    GameState,
    size_object,
)


def kind_word(kind: str) -> str:
    """An action kind as a refusal lists what a player may do ("invade", "let it pass"),
    in the current language."""
    words = {
        "place_all": _("place"),
        "place_piece": _("place"),
        "sabotage": _("sabotage"),
        "spy": _("spy"),
        "conscript": _("conscript"),
        "grow": _("grow"),
        "build": _("build"),
        "move": _("move"),
        "attack": _("invade"),
        "arm": _("arm"),
        "pass": _("pass"),
        "stop_attack": _("stop it with K"),
        "let_pass": _("let it pass"),
        "play_card": _("play a card"),
        "stop_playing": _("stop"),
        "retreat": _("retreat"),
    }
    return words.get(kind, kind.replace("_", " "))


def either(words: Sequence[str]) -> str:
    """``"a, b or c"`` in the current language."""
    if len(words) < 2:
        return "".join(words)
    return _("{items} or {last}").format(items=", ".join(words[:-1]), last=words[-1])


def both(words: Sequence[str]) -> str:
    """``"a, b and c"`` in the current language."""
    if len(words) < 2:
        return "".join(words)
    return _("{items} and {last}").format(items=", ".join(words[:-1]), last=words[-1])


_ORDER = (
    "place_all",
    "place_piece",
    "sabotage",
    "spy",
    "conscript",
    "grow",
    "build",
    "move",
    "attack",
    "arm",
    "pass",
    "stop_attack",
    "let_pass",
    "play_card",
    "stop_playing",
    "retreat",
)
"""The order in which the words of action kinds are listed (a turn's, as it goes)."""


def options_words(actions: Sequence[Action]) -> str:
    """The command words of ``actions``, each once, in the turn's order: ``"spy,
    conscript, move, arm or pass"`` (a refusal lists only what is legal)."""
    rank = {k: i for i, k in enumerate(_ORDER)}
    kinds = sorted({a.kind for a in actions}, key=lambda k: (rank.get(k, len(rank)), k))
    return either(list(dict.fromkeys(kind_word(k) for k in kinds)))


class VariantRules:
    """Base of a variant's rules. Subclasses implement the ``_``-prefixed hooks."""

    id = ""
    name = ""
    turn_rule = "EW-11"
    """The ruling of the turn's actions, cited by their refusals."""
    min_players = 2

    # ------------------------------------------------------------------ hooks
    def max_players(self, options: Options) -> int:
        """The largest table the options allow."""
        raise NotImplementedError

    def prepare(self, g: GameState) -> None:
        """Set up variant-specific state of a new game (e.g. the deck)."""

    def after_setup(self, g: GameState) -> list[Event]:
        """Called once every piece is placed; starts the first turn."""
        raise NotImplementedError

    def on_turn_start(self, g: GameState) -> list[Event]:
        """Variant-specific start of a turn (EW-7: draw a card)."""
        return []

    def play_deciders(self, g: GameState) -> list[Decision]:
        """Deciders during the variant's own phases (diplomacy, duel, retreat)."""
        raise NotImplementedError

    def play_actions(self, g: GameState, seat: int) -> list[Action]:
        """Legal actions of ``seat`` outside setup (``seat`` is a decider)."""
        raise NotImplementedError

    def apply_play(self, g: GameState, seat: int, action: Action) -> list[Event]:
        """Check and apply an action outside setup (``seat`` is a decider)."""
        raise NotImplementedError

    def apply_timeout(self, g: GameState, seat: int, kind: str) -> list[Event]:
        """Apply what the rules say happens when ``seat``'s time for ``kind`` runs out."""
        raise NotImplementedError

    def on_timeout(self, g: GameState, decision: Decision) -> OnTimeout:
        """What happens when ``decision``'s time runs out: by default the rules' own
        :class:`~rules.actions.Timeout` for that decision (EW-15, EW-17, ...)."""
        return OnTimeout(Timeout())

    def check_end(self, g: GameState) -> list[Event]:
        """Run the end check after a complete action; may end the game."""
        raise NotImplementedError

    # ------------------------------------------------------------------ creation
    def new_game(
        self,
        powers: list[str | None],
        seed: int,
        options: Options,
        arranged: bool = False,
    ) -> tuple[GameState, list[Event]]:
        """Seat the players and return the new game in its setup phase.

        ``powers[i]`` is the power player ``i`` asked for, or ``None`` to be dealt one at
        random (EW-4). Seats are shuffled unless ``arranged`` (EW-6); the first player is
        drawn at random. ``state.origins`` maps seats back to indexes of ``powers``.

        Raises:
            RulesError: wrong number of players, an unknown or doubly chosen power.
        """
        from .board import load_board

        n = len(powers)
        limit = self.max_players(options)
        if not self.min_players <= n <= limit:
            text = (
                _(
                    "{game} takes {low} to {high} players, not {n} "
                    "(a fifth player is an option, EW-4)"
                )
                if n == 5 and limit == 4
                else _("{game} takes {low} to {high} players, not {n}")
            )
            raise RulesError(text.format(game=self.name, low=self.min_players, high=limit, n=n))
        board = load_board(
            "world_war_5" if self.id == "world_war_5" else "european_war",
            options.pyramid_arcade and self.id == "world_war_5",
        )
        chosen = [p for p in powers if p is not None]
        for p in chosen:
            if p not in board.powers:
                raise RulesError(_("Unknown power {power}").format(power=repr(p)))
        if len(set(chosen)) != len(chosen):
            raise RulesError(_("Two players chose the same power (EW-4)"))
        g = GameState(self.id, options, ["" for _unused in powers], seed)
        free = [p for p in board.power_order if p not in chosen]
        chance.shuffle(g, free, "dealt powers")
        assigned = [p if p is not None else free.pop() for p in powers]
        order = list(range(n))
        if not arranged:
            chance.shuffle(g, order, "seats")
        g.seats = [assigned[i] for i in order]
        g.origins = order
        g.first = chance.below(g, n, "first player")
        g.current = g.first
        turn_order = [(g.first + k) % n for k in range(n)]
        if options.setup_by_size(self.id):
            g.setup_queue = [(s, size) for size in (SMALL, MEDIUM, LARGE) for s in turn_order]
        else:
            g.setup_queue = [(s, 0) for s in turn_order]
        self.prepare(g)
        seats_event = Event(
            "seats",
            {
                "powers": g.seats[:],
                "first": g.first,
                "arch_enemies": [g.arch_enemy(s) for s in range(n)],
                "unplayed": [p for p in board.power_order if p not in g.seats],
            },
        )
        return g, g.take_chance_steps() + [seats_event]

    # ------------------------------------------------------------------ deciding
    def deciders(self, g: GameState) -> list[Decision]:
        """Who must decide now (see :meth:`GameState.deciders`)."""
        if g.phase == OVER:
            return []
        if g.phase == SETUP:
            if g.setup_queue and g.setup_queue[0][1] == 0:
                return [Decision(s, DECIDE_SETUP) for s, _size in g.setup_queue]
            return [Decision(g.setup_queue[0][0], DECIDE_SETUP)] if g.setup_queue else []
        if g.phase == TURN:
            return [Decision(g.current, DECIDE_ACTION if g.attack_barred else DECIDE_TURN)]
        return self.play_deciders(g)

    def decision_of(self, g: GameState, seat: int) -> Decision | None:
        """``seat``'s open decision, or ``None``."""
        for d in self.deciders(g):
            if d.seat == seat:
                return d
        return None

    def legal_actions(self, g: GameState, seat: int) -> list[Action]:
        """Every legal action for ``seat`` (empty when it need not decide)."""
        if self.decision_of(g, seat) is None:
            return []
        if g.phase == SETUP:
            return self._setup_actions(g, seat)
        return self.play_actions(g, seat)

    def apply(self, g: GameState, seat: int, action: Action) -> list[Event]:
        """Check and apply ``action`` (see :meth:`GameState.apply`)."""
        if isinstance(action, AgreeDraw):
            if g.phase == OVER:
                raise GameOver(_("The game is already over"))
            if seat != SYSTEM and not 0 <= seat < len(g.seats):
                raise IllegalAction(_("Only the table can agree a draw (EW-25)"))
            return self.finish(g, [], "agreed draw")
        if g.phase == OVER:
            raise GameOver(_("The game is over"))
        decision = self.decision_of(g, seat)
        if decision is None:
            raise NotYourTurn(self._not_your_turn(g))
        if isinstance(action, Timeout):
            if g.phase == SETUP:
                return self._place_default(g, seat)
            return self.apply_timeout(g, seat, decision.kind)
        if g.phase == SETUP:
            return self._apply_setup(g, seat, action)
        return self.apply_play(g, seat, action)

    def apply_unchecked(self, g: GameState, seat: int, action: Action) -> None:
        """Apply a legal ``action`` of a deciding ``seat`` without the checks that come
        before the action's own (see :meth:`GameState._apply_unchecked`)."""
        if g.phase == SETUP:
            self._apply_setup(g, seat, action)
        else:
            self.apply_play(g, seat, action)

    def _not_your_turn(self, g: GameState) -> str:
        names = [self.power_name(g, d.seat) for d in self.deciders(g)]
        if g.phase == SETUP:
            return _("Not your turn: waiting for {names} to place pieces").format(
                names=", ".join(names)
            )
        return _("Not your turn: waiting for {names}").format(
            names=both(list(dict.fromkeys(names)))
        )

    # ------------------------------------------------------------------ checks for actions
    def _field(self, g: GameState, field: str) -> str:
        """``field`` if the board has it.

        Raises:
            IllegalAction: an unknown field.
        """
        if field not in g.board.fields:
            raise IllegalAction(self.unknown_field(field))
        return field

    def unknown_field(self, field: str) -> str:
        """The refusal of a field the board lacks."""
        return _("Unknown field {field}").format(field=repr(field))

    @staticmethod
    def _name(g: GameState, field: str) -> str:
        return g.board.fields[field].name

    def _own_piece(self, g: GameState, seat: int, src: str) -> int:
        """The size of ``seat``'s piece on ``src``.

        Raises:
            IllegalAction: unknown field, or no piece of ``seat`` there.
        """
        src = self._field(g, src)
        piece = g.pieces.get(src)
        if piece is None or piece[0] != seat:
            raise IllegalAction(
                _("You have no piece on {field} ({rule})").format(
                    field=self._name(g, src), rule=self.turn_rule
                )
            )
        return piece[1]

    def options_now(self, g: GameState, seat: int) -> str:
        """What ``seat`` may do now (see :func:`options_words`)."""
        return options_words(self.legal_actions(g, seat))

    @staticmethod
    def power_name(g: GameState, seat: int) -> str:
        """The readable name of ``seat``'s power."""
        return g.board.powers[g.seats[seat]].name

    # ------------------------------------------------------------------ setup (EW-5, WW-6)
    def _setup_actions(self, g: GameState, seat: int) -> list[Action]:
        home = g.home_fields(seat)
        if g.setup_queue[0][1] == 0:
            return [PlaceAll(a, b, c) for a, b, c in permutations(home)]
        return [PlacePiece(f) for f in home if f not in g.pieces]

    def _apply_setup(self, g: GameState, seat: int, action: Action) -> list[Event]:
        home = g.home_fields(seat)
        together = g.setup_queue[0][1] == 0
        if together:
            if not isinstance(action, PlaceAll):
                raise IllegalAction(
                    _("Setup: place your large, medium and small on your three home fields (EW-5)")
                )
            chosen = (action.large, action.medium, action.small)
            if sorted(chosen) != sorted(home):
                raise IllegalAction(
                    _("Setup: put one piece on each of your three home fields (EW-5)")
                )
            placements = [(action.large, LARGE), (action.medium, MEDIUM), (action.small, SMALL)]
            g.setup_queue = [(s, z) for s, z in g.setup_queue if s != seat]
        else:
            size = g.setup_queue[0][1]
            if not isinstance(action, PlacePiece):
                raise IllegalAction(
                    _("Setup: place your {size} now (EW-5)").format(size=size_object(size))
                )
            if action.field not in home:
                raise IllegalAction(_("Setup: pieces go on your own home fields (EW-5)"))
            if action.field in g.pieces:
                raise IllegalAction(_("Setup: that home field already has a piece (EW-1)"))
            placements = [(action.field, size)]
            g.setup_queue.pop(0)
        events = []
        for field, size in placements:
            g.pieces[field] = (seat, size)
            events.append(Event("placed", {"seat": seat, "field": field, "size": size}))
        if not g.setup_queue:
            events += self.after_setup(g)
        return events

    def _place_default(self, g: GameState, seat: int) -> list[Event]:
        """A sensible placement for a player whose time ran out: the largest piece on the
        most exposed home field (most links to other powers), the small on the safest."""
        home = sorted(
            g.home_fields(seat),
            key=lambda f: (
                -sum(1 for n in g.board.adjacency[f] if g.board.fields[n].owner != g.seats[seat])
            ),
        )
        if g.setup_queue[0][1] == 0:
            return self._apply_setup(g, seat, PlaceAll(home[0], home[1], home[2]))
        free = [f for f in home if f not in g.pieces]
        return self._apply_setup(g, seat, PlacePiece(free[0]))

    # ------------------------------------------------------------------ turns and the end
    def begin_turn(self, g: GameState, seat: int) -> list[Event]:
        """Start ``seat``'s turn, counting rounds and applying the round limit (EW-25)."""
        n = len(g.seats)
        if g.turn == 0 or (seat - g.first) % n <= (g.current - g.first) % n:
            g.round += 1
        g.turn += 1
        g.current = seat
        g.sabotage_used = False
        g.special_over = False
        g.attack_barred = False
        g.battle = None
        g.pending = []
        if g.options.round_limit and g.round > g.options.round_limit:
            g.round = g.options.round_limit
            return self.finish(g, [], "round limit")
        events = [Event("turn_start", {"seat": seat, "turn": g.turn, "round": g.round})]
        return events + self.on_turn_start(g)

    def end_action(self, g: GameState) -> list[Event]:
        """After a complete action: the end check, then the next player's turn (EW-20)."""
        events = self.check_end(g)
        if g.phase == OVER:
            return events
        return events + self.begin_turn(g, g.next_seat(g.current))

    def finish(self, g: GameState, winners: list[int], reason: str) -> list[Event]:
        """End the game with ``winners`` (none: a draw)."""
        g.phase = OVER
        g.winners = sorted(winners)
        g.draw = not winners
        g.end_reason = reason
        g.battle = None
        g.pending = []
        return [Event("game_over", {"winners": g.winners, "draw": g.draw, "reason": reason})]

    # ------------------------------------------------------------------ after a won attack
    def after_won_attack(self, g: GameState) -> list[Event]:
        """EW-19 / WW-3: the beaten defender retreats (choosing when there is a choice);
        only without an empty linked field does it shrink, and if destroyed the attacker
        moves in."""
        b = g.battle
        assert b is not None
        options = retreat_options(g, b.dst)
        if len(options) > 1:
            g.phase = RETREAT
            b.retreat_options = options
            return [
                Event("retreat_needed", {"seat": b.defender, "field": b.dst, "options": options[:]})
            ]
        if len(options) == 1:
            return self.retreat(g, options[0], auto=True)
        events, destroyed = shrink(g, b.dst)
        if destroyed:
            relocate(g, b.src, b.dst)
            events.append(Event("moved_in", {"seat": b.attacker, "src": b.src, "dst": b.dst}))
        g.battle = None
        g.phase = TURN
        return events + self.end_action(g)

    def retreat(self, g: GameState, field: str, auto: bool = False) -> list[Event]:
        """Move the beaten defender to ``field`` and the attacker into the won field."""
        b = g.battle
        assert b is not None
        options = retreat_options(g, b.dst)
        if field not in options:
            raise IllegalAction(
                _("Retreat only to an empty field linked to the lost one, never by sea (EW-19)")
            )
        relocate(g, b.dst, field)
        relocate(g, b.src, b.dst)
        events = [
            Event("retreated", {"seat": b.defender, "src": b.dst, "dst": field, "auto": auto}),
            Event("moved_in", {"seat": b.attacker, "src": b.src, "dst": b.dst}),
        ]
        g.battle = None
        g.phase = TURN
        return events + self.end_action(g)


_REGISTRY: dict[str, VariantRules] = {}


def register(rules: VariantRules) -> VariantRules:
    """Add a variant's rules object to the registry."""
    _REGISTRY[rules.id] = rules
    return rules


def rules_for(variant: str) -> VariantRules:
    """The rules object of ``variant``.

    Raises:
        RulesError: unknown variant.
    """
    if variant not in _REGISTRY:
        from . import european_war, world_war_5  # noqa: F401  (registers both)
    try:
        return _REGISTRY[variant]
    except KeyError:
        raise RulesError(_("Unknown variant {variant}").format(variant=repr(variant))) from None
