"""The only way information leaves the engine: a view of the game for one seat or a
spectator. Other hands become counts; the draw pile's order is never shown."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..contract import Decision
from . import cards as C
from .catalogue import _
from .options import Options
from .state import DIPLOMACY, DUEL, RETREAT, GameState


@dataclass(frozen=True, slots=True, repr=False)
class SeatView:
    """Public facts about one seat."""

    seat: int
    power: str
    power_english: str
    """The power's name as the board file gives it (:attr:`power_name` is translated)."""
    hand_size: int
    supply: tuple[int, int, int]
    """Pieces off the board: (small, medium, large)."""
    arch_enemy: int
    eliminated: bool

    @property
    def power_name(self) -> str:
        """The power's name in the current language."""
        return _(self.power_english)

    def __repr__(self) -> str:
        # as before the name was translated (English under ``power_name``): the console
        # seeds its computer players from a view's repr, so a game repeats as it did
        return (
            f"SeatView(seat={self.seat!r}, power={self.power!r}, "
            f"power_name={self.power_english!r}, hand_size={self.hand_size!r}, "
            f"supply={self.supply!r}, arch_enemy={self.arch_enemy!r}, "
            f"eliminated={self.eliminated!r})"
        )


@dataclass(frozen=True, slots=True)
class BattleView:
    """A declared attack as everyone sees it: duel cards are face up (EW-24)."""

    stage: str
    """'diplomacy', 'duel' or 'retreat'."""
    attacker: int
    defender: int
    src: str
    dst: str
    attacker_size: int
    defender_size: int
    attacker_cards: tuple[int, ...]
    defender_cards: tuple[int, ...]
    attacker_limit: int
    defender_limit: int
    attacker_total: int
    defender_total: int
    attacker_done: bool
    defender_done: bool
    to_play: int | None
    waiting_for: tuple[int, ...]
    """Seats yet to answer in the diplomacy window."""
    retreat_options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class View:
    """What ``viewer`` (a seat, or ``None`` for a spectator) may know about the game."""

    variant: str
    board_id: str
    viewer: int | None
    seats: tuple[SeatView, ...]
    pieces: dict[str, tuple[int, int]]
    """field -> (seat, size)."""
    unplayed_powers: tuple[str, ...]
    phase: str
    current: int
    first: int
    turn: int
    round: int
    deciders: tuple[Decision, ...]
    hand: tuple[int, ...] | None
    """The viewer's own hand (``None`` for a spectator)."""
    known_cards: dict[int, tuple[int, ...]]
    """Cards the viewer knows to be in other hands (from espionage, minus cards since played)."""
    pile_size: int
    discard: tuple[int, ...]
    battle: BattleView | None
    last_roll: dict[str, Any] | None
    winners: tuple[int, ...]
    draw: bool
    over: bool
    end_reason: str
    options: dict[str, Any]
    round_limit: int
    sabotage_used: bool
    """The player to move has sabotaged this turn (EW-8)."""
    special_over: bool
    """The turn's special phase is over (EW-8)."""
    attack_barred: bool
    """The player to move had an attack stopped this turn (EW-14)."""
    setup_queue: tuple[tuple[int, int], ...]
    """Setup still to come: (seat, size), size 0 meaning all three at once (EW-5)."""

    def decision_for(self, seat: int) -> Decision | None:
        """``seat``'s open decision, if any."""
        for d in self.deciders:
            if d.seat == seat:
                return d
        return None


def view_for(g: GameState, viewer: int | None) -> View:
    """Return what ``viewer`` may see: a seat number, or ``None`` for a spectator."""
    from .european_war import CARD_LIMIT

    supplies = [g.supply(s) for s in range(len(g.seats))]
    seats = tuple(
        SeatView(
            seat=s,
            power=p,
            power_english=g.board.powers[p].english,
            hand_size=len(g.hands[s]),
            supply=(supplies[s][1], supplies[s][2], supplies[s][3]),
            arch_enemy=g.arch_enemy(s),
            eliminated=g.eliminated[s],
        )
        for s, p in enumerate(g.seats)
    )
    deciders = tuple(g.deciders())
    battle = None
    b = g.battle
    if b is not None and g.phase in (DIPLOMACY, DUEL, RETREAT):
        to_play = None
        if g.phase == DUEL:
            to_play = b.attacker if b.attacker_next else b.defender
        battle = BattleView(
            stage=g.phase,
            attacker=b.attacker,
            defender=b.defender,
            src=b.src,
            dst=b.dst,
            attacker_size=b.attacker_size,
            defender_size=b.defender_size,
            attacker_cards=tuple(b.attacker_cards),
            defender_cards=tuple(b.defender_cards),
            attacker_limit=CARD_LIMIT[b.attacker_size],
            defender_limit=CARD_LIMIT[b.defender_size],
            attacker_total=sum(C.duel_value(c) for c in b.attacker_cards),
            defender_total=sum(C.duel_value(c) for c in b.defender_cards),
            attacker_done=b.attacker_done,
            defender_done=b.defender_done,
            to_play=to_play,
            waiting_for=tuple(g.pending),
            retreat_options=tuple(b.retreat_options),
        )
    own = viewer is not None and 0 <= viewer < len(g.seats)
    return View(
        variant=g.variant,
        board_id=g.board.id,
        viewer=viewer if own else None,
        seats=seats,
        pieces=dict(g.pieces),
        unplayed_powers=tuple(p for p in g.board.power_order if p not in g.seats),
        phase=g.phase,
        current=g.current,
        first=g.first,
        turn=g.turn,
        round=g.round,
        deciders=deciders,
        hand=tuple(sorted(g.hands[viewer])) if own and viewer is not None else None,
        known_cards=(
            {t: tuple(cs) for t, cs in g.knowledge[viewer].items() if cs}
            if own and viewer is not None
            else {}
        ),
        pile_size=len(g.pile),
        discard=tuple(g.discard),
        battle=battle,
        last_roll=dict(g.last_roll) if g.last_roll is not None else None,
        winners=tuple(g.winners),
        draw=g.draw,
        over=g.over,
        end_reason=g.end_reason,
        options=dict(_options_dict(g.options)),
        round_limit=g.options.round_limit,
        sabotage_used=g.sabotage_used,
        special_over=g.special_over,
        attack_barred=g.attack_barred,
        setup_queue=tuple(g.setup_queue),
    )


@lru_cache(maxsize=64)
def _options_dict(options: Options) -> dict[str, Any]:
    """``options.to_dict()``, computed once per distinct options (views are built often)."""
    return options.to_dict()
