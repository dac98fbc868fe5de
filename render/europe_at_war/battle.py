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
from rules.europe_at_war.data import game_map
from rules.europe_at_war.describe import card_name, nation_name, unit_word

from . import colours as C
from .board import unit_types
from .catalogue import N_, _, n_
from .icons import icon

SIZE = (1000, 600)
KINDS = {"battle": N_("Battle"), "siege": N_("Siege"), "sea": N_("Sea battle")}
"""Each kind of battle's title in English (translated where drawn)."""


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
    who = f"{display_name(names, seat)} ({nation_name(view.nations[seat])})"
    put(
        img, (x + 16, 86), clip(who, w - 32, font(17, bold=True)), font(17, bold=True), P.PANEL_TEXT
    )
    label = _("{role}  — WINS").format(role=role) if winner == seat else role
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
            clip(f"{count} × {unit_word(name)}", w - 130, f),
            f,
            P.PANEL_TEXT,
            anchor="lm",
        )
        put(img, (x + w - 16, y + 9), str(force), f, P.PANEL_TEXT, anchor="rm")
        y += 24
    if len(rows) > 11:
        more = _("and {n} more").format(n=len(rows) - 11)
        put(img, (x + 44, y + 9), more, f, P.PANEL_MUTED, anchor="lm")
    y = 370
    small = font(13)
    lines = [(_("Units"), str(data.get("unit_sum", 0)))]
    if data.get("leader"):
        lines.append((_("Leader advantage"), f"+{data['leader']}"))
    if data.get("flat"):
        lines.append((_("Cards"), f"{int(data['flat']):+d}"))
    if str(data.get("multiplier", "1")) != "1":
        lines.append((_("Multiplier"), f"×{data['multiplier']}"))
    for label_text, value in lines:
        put(img, (x + 16, y), label_text, small, P.PANEL_MUTED)
        put(img, (x + w - 16, y), value, small, P.PANEL_MUTED, anchor="ra")
        y += 20
    put(img, (x + 16, 462), _("Force"), font(18, bold=True), P.PANEL_TEXT, anchor="lm")
    put(img, (x + w - 16, 462), str(data.get("total", 0)), font(26, bold=True), P.GOLD, anchor="rm")


def _played(play: dict[str, Any], names: Sequence[str]) -> str:
    """A card played in the battle, by whom, and whether it was cancelled."""
    who, card = display_name(names, int(play["seat"])), card_name(str(play["card"]))
    if play.get("negated"):
        return _("{who}: {card} (cancelled)").format(who=who, card=card)
    return f"{who}: {card}"


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
    kind_name = _(KINDS.get(kind, KINDS["battle"]))
    title = _("{kind} in {at}").format(kind=kind_name, at=where) if where else kind_name
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
    _side(img, 20, attacker, _("ATTACKS"), shown[0], view, names, winner)
    _side(img, SIZE[0] // 2 + 10, defender, _("DEFENDS"), shown[1], view, names, winner)
    y = 512
    plays = list(b.plays) if b is not None else []
    if plays:
        played = " · ".join(_played(p, names) for p in plays)
        text = _("Cards: {cards}").format(cards=played)
        put(img, (24, y), clip(text, SIZE[0] - 48, font(13)), font(13), P.PANEL_TEXT)
    elif b is not None:
        put(img, (24, y), _("No card played yet."), font(13), P.PANEL_MUTED)
    y += 30
    if result is not None:
        d = result.data
        if d.get("empty"):
            line = _("{winner} wins: no opposing unit is left.").format(
                winner=display_name(names, winner or 0)
            )
        else:
            loser = defender if winner == attacker else attacker
            lost, won = int(d.get("loser_loses", 0)), int(d.get("winner_loses", 0))
            line = _("{winner} wins. {loser} loses {lost}, the winner {winner_lost}.").format(
                winner=display_name(names, winner or 0),
                loser=display_name(names, loser),
                lost=n_("{n} unit", "{n} units", lost).format(n=lost),
                winner_lost=n_("{n} unit", "{n} units", won).format(n=won),
            )
        put(
            img, (24, y), clip(line, SIZE[0] - 48, font(15, bold=True)), font(15, bold=True), P.GOLD
        )
    elif b is not None and b.stage in ("cards", "sealed"):
        if b.stage == "sealed":
            line = _("Cards: both to play. A tie goes to the defender.")
        else:
            line = _("Cards: {who} to play. A tie goes to the defender.").format(
                who=display_name(names, b.next)
            )
        put(img, (24, y), clip(line, SIZE[0] - 48, font(14)), font(14), P.PANEL_MUTED)
    return img
