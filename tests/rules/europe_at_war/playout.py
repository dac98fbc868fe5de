"""Seeded playouts of Europe at War with every invariant checked after every step."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.errors import NotYourTurn, RulesError
from rules.europe_at_war.actions import ACTION_KINDS, Action, Timeout, action_from_dict
from rules.europe_at_war.data import deck, unit_sets
from rules.europe_at_war.game import EaGame
from rules.europe_at_war.options import Options
from rules.europe_at_war.state import HAND_LIMIT, EaState
from rules.europe_at_war.validate import validate
from rules.europe_at_war.view import top_unit, view_for
from rules.events import HIDDEN, Event

GAME = EaGame()
MAX_STEPS = 40_000
PRIVATE = frozenset(
    {
        "cards_received",
        "hand_seen",
        "setup_draw",
        "recruits",
        "gifts",
        "submitted",
        "units_lost_named",
        "disbanded_named",
    }
)
"""Events only their one reader sees."""
Policy = Callable[[EaState, int, str, Sequence[Action], random.Random], Action]


@dataclass
class Playout:
    """What one playout did, and its log for a replay."""

    seed: int
    nations: list[str | None]
    options: Options
    log: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    hashes: list[str] = field(default_factory=list)
    battles: int = 0
    turns: int = 0
    state: EaState | None = None


def random_policy(
    g: EaState, seat: int, kind: str, legal: Sequence[Action], rng: random.Random
) -> Action:
    """A random legal action, a little steered so that games go somewhere: moves are
    planned, recruits bought and upkeep finished more often than not; now and then the
    decision times out and takes its default."""
    if rng.random() < 0.03:
        return Timeout()
    by: dict[str, list[Action]] = {}
    for a in legal:
        by.setdefault(a.kind, []).append(a)
    if kind == "upkeep" and "done" in by and rng.random() < 0.9:
        return by["done"][0]
    if kind == "plan":
        if "move" in by and rng.random() < 0.75:
            return rng.choice(by["move"])
        if "drop" in by and rng.random() < 0.5:
            return rng.choice(by["drop"])
        if "compel" in by and rng.random() < 0.5:
            return rng.choice(by["compel"])
    if kind == "recruit" and "buy" in by and rng.random() < 0.7:
        return rng.choice(by["buy"])
    if kind in ("w1", "w2", "cards", "sealed", "answer") and rng.random() < 0.5:
        quiet = by.get("done") or by.get("pass")
        if quiet:
            return quiet[0]
    return rng.choice(by[rng.choice(sorted(by))])


def check_state(g: EaState) -> None:
    """The invariants that hold after every step."""
    validate(g)
    for seat, nation in enumerate(g.nations):
        counts = Counter(g.kind(c).key for c in g.chits.of(seat))
        rows = unit_sets()["basic" if g.options.basic_set else nation]
        assert counts == Counter({r.key: r.count for r in rows})
    for seat, hand in enumerate(g.hands):
        if len(hand) > HAND_LIMIT:
            assert any(i.kind == "hand" and i.seat == seat for i in g.interrupts), (seat, hand)
    assert 0 <= g.round <= g.options.rounds
    if g.step != "setup":
        for seat in range(g.player_count):
            has_units = any(u.owner == seat for u in g.units.values())
            assert g.out[seat] or has_units, f"seat {seat} has no units but is in"
    text = json.dumps(g.to_dict())
    assert EaState.from_dict(json.loads(text)) == g
    if not g.over:
        assert g.deciders(), "nobody must decide in an unfinished game"


def check_views(g: EaState, rng: random.Random) -> None:
    """A seat's view does not change when what it cannot see is swapped: the others'
    hands and the deck, the hidden part of the others' stacks, their drawn chits."""
    shown = (g.battle.at, {g.battle.attacker, g.battle.defender}) if g.battle else None
    for viewer in range(g.player_count):
        other = g.copy()
        cards = [c for s, h in enumerate(other.hands) if s != viewer for c in h] + other.deck
        rng.shuffle(cards)
        for s, h in enumerate(other.hands):
            if s != viewer:
                other.hands[s], cards = cards[: len(h)], cards[len(h) :]
        other.deck = cards
        for space in other.occupied():
            for s in other.seats_at(space):
                if s == viewer or (shown and space == shown[0] and s in shown[1]):
                    continue
                _swap_hidden(other, space, s, rng)
        for s in range(other.player_count):
            if s != viewer and other.drawn[s]:
                pile = other.piles[s]
                for i, c in enumerate(other.drawn[s]):
                    j = rng.randrange(len(pile) + 1)
                    if j < len(pile):
                        other.drawn[s][i], pile[j] = pile[j], c
                pile.sort()
        assert view_for(other, viewer) == view_for(g, viewer), f"viewer {viewer} sees a change"
    spectator = view_for(g, None)
    assert spectator.hand is None and spectator.drawn is None


def _swap_hidden(g: EaState, space: str, seat: int, rng: random.Random) -> None:
    """Replace the units under the top of a stack with others of its pile that rank
    below the top (so the top unit and the count stay as they are)."""
    units = list(g.stack(space, seat))
    top = top_unit(g, space, seat)
    tk = g.kind(top)
    pile = g.piles[seat]
    for uid in units:
        if uid == top:
            continue
        k = g.kind(uid)
        fits = [
            c
            for c in pile
            if g.chits.origin[c] == seat
            and not g.kind(c).leader
            and g.kind(c).naval == k.naval
            and not g.kind(c).fort
            and (tk.leader or (g.kind(c).force, -c) < (tk.force, -top))
        ]
        if not fits or g.units[uid].owner != g.chits.origin[uid]:
            continue
        c = rng.choice(fits)
        pile.remove(c)
        g.put(c, seat, space)
        g.remove(uid)


