"""Europe at War's words: every event, action and decision worded, and public lines that
never tell what a player keeps hidden."""

from __future__ import annotations

import re
from collections.abc import Sequence
from importlib import resources
from typing import Any

import pytest

from rules.europe_at_war import describe as D
from rules.europe_at_war.actions import (
    ACTION_TYPES,
    BattleCard,
    Casualty,
    Done,
    Drop,
    LostOrders,
    Move,
    Pass,
    Retreat,
    Submit,
)
from rules.europe_at_war.data import deck, unit_sets
from rules.europe_at_war.game import TIMINGS
from rules.europe_at_war.options import Options
from rules.europe_at_war.state import EaState
from rules.europe_at_war.view import view_for
from rules.europe_at_war.words import DECISIONS, PANELS, EaWords
from rules.events import HIDDEN, Event
from tests.ai.test_europe_at_war import bot_policy
from tests.rules.europe_at_war.playout import PRIVATE, play
from tests.rules.europe_at_war.scenario import (
    add,
    battle_phase,
    give,
    keep,
    new_turn,
    ref,
    run,
    table,
    through_windows,
)

WORDS = EaWords()
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]


def _source_kinds() -> set[str]:
    """Every event kind the engine's source makes."""
    kinds: set[str] = set()
    package = resources.files("rules.europe_at_war")
    for entry in package.iterdir():
        if entry.name.endswith(".py"):
            kinds |= set(re.findall(r'Event\(\s*"(\w+)"', entry.read_text("utf-8")))
    return kinds


def test_every_event_kind_the_engine_makes_has_a_sentence() -> None:
    assert _source_kinds() == D.WORDED


SAMPLES: list[Event] = [
    Event("started", {"nations": ["france", "austria"], "origins": [1, 0]}),
    Event("setup_draw", {"chits": [3, 9], "names": ["General", "Hussars"]}, to=0),
    Event("placed", {"seat": 0, "at": "lyon"}),
    Event("setup_done", {}),
    Event("turn", {"seat": 1, "round": 3}),
    Event("drew", {"seat": 0, "count": 5, "why": "draw phase"}),
    Event("cards_received", {"seat": 0, "cards": ["forage", "canals"]}, to=0),
    Event("reshuffled", {"count": 40}),
    Event("discarded", {"seat": 0, "cards": ["forage"]}),
    Event("window", {"window": "w1", "seats": [1, 2]}),
    Event("window_answered", {"seat": 1, "window": "w1"}),
    Event("submitted", {"card": "river_crossing"}, to=1),
    Event("lost_orders", {"seat": 0, "target": "river_crossing"}),
    Event("w1_resolved", {"cancelled": ["canals"], "bans": [1], "frozen": True}),
    Event("order", {"seat": 0, "number": 2, "status": "skipped"}),
    Event("interdiction", {"seat": 1, "shape": "land", "path": ["linz", "bavaria"]}),
    Event("sealed_revealed", {"plays": [{"seat": 0, "card": "high_ground"}]}),
    Event("casualty", {"seat": 0, "unit": "General", "aside": True}),
    Event("captured", {"seat": 0, "unit": "Frigates"}),
    Event("no_retreat", {"seat": 1, "at": "ireland"}),
    Event("retreated", {"seat": 1, "from": "bavaria", "to": "linz"}),
    Event("revenue", {"seat": 0, "amount": 36}),
    Event("chits_drawn", {"seat": 0, "count": 5}),
    Event("recruits", {"chits": [12], "names": ["Hussars"]}, to=0),
    Event("recruited", {"seat": 0, "at": "paris", "cost": 3}),
    Event("rolled", {"seat": 0, "dice": "2d6", "faces": [6, 5], "why": "Depots"}),
    Event("card_played", {"seat": 0, "card": "dysentery", "target": 1, "at": "vienna"}),
    Event("revenue_gained", {"seat": 0, "amount": 11}),
    Event("rp_lost", {"seat": 1, "amount": 4, "thief": 0}),
    Event("loss_paid", {"seat": 1, "at": "vienna", "amount": 3}),
    Event("gifts", {"chits": [12], "names": ["Hussars"]}, to=0),
    Event("hand_seen", {"seat": 1, "cards": ["forage"]}, to=0),
    Event("units_lost", {"seat": 1, "at": "vienna", "count": 2}),
    Event("units_lost_named", {"seat": 1, "at": "vienna", "units": ["Reserves"]}, to=1),
    Event("disbanded", {"seat": 0, "at": "brest"}),
    Event("disbanded_named", {"seat": 0, "at": "brest", "unit": "Reserves"}, to=0),
    Event("upkeep_paid", {"seat": 0, "amount": 30}),
    Event("deposited", {"seat": 0, "at": "paris", "amount": 6}),
    Event("savings_lost", {"seat": 0, "amount": 5}),
    Event("control", {"seat": 0, "taken": []}),
    Event("eliminated", {"seat": 1}),
    Event("game_over", {"winners": [0, 1], "reason": "territories"}),
    Event("timed_out", {"seat": 1, "decision": "w1"}),
    Event("top", {"seat": 0, "at": "lyon", "unit": "Hussars"}),
    Event(
        "reaction",
        {
            "seat": 1,
            "card": "avoid_battle",
            "order": 0,
            "at": "linz",
            "dest": "graz",
            "group": "",
            "via": "",
            "status": "done",
        },
    ),
]


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: e.kind)
def test_each_event_reads_as_a_sentence(event: Event) -> None:
    g = table("france", "austria")
    text = WORDS.describe(event, view_for(g, event.to), NAMES)
    assert text and text[0].isupper() and text.endswith(".")
    assert "{" not in text and "None" not in text and "_" not in text


