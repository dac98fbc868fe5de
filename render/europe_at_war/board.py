"""Europe at War's board image: the map in a frame (the full map or a crop), territories
in their owners' tints and patterns, stacks as their top unit's symbol and count,
fleets at sea, deposits on their cities, arrows for this turn's moves, marks on battle
sites, and the side panel.

Drawn from the public parts of a view only: a stack's owner, top unit and count, never
its contents, hands or drawn chits, so every view of one position gives the same image.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops

from render import palette as P
from render.arrows import Arrow, draw_arrow
from render.fonts import font
from render.shapes import paste, rounded
from render.text import clip, display_name, put
from rules import Event, i18n
from rules.europe_at_war.data import unit_sets
from rules.europe_at_war.describe import nation_name

from . import colours as C
from .catalogue import N_, _, n_
from .icons import LEGEND, TYPE_NAMES, icon
from .layout import PANEL_WIDTH, REGIONS, Frame, covering, frame
from .shapes import Shapes, load_shapes
from .static import (
    COAST,
    COUNTRY_BORDER,
    HATCHED,
    NEUTRAL,
    SEA_EDGE,
    TERRITORY_BORDER,
    WASTELAND,
    hatch,
    static,
)

STEPS = {
    "setup": N_("Setup"),
    "discard": N_("Draw Phase"),
    "plan": N_("Move Phase: the plan"),
    "window": N_("Move Phase"),
    "battle": N_("Battle Phase"),
    "fight": N_("Battle Phase"),
    "recruit": N_("Recruit Phase"),
    "upkeep": N_("Upkeep Phase"),
    "deposit": N_("Upkeep Phase: deposits"),
    "over": N_("Game over"),
}
"""What the panel calls each step of the turn (in English: translated where drawn)."""

SPACE_KEYS = ("at", "dest", "from", "to", "via")
SPACE_LIST_KEYS = ("path", "taken")


@lru_cache(maxsize=1)
def unit_types() -> dict[str, str]:
    """Each unit name's type code (names are unique across the unit lists)."""
    return {k.name: k.type for kinds in unit_sets().values() for k in kinds}


# ----------------------------------------------------------------------- what moved
def event_spaces(events: Sequence[Event], shapes: Shapes) -> set[str]:
    """The spaces the public ``events`` of one action name (moves, battles, placements,
    recruits, control)."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if k in SPACE_KEYS and isinstance(v, str):
                    found.add(v)
                elif k in SPACE_LIST_KEYS and isinstance(v, list):
                    found.update(s for s in v if isinstance(s, str))
                elif isinstance(v, (dict, list)):
                    walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for e in events:
        if e.to is None and e.kind not in ("control",):
            walk(e.data)
    return {s for s in found if s in shapes.territories or s in shapes.seas}


def choose_frame(view: Any, events: Sequence[Event]) -> Frame:
    """The crop covering the spaces of the last action's public events, or of the
    battle under way when they name none (the full map when no crop covers them all, or
    there is nothing to show)."""
    shapes = load_shapes(bool(view.compact))
    spaces = event_spaces(events, shapes)
    if not spaces and view.battle is not None:
        spaces = {view.battle.at}
    return covering(shapes, spaces, bool(view.compact))


# ----------------------------------------------------------------------- the map layer
@lru_cache(maxsize=6)
def map_layer(
    key: str, compact: bool, owners: tuple[int, ...], language: str = i18n.DEFAULT
) -> Image.Image:
    """The map of frame ``key`` with every territory in its owner's tint and pattern
    (``owners[k]``: the seat holding the k-th territory, -1: nobody), and the static
    overlay (names, cities, links, the names in ``language``) on top. Cached: callers
    copy it.

    Drawn as palette indices (:func:`_indices`), then turned to RGB once: a territory's
    label indexes its owner's tint, and ``HATCHED + seat`` the seat's pattern colour."""
    st = static(key, compact, language)
    colours: list[tuple[int, int, int]] = [C.SEA] * 256
    for k, seat in enumerate(owners):
        colours[k + 1] = C.fill(seat) if seat >= 0 else C.UNHELD
    for seat in range(len(C.PATTERNS)):
        colours[HATCHED + seat] = C.hatch(seat)
    colours[SEA_EDGE] = C.SEA_EDGE
    colours[TERRITORY_BORDER] = C.BORDER
    colours[COUNTRY_BORDER] = C.COUNTRY_BORDER
    colours[COAST] = C.COAST
    colours[WASTELAND] = C.WASTELAND
    colours[NEUTRAL] = C.NEUTRAL_LAND
    indexed = _indices(key, compact, owners).copy()
    indexed.putpalette([v for c in colours for v in c])
    rgb = indexed.convert("RGB")
    for xy, tile in st.overlay:
        rgb.paste(tile, xy, tile)
    return rgb


REPAINT_MAX = 32
"""More territories than this changed hands since a frame's last map: paint it anew."""
_last: dict[tuple[str, bool], tuple[tuple[int, ...], Image.Image]] = {}
"""Each frame's last map indices and the owners they show (never changed in place)."""


