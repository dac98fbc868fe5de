"""European War (EW-1 .. EW-25): cards, the special phase, diplomacy and the duel."""

from __future__ import annotations

from .. import chance, contract
from ..contract import Decision
from ..errors import IllegalAction
from ..events import Event
from . import cards as C
from .actions import (
    Action,
    Arm,
    Attack,
    Conscript,
    LetPass,
    Move,
    Pass,
    PlayCard,
    Retreat,
    Sabotage,
    Spy,
    StopAttack,
    StopPlaying,
)
from .catalogue import _
from .game import PyramidGame
from .mechanics import fallen, occupiers, relocate, shrink
from .options import Options
from .state import (
    DECIDE_ACTION,
    DECIDE_DIPLOMACY,
    DECIDE_DUEL,
    DECIDE_RETREAT,
    DIPLOMACY,
    DUEL,
    LARGE,
    MEDIUM,
    SMALL,
    TURN,
    Battle,
    GameState,
)
from .variant import VariantRules, register

HAND_SIZE = 5
CARD_LIMIT = {1: 1, 2: 2, 3: 3}
"""EW-16: how many cards a piece of each size may put into a duel."""


class EuropeanWar(VariantRules):
    """The rules of European War."""

    id = "european_war"
    name = "European War"

    def max_players(self, options: Options) -> int:
        """EW-4: 2-4 players, five as an option."""
        return 5 if options.five_players else 4

    def prepare(self, g: GameState) -> None:
        """The 52 cards wait in the pile until setup is over (EW-6)."""
        g.pile = list(C.DECK)

    def after_setup(self, g: GameState) -> list[Event]:
        """EW-6: shuffle, deal five to each player, and start the first turn."""
        chance.shuffle(g, g.pile, "deck")
        events = [Event("setup_done", {})]
        n = len(g.seats)
        for k in range(n):
            events += self.draw(g, (g.first + k) % n, HAND_SIZE, "deal")
        g.phase = TURN
        g.turn = 0
        return events + self.begin_turn(g, g.first)

    def on_turn_start(self, g: GameState) -> list[Event]:
        """EW-7: draw one card."""
        return self.draw(g, g.current, 1, "turn")

    # ------------------------------------------------------------------ cards
    def draw(self, g: GameState, seat: int, count: int, reason: str) -> list[Event]:
        """Draw ``count`` cards, reshuffling the discard pile when the pile runs out (EW-3)."""
        events: list[Event] = []
        got: list[int] = []
        for _card in range(count):
            if not g.pile:
                if not g.discard:
                    break
                g.pile = g.discard
                g.discard = []
                chance.shuffle(g, g.pile, "reshuffled deck")
                events.append(Event("reshuffled", {"count": len(g.pile)}))
            got.append(g.pile.pop())
        g.hands[seat].extend(got)
        events.append(Event("drew", {"seat": seat, "count": len(got), "reason": reason}))
        if got:
            events.append(Event("cards_received", {"seat": seat, "cards": got}, to=seat))
        return events

    @staticmethod
    def _spend(g: GameState, seat: int, card: int) -> None:
        """Take ``card`` from ``seat``'s hand to the discard pile."""
        g.hands[seat].remove(card)
        g.discard.append(card)
        _forget(g, seat, card)

    @staticmethod
    def _figure(g: GameState, seat: int, rank: int, ace: bool) -> int | None:
        """The card ``seat`` would spend for a figure power: ``rank``, or an A if ``ace``."""
        return C.figure_card(g.hands[seat], rank, ace)

    # ------------------------------------------------------------------ deciders
    def play_deciders(self, g: GameState) -> list[Decision]:
        """Deciders of the diplomacy window, the duel and the retreat."""
        b = g.battle
        assert b is not None
        if g.phase == DIPLOMACY:
            return [Decision(s, DECIDE_DIPLOMACY) for s in g.pending]
        if g.phase == DUEL:
            return [Decision(b.attacker if b.attacker_next else b.defender, DECIDE_DUEL)]
        return [Decision(b.defender, DECIDE_RETREAT)]

    # ------------------------------------------------------------------ legal actions
    def play_actions(self, g: GameState, seat: int) -> list[Action]:
        """Every legal action for ``seat``, a current decider."""
        if g.phase == TURN:
            return self._turn_actions(g, seat)
        b = g.battle
        assert b is not None
        hand = g.hands[seat]
        if g.phase == DIPLOMACY:
            acts: list[Action] = [LetPass()]
            ranks = {C.rank(c) for c in hand}
            if C.KING in ranks:
                acts.append(StopAttack(False))
            if C.ACE in ranks:
                acts.append(StopAttack(True))
            return acts
        if g.phase == DUEL:
            duel_acts: list[Action] = [PlayCard(c) for c in hand]
            if not (seat == b.attacker and not b.attacker_cards):
                duel_acts.append(StopPlaying())
            return duel_acts
        return [Retreat(f) for f in b.retreat_options]

    def _turn_actions(self, g: GameState, seat: int) -> list[Action]:
        board = g.board
        pieces = g.pieces
        hand = g.hands[seat]
        acts: list[Action] = []
        home = g.home_fields(seat)
        if not g.special_over:
            ranks = {C.rank(c) for c in hand}
            has_a = C.ACE in ranks
            if not g.sabotage_used and (C.JACK in ranks or has_a):
                for f in home:
                    if f in pieces and pieces[f][0] != seat:
                        if C.JACK in ranks:
                            acts.append(Sabotage(f, False))
                        if has_a:
                            acts.append(Sabotage(f, True))
            if C.QUEEN in ranks or has_a:
                for t in range(len(g.seats)):
                    if t != seat:
                        if C.QUEEN in ranks:
                            acts.append(Spy(t, False))
                        if has_a:
                            acts.append(Spy(t, True))
        supply = g.supply(seat)
        for f in home:
            if f not in pieces:
                if supply[SMALL] > 0:
                    acts.append(Conscript(f))
            else:
                owner, size = pieces[f]
                if owner == seat and size < LARGE and supply[size + 1] > 0:
                    acts.append(Conscript(f))
        can_attack = bool(hand) and not g.attack_barred
        sea_attacks = g.options.sea_attacks
        for src, (owner, _size) in pieces.items():
            if owner != seat:
                continue
            for dst in board.adjacency[src]:
                if dst not in pieces:
                    acts.append(Move(src, dst))
                elif can_attack and pieces[dst][0] != seat:
                    acts.append(Attack(src, dst))
            for dst in board.sea_reach[src]:
                if dst in board.adjacency[src]:
                    continue
                if dst not in pieces:
                    acts.append(Move(src, dst))
                elif can_attack and sea_attacks and pieces[dst][0] != seat:
                    acts.append(Attack(src, dst))
        acts.append(Arm())
        acts.append(Pass())
        return acts

    # ------------------------------------------------------------------ applying
    def apply_play(self, g: GameState, seat: int, action: Action) -> list[Event]:
        """Check and apply an action outside setup."""
        if g.phase == TURN:
            return self._apply_turn(g, seat, action)
        if g.phase == DIPLOMACY:
            if isinstance(action, StopAttack):
                return self._stop_attack(g, seat, action.ace)
            if isinstance(action, LetPass):
                return self._let_pass(g, seat)
            raise IllegalAction(
                _("An attack was declared: answer Stop with K or Let it pass (EW-13)")
            )
        if g.phase == DUEL:
            if isinstance(action, PlayCard):
                return self._play_card(g, seat, action.card)
            if isinstance(action, StopPlaying):
                return self._stop_playing(g, seat)
            raise IllegalAction(_("A duel is on: play a card or stop (EW-17)"))
        if isinstance(action, Retreat):
            return self.retreat(g, action.field)
        raise IllegalAction(_("Your beaten piece must retreat first: choose its field (EW-19)"))

    def _apply_turn(self, g: GameState, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Sabotage):
            return self._sabotage(g, seat, action)
        if isinstance(action, Spy):
            return self._spy(g, seat, action)
        if isinstance(action, Conscript):
            return self._conscript(g, seat, action.field)
        if isinstance(action, Move):
            return self._move(g, seat, action.src, action.dst)
        if isinstance(action, Attack):
            return self._attack(g, seat, action.src, action.dst)
        if isinstance(action, Arm):
            events = [Event("armed", {"seat": seat})] + self.draw(g, seat, 2, "arm")
            return events + self.end_action(g)
        if isinstance(action, Pass):
            return [Event("passed", {"seat": seat})] + self.end_action(g)
        text = (
            _("It is your turn: {options} (EW-8, EW-11)")
            if not g.attack_barred
            else _("Your attack was stopped: {options} (EW-14)")
        )
        raise IllegalAction(text.format(options=self.options_now(g, seat)))

    def _special_open(self, g: GameState, sabotage: bool) -> None:
        if g.special_over:
            raise IllegalAction(
                _("Sabotage only before your action, in the special phase (EW-8)")
                if sabotage
                else _("Espionage only before your action, in the special phase (EW-8)")
            )

    def _sabotage(self, g: GameState, seat: int, action: Sabotage) -> list[Event]:
        self._special_open(g, True)
        if g.sabotage_used:
            raise IllegalAction(_("Only one sabotage per turn (EW-8)"))
        target = self._field(g, action.target)
        card = self._figure(g, seat, C.JACK, action.ace)
        if card is None:
            raise IllegalAction(
                _("Sabotage needs an A in your hand (EW-9)")
                if action.ace
                else _("Sabotage needs a J (or an A in its place) in your hand (EW-9)")
            )
        if target not in g.home_fields(seat):
            raise IllegalAction(_("Sabotage only on your own home fields (EW-9)"))
        piece = g.pieces.get(target)
        if piece is None or piece[0] == seat:
            raise IllegalAction(
                _("No enemy piece on {field} to sabotage (EW-9)").format(
                    field=self._name(g, target)
                )
            )
        self._spend(g, seat, card)
        g.sabotage_used = True
        events = [
            Event("sabotage", {"seat": seat, "field": target, "victim": piece[0], "card": card})
        ]
        events += shrink(g, target)[0]
        return events + self.check_end(g)

    def _spy(self, g: GameState, seat: int, action: Spy) -> list[Event]:
        self._special_open(g, False)
        if not 0 <= action.target < len(g.seats) or action.target == seat:
            raise IllegalAction(_("Choose another player to spy on (EW-10)"))
        card = self._figure(g, seat, C.QUEEN, action.ace)
        if card is None:
            raise IllegalAction(
                _("Espionage needs an A in your hand (EW-10)")
                if action.ace
                else _("Espionage needs a Q (or an A in its place) in your hand (EW-10)")
            )
        self._spend(g, seat, card)
        seen = sorted(g.hands[action.target])
        g.knowledge[seat][action.target] = seen[:]
        return [
            Event("spied", {"seat": seat, "target": action.target, "card": card}),
            Event("spy_result", {"seat": seat, "target": action.target, "cards": seen}, to=seat),
        ]

    def _conscript(self, g: GameState, seat: int, field: str) -> list[Event]:
        field = self._field(g, field)
        if field not in g.home_fields(seat):
            raise IllegalAction(_("Conscription only on your home fields (EW-11)"))
        supply = g.supply(seat)
        piece = g.pieces.get(field)
        if piece is None:
            if supply[SMALL] == 0:
                raise IllegalAction(_("No small pyramid left in your supply (EW-11)"))
            g.pieces[field] = (seat, SMALL)
            ev = Event("conscripted", {"seat": seat, "field": field, "size": SMALL, "from_size": 0})
        else:
            owner, size = piece
            if owner != seat:
                raise IllegalAction(
                    _(
                        "An enemy piece holds {field}; conscription needs an empty "
                        "home field or your own piece (EW-11)"
                    ).format(field=self._name(g, field))
                )
            if size == LARGE:
                raise IllegalAction(_("A large pyramid cannot grow any more (EW-11)"))
            if supply[size + 1] == 0:
                raise IllegalAction(
                    _("No medium pyramid left in your supply to grow into (EW-11)")
                    if size + 1 == MEDIUM
                    else _("No large pyramid left in your supply to grow into (EW-11)")
                )
            g.pieces[field] = (seat, size + 1)
            ev = Event(
                "conscripted", {"seat": seat, "field": field, "size": size + 1, "from_size": size}
            )
        return [ev] + self.end_action(g)

    def _move(self, g: GameState, seat: int, src: str, dst: str) -> list[Event]:
        size = self._own_piece(g, seat, src)
        dst = self._field(g, dst)
        if dst == src:
            raise IllegalAction(_("A move goes to another field (EW-11)"))
        by_land = dst in g.board.adjacency[src]
        if not by_land and dst not in g.board.sea_reach[src]:
            raise IllegalAction(
                _(
                    "{dst} is not next to {src}, and no harbour of one group joins them (EW-11)"
                ).format(dst=self._name(g, dst), src=self._name(g, src))
            )
        if dst in g.pieces:
            raise IllegalAction(
                _("{field} is occupied: one piece per field (EW-1)").format(
                    field=self._name(g, dst)
                )
            )
        relocate(g, src, dst)
        ev = Event(
            "moved", {"seat": seat, "src": src, "dst": dst, "size": size, "by_sea": not by_land}
        )
        return [ev] + self.end_action(g)

    def _attack(self, g: GameState, seat: int, src: str, dst: str) -> list[Event]:
        if g.attack_barred:
            raise IllegalAction(_("Your attack was stopped: no other attack this turn (EW-14)"))
        size = self._own_piece(g, seat, src)
        dst = self._field(g, dst)
        if dst == src:
            raise IllegalAction(_("An attack goes to a neighbouring field (EW-11)"))
        self._check_attack_link(g, src, dst)
        target = g.pieces.get(dst)
        if target is None:
            raise IllegalAction(
                _("{field} is empty: no enemy piece to attack (move there instead, EW-11)").format(
                    field=self._name(g, dst)
                )
            )
        if target[0] == seat:
            raise IllegalAction(
                _("{field} holds your own piece: attack an enemy's (EW-11)").format(
                    field=self._name(g, dst)
                )
            )
        if not g.hands[seat]:
            raise IllegalAction(_("You need at least one card in hand to attack (EW-11)"))
        g.special_over = True
        defender = target[0]
        g.battle = Battle(seat, defender, src, dst, size, target[1])
        n = len(g.seats)
        eligible = [s for s in ((seat + k) % n for k in range(1, n)) if s != defender]
        events = [
            Event(
                "attack_declared",
                {
                    "seat": seat,
                    "defender": defender,
                    "src": src,
                    "dst": dst,
                    "size": size,
                    "defender_size": target[1],
                },
            )
        ]
        if eligible:
            g.phase = DIPLOMACY
            g.pending = eligible
            events.append(
                Event(
                    "diplomacy_open",
                    {
                        "eligible": eligible[:],
                        "seconds": g.options.diplomacy_seconds,
                    },
                )
            )
            return events
        return events + self._start_duel(g)

    def _check_attack_link(self, g: GameState, src: str, dst: str) -> None:
        """EW-11: an attack goes by land or special link (or, with the sea-attacks
        option, between harbours of one group); the refusal says which link is missing."""
        board = g.board
        if dst in board.adjacency[src]:
            return
        by_sea = dst in board.sea_reach[src]
        if by_sea and g.options.sea_attacks:
            return
        there, here = self._name(g, dst), self._name(g, src)
        if by_sea:
            raise IllegalAction(
                _(
                    "{there} and {here} are joined only by sea: attacks go by land or special "
                    "link (sea attacks are not on at this table, EW-11)"
                ).format(there=there, here=here)
            )
        raise IllegalAction(
            _(
                "{there} does not touch {here}: attacks go only to a neighbouring field, by "
                "land or special link (EW-11)"
            ).format(there=there, here=here)
        )

    # ------------------------------------------------------------------ diplomacy
    def _stop_attack(self, g: GameState, seat: int, ace: bool) -> list[Event]:
        card = self._figure(g, seat, C.KING, ace)
        if card is None:
            raise IllegalAction(
                _("Stopping an attack needs an A in your hand (EW-13)")
                if ace
                else _("Stopping an attack needs a K (or an A in its place) in your hand (EW-13)")
            )
        b = g.battle
        assert b is not None
        self._spend(g, seat, card)
        g.battle = None
        g.pending = []
        g.phase = TURN
        g.attack_barred = True
        return [
            Event(
                "attack_stopped",
                {
                    "seat": seat,
                    "attacker": b.attacker,
                    "src": b.src,
                    "dst": b.dst,
                    "card": card,
                },
            )
        ]

    def _let_pass(self, g: GameState, seat: int) -> list[Event]:
        g.pending.remove(seat)
        events = [Event("let_pass", {"seat": seat})]
        if not g.pending:
            events += self._start_duel(g)
        return events

    # ------------------------------------------------------------------ duel
    def _start_duel(self, g: GameState) -> list[Event]:
        b = g.battle
        assert b is not None
        g.phase = DUEL
        g.pending = []
        b.attacker_next = True
        return [
            Event(
                "duel_started",
                {
                    "attacker": b.attacker,
                    "defender": b.defender,
                    "attacker_limit": CARD_LIMIT[b.attacker_size],
                    "defender_limit": CARD_LIMIT[b.defender_size],
                },
            )
        ]

    def _play_card(self, g: GameState, seat: int, card: int) -> list[Event]:
        b = g.battle
        assert b is not None
        if card not in g.hands[seat]:
            raise IllegalAction(_("You can play only cards from your hand (EW-17)"))
        attacker = seat == b.attacker and b.attacker_next
        played = b.attacker_cards if attacker else b.defender_cards
        g.hands[seat].remove(card)
        _forget(g, seat, card)
        played.append(card)
        total = sum(C.duel_value(c) for c in played)
        events = [
            Event(
                "duel_card",
                {
                    "seat": seat,
                    "card": card,
                    "side": "attacker" if attacker else "defender",
                    "total": total,
                },
            )
        ]
        return events + self._duel_next(g, attacker)

    def _stop_playing(self, g: GameState, seat: int) -> list[Event]:
        b = g.battle
        assert b is not None
        attacker = seat == b.attacker and b.attacker_next
        if attacker and not b.attacker_cards:
            raise IllegalAction(_("The attacker must play at least one card (EW-17)"))
        if attacker:
            b.attacker_done = True
        else:
            b.defender_done = True
        side = "attacker" if attacker else "defender"
        events = [Event("duel_stop", {"seat": seat, "side": side})]
        return events + self._duel_next(g, attacker)

    def _side_done(self, g: GameState, b: Battle, attacker: bool) -> bool:
        if attacker:
            return (
                b.attacker_done
                or len(b.attacker_cards) >= CARD_LIMIT[b.attacker_size]
                or not g.hands[b.attacker]
            )
        return (
            b.defender_done
            or len(b.defender_cards) >= CARD_LIMIT[b.defender_size]
            or not g.hands[b.defender]
        )

    def _duel_next(self, g: GameState, last_was_attacker: bool) -> list[Event]:
        """EW-17: sides alternate; a side that stopped, reached its limit or has no card
        left is out, and the other goes on alone; when both are out the duel is decided."""
        b = g.battle
        assert b is not None
        other = not last_was_attacker
        if not self._side_done(g, b, other):
            b.attacker_next = other
            return []
        if not self._side_done(g, b, last_was_attacker):
            b.attacker_next = last_was_attacker
            return []
        return self._resolve_duel(g)

    def _resolve_duel(self, g: GameState) -> list[Event]:
        """EW-18 totals, then EW-19 retreat / shrink / move-in."""
        b = g.battle
        assert b is not None
        att = sum(C.duel_value(c) for c in b.attacker_cards)
        dfn = sum(C.duel_value(c) for c in b.defender_cards)
        g.discard.extend(b.attacker_cards)
        g.discard.extend(b.defender_cards)
        won = att > dfn
        events = [
            Event(
                "duel_over",
                {
                    "attacker": b.attacker,
                    "defender": b.defender,
                    "src": b.src,
                    "dst": b.dst,
                    "attacker_size": b.attacker_size,
                    "defender_size": b.defender_size,
                    "attacker_cards": b.attacker_cards[:],
                    "defender_cards": b.defender_cards[:],
                    "attacker_total": att,
                    "defender_total": dfn,
                    "attacker_won": won,
                },
            )
        ]
        b.attacker_cards = []
        b.defender_cards = []
        if not won:
            g.battle = None
            g.phase = TURN
            return events + self.end_action(g)
        return events + self.after_won_attack(g)

    # ------------------------------------------------------------------ timeouts
    def apply_timeout(self, g: GameState, seat: int, kind: str) -> list[Event]:
        """What happens when time runs out (EW-15, EW-17, PRODUCT's turn setting)."""
        ev = Event("timed_out", {"seat": seat, "decision": kind})
        if kind in ("turn", DECIDE_ACTION):
            if g.options.turn_timeout_action == "arm":
                return [ev] + self._apply_turn(g, seat, Arm())
            return [ev] + self._apply_turn(g, seat, Pass())
        if kind == DECIDE_DIPLOMACY:
            return [ev] + self._let_pass(g, seat)
        b = g.battle
        assert b is not None
        if kind == DECIDE_DUEL:
            if seat == b.attacker and b.attacker_next and not b.attacker_cards:
                g.battle = None
                g.phase = TURN
                withdrawn = Event("attack_withdrawn", {"seat": seat, "src": b.src, "dst": b.dst})
                return [ev, withdrawn] + self.end_action(g)
            return [ev] + self._stop_playing(g, seat)
        return [ev] + self.retreat(g, b.retreat_options[0])

    # ------------------------------------------------------------------ the end
    def check_end(self, g: GameState) -> list[Event]:
        """EW-20 / EW-21: occupiers and fallen players end the game."""
        occ = occupiers(g)
        fell = fallen(g)
        if not occ and not fell:
            return []
        events = [Event("occupied", {"seat": s, "power": p}) for s, p in occ.items()]
        events += [Event("fallen", {"seat": s}) for s in fell]
        counted = [g.current] if len(occ) > 1 and g.current in occ else list(occ)
        winners = set(counted) | {g.previous_seat(s) for s in fell}
        winners -= set(fell)
        reason = "occupation" if counted else "fallen"
        return events + self.finish(g, sorted(winners), reason if winners else "no winner")


def _forget(g: GameState, seat: int, card: int) -> None:
    """A card left ``seat``'s hand in the open: nobody may still count it as held there."""
    for k in g.knowledge:
        known = k.get(seat)
        if known and card in known:
            known.remove(card)


EUROPEAN_WAR = register(EuropeanWar())
GAME = contract.register(
    PyramidGame(
        EUROPEAN_WAR,
        (
            "place_all",
            "place_piece",
            "sabotage",
            "spy",
            "conscript",
            "move",
            "attack",
            "arm",
            "pass",
            "stop_attack",
            "let_pass",
            "play_card",
            "stop_playing",
            "retreat",
            "timeout",
            "agree_draw",
        ),
    )
)
