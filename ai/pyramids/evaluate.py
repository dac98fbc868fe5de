"""A static evaluation of a game position: each seat's chance of winning, roughly.

Each seat gets a score in logit units from a handful of features — home safety, the
threat of occupying some power, pieces on the board (pips), cards in hand, and the
arch-enemy relation (EW-21: you win when your arch-enemy falls) — and the scores are
turned into shares that sum to one with a softmax. A finished game scores its winners
1 and everyone else 0 (a draw: an equal share for every seat still in the game).

With an ``observer``, the other seats' hands are valued from their sizes alone, so the
evaluation uses only what the observer may know.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import exp

from rules.pyramids import GameState
from rules.pyramids import cards as C
from rules.pyramids.state import OVER, SETUP, TURN

from .boardinfo import BoardInfo, board_info
from .duelmath import dice_win_chance, mean_strength

CARD_LIMIT = (0, 1, 2, 3)
MEAN_CARD = 280 / 52
"""The average duel value of a card of the full deck (EW-2)."""
FIGURE_SHARE = 8 / 52
"""Share of the deck that can stop an attack (K, A)."""


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluator's weights (logit units): the coefficients of :data:`FEATURES` (see
    :meth:`coefficients`), and the two shapes of ``near``."""

    home: tuple[float, float, float, float] = (0.0, 0.0, 0.1, 0.15)
    """By the number of own pieces on own home fields."""
    occupation: float = 5.0
    second_target: float = 0.2
    closeness: float = 0.35
    turn_cost: float = 2.0
    """Per estimated turn to the nearest occupation. It keeps the normal level heading for
    one even when the occupation is far off, where ``near`` no longer changes: at 0.5,
    four normal players drew 5 of 40 seeded games and took 103.5 rounds at the median;
    at 2.0 they drew 1 and took 30."""
    pip: float = 0.1
    card_top: float = 0.35
    card_count: float = 0.06
    card_stop: float = 0.2
    threat: float = 4.0
    fall: float = 3.0
    enemy_fall: float = 3.0
    tempo: float = 0.1

    def coefficients(self) -> tuple[float, ...]:
        """The weight of each of :data:`FEATURES`, in order."""
        return (
            self.home[2] - self.home[1],
            self.home[3] - self.home[1],
            self.occupation,
            -self.turn_cost,
            self.threat,
            self.pip,
            self.card_top,
            self.card_count,
            self.card_stop,
            self.tempo,
            -self.fall,
            self.enemy_fall,
        )

    @staticmethod
    def from_coefficients(
        coefficients: tuple[float, ...], closeness: float = 0.35, second_target: float = 0.2
    ) -> Weights:
        """The weights whose :meth:`coefficients` these are."""
        h2, h3, occ, turns, threat, pip, top, count, stop, tempo, fall, enemy = coefficients
        return Weights(
            (0.0, 0.0, h2, h3),
            occ,
            second_target,
            closeness,
            -turns,
            pip,
            top,
            count,
            stop,
            threat,
            -fall,
            enemy,
            tempo,
        )


DEFAULT_WEIGHTS = Weights()

FEATURES = (
    "home2",
    "home3",
    "near",
    "turns",
    "threat",
    "pips",
    "top",
    "count",
    "stops",
    "tempo",
    "falling",
    "enemy_falling",
)
"""What a seat's score is made of: two or three own pieces at home, how near it is to
occupying a power (``near``: its nearest and second-nearest targets, ``turns``: the
estimated turns to the nearest, at most 12), the chance its next action completes an
occupation (``threat``), its pips on the board, its hand (the best three duel values /
10, the number of cards up to 7, the stop cards up to 2; European War), having the
move, the risk that it falls, and the risk that its arch-enemy falls (EW-21)."""

TERMS = (
    "home",
    "occupation",
    "threat",
    "pieces",
    "cards",
    "tempo",
    "falling",
    "enemy_falling",
)
"""The parts of a seat's score (see :func:`scores`): its pieces at home, how near it is
to occupying a power, the chance its next action does, its pips on the board, its hand,
having the move, the risk that it falls, and the chance that its arch-enemy falls."""

_TERM_OF = (
    "home",
    "home",
    "occupation",
    "occupation",
    "threat",
    "pieces",
    "cards",
    "cards",
    "cards",
    "tempo",
    "falling",
    "enemy_falling",
)
"""The term of :data:`TERMS` each of :data:`FEATURES` counts in."""


