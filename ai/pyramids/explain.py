"""Why the hard player would take an action: one or two sentences for a hint.

The reasons come from what decided it, seen from the asker's view only: a win in one, a
block of an opponent's win, a last home field taken, the odds of a duel, and otherwise
the evaluation's term that the action improves most (:data:`ai.pyramids.evaluate.TERMS`:
nearer to holding a power's fields, a safer home, an arch-enemy's home under pressure,
cards kept for the duels to come, ...). Players are named by their powers. Each reason
is one whole message of the package's catalogue, in the reader's language (:mod:`rules.i18n`).
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

from .catalogue import _, n_
from .context import Context
from .duelplay import best_case_chance, duel_state
from .evaluate import scores, take_chance, turns_to_occupy
from .normal import _after, battle_ends, defender_retreat
from .outcomes import attack_won
from .pressing import retake_stop
from .tactics import home_count, winning_moves


def explain(ctx: Context, action: Action) -> tuple[str, ...]:
    """One or two sentences on why the viewer of ``ctx`` would take ``action``."""
    g = ctx.g
    if isinstance(action, PlaceAll | PlacePiece):
        return (
            _(
                "The largest pieces go where enemy pieces can reach your home first, the "
                "smallest where it is safest."
            ),
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


def _power(g: GameState, power: str) -> str:
    return short_power_name(g.board.powers[power].name)


def _field(g: GameState, field: str) -> str:
    return g.board.fields[field].name


def _percent(p: float) -> int:
    return max(1, min(99, round(100 * p)))


def _partners(g: GameState, h: GameState, me: int) -> str:
    """The winners of the finished ``h`` besides the viewer, as a list of powers."""
    return ", ".join(power_of(g, s) for s in h.winners if s != me)


def _winners(g: GameState, h: GameState, me: int) -> str:
    """Who would win when ``h`` is over, as a sentence."""
    others = [power_of(g, s) for s in h.winners if s != me]
    if me in h.winners:
        if others:
            return _("You would win, together with {powers}.").format(powers=", ".join(others))
        return _("You would win.")
    if not others:
        return _("The game would be drawn.")
    return n_("{powers} would win.", "{powers} would win.", len(others)).format(
        powers=", ".join(others)
    )


# ---------------------------------------------------------------------- the turn
def _turn(ctx: Context, action: Action) -> tuple[str, ...]:
    g, me = ctx.g, ctx.me
    if isinstance(action, Attack):
        return _attack(ctx, action)
    h = _after(g, me, action)
    if h.over and me in h.winners:
        partners = _partners(g, h, me)
        if isinstance(action, Move):
            words = {
                "field": _field(g, action.dst),
                "power": _power(g, g.board.fields[action.dst].owner),
                "powers": partners,
            }
            if partners:
                return (
                    _(
                        "{field} completes your hold on {power}: you would win, together "
                        "with {powers}."
                    ).format(**words),
                )
            return (_("{field} completes your hold on {power}: you would win.").format(**words),)
        if partners:
            return (
                _("It ends the game: you would win, together with {powers}.").format(
                    powers=partners
                ),
            )
        return (_("It ends the game: you would win."),)
    blocked = _blocked(ctx, h, attack=False)
    if blocked:
        return (blocked,)
    if isinstance(action, Sabotage):
        return (
            _(
                "It shrinks the piece of {power} on your home field {field}, and a sabotage "
                "cannot be stopped."
            ).format(power=power_of(g, g.pieces[action.target][0]), field=_field(g, action.target)),
        )
    if isinstance(action, Spy):
        return (
            _(
                "You see the hand of {power} before you decide: its cards decide the duels "
                "you may fight with it."
            ).format(power=power_of(g, action.target)),
        )
    if isinstance(action, Arm) and retake_stop(ctx, g.legal_actions(me)) is not None:
        return (
            _(
                "The stop card played against your attack lies among the cards you would "
                "draw: take it, and one player fewer can stop that attack next turn."
            ),
        )
    if isinstance(action, Arm):
        n = len(g.hands[me])
        return (
            n_(
                "You hold {n} card; two more strengthen the duels to come.",
                "You hold {n} cards; two more strengthen the duels to come.",
                n,
            ).format(n=n),
        )
    term = _main_term(ctx, h)
    if isinstance(action, Conscript | Build | Grow):
        field = _field(g, action.field)
        if action.field in g.pieces:
            lead = _("It makes your piece on {field} bigger.").format(field=field)
        else:
            lead = _("A fresh small on {field} adds a piece at home.").format(field=field)
        return (lead, term) if term else (lead,)
    if isinstance(action, Pass):
        return (_("Every other action would weaken your position."),)
    return (term,) if term else ()


def _attack(ctx: Context, a: Attack) -> tuple[str, ...]:
    g, me = ctx.g, ctx.me
    defender = g.pieces[a.dst][0]
    won = attack_won(g, me, a.src, a.dst, [], [], defender_retreat(ctx))
    if g.variant == "european_war":
        odds = _("You win the duel about {percent}% of the time with your best cards.").format(
            percent=_percent(ctx.duel_win_chance(me, a.src, a.dst))
        )
    else:
        odds = _("The dice favour you about {percent}% of the time.").format(
            percent=_percent(_dice(g, a))
        )
    name, field = power_of(g, defender), _field(g, a.dst)
    if won.over and me in won.winners:
        return (_finishing(g, won, me, a, defender), odds)
    blocked = _blocked(ctx, won, attack=True)
    if blocked:
        return (blocked, odds)
    term = _main_term(ctx, won)
    if term:
        return (term, odds)
    return (
        _("Beating the piece of {power} on {field} sets {power} back.").format(
            power=name, field=field
        ),
        odds,
    )


def _finishing(g: GameState, won: GameState, me: int, a: Attack, defender: int) -> str:
    """The sentence for an attack that, if won, ends the game with the viewer winning."""
    partners = _partners(g, won, me)
    words = {
        "power": power_of(g, defender),
        "field": _field(g, a.dst),
        "target": _power(g, g.board.fields[a.dst].owner),
        "powers": partners,
    }
    if a.dst in g.home_fields(defender) and home_count(g, defender) == 1:
        if partners:
            return _(
                "It takes the last home field of {power}: you would win, together with {powers}."
            ).format(**words)
        return _("It takes the last home field of {power}: you would win.").format(**words)
    if partners:
        return _(
            "If it wins, {field} completes your hold on {target}: you would win, together "
            "with {powers}."
        ).format(**words)
    return _("If it wins, {field} completes your hold on {target}: you would win.").format(**words)


def _dice(g: GameState, a: Attack) -> float:
    return take_chance(g.variant, g.pieces[a.src][1], g.pieces[a.dst][1])


def _blocked(ctx: Context, h: GameState, attack: bool) -> str | None:
    """A sentence when ``h`` takes away an opponent's win with a move next turn
    (``attack``: ``h`` follows a won attack)."""
    g, me = ctx.g, ctx.me
    for t in range(len(g.seats)):
        if t == me or g.eliminated[t]:
            continue
        before = winning_moves(g, ctx.info, t)
        if before and not winning_moves(h, ctx.info, t):
            dst = before[0].dst
            words = {
                "power": power_of(g, t),
                "field": _field(g, dst),
                "target": _power(g, g.board.fields[dst].owner),
            }
            if attack:
                return _(
                    "{power} could move into {field} next and hold all of {target}: winning "
                    "this attack stops it."
                ).format(**words)
            return _(
                "{power} could move into {field} next and hold all of {target}: this stops it."
            ).format(**words)
    return None


def _main_term(ctx: Context, h: GameState) -> str:
    """A sentence on the evaluation's term that ``h`` improves most for the viewer,
    against passing ("" when none does)."""
    g, me = ctx.g, ctx.me
    base = _after(g, me, Pass()) if Pass() in g.legal_actions(me) else g
    before = [dict[str, float]() for _seat in g.seats]
    after = [dict[str, float]() for _seat in g.seats]
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
        return _("This sets back {power}, the player nearest to winning.").format(
            power=power_of(g, leader)
        )
    if not best or gains[best] <= 0.0:
        return ""
    if best == "occupation" or best == "threat":
        target = _nearest(ctx, h)
        if target is not None:
            power, turns = target
            if best == "threat":
                return _("This brings you within one action of holding all of {power}.").format(
                    power=_power(g, power)
                )
            n = max(1, round(turns))
            return n_(
                "This brings you nearer to holding all of {power} (about {n} turn of work left).",
                "This brings you nearer to holding all of {power} (about {n} turns of work left).",
                n,
            ).format(power=_power(g, power), n=n)
    if best == "enemy_falling":
        return _(
            "This puts pressure on the home of {power}, your arch-enemy: if it falls, you win."
        ).format(power=power_of(g, g.next_seat(me)))
    if best in ("falling", "home"):
        return _("This makes your home harder to take: without a piece at home you fall.")
    if best == "cards":
        return _("This keeps your cards for the duels to come.")
    if best == "pieces":
        return _("This adds weight to your pieces on the board.")
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
    won, _lost = battle_ends(ctx)
    ranks = {C.rank(c) for c in g.hands[me]}
    if isinstance(action, StopAttack):
        return (_("If this attack wins, the game is over."), _winners(g, won, me))
    if C.KING not in ranks and C.ACE not in ranks:
        return (_("You hold no K or A to stop it with."),)
    if won.over and me in won.winners:
        return (_("If this attack wins, the game is over."), _winners(g, won, me))
    if not won.over:
        return (
            _("Keep the {card} for an attack that would end the game: this one would not.").format(
                card="K" if C.KING in ranks else "A"
            ),
        )
    return (
        _("Its attacker would hardly win the duel: keep the {card}.").format(
            card="K" if C.KING in ranks else "A"
        ),
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
            return (
                _(
                    "An attack needs at least one card: {card} is the one you can best spare."
                ).format(card=card),
            )
        if behind > 0 and value >= behind:
            if their_left and value - behind >= 3:
                return (
                    _(
                        "You need {n} more to get ahead: {card} does it with room to spare "
                        "against their answer."
                    ).format(n=behind, card=card),
                )
            return (
                _("You need {n} more to get ahead: {card} does it.").format(n=behind, card=card),
            )
        return (
            _("{card} raises your total to {total}, on the way to a lead.").format(
                card=card, total=mine + value
            ),
        )
    if behind <= 0 and their_left == 0:
        return (_("You are ahead and they cannot play again: the duel is yours."),)
    if best_case_chance(g, me, ctx.strength_of) < 0.1:
        return (_("Even your best cards would almost surely lose: keep them for later."),)
    if behind <= 0:
        return (_("Your lead is likely enough: keep your other cards."),)
    return (_("Winning this duel would cost more cards than it is worth to you."),)


def _retreat(ctx: Context, action: Retreat) -> tuple[str, ...]:
    g, me = ctx.g, ctx.me
    field = _field(g, action.field)
    if action.field in g.home_fields(me):
        return (_("{field} keeps the piece on your home fields.").format(field=field),)
    term = _main_term(ctx, _after(g, me, action))
    if term:
        return (term,)
    return (_("{field} is the safest field for it.").format(field=field),)