def _indices(key: str, compact: bool, owners: tuple[int, ...]) -> Image.Image:
    """The ``L`` image of the map's palette indices for ``owners``: the label image with
    each seat's pattern lines set to ``HATCHED + seat`` over its territories (seats a
    table of five apart share colours and pattern).

    Made from the frame's last one by repainting only the territories whose owner
    changed (a game's successive boards differ by a few), or anew when many did."""
    st = static(key, compact)
    last = _last.get((key, compact))
    changed = (
        [k for k, (a, b) in enumerate(zip(last[0], owners, strict=True)) if a != b]
        if last is not None and len(last[0]) == len(owners)
        else None
    )
    if last is not None and changed is not None and len(changed) <= REPAINT_MAX:
        indexed = last[1].copy()
        for k in changed:
            box = _territory_box(key, compact, k)
            if box is None:
                continue
            lut = [0] * 256
            lut[k + 1] = 255
            mask = st.label.crop(box).point(lut)
            indexed.paste(k + 1, box, mask)
            seat = owners[k] % len(C.PATTERNS) if owners[k] >= 0 else -1
            if seat >= 0:
                pattern = hatch(seat).crop(box)
                # both masks are 0 or 255: the darker of the two is where both are set
                indexed.paste(HATCHED + seat, box, ImageChops.darker(mask, pattern))
    else:
        indexed = st.label.copy()
        patterns = len(C.PATTERNS)
        for seat in sorted({s % patterns for s in owners if s >= 0}):
            lut = [0] * 256
            for k, s in enumerate(owners):
                if s >= 0 and s % patterns == seat:
                    lut[k + 1] = 255
            pattern = hatch(seat).crop((0, 0, *st.label.size))
            indexed.paste(HATCHED + seat, (0, 0), ImageChops.darker(st.label.point(lut), pattern))
    _last[(key, compact)] = (owners, indexed)
    return indexed


def forget_maps() -> None:
    """Forget every map drawn in this process, so the next of each frame is painted
    anew (as a worker's first board is)."""
    map_layer.cache_clear()
    _last.clear()


@lru_cache(maxsize=4096)
def _territory_box(key: str, compact: bool, k: int) -> tuple[int, int, int, int] | None:
    """A box of frame ``key`` holding every pixel of the k-th territory (its outline's
    bounds, a pixel wider each side), or ``None`` when it is outside the frame."""
    st = static(key, compact)
    f = st.frame
    region = load_shapes(compact).territories[st.territories[k]].region
    rings = [ring for poly in region for ring in poly]
    points = [f.at(ring[i], ring[i + 1]) for ring in rings for i in range(0, len(ring), 2)]
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    box = (
        max(0, math.floor(min(xs)) - 1),
        max(0, math.floor(min(ys)) - 1),
        min(f.size[0], math.ceil(max(xs)) + 2),
        min(f.size[1], math.ceil(max(ys)) + 2),
    )
    return box if box[0] < box[2] and box[1] < box[3] else None


def _owners(view: Any, order: Sequence[str]) -> tuple[int, ...]:
    control: dict[str, int] = view.control
    return tuple(int(control.get(tid, -1)) for tid in order)