def info_of(g: GameState) -> BoardInfo:
    """The board geometry of ``g``."""
    return board_info(g.variant, g.options.pyramid_arcade, g.options.sea_attacks)


def terminal_utilities(g: GameState) -> list[float]:
    """Utilities of a finished game: 1 per winner, a draw shared by those still in."""
    n = len(g.seats)
    if g.winners:
        return [1.0 if s in g.winners else 0.0 for s in range(n)]
    alive = [s for s in range(n) if not g.eliminated[s]] or list(range(n))
    share = 1.0 / len(alive)
    return [share if s in alive else 0.0 for s in range(n)]


def card_strength(values: list[float], w: Weights) -> float:
    """Score of a hand given its duel values (the top three matter most)."""
    top = sorted(values, reverse=True)[:3]
    return w.card_top * sum(top) / 10 + w.card_count * min(len(values), 7)


def _hand_features(g: GameState, seat: int, observer: int | None) -> tuple[float, float, float]:
    """``seat``'s hand as (best three duel values / 10, cards up to 7, stop cards up to
    2); another seat's hand, for an observer, from its size (and what espionage showed)."""
    hand = g.hands[seat]
    if observer is not None and seat != observer:
        h = len(hand)
        known = g.knowledge[observer].get(seat, []) if 0 <= observer < len(g.seats) else []
        stops = sum(1 for c in known if C.rank(c) >= C.KING) + FIGURE_SHARE * (h - len(known))
        return mean_strength(h, 3) / 10, float(min(h, 7)), min(stops, 2)
    stops = sum(1 for c in hand if C.rank(c) >= C.KING)
    top = sorted((C.duel_value(c) for c in hand), reverse=True)[:3]
    return sum(top) / 10, float(min(len(hand), 7)), float(min(stops, 2))


def take_chance(variant: str, attacker_size: int, defender_size: int) -> float:
    """A rough chance that an attack by ``attacker_size`` beats ``defender_size``."""
    if variant == "world_war_5":
        return dice_win_chance(attacker_size, defender_size)
    return _EW_TAKE[attacker_size][defender_size]


def _take_turns(ww: bool) -> tuple[tuple[float, ...], ...]:
    """Expected turns to take a field by attack (one try per turn), by sizes."""
    variant = "world_war_5" if ww else "european_war"
    return tuple(
        tuple(1.0 / max(0.2, take_chance(variant, a, d)) if a and d else 99.0 for d in range(4))
        for a in range(4)
    )


# Rough EW duel odds by piece sizes with five-card hands (both sides play their best).
_EW_TAKE = (
    (0.0, 0.0, 0.0, 0.0),
    (0.0, 0.42, 0.2, 0.1),
    (0.0, 0.7, 0.42, 0.25),
    (0.0, 0.85, 0.62, 0.42),
)


_TAKE_TURNS = (_take_turns(False), _take_turns(True))
_WW_TAKE = tuple(
    tuple(dice_win_chance(a, d) if a and d else 0.0 for d in range(4)) for a in range(4)
)


def seat_features(
    g: GameState, observer: int | None = None, w: Weights = DEFAULT_WEIGHTS
) -> list[list[float] | None]:
    """Each seat's :data:`FEATURES` (``None`` for a seat out of the game; zeros during
    setup); with an ``observer``, the other hands are judged from their sizes alone.
    ``w`` gives the shapes of ``near``."""
    n = len(g.seats)
    zeros = [0.0] * len(FEATURES)
    if g.phase == SETUP:
        return [None if g.eliminated[s] else zeros[:] for s in range(n)]
    info = info_of(g)
    pieces = g.pieces
    ew = g.variant == "european_war"
    alive = [not e for e in g.eliminated]
    mine: list[list[tuple[str, int]]] = [[] for _ in range(n)]
    for f, (s, z) in pieces.items():
        mine[s].append((f, z))
    homes = [g.home_fields(s) for s in range(n)]
    home_n = [0] * n
    for s in range(n):
        for f in homes[s]:
            p = pieces.get(f)
            if p is not None and p[0] == s:
                home_n[s] += 1
    to_move = g.current if g.phase == TURN else -1
    out: list[list[float] | None] = [None] * n
    fall = [0.0] * n
    for s in range(n):
        if alive[s]:
            fall[s] = _fall_risk(g, info, s, homes[s], home_n[s], mine, alive)
    for s in range(n):
        if not alive[s]:
            continue
        near, turns, threat, finish = _occupation(g, info, s, mine, home_n[s], w)
        if threat > 0.0 and s != to_move:
            if to_move < 0:
                threat *= 0.6
            else:
                block = _block_chance(g, info, to_move, s, finish, mine, home_n)
                unopposed = 0.95 if g.next_seat(to_move) == s else 0.7
                threat *= (1.0 - block) * unopposed + block * 0.15
        top, count, stops = _hand_features(g, s, observer) if ew else (0.0, 0.0, 0.0)
        enemy = g.next_seat(s)
        out[s] = [
            1.0 if home_n[s] == 2 else 0.0,
            1.0 if home_n[s] >= 3 else 0.0,
            near,
            turns,
            threat,
            float(sum(z for _f, z in mine[s])),
            top,
            count,
            stops,
            1.0 if s == to_move else 0.0,
            fall[s],
            fall[enemy] if ew and enemy != s else 0.0,
        ]
    return out


