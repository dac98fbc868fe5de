"""The battle image: both stacks by unit type, each side's Force breakdown (EA-19,
EA-20), the cards played, and, once resolved, the result and the losses.

Drawn from the spectator's view (both stacks of a battle are public, EA-6) and the
battle's public events; sealed cards not yet revealed are not in that view.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from render import palette as P
from render.fonts import font
from render.shapes import Sprite, paste, rounded
from render.text import clip, display_name, put
from rules import Event
from rules.europe_at_war.data import deck, game_map

from . import colours as C
from .board import NATION_NAMES, unit_types
from .icons import icon

SIZE = (1000, 600)
KINDS = {"battle": "Battle", "siege": "Siege", "sea": "Sea battle"}


def _card(card: str) -> str:
    c = deck().get(card)
    return c.name if c else card


def _grouped(units: Sequence[Sequence[Any]]) -> list[tuple[str, int, int]]:
    """(name, count, Force of them all) for each unit name, strongest first."""
    groups: dict[str, list[int]] = {}
    for u in units:
        groups.setdefault(str(u[1]), []).append(int(u[8]))
    rows = [(name, len(f), sum(f)) for name, f in groups.items()]
    return sorted(rows, key=lambda r: (-r[2], r[0]))


def side_card() -> Sprite:
    """The card each side of a battle is drawn on (cached after the first, which takes
    about 50 ms: a worker draws it when it starts)."""
    return rounded(SIZE[0] // 2 - 30, 430, 10, P.PANEL_CARD)


def _side(
    img: Image.Image,
    x: int,
    seat: int,
    role: str,
    data: dict[str, Any],
    view: Any,
    names: Sequence[str],
    winner: int | None,
) -> None:
    w = SIZE[0] // 2 - 30
    colour = C.seat_colour(seat)
    paste(img, side_card(), (x, 70))
    img.paste(colour.fill, (x, 70, x + w, 76))
    who = f"{display_name(names, seat)} ({NATION_NAMES.get(view.nations[seat], '')})"
    put(
        img, (x + 16, 86), clip(who, w - 32, font(17, bold=True)), font(17, bold=True), P.PANEL_TEXT
    )
    label = role + ("  — WINS" if winner == seat else "")
    put(img, (x + 16, 112), label, font(13, bold=True), P.GOLD if winner == seat else P.PANEL_MUTED)
    y = 140
    types = unit_types()
    rows = _grouped(data.get("units", []))
    f = font(14)
    for name, count, force in rows[:11]:
        sym = icon(types.get(name, "H"), 18, P.PANEL_TEXT)
        img.paste(sym, (x + 16, y), sym)
        put(
            img,
            (x + 44, y + 9),
            clip(f"{count} × {name}", w - 130, f),
            f,
            P.PANEL_TEXT,
            anchor="lm",
        )
        put(img, (x + w - 16, y + 9), str(force), f, P.PANEL_TEXT, anchor="rm")
        y += 24
    if len(rows) > 11:
        put(img, (x + 44, y + 9), f"and {len(rows) - 11} more", f, P.PANEL_MUTED, anchor="lm")
    y = 370
    small = font(13)
    lines = [("Units", str(data.get("unit_sum", 0)))]
    if data.get("leader"):
        lines.append(("Leader advantage", f"+{data['leader']}"))
    if data.get("flat"):
        lines.append(("Cards", f"{int(data['flat']):+d}"))
    if str(data.get("multiplier", "1")) != "1":
        lines.append(("Multiplier", f"×{data['multiplier']}"))
    for label_text, value in lines:
        put(img, (x + 16, y), label_text, small, P.PANEL_MUTED)
        put(img, (x + w - 16, y), value, small, P.PANEL_MUTED, anchor="ra")
        y += 20
    put(img, (x + 16, 462), "Force", font(18, bold=True), P.PANEL_TEXT, anchor="lm")
    put(img, (x + w - 16, 462), str(data.get("total", 0)), font(26, bold=True), P.GOLD, anchor="rm")


def _units(n: int) -> str:
    return f"{n} unit" if n == 1 else f"{n} units"


def battle_image(
    view: Any, names: Sequence[str], result: Event | None = None, events: Sequence[Event] = ()
) -> Image.Image:
    """The battle under way in ``view``, or the one ``result`` (its ``battle_result``
    event) ended, as an RGB image."""
    img = Image.new("RGB", SIZE, P.PANEL_BACKGROUND)
    b = view.battle
    shown_events = list(events)
    if result is not None and result in shown_events:
        cut = shown_events.index(result)
        if any(e.kind == "battle" and e.to is None for e in shown_events[cut:]):
            b = None  # the action that ended this battle began the next one
        shown_events = shown_events[:cut]
    start = next((e for e in reversed(shown_events) if e.kind == "battle" and e.to is None), None)
    if b is None and result is not None and "at" in result.data:
        at = str(result.data["at"])
    else:
        at = b.at if b is not None else start.data["at"] if start is not None else ""
    kind = b.kind if b is not None else start.data["kind"] if start is not None else "battle"
    if b is None and result is not None and "sides" in result.data:
        attacker, defender = (int(s) for s in result.data["sides"])
    elif b is not None:
        attacker, defender = b.attacker, b.defender
    elif start is not None:
        attacker, defender = int(start.data["attacker"]), int(start.data["defender"])
    else:
        attacker, defender = 0, 1
    where = game_map(bool(view.compact)).name(at) if at else ""
    title = f"{KINDS.get(kind, 'Battle')} in {where}" if where else KINDS.get(kind, "Battle")
    put(img, (24, 20), clip(title, SIZE[0] - 48, font(24, bold=True)), font(24, bold=True), P.GOLD)
    shown: tuple[dict[str, Any], ...] = ()
    winner: int | None = None
    if result is not None and "attacker" in result.data:
        shown = (result.data["attacker"], result.data["defender"])
        winner = int(result.data["winner"])
    elif result is not None:
        winner = int(result.data["winner"])
    if not shown and b is not None:
        shown = b.breakdowns
    if not shown:
        shown = ({}, {})
    _side(img, 20, attacker, "ATTACKS", shown[0], view, names, winner)
    _side(img, SIZE[0] // 2 + 10, defender, "DEFENDS", shown[1], view, names, winner)
    y = 512
    plays = list(b.plays) if b is not None else []
    if plays:
        text = "Cards: " + " · ".join(
            f"{display_name(names, int(p['seat']))}: {_card(str(p['card']))}"
            + (" (cancelled)" if p.get("negated") else "")
            for p in plays
        )
        put(img, (24, y), clip(text, SIZE[0] - 48, font(13)), font(13), P.PANEL_TEXT)
    elif b is not None:
        put(img, (24, y), "No card played yet.", font(13), P.PANEL_MUTED)
    y += 30
    if result is not None:
        d = result.data
        if d.get("empty"):
            line = f"{display_name(names, winner or 0)} wins: no opposing unit is left."
        else:
            loser = defender if winner == attacker else attacker
            line = (
                f"{display_name(names, winner or 0)} wins. {display_name(names, loser)} loses "
                f"{_units(int(d.get('loser_loses', 0)))}, the winner "
                f"{_units(int(d.get('winner_loses', 0)))}."
            )
        put(
            img, (24, y), clip(line, SIZE[0] - 48, font(15, bold=True)), font(15, bold=True), P.GOLD
        )
    elif b is not None and b.stage in ("cards", "sealed"):
        turn = "both" if b.stage == "sealed" else display_name(names, b.next)
        line = f"Cards: {turn} to play. A tie goes to the defender."
        put(img, (24, y), clip(line, SIZE[0] - 48, font(14)), font(14), P.PANEL_MUTED)
    return img