def check_choices(g: EaState, seat: int, legal: Sequence[Action], rng: random.Random) -> None:
    """The structured choices agree with the list: the same kinds in the same order; a
    legal action's parameters are each among the values offered given the ones before;
    and choosing values at random always ends in a legal action."""
    kinds = g.kinds(seat)
    assert kinds == tuple(dict.fromkeys(a.kind for a in legal))
    action = rng.choice(list(legal))
    params = ACTION_KINDS[action.kind].params
    chosen: dict[str, Any] = {}
    for p in params:
        assert getattr(action, p.name) in g.values(seat, action.kind, chosen), (action, p)
        chosen[p.name] = getattr(action, p.name)
    assert g.values(seat, action.kind, chosen) == ()
    kind = rng.choice(kinds)
    chosen = {}
    for p in ACTION_KINDS[kind].params:
        values = g.values(seat, kind, chosen)
        assert values, (kind, chosen)
        chosen[p.name] = rng.choice(values)
    built = action_from_dict({"kind": kind, **chosen})
    assert built in legal and g.is_legal(seat, built), built


def check_events(g: EaState, events: list[Event]) -> None:
    """Chance is hidden; a hand or a draw of chits reaches only its owner."""
    for e in events:
        assert (e.kind == "chance") == (e.to == HIDDEN), e
        assert e.to is None or e.to == HIDDEN or 0 <= e.to < g.player_count
        if e.kind in PRIVATE:
            assert e.to is not None and e.to >= 0, e
        if e.data.get("shape") == "sea":
            assert e.data["carried"] <= 4 * e.data["ships"], "a ship carried more than 4"
        if e.kind == "battle_result" and "attacker" in e.data:
            assert e.data["attacker"]["total"] >= 0 and e.data["defender"]["total"] >= 0


def check_moves(before: EaState, after: EaState) -> None:
    """No unit moves more than twice a turn; a land unit moves only with a General (the
    ships' load is checked on the events)."""
    if before.current != after.current or before.step == "setup":
        return
    moved_generals = {
        u.owner
        for u in after.units.values()
        if after.kind(u.id).general and u.id in before.units and u.moves > before.units[u.id].moves
    }
    for u in after.units.values():
        assert u.moves <= 2
        old = before.units.get(u.id)
        if old is None:
            continue
        k = after.kind(u.id)
        if u.moves > old.moves and not k.naval:
            assert u.owner in moved_generals, f"unit {u.id} moved without a General"


def play(
    players: int,
    seed: int,
    options: Options | None = None,
    policy: Policy = random_policy,
    *,
    full: bool = False,
    views_every: int = 25,
    sample: int = 12,
    rounds: int | None = None,
    watch: Callable[[EaState, EaState, list[Event]], None] | None = None,
) -> Playout:
    """Play one game with ``policy``, checking every invariant after every step; with
    ``rounds``, only its opening: until that round is over. ``watch`` sees each step:
    the state before, after, and the events.

    Every listed action of the decider is applied to a copy (a sample of ``sample``
    unless ``full``), and a listed action is refused to a player who need not decide."""
    opts = options or Options()
    rng = random.Random(seed)
    nations: list[str | None] = [None] * players
    g, events = GAME.new_game(nations, seed, opts)
    check_events(g, events)
    out = Playout(seed, nations, opts)
    steps = 0
    while not g.over and (rounds is None or g.round <= rounds):
        assert steps < MAX_STEPS, f"game {seed} did not end within {MAX_STEPS} steps"
        check_state(g)
        if views_every and steps % views_every == 0:
            check_views(g, rng)
        deciders = g.deciders()
        d = deciders[rng.randrange(len(deciders))]
        legal = g.legal_actions(d.seat)
        assert legal, f"no legal action for {d}"
        assert g.on_timeout(d).action == Timeout()
        if steps % 10 == 0:
            check_choices(g, d.seat, legal, rng)
        tried = legal if full or len(legal) <= sample else rng.sample(legal, sample)
        for action in tried:
            assert g.is_legal(d.seat, action), action
            g.copy().apply(d.seat, action)
        others = [s for s in range(players) if all(x.seat != s for x in deciders)]
        if others:
            before = g.to_dict()
            try:
                g.apply(others[0], legal[0])
            except NotYourTurn:
                assert g.to_dict() == before
            else:
                raise AssertionError("a player who need not decide was obeyed")
        action = policy(g, d.seat, d.kind, legal, rng)
        prior = g.copy()
        events = g.apply(d.seat, action)
        check_events(g, events)
        check_moves(prior, g)
        if watch is not None:
            watch(prior, g, events)
        out.battles += sum(1 for e in events if e.kind == "battle")
        out.turns += sum(1 for e in events if e.kind == "turn")
        out.log.append((d.seat, action.to_dict()))
        out.hashes.append(g.state_hash())
        steps += 1
    check_state(g)
    out.state = g
    return out


def replay(p: Playout) -> list[str]:
    """The state hashes of a game replayed from its seed and its actions."""
    g, _ = GAME.new_game(p.nations, p.seed, p.options)
    hashes = []
    for seat, data in p.log:
        g.apply(seat, action_from_dict(json.loads(json.dumps(data))))
        hashes.append(g.state_hash())
    return hashes


def refuses_unchanged(g: EaState, seat: int, action: Action) -> str:
    """Apply an action expected to be refused; check nothing changed; return why."""
    before = g.to_dict()
    try:
        g.apply(seat, action)
    except RulesError as exc:
        assert g.to_dict() == before
        return str(exc)
    raise AssertionError(f"{action} was accepted")


def all_cards() -> list[str]:
    """The deck's card ids."""
    return list(deck())
