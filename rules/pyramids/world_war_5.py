"""World War 5 (WW-1 .. WW-6): dice combat, four turn options, elimination."""

from __future__ import annotations

from .. import chance, contract
from ..contract import Decision, OnTimeout
from ..errors import IllegalAction
from ..events import Event
from .actions import Action, Attack, Build, Grow, Move, Pass, Retreat, Timeout
from .catalogue import _
from .game import PyramidGame
from .mechanics import fallen, occupiers, relocate
from .options import Options
from .state import DECIDE_RETREAT, DECIDE_TURN, LARGE, SMALL, TURN, Battle, GameState
from .variant import VariantRules, register


class WorldWar5(VariantRules):
    """The rules of World War 5."""

    id = "world_war_5"
    name = "World War 5"
    turn_rule = "WW-2"

    def max_players(self, options: Options) -> int:
        """WW-1: 2-4 players, five or six as an option."""
        return 6 if options.five_players else 4

    def after_setup(self, g: GameState) -> list[Event]:
        """Every piece is placed: the first player's turn begins."""
        g.phase = TURN
        g.turn = 0
        return [Event("setup_done", {})] + self.begin_turn(g, g.first)

    def play_deciders(self, g: GameState) -> list[Decision]:
        """Only the retreat is decided outside the turn."""
        assert g.battle is not None
        return [Decision(g.battle.defender, DECIDE_RETREAT)]

    def play_actions(self, g: GameState, seat: int) -> list[Action]:
        """WW-2: GROW, BUILD, MOVE, INVADE; a pass only when none is legal."""
        if g.phase != TURN:
            assert g.battle is not None
            return [Retreat(f) for f in g.battle.retreat_options]
        pieces = g.pieces
        adjacency = g.board.adjacency
        supply = g.supply(seat)
        acts: list[Action] = []
        for f in g.home_fields(seat):
            if f not in pieces:
                if supply[SMALL] > 0:
                    acts.append(Build(f))
            else:
                owner, size = pieces[f]
                if owner == seat and size < LARGE and supply[size + 1] > 0:
                    acts.append(Grow(f))
        for src, (owner, _size) in pieces.items():
            if owner != seat:
                continue
            for dst in adjacency[src]:
                if dst not in pieces:
                    acts.append(Move(src, dst))
                elif pieces[dst][0] != seat:
                    acts.append(Attack(src, dst))
        return acts or [Pass()]

    def unknown_field(self, field: str) -> str:
        """The refusal of a territory the board lacks."""
        return _("Unknown territory {field}").format(field=repr(field))

    def apply_play(self, g: GameState, seat: int, action: Action) -> list[Event]:
        """Check and apply a turn option or a retreat."""
        if g.phase != TURN:
            if isinstance(action, Retreat):
                return self.retreat(g, action.field)
            raise IllegalAction(_("Your beaten piece must retreat first: choose its field (WW-3)"))
        if isinstance(action, Grow):
            return self._grow(g, seat, action.field)
        if isinstance(action, Build):
            return self._build(g, seat, action.field)
        if isinstance(action, Move):
            return self._move(g, seat, action.src, action.dst)
        if isinstance(action, Attack):
            return self._invade(g, seat, action.src, action.dst)
        if isinstance(action, Pass):
            if self.play_actions(g, seat) != [Pass()]:
                raise IllegalAction(_("You may pass only when no option is legal (WW-2)"))
            return [Event("passed", {"seat": seat})] + self.end_action(g)
        raise IllegalAction(
            _("Your turn: {options} (WW-2)").format(options=self.options_now(g, seat))
        )

    # ------------------------------------------------------------------ turn options
    def _grow(self, g: GameState, seat: int, field: str) -> list[Event]:
        field = self._field(g, field)
        if field not in g.home_fields(seat):
            raise IllegalAction(_("GROW only on your own continent (WW-2)"))
        piece = g.pieces.get(field)
        if piece is None or piece[0] != seat:
            raise IllegalAction(
                _("You have no piece on {field} to grow (WW-2)").format(field=self._name(g, field))
            )
        size = piece[1]
        if size == LARGE:
            raise IllegalAction(_("A large pyramid cannot grow any more (WW-2)"))
        if g.supply(seat)[size + 1] == 0:
            raise IllegalAction(_("No larger pyramid left in your supply (WW-2)"))
        g.pieces[field] = (seat, size + 1)
        ev = Event("grew", {"seat": seat, "field": field, "size": size + 1, "from_size": size})
        return [ev] + self.end_action(g)

    def _build(self, g: GameState, seat: int, field: str) -> list[Event]:
        field = self._field(g, field)
        if field not in g.home_fields(seat):
            raise IllegalAction(_("BUILD only on your own continent (WW-2)"))
        if field in g.pieces:
            raise IllegalAction(_("{field} is not empty (WW-2)").format(field=self._name(g, field)))
        if g.supply(seat)[SMALL] == 0:
            raise IllegalAction(_("No small pyramid left in your supply (WW-2)"))
        g.pieces[field] = (seat, SMALL)
        return [Event("built", {"seat": seat, "field": field, "size": SMALL})] + self.end_action(g)

    def _move(self, g: GameState, seat: int, src: str, dst: str) -> list[Event]:
        size = self._own_piece(g, seat, src)
        dst = self._field(g, dst)
        if dst not in g.board.adjacency[src]:
            raise IllegalAction(
                _("{dst} is not connected to {src} (WW-1)").format(
                    dst=self._name(g, dst), src=self._name(g, src)
                )
            )
        if dst in g.pieces:
            raise IllegalAction(
                _("{field} is occupied: one piece per territory").format(field=self._name(g, dst))
            )
        relocate(g, src, dst)
        ev = Event("moved", {"seat": seat, "src": src, "dst": dst, "size": size, "by_sea": False})
        return [ev] + self.end_action(g)

    def _invade(self, g: GameState, seat: int, src: str, dst: str) -> list[Event]:
        size = self._own_piece(g, seat, src)
        dst = self._field(g, dst)
        if dst not in g.board.adjacency[src]:
            raise IllegalAction(
                _("{dst} is not connected to {src} (WW-1)").format(
                    dst=self._name(g, dst), src=self._name(g, src)
                )
            )
        target = g.pieces.get(dst)
        if target is None:
            raise IllegalAction(
                _("{field} is empty: no enemy piece to invade (move there instead, WW-2)").format(
                    field=self._name(g, dst)
                )
            )
        if target[0] == seat:
            raise IllegalAction(
                _("{field} holds your own piece: invade an enemy's (WW-2)").format(
                    field=self._name(g, dst)
                )
            )
        defender, defender_size = target
        attack_dice = [chance.below(g, 6, "attack die") + 1 for _die in range(size)]
        defence_dice = [chance.below(g, 6, "defence die") + 1 for _die in range(defender_size)]
        won = sum(attack_dice) > sum(defence_dice)
        g.last_roll = {
            "attacker": seat,
            "defender": defender,
            "src": src,
            "dst": dst,
            "attacker_dice": attack_dice,
            "defender_dice": defence_dice,
            "attacker_won": won,
        }
        events = [
            Event(
                "attack_declared",
                {
                    "seat": seat,
                    "defender": defender,
                    "src": src,
                    "dst": dst,
                    "size": size,
                    "defender_size": defender_size,
                },
            ),
            Event("dice", dict(g.last_roll)),
        ]
        if not won:
            return events + self.end_action(g)
        g.battle = Battle(seat, defender, src, dst, size, defender_size)
        return events + self.after_won_attack(g)

    # ------------------------------------------------------------------ timeouts
    def on_timeout(self, g: GameState, decision: Decision) -> OnTimeout:
        """WW-2: an expired turn gets the seat's computer player's move (the rules' own
        uniform choice if no computer player can be asked); anything else times out."""
        return OnTimeout(Timeout(), computer=decision.kind == DECIDE_TURN)

    def apply_timeout(self, g: GameState, seat: int, kind: str) -> list[Event]:
        """WW-2: an expired turn gets a computer move (a uniform choice drawn from the
        game's own generator, so replays agree); an expired retreat takes the first field."""
        ev = Event("timed_out", {"seat": seat, "decision": kind})
        if kind == DECIDE_TURN:
            options = self.play_actions(g, seat)
            return [ev] + self.apply_play(
                g, seat, options[chance.below(g, len(options), "timed-out move")]
            )
        assert g.battle is not None
        return [ev] + self.retreat(g, g.battle.retreat_options[0])

    # ------------------------------------------------------------------ the end
    def check_end(self, g: GameState) -> list[Event]:
        """WW-4 elimination, WW-5 victory (the mover wins a simultaneous one)."""
        events: list[Event] = []
        for seat in fallen(g):
            g.eliminated[seat] = True
            removed = sorted(f for f, (s, _z) in g.pieces.items() if s == seat)
            sizes = {f: g.pieces.pop(f)[1] for f in removed}
            events.append(Event("eliminated", {"seat": seat, "removed": removed, "sizes": sizes}))
        occ = occupiers(g)
        events += [Event("occupied", {"seat": s, "power": p}) for s, p in occ.items()]
        if occ:
            winner = g.current if g.current in occ else min(occ)
            return events + self.finish(g, [winner], "occupation")
        alive = [s for s in range(len(g.seats)) if not g.eliminated[s]]
        if len(alive) == 1:
            return events + self.finish(g, alive, "last player left")
        if not alive:
            return events + self.finish(g, [], "no player left")
        return events


WORLD_WAR_5 = register(WorldWar5())
GAME = contract.register(
    PyramidGame(
        WORLD_WAR_5,
        (
            "place_piece",
            "grow",
            "build",
            "move",
            "attack",
            "pass",
            "retreat",
            "timeout",
            "agree_draw",
        ),
        decisions=("setup", "turn", "retreat"),  # no cards: no diplomacy, no duel
    )
)