def test_the_sentences_of_a_battle_from_start_to_retreat() -> None:
    g = table("france", "britain")
    keep(g, 0, 1)
    add(g, 1, "Line Battalion", "lancashire", 8)
    new_turn(g)
    general = add(g, 0, "General", "lancashire")[0]
    add(g, 0, "Old Guard", "lancashire", 4)
    give(g, 0, "high_ground")
    give(g, 1, "lost_orders")
    events = battle_phase(g)
    events += run(g, (0, BattleCard("high_ground")), (1, LostOrders("high_ground")))
    events += run(g, (0, Pass()), (1, Pass()))
    events += run(g, (1, Casualty(ref(general))))
    events += run(g, (0, Retreat("midlands")))
    lines = [WORDS.describe(e, view_for(g, None), NAMES) for e in events if e.public]
    lancashire, midlands = g.map.name("lancashire"), g.map.name("midlands")
    assert lines[:5] == [
        f"Battle in {lancashire}: Ann (General, 4 Old Guard) attacks Bob (8 Line Battalion).",
        "Ann plays High Ground.",
        "Bob plays Lost Orders on High Ground.",
        "Ann passes.",
        "Bob passes.",
    ]
    # 10 + 28 + 5 = 43 against 8 x (4 + 2) = 48
    assert lines[5] == "Bob wins the battle, 48 to 43: Ann loses 1 unit, Bob 0 units."
    assert "Ann loses General (set aside for the rest of the game)." in lines
    assert f"Ann falls back from {lancashire} to {midlands}." in lines


def test_a_plan_is_told_with_its_drops_counted_and_its_moves_where_they_went() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = ref(add(g, 0, "General", "lyon")[0])
    h1, h2 = add(g, 0, "Hussars", "lyon", 2)
    run(g, (0, Move(general, "bavaria", "strasbourg>swabia>bavaria", "free")))
    run(g, (0, Drop(ref(h1), "swabia")), (0, Drop(ref(h2), "swabia")))
    events = through_windows(g)
    lines = [WORDS.describe(e, view_for(g, None), NAMES) for e in events if e.public]
    path = " > ".join(g.map.name(s) for s in ("lyon", "strasbourg", "swabia", "bavaria"))
    swabia = g.map.name("swabia")
    assert f"Ann's plan: 1. {path} (free move), dropping 2 in {swabia}." in lines
    assert f"Order 1: Ann moves {path}." in lines


def test_every_action_kind_has_a_label_and_own_units_go_by_name() -> None:
    g = table("france", "austria")
    keep(g, 1)
    general = add(g, 0, "General", "lyon")[0]
    view = view_for(g, 0)
    label = WORDS.action_label(Move(ref(general), "turin", "turin", "canals"), view, NAMES)
    assert label == f"General ({ref(general)}) to {g.map.name('turin')} (Canals)"
    assert WORDS.action_label(Submit(), view, NAMES) == "show the plan"
    assert {cls.kind for cls in ACTION_TYPES.values()} <= set(_labelled())