def scores(
    g: GameState,
    observer: int | None = None,
    w: Weights = DEFAULT_WEIGHTS,
    terms: list[dict[str, float]] | None = None,
) -> list[float]:
    """Each seat's score in logit units: its :data:`FEATURES` weighted by ``w`` (a seat
    out of the game gets a very low score).

    ``terms``, if given, receives one dict per seat: the score's parts by name (see
    :data:`TERMS`), which add up to it.
    """
    coefficients = w.coefficients()
    out = []
    for s, feats in enumerate(seat_features(g, observer, w)):
        if feats is None:
            out.append(-50.0)
            continue
        out.append(sum(c * f for c, f in zip(coefficients, feats, strict=True)))
        if terms is not None:
            for name, c, f in zip(_TERM_OF, coefficients, feats, strict=True):
                terms[s][name] = terms[s].get(name, 0.0) + c * f
    return out


def utilities(
    g: GameState,
    observer: int | None = None,
    w: Weights = DEFAULT_WEIGHTS,
    bonus: tuple[int, float] | None = None,
) -> list[float]:
    """Each seat's estimated share of winning (sums to one over seats still in).

    ``bonus`` = (seat, logits) adds to one seat's score, e.g. for cards it will draw.
    """
    if g.phase == OVER:
        return terminal_utilities(g)
    sc = scores(g, observer, w)
    if bonus is not None:
        sc[bonus[0]] += bonus[1]
    top = max(sc)
    ex = [exp(x - top) if not g.eliminated[s] else 0.0 for s, x in enumerate(sc)]
    total = sum(ex)
    return [x / total for x in ex]


def value(
    g: GameState, seat: int, observer: int | None = None, w: Weights = DEFAULT_WEIGHTS
) -> float:
    """``seat``'s estimated share of winning in ``g``."""
    return utilities(g, observer, w)[seat]


def _fall_risk(
    g: GameState,
    info: BoardInfo,
    s: int,
    home: tuple[str, ...],
    home_n: int,
    mine: list[list[tuple[str, int]]],
    alive: list[bool],
) -> float:
    """A rough chance that ``s`` soon has no piece left on its home fields: the product,
    over its home pieces, of each one's chance to be lost (a base risk plus the enemy
    pieces that can attack it; halved when it could retreat onto another home field)."""
    pieces = g.pieces
    take = _EW_TAKE if g.variant == "european_war" else _WW_TAKE
    risk = 1.0
    for field in home:
        p = pieces.get(field)
        if p is None or p[0] != s:
            continue
        size = p[1]
        lost = 0.1
        for o in info.attacks[field]:
            q = pieces.get(o)
            if q is not None and q[0] != s and alive[q[0]]:
                lost += 0.45 * take[q[1]][size]
        if any(o in home and o not in pieces for o in info.board.adjacency[field]):
            lost *= 0.5
        risk *= min(lost, 0.9)
    return risk


