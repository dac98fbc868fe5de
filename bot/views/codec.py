"""Prompt choices as short strings for component custom ids (Discord allows 100 chars),
for any game: an action's kind and its parameter values.

An answer button carries ``ew:a:<game>:<version>:<code>`` so it stays valid across a
restart (it names the game, the prompt's version and the action itself — not an index
into a list that may have changed). The code is ``kind.value.value…`` with the values in
the order of the kind's parameters (:attr:`rules.contract.Game.action_kinds`): a plain
id as it is (``a-z0-9_``), a whole number as ``#12``, yes / no as ``+`` / ``-``, any
other text as ``%`` and its UTF-8 in hex. An action too long for that
is written as ``h`` and a digest, found again among the prompt's current choices (a
digest that matches none is an old button).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from typing import Any

from rules.contract import Game, Value

MAX_CODE = 64
"""The longest code written out; a game id and a version fit beside it in 100 chars."""
_PLAIN = re.compile(r"[a-z0-9_]+")
CODE = r"[a-z0-9_.#+%-]+"
"""A pattern matching every code (for the components' templates)."""


def _value(value: Value) -> str:
    if isinstance(value, bool):
        return "+" if value else "-"
    if isinstance(value, int):
        return f"#{value}"
    if _PLAIN.fullmatch(value):
        return value
    return "%" + value.encode().hex()


def _read(token: str) -> Value:
    if token in ("+", "-"):
        return token == "+"
    if token.startswith("#"):
        return int(token[1:])
    if token.startswith("%"):
        return bytes.fromhex(token[1:]).decode()
    if _PLAIN.fullmatch(token):
        return token
    raise ValueError(f"bad value {token!r}")


def digest(data: dict[str, Any]) -> str:
    """The short code of an action's dict that is too long to write out."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return "h" + hashlib.sha256(text.encode()).hexdigest()[:16]


def encode(action: Any, game: Game) -> str:
    """A short code for a prompt's choice, one of ``game``'s actions."""
    data = action.to_dict()
    kind = str(data["kind"])
    spec = game.action_kinds.get(kind)
    values = [data[p.name] for p in spec.params] if spec is not None else []
    if spec is not None and _PLAIN.fullmatch(kind) and len(values) == len(data) - 1:
        code = ".".join([kind, *(_value(v) for v in values)])
        if len(code) <= MAX_CODE:
            return code
    return digest(data)


def decode(code: str, game: Game, offered: Iterable[Any] = ()) -> tuple[str, dict[str, Value]]:
    """The action kind and parameters of :func:`encode` (``offered``: the prompt's
    current choices, for a digest), for ``game``'s ``action_from_dict`` to check.

    Raises:
        ValueError: a malformed code, or a digest that matches no current choice.
    """
    if code.startswith("h"):
        for action in offered:
            data = action.to_dict()
            if digest(data) == code:
                kind = str(data.pop("kind"))
                return kind, data
        raise ValueError("no current choice has that digest")
    kind, *tokens = code.split(".")
    spec = game.action_kinds.get(kind)
    if spec is None or len(tokens) != len(spec.params):
        raise ValueError(f"{game.name} has no choice {code!r}")
    return kind, {p.name: _read(t) for p, t in zip(spec.params, tokens, strict=True)}