def test_finishing_a_window_is_labelled_pass_and_other_steps_done() -> None:
    """In W1 and W2 the one way to play no card reads "pass" on the panel; finishing
    another step (discards, recruiting) stays "done"."""
    g = table("france", "austria")
    keep(g, 1)
    add(g, 0, "General", "lyon")
    new_turn(g)
    g.step = "plan"
    assert WORDS.action_label(Done(), view_for(g, 1), NAMES) == "done"
    g.apply(0, Submit())
    assert g.step == "window" and g.deciders(), g.step
    d = g.deciders()[0]
    assert d.kind == "w1" and Done() in g.legal_actions(d.seat)
    assert WORDS.action_label(Done(), view_for(g, d.seat), NAMES) == "pass"


def _labelled() -> set[str]:
    """The action kinds the labels were seen on in a few playouts' choices."""
    seen: set[str] = set()

    def watch(prior: EaState, g: EaState, events: list[Event]) -> None:
        for d in prior.deciders():
            for a in prior.legal_actions(d.seat):
                label = WORDS.action_label(a, view_for(prior, d.seat), NAMES)
                assert label and "{" not in label and "None" not in label, a
                seen.add(a.kind)

    for players, options in ((3, {}), (3, {"sealed_battle_cards": True})):
        play(players, 5, Options.from_dict(options), rounds=2, sample=0, views_every=0, watch=watch)
    seen |= {
        "timeout",
        "capture",
        "destroy",
        "lost_orders",
        "avoid",
        "interdict",
        "negate",
        "react",
        "fight",
        "casualty",
        "retreat",
        "battle_card",
        "pay_loss",
        "compel",
    }
    return seen


def test_every_decision_has_words_a_prompt_and_its_panel() -> None:
    g = table("france", "austria")
    view = view_for(g, 0)
    assert set(DECISIONS) == set(TIMINGS) and set(PANELS) <= set(DECISIONS)
    for kind in TIMINGS:
        prompt = WORDS.prompt(kind, view, NAMES)
        assert prompt.endswith(".") and prompt != "Your decision.", kind
        line = DECISIONS[kind].line(["Ann", "Bob"], "in 5 minutes")
        assert "Ann" in line or not DECISIONS[kind].waiting, kind


def test_the_result_says_who_won_and_why() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    g.control["geneva"] = 0
    from rules.europe_at_war import flow

    flow.finish_by_count(g, [])
    assert WORDS.result_line(view_for(g, None), NAMES) == "Ann wins (most territories)."


def test_private_lines_are_the_viewer_s_and_a_spectator_has_none() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    give(g, 0, "forage")
    give(g, 1, "canals")
    assert WORDS.private_lines(view_for(g, 0), NAMES) == ["Your hand (1): own turn: Forage"]
    assert WORDS.private_lines(view_for(g, None), NAMES) == []
    give(g, 0, "bayonet_charge")
    hand = WORDS.private_lines(view_for(g, 0), NAMES)[0]
    # grouped by when the cards are played, battle cards first
    assert hand == "Your hand (2): battle: Bayonet Charge; own turn: Forage"
    assert not any("Canals" in line for line in WORDS.summary_lines(view_for(g, None), NAMES))


# ---------------------------------------------------------------------------- no leaks
CARD_NAMES = {c.name for c in deck().values()}
UNIT_NAMES = {k.name for kinds in unit_sets().values() for k in kinds}


def _words(names: set[str]) -> re.Pattern[str]:
    return re.compile(r"\b(" + "|".join(re.escape(n) for n in sorted(names)) + r")\b")


def _secrets(g: EaState) -> tuple[set[str], set[str], set[str]]:
    """(cards in any hand, names of units in the hidden part of stacks, names shown)."""
    held = {D.card_name(c) for h in g.hands for c in h}
    from rules.europe_at_war.view import top_unit

    shown = {g.battle.at} if g.battle else set()
    tops: set[str] = set()
    hidden: set[str] = set()
    for space in g.occupied():
        for seat in g.seats_at(space):
            units = g.stack(space, seat)
            top = top_unit(g, space, seat)
            tops.add(g.kind(top).name)
            if space in shown:
                tops |= {g.kind(u).name for u in units}
            else:
                hidden |= {g.kind(u).name for u in units if u != top}
    return held, hidden, tops


def _public_lines(g: EaState, events: Sequence[Event]) -> list[str]:
    spectator = view_for(g, None)
    lines = [WORDS.describe(e, spectator, NAMES) or "" for e in events if e.public]
    lines += WORDS.status_lines(spectator, NAMES) + WORDS.summary_lines(spectator, NAMES)
    lines.append(WORDS.result_line(spectator, NAMES) or "")
    for d in spectator.deciders:
        lines.append(DECISIONS[d.kind].line([NAMES[d.seat]], None))
    return lines


