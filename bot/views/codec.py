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

A turn panel's components carry a *path* instead (:func:`fit_path`): where the player
stands in building an action, the kind and the values chosen so far, in the same tokens;
a value whose token would not fit in the custom id is written ``@`` and its place among
the offers of its step (:class:`service.Nth`).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from rules.contract import Game, Value
from service import Nth

MAX_CODE = 64
"""The longest code written out; a game id and a version fit beside it in 100 chars."""
_PLAIN = re.compile(r"[a-z0-9_]+")
CODE = r"[a-z0-9_.#+%-]+"
"""A pattern matching every code (for the components' templates)."""
PATH = r"[a-z0-9_.#+%@-]*"
"""A pattern matching every path (empty: nothing chosen yet)."""
MAX_ID = 100
"""Discord's longest custom id."""


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


def token(value: Value) -> str:
    """One value as a path or code token."""
    return _value(value)


def fit_path(prefix: str, kind: str, values: Sequence[Value], places: Sequence[int]) -> str:
    """The path of action ``kind`` with its first parameters' ``values`` for a custom id
    that starts with ``prefix``, within Discord's 100 characters: the longest tokens
    that do not fit are written as their ``places`` among their step's offers.

    Raises:
        ValueError: not even the kind and the places fit.
    """
    head = _value(kind)
    tokens = [_value(v) for v in values]
    while len(prefix) + len(".".join([head, *tokens])) > MAX_ID:
        plain = [i for i, t in enumerate(tokens) if not t.startswith("@")]
        if not plain:
            raise ValueError(f"a path of {kind!r} does not fit in a custom id")
        longest = max(plain, key=lambda i: len(tokens[i]))
        tokens[longest] = f"@{places[longest]}"
    return ".".join([head, *tokens])


def read_path(path: str) -> tuple[str | None, list[Value | Nth]]:
    """The kind and values of a path (:func:`fit_path`; empty: nothing chosen).

    Raises:
        ValueError: a malformed path.
    """
    if not path:
        return None, []
    head, *tokens = path.split(".")
    kind = _read(head)
    if not isinstance(kind, str) or not kind:
        raise ValueError(f"bad kind {head!r}")
    out: list[Value | Nth] = []
    for t in tokens:
        if t.startswith("@") and t[1:].isdigit():
            out.append(Nth(int(t[1:])))
        else:
            out.append(_read(t))
    return kind, out