def _occupation(
    g: GameState,
    info: BoardInfo,
    s: int,
    mine: list[list[tuple[str, int]]],
    home_n: int,
    w: Weights,
) -> tuple[float, float, float, list[str]]:
    """How close ``s`` is to holding all three fields of another power (``near`` and the
    estimated turns to the nearest, see :data:`FEATURES`), the chance that its next
    action does it, and the fields that action could take."""
    my = mine[s]
    if not my or home_n == 0:
        return 0.0, 0.0, 0.0, []
    home = g.home_fields(s)
    own_power = g.seats[s]
    small_supply = 3 - sum(1 for _f, z in my if z == 1)
    best = second = 99.0
    threat = 0.0
    finish: list[str] = []
    for power in info.board.power_order:
        if power == own_power:
            continue
        turns, missing = turns_to_occupy(g, info, s, my, home, home_n, power, small_supply)
        if turns < best:
            best, second = turns, best
        elif turns < second:
            second = turns
        if missing is not None:
            chance = _finish_chance(g, info, s, my, home, home_n, missing)
            if chance > 0.0:
                finish.append(missing)
                threat = max(threat, chance)
    near = exp(-w.closeness * best) + w.second_target * exp(-w.closeness * second)
    return near, min(best, 12.0), threat, finish


def turns_to_occupy(
    g: GameState,
    info: BoardInfo,
    s: int,
    my: list[tuple[str, int]],
    home: tuple[str, ...],
    home_n: int,
    power: str,
    small_supply: int,
) -> tuple[float, str | None]:
    """Estimated turns ``s`` needs to hold every field of ``power``: for each lacking
    field the cheapest of its pieces (moves, plus an attack's expected tries), a piece
    already counted for another field costing one turn more, or a fresh small
    conscripted at home; one turn more when every home piece would leave. Also returns
    the lacking field when only one is lacking."""
    pieces = g.pieces
    owner = info.owner
    dist = info.dist
    takes = _TAKE_TURNS[g.variant == "world_war_5"]
    own = g.seats[s]
    from_home = info.home_dist[own]
    attack_from_home = info.home_attack_dist[own]
    total = 0.0
    used: list[str] = []
    missing: list[str] = []
    for f in info.board.powers[power].fields:
        p = pieces.get(f)
        if p is not None and p[0] == s:
            continue
        missing.append(f)
        best = 99.0
        arg = ""
        if p is None:
            row = dist[f]
            for src, _z in my:
                if owner[src] != power:
                    c: float = row[src]
                    if c < best:
                        best, arg = c, src
            fresh = 1.0 + from_home[f]
        else:
            ad = info.attack_dist[f]
            ez = p[1]
            for src, z in my:
                if owner[src] != power:
                    c = ad[src] + takes[z][ez]
                    if c < best:
                        best, arg = c, src
            fresh = 1.0 + attack_from_home[f] + takes[1][ez]
        if arg in used:
            best += 1.0
        if small_supply > 0 and fresh < best:
            best, arg = fresh, ""
            small_supply -= 1
        used.append(arg)
        total += best
    if home_n and sum(1 for u in used if u in home) >= home_n:
        total += 1.0
    return total, (missing[0] if len(missing) == 1 else None)


def _block_chance(
    g: GameState,
    info: BoardInfo,
    blocker: int,
    s: int,
    finish: list[str],
    mine: list[list[tuple[str, int]]],
    home_n: list[int],
) -> float:
    """Chance that ``blocker``, to move now, can stop ``s`` from completing an
    occupation next: by moving into the field it needs, or by beating one of its pieces
    on that power's fields. Two different fields cannot both be blocked."""
    if len(set(finish)) != 1:
        return 0.0
    target = finish[0]
    power = info.owner[target]
    pieces = g.pieces
    home = g.home_fields(blocker)
    best = 0.0
    cards = g.variant != "european_war" or bool(g.hands[blocker])
    for src, z in mine[blocker]:
        if src in home and home_n[blocker] == 1:
            continue
        if target not in pieces and target in info.moves[src]:
            return 1.0
        if not cards:
            continue
        for f in info.attacks[src]:
            p = pieces.get(f)
            if p is not None and p[0] == s and info.owner[f] == power:
                best = max(best, take_chance(g.variant, z, p[1]))
    return best


def _finish_chance(
    g: GameState,
    info: BoardInfo,
    s: int,
    my: list[tuple[str, int]],
    home: tuple[str, ...],
    home_n: int,
    target: str,
) -> float:
    """Chance that ``s`` takes ``target`` (the last field it lacks) with one action."""
    power = info.owner[target]
    p = g.pieces.get(target)
    best = 0.0
    for src, z in my:
        if info.owner[src] == power:
            continue
        if src in home and home_n == 1:
            continue  # moving the last home piece away makes it fall (EW-20)
        if p is None:
            if target in info.moves[src]:
                return 1.0
        elif target in info.attacks[src]:
            if g.variant == "european_war" and not g.hands[s]:
                continue
            best = max(best, take_chance(g.variant, z, p[1]))
    return best * 0.8