def _check_public(prior: EaState, g: EaState, events: list[Event]) -> None:
    """No public line of this step names a card of a hand or a unit of a hidden stack
    (nor one only a battle under way showed)."""
    battle_units: set[str] = set()
    for e in events:
        assert e.to is not None or e.kind not in PRIVATE
        if e.kind == "battle":
            battle_units |= {n for names in e.data["stacks"].values() for n in names}
    _, hidden_before, shown_before = _secrets(prior)
    cards, hidden_after, shown_after = _secrets(g)
    cards -= UNIT_NAMES  # a card named as a unit ("Reserves") may be said of the unit
    if g.step != "plan":  # the plan is shown naming its cards (EA-15)
        cards -= {D.card_name(c) for o in g.plan for c in o.cards}
    units = (hidden_before | hidden_after) - battle_units - shown_before - shown_after
    if prior.battle is not None:
        units -= {
            prior.kind(u).name
            for s in prior.seats_at(prior.battle.at)
            for u in prior.stack(prior.battle.at, s)
        }
    text = "\n".join(_public_lines(g, events))
    if cards:
        found = _words(cards & CARD_NAMES).findall(text)
        assert not found, (found, text)
    if units:
        # a shown unit's name may hold a hidden one's ("Mounted Chasseurs", "Chasseurs")
        for name in sorted(shown_before | shown_after, key=len, reverse=True):
            text = text.replace(name, "")
        found = _words(units & UNIT_NAMES).findall(text)
        assert not found, (found, text)


@pytest.mark.parametrize(
    ("players", "options", "bots"),
    [(3, {}, False), (5, {}, True), (3, {"sealed_battle_cards": True}, False)],
)
def test_the_channel_never_names_a_card_in_a_hand_or_a_hidden_unit(
    players: int, options: dict[str, Any], bots: bool
) -> None:
    kwargs: dict[str, Any] = {"policy": bot_policy} if bots else {}
    play(
        players,
        9,
        Options.from_dict(options),
        rounds=3,
        sample=0,
        views_every=0,
        watch=_check_public,
        **kwargs,
    )
    assert HIDDEN < 0


def test_a_prompt_names_what_time_running_out_would_pick() -> None:
    """Casualties, retreats, placements, upkeep and deposits: the decider's question
    names the engine's suggestion (what a timeout takes); passing and finishing do not."""
    import random

    from rules.europe_at_war.game import EaGame
    from rules.europe_at_war.suggest import default_action
    from rules.europe_at_war.view import SUGGESTED

    seen: set[str] = set()
    for seed in range(1, 3):
        g, _ = EaGame().new_game([None] * 3, seed, Options(compact_map=True))
        rng = random.Random(seed)
        for _ in range(1500):
            if g.over:
                break
            d = g.deciders()[0]
            view = view_for(g, d.seat)
            text = WORDS.prompt(d.kind, view, NAMES)
            if d.kind in SUGGESTED:
                want = default_action(g, d.seat, d.kind)
                assert view.suggested == want
                assert text.endswith(f" Suggested: {WORDS.action_label(want, view, NAMES)}.")
                seen.add(d.kind)
            else:
                assert "Suggested:" not in text, text
            assert view_for(g, None).suggested is None
            g.apply(d.seat, bot_policy(g, d.seat, d.kind, list(g.legal_actions(d.seat)), rng))
        if {"casualties", "retreat"} <= seen:
            break
    assert {"setup", "casualties", "upkeep", "deposit"} <= seen, seen


def test_an_events_sentence_stays_what_it_was_as_the_game_goes_on() -> None:
    """An event keeps what it told: its data shares no list with the game's state, so a
    sentence made again later (a replay, a cached turn) is the one made at the time."""
    told: list[tuple[Event, str | None]] = []

    def watch(prior: EaState, g: EaState, events: list[Event]) -> None:
        for e in events:
            told.append((e, WORDS.describe(e, view_for(g, e.to), NAMES)))

    play(4, 5, Options(), policy=bot_policy, rounds=3, sample=0, views_every=0, watch=watch)
    kinds = {e.kind for e, _ in told}
    assert {"recruits", "cards_received", "plan", "control"} <= kinds
    for e, sentence in told:
        assert WORDS.describe(e, view_for(table("france", "austria"), e.to), NAMES) == sentence