# ----------------------------------------------------------------------- pieces
def _stack_box(
    img: Image.Image, xy: tuple[float, float], seat: int, unit_type: str, count: int, big: bool
) -> tuple[int, int, int, int]:
    """A stack's badge centred on ``xy``: its top unit's symbol and its count."""
    colour = C.seat_colour(seat)
    size = 18 if big else 13
    f = font(13 if big else 10, bold=True)
    text = str(count)
    tw = int(f.getlength(text))
    w, h = size + tw + (10 if big else 7), size + (6 if big else 4)
    x, y = round(xy[0] - w / 2), round(xy[1] - h / 2)
    paste(img, rounded(w, h, 4 if big else 3, colour.fill, colour.outline, 1), (x, y))
    sym = icon(unit_type, size, colour.text)
    img.paste(sym, (x + 3, y + (h - size) // 2), sym)
    put(img, (x + size + 4, y + h / 2), text, f, colour.text, anchor="lm")
    return (x, y, x + w, y + h)


def _places(view: Any, shapes: Shapes, f: Frame) -> dict[str, tuple[float, float]]:
    """Where each occupied space's stacks are centred, in frame pixels."""
    out: dict[str, tuple[float, float]] = {}
    for s in view.stacks:
        if s.space in out:
            continue
        t = shapes.territories.get(s.space)
        if t is not None:
            out[s.space] = f.at(*t.stack)
        elif s.space in shapes.seas:
            x, y = f.at(*shapes.seas[s.space].label)
            out[s.space] = (x, y + 6)
    return out


def _draw_stacks(
    img: Image.Image, view: Any, shapes: Shapes, f: Frame
) -> list[tuple[int, int, int, int]]:
    places = _places(view, shapes, f)
    by_space: dict[str, list[Any]] = {}
    for s in view.stacks:
        by_space.setdefault(s.space, []).append(s)
    boxes = []
    types = unit_types()
    big = f.detailed
    for space, stacks in by_space.items():
        cx, cy = places[space]
        step = 44 if big else 32
        x0 = cx - step * (len(stacks) - 1) / 2
        for k, s in enumerate(sorted(stacks, key=lambda s: s.seat)):
            xy = (x0 + k * step, cy)
            if not (-20 <= xy[0] <= f.size[0] + 20 and -20 <= xy[1] <= f.size[1] + 20):
                continue
            boxes.append(_stack_box(img, xy, s.seat, types.get(s.top, "H"), s.count, big))
    return boxes


def _draw_deposits(img: Image.Image, view: Any, shapes: Shapes, f: Frame) -> None:
    deposits: dict[str, int] = view.deposits
    big = f.detailed
    fnt = font(11 if big else 9, bold=True)
    for tid, amount in sorted(deposits.items()):
        if amount <= 0 or tid not in shapes.territories:
            continue
        x, y = f.at(*shapes.territories[tid].label)
        x += 12 if big else 9
        y -= 10 if big else 8
        text = str(amount)
        w = max(16 if big else 13, int(fnt.getlength(text)) + 8)
        h = 16 if big else 13
        paste(img, rounded(w, h, h // 2, C.COIN, C.COIN_EDGE, 1), (x - w / 2, y - h / 2))
        put(img, (x, y), text, fnt, P.BLACK, anchor="mm")


def _arrows(view: Any, events: Sequence[Event], shapes: Shapes, f: Frame) -> list[Arrow]:
    """This turn's moves (the shown plan) and the last action's retreats and reactions."""
    places = {tid: f.at(*t.stack) for tid, t in shapes.territories.items()}
    places.update({sid: f.at(*s.label) for sid, s in shapes.seas.items()})
    out = []
    shown = view.plan if view.step != "plan" else ()  # a plan being made is its maker's
    for order in shown or ():
        path = [p for p in order.get("path") or () if p in places]
        if order.get("status") in ("cancelled", "skipped"):
            continue
        if order.get("kind") == "compel" and order.get("at") in places:
            path = [order["at"], order["dest"]] if order.get("dest") in places else []
        seat = (
            int(order.get("seat", view.current)) if order.get("kind") == "compel" else view.current
        )
        if len(path) >= 2:
            sea = any(p in shapes.seas for p in path)
            pts = tuple(places[p] for p in path)
            out.append(
                Arrow(
                    "sea" if sea else "move",
                    C.seat_colour(seat),
                    pts[0],
                    pts[-1],
                    via=pts if len(pts) > 2 else (),
                )
            )
    for e in events:
        if e.to is not None:
            continue
        if e.kind == "retreated" and e.data.get("from") in places and e.data.get("to") in places:
            out.append(
                Arrow(
                    "retreat",
                    C.seat_colour(int(e.data["seat"])),
                    places[e.data["from"]],
                    places[e.data["to"]],
                )
            )
        if e.kind == "reaction" and e.data.get("at") in places and e.data.get("dest") in places:
            out.append(
                Arrow(
                    "retreat",
                    C.seat_colour(int(e.data["seat"])),
                    places[e.data["at"]],
                    places[e.data["dest"]],
                )
            )
    return out


def _battle_sites(view: Any, events: Sequence[Event]) -> set[str]:
    sites = set()
    if view.battle is not None:
        sites.add(view.battle.at)
    for e in events:
        if e.to is None and e.kind in ("battle", "battle_result", "no_retreat"):
            at = e.data.get("at")
            if isinstance(at, str):
                sites.add(at)
    seats_at: dict[str, set[int]] = {}
    for s in view.stacks:
        seats_at.setdefault(s.space, set()).add(s.seat)
    sites.update(space for space, seats in seats_at.items() if len(seats) > 1)
    return sites


def _draw_battle_mark(img: Image.Image, xy: tuple[float, float], big: bool) -> None:
    r = 15 if big else 11
    x, y = xy
    paste(img, rounded(2 * r, 2 * r, r, C.BATTLE, P.WHITE, 2), (x - r, y - r))
    put(img, (x, y), "⚔", font(18 if big else 13, bold=True), P.WHITE, anchor="mm")


# ----------------------------------------------------------------------- the panel
def _panel(img: Image.Image, view: Any, names: Sequence[str], f: Frame) -> None:
    x0 = f.size[0]
    w = PANEL_WIDTH
    h = img.height
    img.paste(P.PANEL_BACKGROUND, (x0, 0, x0 + w, h))
    img.paste(P.PANEL_EDGE, (x0, 0, x0 + 2, h))
    pad = x0 + 14
    inner = w - 28
    put(img, (pad, 12), "EUROPE AT WAR", font(17, bold=True), P.GOLD)
    where = _("Full map") if f.key == "full" else _(next(r.name for r in REGIONS if r.id == f.key))
    put(img, (pad, 36), clip(where, inner, font(12)), font(12), P.PANEL_MUTED)
    y = 60
    if view.step != "setup":
        round_text = _("Round {round} of {rounds}").format(
            round=max(1, view.round), rounds=view.rounds
        )
    else:
        round_text = _(STEPS["setup"])
    put(img, (pad, y), round_text, font(15, bold=True), P.PANEL_TEXT)
    y += 22
    step = _(STEPS[view.step]) if view.step in STEPS else view.step
    put(img, (pad, y), clip(step, inner, font(13)), font(13), P.PANEL_MUTED)
    y += 22
    deciders = sorted({d.seat for d in view.deciders})
    if view.over:
        winners = ", ".join(display_name(names, s) for s in view.winners) or _("nobody")
        text = _("Won by {winners}").format(winners=winners)
        put(img, (pad, y), clip(text, inner, font(13, bold=True)), font(13, bold=True), P.GOLD)
    elif deciders:
        who = ", ".join(display_name(names, s) for s in deciders)
        text = _("Deciding: {who}").format(who=who)
        put(img, (pad, y), clip(text, inner, font(13)), font(13), P.PANEL_TEXT)
    y += 28
    counts = _territory_counts(view)
    units = _unit_counts(view)
    for seat, nation in enumerate(view.nations):
        row_h = 54
        active = seat == view.current and not view.over
        paste(
            img,
            rounded(inner, row_h - 6, 6, P.PANEL_CARD_ACTIVE if active else P.PANEL_CARD),
            (pad, y),
        )
        sw = _swatch(seat)
        img.paste(sw, (pad + 8, y + 9))
        name = display_name(names, seat)
        label = f"{name} ({nation_name(nation)})"
        colour = P.PANEL_FAINT if view.out[seat] else P.PANEL_TEXT
        put(
            img,
            (pad + 40, y + 7),
            clip(label, inner - 50, font(13, bold=True)),
            font(13, bold=True),
            colour,
        )
        line = _("{rp} RP · {cards} cards · {terr} terr. · {units} units").format(
            rp=view.treasury[seat],
            cards=view.hand_sizes[seat],
            terr=counts.get(seat, 0),
            units=units.get(seat, 0),
        )
        if view.out[seat]:
            line = _("out of the game")
        put(img, (pad + 40, y + 27), clip(line, inner - 50, font(11)), font(11), P.PANEL_MUTED)
        y += row_h
    y += 4
    deck_line = _("Deck {deck} · discards {discard}").format(
        deck=view.deck_count, discard=len(view.discard)
    )
    put(img, (pad, y), deck_line, font(12), P.PANEL_MUTED)
    y += 26
    if y + 170 < h:
        put(img, (pad, y), _("KEY"), font(11, bold=True), P.PANEL_FAINT)
        y += 18
        for k, t in enumerate(LEGEND):
            col, row = k % 2, k // 2
            xx, yy = pad + col * (inner // 2), y + row * 20
            sym = icon(t, 15, P.PANEL_TEXT)
            img.paste(sym, (xx, yy), sym)
            put(img, (xx + 20, yy + 8), _(TYPE_NAMES[t]), font(11), P.PANEL_MUTED, anchor="lm")


@lru_cache(maxsize=8)
def _swatch(seat: int) -> Image.Image:
    """A seat's tint with its pattern, as on the map."""
    sw = Image.new("RGB", (24, 24), C.fill(seat))
    mask = hatch(seat % len(C.PATTERNS)).crop((0, 0, 24, 24))
    sw.paste(C.hatch(seat), (0, 0), mask)
    return sw


def _territory_counts(view: Any) -> dict[int, int]:
    out: dict[int, int] = {}
    for seat in view.control.values():
        out[seat] = out.get(seat, 0) + 1
    return out


def _unit_counts(view: Any) -> dict[int, int]:
    out: dict[int, int] = {}
    for s in view.stacks:
        out[s.seat] = out.get(s.seat, 0) + s.count
    return out


# ----------------------------------------------------------------------- the board
def board_image(
    view: Any, names: Sequence[str], events: Sequence[Event] = (), key: str | None = None
) -> Image.Image:
    """The board of ``view`` in frame ``key`` (``full`` or a crop's id; ``None``: the
    crop covering the last action's spaces), as an RGB image."""
    compact = bool(view.compact)
    shapes = load_shapes(compact)
    f = frame(key, compact) if key is not None else choose_frame(view, events)
    st = static(f.key, compact)
    img = Image.new("RGB", f.image_size, P.PANEL_BACKGROUND)
    owners = _owners(view, st.territories)
    img.paste(map_layer(f.key, compact, owners, i18n.current()), (0, 0))
    _draw_deposits(img, view, shapes, f)
    sites = _battle_sites(view, events)
    places = _places(view, shapes, f)
    box = (0, 0, f.size[0], f.size[1])
    for arrow in _arrows(view, events, shapes, f):
        draw_arrow(img, arrow, box)
    _draw_stacks(img, view, shapes, f)
    for site in sorted(sites):
        if site in places:
            x, y = places[site]
            _draw_battle_mark(img, (x, y - (26 if f.detailed else 19)), f.detailed)
    _panel(img, view, names, f)
    return img


def summary(view: Any, names: Sequence[str]) -> str:
    """The board in words (alt text, at most 1024 characters)."""
    counts = _territory_counts(view)
    units = _unit_counts(view)
    parts = [
        _("Europe at War, round {round} of {rounds}.").format(
            round=max(1, view.round), rounds=view.rounds
        )
    ]
    for seat, nation in enumerate(view.nations):
        held, count = counts.get(seat, 0), units.get(seat, 0)
        parts.append(
            _("{who} ({nation}): {territories}, {units}, {money} RP.").format(
                who=display_name(names, seat),
                nation=nation_name(nation),
                territories=n_("{n} territory", "{n} territories", held).format(n=held),
                units=n_("{n} unit", "{n} units", count).format(n=count),
                money=view.treasury[seat],
            )
        )
    text = " ".join(parts)
    return text if len(text) <= 1024 else text[:1023] + "…"
