"""Heuristic computer players for Europe at War, deciding from their own view only.

One level (every level plays the same). Each decision goes to a rule of thumb:

- the Move Phase plan: a land grab led by the Generals (:mod:`.grab`);
- setup, recruits, placement, upkeep and deposits (:mod:`.muster`);
- battles, casualties, retreats and the windows' reactions (:mod:`.fight`);
- own-turn cards: revenue, units and cards at once; harm to the richest rival, lost
  units to the strongest stack near my territory (here).

The Move Phase plan is worked out once per position and kept (a pure function of the
view, so keeping it changes no choice).
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from rules.europe_at_war.actions import (
    Discard,
    Done,
    Drop,
    Move,
    Pass,
    PayLoss,
    PlayAt,
    PlayCard,
    PlayOn,
    Submit,
)
from rules.europe_at_war.data import deck
from rules.europe_at_war.suggest import card_value
from rules.europe_at_war.view import EaView

from . import fight, muster
from .grab import Planner
from .knowledge import Knowledge

PLANS_KEPT = 16
"""Plans kept between calls (one per seat and position is enough)."""


class EaPlayer:
    """The heuristic player."""

    def __init__(self) -> None:
        self._plans: OrderedDict[Any, list[Any]] = OrderedDict()

    def choose(
        self,
        view: Any,
        legal: Sequence[Any],
        level: str,
        seed: int,
        *,
        deadline: float | None = None,
    ) -> Any:
        """One of ``legal`` for the seat whose ``view`` this is.

        Raises:
            ValueError: ``legal`` is empty.
        """
        if not legal:
            raise ValueError("no legal action to choose from")
        assert isinstance(view, EaView)
        k = Knowledge(view)
        kind = next((d.kind for d in view.deciders if d.seat == k.me), "")
        options = list(legal)
        choice = self._decide(k, kind, options, random.Random(seed))
        if choice is None or choice not in options:
            choice = _quiet(options)
        return choice

    def _decide(self, k: Knowledge, kind: str, legal: list[Any], rng: random.Random) -> Any:
        if kind == "plan":
            return self._plan_step(k, legal)
        if kind in ("discard", "recruit", "upkeep", "deposit", "battle"):
            card = own_turn_card(k, legal, before_plan=False)
            if card is not None:
                return card
        handler = HANDLERS.get(kind)
        return handler(k, legal) if handler else None

    # ------------------------------------------------------------------ the plan
    def _plan_step(self, k: Knowledge, legal: list[Any]) -> Any:
        """The next step of this turn's plan (own-turn cards come before its first
        order); Submit once the plan shown holds all of it."""
        shown = k.view.plan or ()
        if not shown:
            card = own_turn_card(k, legal, before_plan=True)
            if card is not None:
                return card
        plan = self._plan(k)
        built: list[tuple[Any, ...]] = []
        for action in plan:
            if _same(built, shown):
                return action if action in legal else Submit()
            if isinstance(action, Move):
                built.append((action.group, action.dest, action.pay, ()))
            elif isinstance(action, Drop) and built:
                group, dest, pay, drops = built[-1]
                built[-1] = (group, dest, pay, (*drops, (int(action.unit[1:]), action.at)))
        return Submit()

    def _plan(self, k: Knowledge) -> list[Any]:
        v = k.view
        key = (k.me, v.round, v.stacks, v.hand, tuple(sorted(v.control.items())))
        plan = self._plans.get(key)
        if plan is None:
            plan = Planner(k).plan()
            self._plans[key] = plan
            while len(self._plans) > PLANS_KEPT:
                self._plans.popitem(last=False)
        return plan


def _same(built: list[tuple[Any, ...]], shown: Sequence[dict[str, Any]]) -> bool:
    """True when the orders ``built`` so far are the plan shown."""
    if len(built) != len(shown):
        return False
    for (group, dest, pay, drops), order in zip(built, shown, strict=True):
        if order.get("kind") != "move" or order.get("group") != group:
            return False
        path = order.get("path") or [""]
        if path[-1] != dest or order.get("pay") != pay:
            return False
        if tuple((int(u), str(at)) for u, at in order.get("drops", ())) != drops:
            return False
    return True


def _quiet(legal: list[Any]) -> Any:
    """Finish, pass or submit if possible, else the first legal action."""
    for quiet in (Done(), Pass(), Submit()):
        if quiet in legal:
            return quiet
    return legal[0]


# ---------------------------------------------------------------------------- cards
def own_turn_card(k: Knowledge, legal: list[Any], *, before_plan: bool) -> Any:
    """EA-32: revenue, units and cards whenever they come; RP losses and discards to the
    richest rival; lost units (before the plan) to the strongest stack of another
    player near my territory."""
    cards = deck()
    gains = ("gain_revenue", "gain_units", "draw_cards")
    for a in legal:
        if isinstance(a, PlayCard) and cards[a.card].effect.kind in gains:
            return a
    view = k.view
    rivals = [s for s in range(len(view.nations)) if s != k.me and not view.out[s]]
    if not rivals:
        return None
    richest = max(rivals, key=lambda s: (view.treasury[s], s))
    fullest = max(rivals, key=lambda s: (view.hand_sizes[s], s))
    for a in legal:
        if not isinstance(a, PlayOn):
            continue
        kind = cards[a.card].effect.kind
        if kind in ("opponent_loses_revenue", "steal_revenue"):
            if a.seat == richest and view.treasury[richest] > 0:
                return a
        elif kind == "opponent_discards" and a.seat == fullest and view.hand_sizes[a.seat] > 2:
            return a
    if before_plan:
        hits = [a for a in legal if isinstance(a, PlayAt)]
        if hits:
            mine = set(k.my_territories())
            return max(
                hits,
                key=lambda a: (
                    any(n in mine for n in k.map.steps[a.at]) or a.at in mine,
                    k.foe_force(a.at, a.seat),
                    a.at,
                ),
            )
    return None


def on_hand(k: Knowledge, legal: list[Any]) -> Any:
    """EA-5: discard the card worth least to me."""
    cards = deck()
    naval = any(k.map.is_sea(s) for s in k.mine)
    discards = [a for a in legal if isinstance(a, Discard)]

    def worth(a: Discard) -> tuple[int, str]:
        c = cards[a.card]
        value = card_value(c)
        if c.contexts == frozenset({"sea"}) and not naval:
            value -= 6
        if c.contexts == frozenset({"siege"}):
            value -= 3
        return (value, a.card)

    return min(discards, key=worth)


def on_loss(k: Knowledge, legal: list[Any]) -> Any:
    """EA-28: pay a loss from the largest deposit first."""
    return max((a for a in legal if isinstance(a, PayLoss)), key=lambda a: (a.amount, a.at))


def _setup(k: Knowledge, legal: list[Any]) -> Any:
    return muster.on_setup(k, legal, k.view.drawn or ())


HANDLERS = {
    "setup": _setup,
    "place": muster.on_place,
    "hand": on_hand,
    "loss": on_loss,
    "discard": lambda k, legal: Done(),
    "recruit": muster.on_recruit,
    "upkeep": muster.on_upkeep,
    "deposit": muster.on_deposit,
    "w1": fight.on_w1,
    "w2": fight.on_w2,
    "answer": fight.on_answer,
    "battle": fight.on_battle,
    "cards": fight.on_cards,
    "sealed": fight.on_sealed,
    "casualties": fight.on_casualties,
    "capture": fight.on_capture,
    "retreat": fight.on_retreat,
}
"""The rule of thumb for each decision kind."""
