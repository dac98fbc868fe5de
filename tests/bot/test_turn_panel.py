"""The turn panel's components within Discord's limits whatever a game offers (checked by
the fake Discord's own validation): up to 20 offers as buttons, more in selects of 25,
three to a page with Earlier / Later; custom ids within 100 characters, a value too long
to carry written as its place; Back skipping values taken without asking; no two
components with one custom id."""

from __future__ import annotations

from typing import Any, cast

import pytest

from bot.views import codec
from bot.views.controls import Controls
from bot.views.turn import MAX_BUTTONS, step_line, step_view
from rules.contract import Param
from service import Nth, Offer, Step
from tests.fake_discord.limits import check_components

GID, VER = 123456, 98765


@pytest.fixture
def controls() -> Controls:
    return Controls(cast(Any, None))  # rendering only: no click is answered here


def _step(n: int, *, kind: str | None = "move", chosen: int = 0, width: int = 8) -> Step:
    offers = tuple(Offer(f"v{i:0{width}d}", f"Field number {i} " + "x" * 90, "") for i in range(n))
    said = tuple(Offer(f"c{i:0{width}d}", f"Chosen {i}", "") for i in range(chosen))
    return Step(
        VER,
        "european_war",
        kind,
        "Move" if kind else "",
        said,
        {f"p{i}": o.value for i, o in enumerate(said)},
        tuple(False for _ in said),
        tuple(range(chosen)),
        Param("dst", "space") if kind else None,
        "Where to:",
        offers,
    )


def _ids(components: list[dict[str, Any]]) -> list[str]:
    out = []
    for row in components:
        for c in row["components"]:
            out.append(c["custom_id"])
    return out


@pytest.mark.parametrize("n", [1, 5, MAX_BUTTONS, MAX_BUTTONS + 1, 75, 76, 200])
def test_any_number_of_offers_fits_discord_s_limits(controls: Controls, n: int) -> None:
    step = _step(n, chosen=1)
    seen: set[str] = set()
    pages = 0
    while True:
        components = step_view(controls, GID, step, pages).to_components()
        check_components(components)  # rows, options, ids, labels: as Discord checks them
        assert len(components) <= 5
        ids = _ids(components)
        assert len(ids) == len(set(ids))
        for row in components:
            for c in row["components"]:
                if c["type"] == 3:
                    seen |= {o["value"] for o in c["options"]}
                elif (c.get("label") or "").startswith("Field"):
                    seen.add(c["custom_id"].rsplit(".", 1)[1])
        pages += 1
        if not any(c.get("label") == "Later ▶" for row in components for c in row["components"]):
            break
    assert pages == (1 if n <= MAX_BUTTONS else -(-n // 75))
    assert seen == {codec.token(o.value) for o in step.offers}, "every offer on some page"


def test_a_value_too_long_to_carry_goes_by_its_place(controls: Controls) -> None:
    step = _step(3, chosen=2, width=45)
    ids = _ids(step_view(controls, GID, step).to_components())
    assert all(len(i) <= 100 for i in ids)
    values = [i for i in ids if i.startswith(f"ew:t:{GID}:{VER}:0:move.") and i.count(".") == 3]
    assert len(values) == 3
    kind, chosen = codec.read_path(values[0].split(":", 5)[5])
    assert kind == "move" and any(isinstance(v, Nth) for v in chosen)


def test_back_skips_what_was_taken_without_asking(controls: Controls) -> None:
    base = _step(4, chosen=2)
    forced = Step(**{**_fields(base), "forced": (False, True)})
    ids = _ids(step_view(controls, GID, forced).to_components())
    back = next(i for i in ids if i.endswith(":move"))  # both chosen values dropped
    assert back == f"ew:t:{GID}:{VER}:0:move"
    assert f"ew:t:{GID}:{VER}:0:" in ids, "Cancel goes back to the start"
    first = Step(**{**_fields(base), "chosen": (), "values": {}, "forced": (), "places": ()})
    ids = _ids(step_view(controls, GID, first).to_components())
    assert f"ew:t:{GID}:{VER}:0:" in ids and ids.count(f"ew:t:{GID}:{VER}:0:") == 1


def test_many_kinds_go_in_a_select_and_the_line_says_what_is_asked(controls: Controls) -> None:
    kinds = _step(30, kind=None)
    components = step_view(controls, GID, kinds).to_components()
    check_components(components)
    assert components[0]["components"][0]["type"] == 3
    assert step_line(kinds) == "➤ Where to:"
    move = _step(3, chosen=1)
    assert step_line(move) == "➤ **Move** · Chosen 0 · Where to:"


def _fields(step: Step) -> dict[str, Any]:
    return {name: getattr(step, name) for name in step.__dataclass_fields__}
