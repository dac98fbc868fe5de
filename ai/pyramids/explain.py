"""Why the hard player would take an action: one or two sentences for a hint.

The reasons come from what decided it, seen from the asker's view only: a win in one, a
block of an opponent's win, a last home field taken, the odds of a duel, and otherwise
the evaluation's term that the action improves most (:data:`ai.pyramids.evaluate.TERMS`:
nearer to holding a power's fields, a safer home, an arch-enemy's home under pressure,
cards kept for the duels to come, ...). Players are named by their powers.
"""

from __future__ import annotations

from rules.pyramids import (
    Action,
    Arm,
    Attack,
    Build,
    Conscript,
    GameState,
    Grow,
    LetPass,
    Move,
    Pass,
    PlaceAll,
    PlacePiece,
    PlayCard,
    Retreat,
    Sabotage,
    Spy,
    StopAttack,
    StopPlaying,
)
from rules.pyramids import cards as C
from rules.pyramids.state import TURN
from rules.pyramids.words import short_power_name

from .context import Context
from .duelplay import best_case_chance, duel_state
from .evaluate import scores, take_chance, turns_to_occupy
from .normal import _after, _battle_ends, defender_retreat
from .outcomes import attack_won
from .tactics import home_count, winning_moves


def explain(ctx: Context, action: Action) -> tuple[str, ...]:
    """One or two sentences on why the viewer of ``ctx`` would take ``action``."""
    g = ctx.g
    if isinstance(action, PlaceAll | PlacePiece):
        return (
            "The largest pieces go where enemy pieces can reach your home first, the "
            "smallest where it is safest.",
        )
    if isinstance(action, StopAttack | LetPass):
        return _diplomacy(ctx, action)
    if isinstance(action, PlayCard | StopPlaying):
        return _duel(ctx, action)
    if isinstance(action, Retreat):
        return _retreat(ctx, action)
    if g.phase == TURN:
        return _turn(ctx, action)
    return ()


# ---------------------------------------------------------------------- words
def power_of(g: GameState, seat: int) -> str:
    """A seat's power, shortly ("Britain", "Central Powers")."""
    return short_power_name(g.board.powers[g.seats[seat]].name)


