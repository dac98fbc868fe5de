"""Merging a game's waiting DMs (:mod:`bot.dm_parts`): what is kept, what is superseded."""

from __future__ import annotations

from bot import dm_parts
from bot.dm_parts import make_part, merge

BUTTONS = [{"type": 1, "components": [{"type": 2, "custom_id": "x"}]}]
NEWER_BUTTONS = [{"type": 1, "components": [{"type": 2, "custom_id": "y"}]}]


def test_lines_are_kept_in_order_and_the_newest_hand_wins() -> None:
    old = make_part("L", ["You received 7♥."], hand=[1, 2], hand_text=["old"], draw=True)
    new = make_part("L", ["You received A♦."], hand=[1, 2, 3], hand_text=["new"], draw=False)
    joined = merge(old, None, new, None)
    assert joined is not None
    part, components = joined
    assert part["lines"] == ["You received 7♥.", "You received A♦."]
    assert part["hand"] == [1, 2, 3] and part["hand_text"] == ["new"]
    assert part["draw"]  # the hand changed in one of them: its image is drawn once
    assert components is None


def test_a_newer_panel_for_the_same_decision_replaces_the_older() -> None:
    old = make_part("L", [], prompt="duel v1", kind="duel", open_kinds=["duel"])
    new = make_part("L", [], prompt="duel v2", kind="duel", open_kinds=["duel"])
    joined = merge(old, BUTTONS, new, NEWER_BUTTONS)
    assert joined is not None
    part, components = joined
    assert part["prompt"] == "duel v2" and components == NEWER_BUTTONS
    assert "duel v1" not in dm_parts.content(part)


def test_an_open_question_survives_a_dm_without_one_and_a_closed_one_does_not() -> None:
    old = make_part("L", [], prompt="**Your turn**", kind="turn", open_kinds=["turn"])
    still = make_part("L", ["You received J♥."], open_kinds=["turn"])
    joined = merge(old, None, still, None)
    assert joined is not None and joined[0]["prompt"] == "**Your turn**"
    answered = make_part("L", ["You received J♥."], open_kinds=[])
    joined = merge(old, BUTTONS, answered, None)
    assert joined is not None
    assert joined[0]["prompt"] is None and joined[1] is None


def test_an_open_panel_and_another_question_stay_two_dms() -> None:
    old = make_part("L", [], prompt="retreat", kind="retreat", open_kinds=["retreat", "turn"])
    new = make_part("L", [], prompt="turn", kind="turn", open_kinds=["retreat", "turn"])
    assert merge(old, BUTTONS, new, None) is None


def test_too_long_is_not_merged_unless_summarised_and_then_fits() -> None:
    long = "x" * 990
    old = make_part("L", [long, long], hand=[1], hand_text=["hand"], show_hand=True)
    new = make_part("L", ["You received A♦."], hand=[1, 2], hand_text=["hand2"], show_hand=True)
    assert merge(old, None, new, None) is None  # no line is ever dropped silently
    joined = merge(old, None, new, None, summarise=True)
    assert joined is not None
    part = joined[0]
    text = dm_parts.content(part)
    assert len(text) <= dm_parts.MAX_CONTENT
    assert part["skipped"] == 1 and "1 earlier note left out" in text
    assert part["lines"][-1] == "You received A♦." and "hand2" in text
