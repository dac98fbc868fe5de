"""Structured choices worked out from a list of legal actions: the kinds, then each
parameter's legal values given the ones chosen before.

A game whose legal actions are few enough to list (the pyramid games: at most a few
hundred) gets :meth:`~rules.contract.State.kinds` and :meth:`~rules.contract.State.values`
from these two functions; a game with too many to list answers them directly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .contract import Action, Value


def kinds_of(actions: Iterable[Action]) -> tuple[str, ...]:
    """The distinct kinds of ``actions``, in the order they first appear."""
    return tuple(dict.fromkeys(a.kind for a in actions))


def values_of(
    actions: Iterable[Action], kind: str, chosen: Mapping[str, Value]
) -> tuple[Value, ...]:
    """The values of ``kind``'s first parameter missing from ``chosen``, over the actions
    of that kind that agree with ``chosen``; empty when none agrees or all are chosen."""
    seen: dict[Value, None] = {}
    for action in actions:
        if action.kind != kind:
            continue
        params = action.to_dict()
        if any(params.get(name) != value for name, value in chosen.items()):
            continue
        for name, value in params.items():
            if name != "kind" and name not in chosen:
                seen[value] = None
                break
    return tuple(seen)
