"""The hard level's tree search (its duels and placements; :mod:`ai.pyramids.hard`):
information-set Monte Carlo tree search (single observer).

Each iteration deals a fresh determinization of the hidden cards (and of the dice and
reshuffles to come) from the player's view, then walks one tree shared by all of them:

* The tree branches on the searching player's own decisions for the rest of the
  current turn (its action after a look or a sabotage, its duel cards, ...), chosen by
  UCB over the actions available in this determinization (availability counts, as in
  ISMCTS). Other players' decisions are drawn from the light policy (:mod:`ai.light`)
  and also key the tree, so that e.g. a later duel card knows what the defender played.
* One new node is added per iteration; the rest of the playout uses the light policy
  for everyone until the searching player's next turn begins (the depth cap), and the
  position is scored by the evaluator (:mod:`ai.evaluate`).
* The root's children start with the normal level's estimate of their worth as a few
  virtual visits (progressive bias), and only the best-rated root actions are searched.

The decision is the most visited root action. With ``deadline`` set, the search stops
early when ``time.monotonic()`` passes it; otherwise it is deterministic for a seed.
"""

from __future__ import annotations

import random
import time
from math import log, sqrt

from rules.pyramids import Action, GameState, LetPass, Spy
from rules.pyramids.state import DIPLOMACY, DUEL, RETREAT, SETUP, TURN

from .context import Context
from .evaluate import Weights, utilities
from .light import light_action
from .normal import attack_makes_me_win, normal_action, spy_rule, turn_values
from .placement import placement
from .sensible import sensible, worth_a_card

EXPLORATION = 0.5
PRIOR_VISITS = 4.0
ROOT_WIDTH = 10
MAX_PLAYOUT_STEPS = 120
HORIZON: int | None = None
"""Playouts stop when the searching player's turn has come round this many times;
``None``: twice with two players left, once with more (see :func:`horizon`)."""
C_PUCT = 1.0
GUIDE_SHARE = 0.7
FPU_REDUCTION = 0.1


class Node:
    """A node of the search tree: statistics of the action that led here."""

    __slots__ = ("avail", "children", "prior", "total", "visits")

    def __init__(self, prior: float | None = None) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.prior = prior

    def mean(self) -> float:
        """Average value including the prior's virtual visits."""
        if self.prior is None:
            return self.total / self.visits if self.visits else 0.0
        return (self.total + PRIOR_VISITS * self.prior) / (self.visits + PRIOR_VISITS)

    def weight(self) -> float:
        """Visits including virtual ones."""
        return self.visits + (PRIOR_VISITS if self.prior is not None else 0.0)


def horizon(g: GameState) -> int:
    """How many times the searching player's turn comes round before a playout stops."""
    if HORIZON is not None:
        return HORIZON
    return 2 if g.eliminated.count(False) <= 2 else 1


def acting_seat(g: GameState) -> int:
    """The seat that acts next in a playout (the first of several in a diplomacy window)."""
    return g.deciders()[0].seat


def search(
    ctx: Context,
    rng: random.Random,
    iterations: int,
    deadline: float | None = None,
    model: str = "light",
) -> Action:
    """Run the search for the viewer of ``ctx`` and return its chosen action."""
    g0, me = ctx.g, ctx.me
    acts = g0.legal_actions(me)
    if len(acts) == 1:
        return acts[0]
    if g0.phase == SETUP:
        return placement(g0, ctx.info, me)
    if g0.phase == TURN:
        spy = spy_rule(ctx)
        if spy is not None:
            return spy
    if g0.phase == DUEL and not worth_a_card(ctx):
        return normal_action(ctx)
    if g0.phase == DIPLOMACY and attack_makes_me_win(ctx):
        return LetPass()
    acts = sensible(ctx, acts)
    root = Node()
    candidates = _root_candidates(ctx, acts, root)
    if len(candidates) == 1:
        return candidates[0]
    allowed = set(candidates)
    turn0 = g0.turn
    det = ctx.det
    assert det is not None
    # outside the turn (diplomacy, duel, retreat) the normal level's choice guides
    favourite = normal_action(ctx) if g0.phase in (DIPLOMACY, DUEL, RETREAT) else None
    for i in range(iterations):
        if deadline is not None and i % 4 == 0 and i and time.monotonic() > deadline:
            break
        g = det.sample(rng)
        _iterate(g, me, turn0, root, allowed, rng, ctx.weights, model, favourite)
    return max(
        candidates,
        key=lambda a: (root.children[a].weight(), root.children[a].mean(), a == favourite),
    )