def _owner(name: str) -> str:
    """The possessive of a name: "Russia's", "Central Powers'"."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _power(g: GameState, power: str) -> str:
    return short_power_name(g.board.powers[power].name)


def _field(g: GameState, field: str) -> str:
    return g.board.fields[field].name


def _percent(p: float) -> str:
    return f"{max(1, min(99, round(100 * p)))}%"


def _winners(g: GameState, h: GameState, me: int) -> str:
    """Who wins when ``h`` is over, in words."""
    others = [power_of(g, s) for s in h.winners if s != me]
    if me in h.winners:
        return "you win" + (f" (with {' and '.join(others)})" if others else "")
    if not others:
        return "the game is drawn"
    return f"{' and '.join(others)} {'wins' if len(others) == 1 else 'win'}"


# ---------------------------------------------------------------------- the turn
def _turn(ctx: Context, action: Action) -> tuple[str, ...]:
    g, me = ctx.g, ctx.me
    if isinstance(action, Attack):
        return _attack(ctx, action)
    h = _after(g, me, action)
    if h.over:
        if me in h.winners and isinstance(action, Move):
            power = g.board.fields[action.dst].owner
            hold = f"{_field(g, action.dst)} completes your hold on {_power(g, power)}"
            return (f"{hold}: {_winners(g, h, me)}.",)
        if me in h.winners:
            return (f"It ends the game: {_winners(g, h, me)}.",)
    blocked = _blocked(ctx, h)
    if blocked:
        return (blocked,)
    if isinstance(action, Sabotage):
        victim = power_of(g, g.pieces[action.target][0])
        return (
            f"It shrinks {_owner(victim)} piece on your home field {_field(g, action.target)}, "
            "and a sabotage cannot be stopped.",
        )
    if isinstance(action, Spy):
        return (
            f"You see {_owner(power_of(g, action.target))} hand before you decide: its cards "
            "decide the duels you may fight with it.",
        )
    if isinstance(action, Arm):
        n = len(g.hands[me])
        return (
            f"You hold {n} card{'s' if n != 1 else ''}; two more strengthen the duels to come.",
        )
    first = _main_term(ctx, h)
    if isinstance(action, Conscript | Build | Grow):
        field = _field(g, action.field)
        grows = action.field in g.pieces
        lead = (
            f"It makes your piece on {field} bigger"
            if grows
            else f"A fresh small on {field} adds a piece at home"
        )
        return (f"{lead}; this {first}" if first else f"{lead}.",)
    if isinstance(action, Pass):
        return ("Every other action would weaken your position.",)
    return (f"This {first}",) if first else ()


def _attack(ctx: Context, a: Attack) -> tuple[str, ...]:
    g, me = ctx.g, ctx.me
    defender = g.pieces[a.dst][0]
    won = attack_won(g, me, a.src, a.dst, [], [], defender_retreat(ctx))
    chance = ctx.duel_win_chance(me, a.src, a.dst) if g.variant == "european_war" else _dice(g, a)
    odds = (
        f"You win the duel about {_percent(chance)} of the time with your best cards."
        if g.variant == "european_war"
        else f"The dice favour you about {_percent(chance)} of the time."
    )
    name, field = power_of(g, defender), _field(g, a.dst)
    if won.over and me in won.winners:
        home = a.dst in g.home_fields(defender) and home_count(g, defender) == 1
        what = (
            f"It takes {_owner(name)} last home field: {_winners(g, won, me)}."
            if home
            else f"If it wins, {field} completes your hold on "
            f"{_power(g, g.board.fields[a.dst].owner)}: {_winners(g, won, me)}."
        )
        return (what, odds)
    blocked = _blocked(ctx, won, "winning this attack stops it")
    if blocked:
        return (blocked, odds)
    first = _main_term(ctx, won)
    lead = f"Beating {_owner(name)} piece on {field}"
    return (f"{lead} {first}" if first else f"{lead} sets {name} back.", odds)


def _dice(g: GameState, a: Attack) -> float:
    return take_chance(g.variant, g.pieces[a.src][1], g.pieces[a.dst][1])


def _blocked(ctx: Context, h: GameState, how: str = "this stops it") -> str | None:
    """A sentence when ``h`` takes away an opponent's win with a move next turn
    (``how``: the sentence's end)."""
    g, me = ctx.g, ctx.me
    for t in range(len(g.seats)):
        if t == me or g.eliminated[t]:
            continue
        before = winning_moves(g, ctx.info, t)
        if before and not winning_moves(h, ctx.info, t):
            dst = before[0].dst
            power = _power(g, g.board.fields[dst].owner)
            return (
                f"{power_of(g, t)} could move into {_field(g, dst)} next and hold all of "
                f"{power}: {how}."
            )
    return None


def _main_term(ctx: Context, h: GameState) -> str:
    """The evaluation's term that ``h`` improves most for the viewer, against passing
    (a phrase that follows "It " or a subject)."""
    g, me = ctx.g, ctx.me
    base = _after(g, me, Pass()) if Pass() in g.legal_actions(me) else g
    before = [dict[str, float]() for _ in g.seats]
    after = [dict[str, float]() for _ in g.seats]
    scores(base, me, ctx.weights, before)
    scores(h, me, ctx.weights, after)
    gains = {k: after[me].get(k, 0.0) - before[me].get(k, 0.0) for k in after[me]}
    for k in before[me]:
        gains.setdefault(k, -before[me][k])
    gains.pop("tempo", None)
    leader = max(
        (t for t in range(len(g.seats)) if t != me and not g.eliminated[t]),
        key=lambda t: sum(before[t].values()),
        default=None,
    )
    setback = 0.0
    if leader is not None:
        setback = sum(before[leader].values()) - sum(after[leader].values())
    best = max(gains, key=lambda k: gains[k], default="")
    if leader is not None and setback > max(gains.get(best, 0.0), 0.05):
        return f"sets back {power_of(g, leader)}, the player nearest to winning."
    if not best or gains[best] <= 0.0:
        return ""
    if best == "occupation" or best == "threat":
        target = _nearest(ctx, h)
        if target is not None:
            power, turns = target
            if best == "threat":
                return f"brings you within one action of holding all of {_power(g, power)}."
            return (
                f"brings you nearer to holding all of {_power(g, power)} "
                f"(about {max(1, round(turns))} turns of work left)."
            )
    if best == "enemy_falling":
        enemy = g.next_seat(me)
        return (
            f"puts pressure on the home of {power_of(g, enemy)}, your arch-enemy: if it "
            "falls, you win."
        )
    if best in ("falling", "home"):
        return "makes your home harder to take: without a piece at home you fall."
    if best == "cards":
        return "keeps your cards for the duels to come."
    if best == "pieces":
        return "adds weight to your pieces on the board."
    return ""


def _nearest(ctx: Context, h: GameState) -> tuple[str, float] | None:
    """The power the viewer is nearest to occupying in ``h``, and the turns it needs."""
    me = ctx.me
    my = [(f, z) for f, (s, z) in h.pieces.items() if s == me]
    home = h.home_fields(me)
    home_n = home_count(h, me)
    if not my or not home_n:
        return None
    small = 3 - sum(1 for _f, z in my if z == 1)
    best: tuple[str, float] | None = None
    for power in h.board.power_order:
        if power == h.seats[me]:
            continue
        turns, _missing = turns_to_occupy(h, ctx.info, me, my, home, home_n, power, small)
        if best is None or turns < best[1]:
            best = (power, turns)
    return best


# ---------------------------------------------------------------------- out of turn
def _diplomacy(ctx: Context, action: Action) -> tuple[str, ...]:
    g, me = ctx.g, ctx.me
    b = g.battle
    assert b is not None
    attacker = power_of(g, b.attacker)
    won, lost = _battle_ends(ctx)
    ranks = {C.rank(c) for c in g.hands[me]}
    if isinstance(action, StopAttack):
        if won.over:
            return (f"If this attack wins, {_winners(g, won, me)}: the game would be over.",)
        return (
            f"If {attacker} wins it, it gains more than your "
            f"{'A' if action.ace else 'K'} is worth to you.",
        )
    if C.KING not in ranks and C.ACE not in ranks:
        return ("You hold no K or A to stop it with.",)
    if won.over and me in won.winners:
        return (f"If this attack wins, {_winners(g, won, me)}.",)
    if ctx.value(won, me) >= ctx.value(lost, me):
        return ("Whatever its outcome, the attack does not hurt you.",)
    return (
        f"Keep the {'K' if C.KING in ranks else 'A'} for an attack that matters more: this "
        f"one costs you less than the card is worth.",
    )


def _duel(ctx: Context, action: Action) -> tuple[str, ...]:
    g, me = ctx.g, ctx.me
    b = g.battle
    assert b is not None
    attacker, mine, theirs, _my_left, their_left, _hand = duel_state(g, me)
    behind = theirs - mine + (1 if attacker else 0)
    if isinstance(action, PlayCard):
        card = C.card_name(action.card)
        value = C.duel_value(action.card)
        if attacker and not b.attacker_cards and value < behind:
            return (f"An attack needs at least one card: {card} is the one you can best spare.",)
        if behind > 0 and value >= behind:
            cover = their_left and value - behind >= 3
            room = " with room to spare against their answer" if cover else ""
            return (f"You need {behind} more to get ahead: {card} does it{room}.",)
        return (f"{card} raises your total to {mine + value}, on the way to a lead.",)
    if behind <= 0 and their_left == 0:
        return ("You are ahead and they cannot play again: the duel is yours.",)
    if best_case_chance(g, me, ctx.strength_of) < 0.1:
        return ("Even your best cards would almost surely lose: keep them for later.",)
    if behind <= 0:
        return ("Your lead is likely enough: keep your other cards.",)
    return ("Winning this duel would cost more cards than it is worth to you.",)


def _retreat(ctx: Context, action: Retreat) -> tuple[str, ...]:
    g, me = ctx.g, ctx.me
    field = _field(g, action.field)
    if action.field in g.home_fields(me):
        return (f"{field} keeps the piece on your home fields.",)
    h = _after(g, me, action)
    first = _main_term(ctx, h)
    return (f"Retreating to {field} {first}" if first else f"{field} is the safest field for it.",)
