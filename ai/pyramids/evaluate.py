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
    """The evaluator's weights (logit units)."""

    home: tuple[float, float, float, float] = (0.0, 0.0, 0.1, 0.15)
    """By the number of own pieces on own home fields."""
    home_pip: float = 0.0
    occupation: float = 5.0
    second_target: float = 0.2
    closeness: float = 0.35
    turn_cost: float = 0.5
    pip: float = 0.1
    card_top: float = 0.35
    card_count: float = 0.06
    card_stop: float = 0.2
    threat: float = 4.0
    fall: float = 3.0
    tempo: float = 0.1


DEFAULT_WEIGHTS = Weights()

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


def _hand_score(g: GameState, seat: int, observer: int | None, w: Weights) -> float:
    hand = g.hands[seat]
    if observer is not None and seat != observer:
        h = len(hand)
        known = g.knowledge[observer].get(seat, []) if 0 <= observer < len(g.seats) else []
        base = w.card_top * mean_strength(h, 3) / 10 + w.card_count * min(h, 7)
        stops = sum(1 for c in known if C.rank(c) >= C.KING) + FIGURE_SHARE * (h - len(known))
        return base + w.card_stop * min(stops, 2)
    stops = sum(1 for c in hand if C.rank(c) >= C.KING)
    return card_strength([C.duel_value(c) for c in hand], w) + w.card_stop * min(stops, 2)


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


def scores(
    g: GameState,
    observer: int | None = None,
    w: Weights = DEFAULT_WEIGHTS,
    terms: list[dict[str, float]] | None = None,
) -> list[float]:
    """Each seat's score in logit units (eliminated seats get a very low score).

    ``terms``, if given, receives one dict per seat: the score's parts by name (see
    :data:`TERMS`), which add up to it.
    """
    n = len(g.seats)
    info = info_of(g)
    pieces = g.pieces
    ew = g.variant == "european_war"
    alive = [not e for e in g.eliminated]
    mine: list[list[tuple[str, int]]] = [[] for _ in range(n)]
    for f, (s, z) in pieces.items():
        mine[s].append((f, z))
    homes = [g.home_fields(s) for s in range(n)]
    home_n = [0] * n
    home_pips = [0] * n
    for s in range(n):
        for f in homes[s]:
            p = pieces.get(f)
            if p is not None and p[0] == s:
                home_n[s] += 1
                home_pips[s] += p[1]
    to_move = g.current if g.phase == TURN else -1
    score = [0.0] * n
    fall = [0.0] * n
    for s in range(n):
        if not alive[s]:
            score[s] = -50.0
            continue
        if g.phase == SETUP:
            continue
        fall[s] = _fall_risk(g, info, s, homes[s], home_n[s], mine, alive)
        occ, threat, finish = _occupation(g, info, s, mine, home_n[s], w)
        if threat > 0.0:
            if s == to_move:
                threat *= 1.0
            elif to_move < 0:
                threat *= 0.6
            else:
                block = _block_chance(g, info, to_move, s, finish, mine, home_n)
                unopposed = 0.95 if g.next_seat(to_move) == s else 0.7
                threat *= (1.0 - block) * unopposed + block * 0.15
        home = w.home[min(home_n[s], 3)] + w.home_pip * home_pips[s]
        pips = w.pip * sum(z for _f, z in mine[s])
        hand = _hand_score(g, s, observer, w) if ew else 0.0
        tempo = w.tempo if s == to_move else 0.0
        score[s] = home + occ + w.threat * threat + pips + hand + tempo
        if terms is not None:
            terms[s].update(
                home=home, occupation=occ, threat=w.threat * threat, pieces=pips, cards=hand
            )
            terms[s]["tempo"] = tempo
    for t in range(n):
        if not alive[t] or fall[t] == 0.0:
            continue
        score[t] -= w.fall * fall[t]
        if terms is not None:
            terms[t]["falling"] = terms[t].get("falling", 0.0) - w.fall * fall[t]
        if ew:
            prev = g.previous_seat(t)
            if prev != t:
                score[prev] += w.fall * fall[t]
                if terms is not None:
                    terms[prev]["enemy_falling"] = w.fall * fall[t]
    return score


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
) -> tuple[float, float, list[str]]:
    """How close ``s`` is to holding all three fields of another power (a score from
    the estimated turns it needs), the chance that its next action does it, and the
    fields that action could take."""
    my = mine[s]
    if not my or home_n == 0:
        return 0.0, 0.0, []
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
    return w.occupation * near - w.turn_cost * min(best, 12.0), threat, finish


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