def _root_candidates(ctx: Context, acts: list[Action], root: Node) -> list[Action]:
    """The root actions worth searching, each with its prior (turn decisions only)."""
    g = ctx.g
    if g.phase == TURN:
        plain = [a for a in acts if not isinstance(a, Spy)]
        values = turn_values(ctx, plain)
        order = sorted(range(len(plain)), key=lambda i: -values[i])[:ROOT_WIDTH]
        out = [plain[i] for i in order]
        for i in order:
            root.children[plain[i]] = Node(values[i])
        return out
    for a in acts:
        root.children[a] = Node()
    return list(acts)


def _select(node: Node, available: list[Action], rng: random.Random) -> Action:
    untried = [
        a for a in available if node.children[a].visits == 0 and node.children[a].prior is None
    ]
    if untried:
        return untried[rng.randrange(len(untried))]
    best: Action | None = None
    best_score = -1e18
    for a in available:
        child = node.children[a]
        n = child.weight()
        score = child.mean() + EXPLORATION * sqrt(log(max(child.avail, 1)) / n)
        if score > best_score:
            best, best_score = a, score
    assert best is not None
    return best


def _opponent(g: GameState, seat: int, rng: random.Random, weights: Weights, model: str) -> Action:
    """Another player's decision in a playout: the light policy, or the normal level
    (judging only from what that player could know in this determinization)."""
    if model == "normal" and g.phase != SETUP:
        return normal_action(Context.from_state(g, seat, weights))
    return light_action(g, seat, rng)


def _select_guided(node: Node, available: list[Action], suggestion: Action) -> Action:
    """PUCT below the root: the light policy's suggestion carries most of the prior, so
    the search follows it unless other actions prove better."""
    share = (1.0 - GUIDE_SHARE) / max(1, len(available) - 1)
    parent = node.total / node.visits if node.visits else 0.5
    scale = C_PUCT * sqrt(node.visits + 1)
    best = suggestion if suggestion in available else available[0]
    best_score = -1e18
    for a in available:
        child = node.children[a]
        q = child.total / child.visits if child.visits else parent - FPU_REDUCTION
        prior = GUIDE_SHARE if a == suggestion else share
        score = q + scale * prior / (1 + child.visits)
        if score > best_score:
            best, best_score = a, score
    return best


def _iterate(
    g: GameState,
    me: int,
    turn0: int,
    root: Node,
    allowed: set[Action],
    rng: random.Random,
    weights: Weights,
    model: str,
    guide: Action | None,
) -> None:
    """One iteration on the determinization ``g``: select, expand one node, play out to
    the depth cap, evaluate and back the result up."""
    path: list[Node] = [root]
    node = root
    last_turn = turn0
    rounds_left = horizon(g)
    in_tree = True
    first = True
    steps = 0
    while not g.over and steps < MAX_PLAYOUT_STEPS:
        if not first and g.phase == TURN and g.current == me and g.turn != last_turn:
            last_turn = g.turn
            rounds_left -= 1
            if rounds_left <= 0:
                break  # the depth cap: our next turn begins
        seat = me if first else acting_seat(g)
        if in_tree and g.turn == turn0:
            if seat == me:
                legal = g.legal_actions(me)
                available = [a for a in legal if a in allowed] if first else legal
                for a in available:
                    child = node.children.get(a)
                    if child is None:
                        child = node.children[a] = Node()
                    child.avail += 1
                if first and guide is not None:
                    action = _select_guided(node, available, guide)
                elif first:
                    action = _select(node, available, rng)
                else:
                    action = _select_guided(node, available, light_action(g, me, rng))
                node = node.children[action]
                if node.visits == 0 and node.prior is None:
                    in_tree = False  # expanded: play out from here
            else:
                action = _opponent(g, seat, rng, weights, model)
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = Node()
                node = child
            path.append(node)
        else:
            in_tree = False
            action = (
                _opponent(g, seat, rng, weights, model)
                if seat != me
                else light_action(g, seat, rng)
            )
        g._apply_unchecked(seat, action)
        first = False
        steps += 1
    result = utilities(g, None, weights)[me]
    for n in path:
        n.visits += 1
        n.total += result
