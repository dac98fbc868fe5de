"""The game contract, checked the same way for every registered game (and for Claim the
Line, a game that exists only in the tests): thousands of random legal steps, each one
checking that the structured choices, ``is_legal``, ``apply``, chance, the views and
storage agree with each other, as OpenSpiel's random-simulation tests do."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import rules
from rules import contract, pyramids
from rules.contract import Game, State
from rules.events import HIDDEN
from tests.games.claim_line import ClaimGame

MAX_STEPS = 3000


pytestmark = pytest.mark.usefixtures("claim_line")


TABLES = [
    ("european_war", 3, {}),
    ("european_war", 4, {"setup_order": "by_size"}),
    ("world_war_5", 4, {}),
    ("world_war_5", 2, {"pyramid_arcade": True}),
    ("claim_line", 2, {}),
    ("claim_line", 3, {}),
]


def _start(name: str, players: int, options: dict[str, Any], seed: int) -> tuple[Game, State]:
    game = contract.game_named(name)
    state, events = game.new_game([None] * players, seed, game.options_from_dict(options))
    _check_events(state, events)
    return game, state


def _check_events(state: State, events: list[rules.Event]) -> None:
    for e in events:
        assert (e.kind == "chance") == (e.to == HIDDEN), e
        assert e.to in (None, HIDDEN) or 0 <= e.to < state.player_count, e


def _walk(state: State, seat: int, kind: str, rng: random.Random) -> dict[str, Any]:
    """Choose ``kind``'s parameters one by one as a front end would."""
    chosen: dict[str, Any] = {}
    while True:
        values = state.values(seat, kind, chosen)
        if not values:
            return chosen
        game = contract.game_named(state.game_name)
        name = game.action_kinds[kind].params[len(chosen)].name
        chosen[name] = values[rng.randrange(len(values))]


def test_registry_lists_the_built_in_games_and_refuses_unknown_or_doubled_names() -> None:
    assert {"european_war", "world_war_5", "claim_line"} <= set(contract.game_names())
    with pytest.raises(contract.UnknownGame, match="Unknown game 'chess'"):
        contract.game_named("chess")
    with pytest.raises(rules.RulesError, match="already registered"):
        contract.register(ClaimGame())  # another object under a taken name


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_random_games_keep_the_contract(name: str, players: int, options: dict[str, Any]) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        game, state = _start(name, players, options, seed)
        log: list[tuple[int, dict[str, Any], list[Any]]] = []
        for _ in range(MAX_STEPS):
            if state.over:
                break
            deciders = state.deciders()
            assert deciders, "a game that is not over always has someone to decide"
            d = deciders[rng.randrange(len(deciders))]
            legal = state.legal_actions(d.seat)
            assert legal and state.kinds(d.seat) == tuple(dict.fromkeys(a.kind for a in legal))
            for a in legal[:40]:
                assert state.is_legal(d.seat, a)
                assert game.action_from_dict(a.to_dict()) == a
                assert a.kind in game.action_kinds
            outsider = next(
                (s for s in range(state.player_count) if s not in {x.seat for x in deciders}), None
            )
            if outsider is not None:
                before = state.to_dict()
                assert not state.is_legal(outsider, legal[0])
                with pytest.raises(rules.RulesError):
                    state.apply(outsider, legal[0])
                assert state.to_dict() == before, "a refusal changes nothing"
            # the structured choices lead to a legal action, and only to legal ones
            kind = state.kinds(d.seat)[rng.randrange(len(state.kinds(d.seat)))]
            chosen = _walk(state, d.seat, kind, rng)
            action = game.action_from_dict({"kind": kind, **chosen})
            assert action in legal
            assert state.on_timeout(d).action is not None or state.on_timeout(d).computer
            events = state.apply(d.seat, action)
            _check_events(state, events)
            log.append(
                (
                    d.seat,
                    action.to_dict(),
                    [e.data["outcome"] for e in events if e.kind == "chance"],
                )
            )
            assert game.load(state.to_dict()).to_dict() == state.to_dict()
        assert state.over, f"{name} seed {seed} did not end in {MAX_STEPS} steps"
        result = state.result()
        assert result is not None and (result.draw or result.winners)
        with pytest.raises(rules.RulesError):
            state.apply(0, legal[0])
        # a replay from the creation and the log, forcing the recorded chance, agrees
        _, again = _start(name, players, options, seed)
        for seat, action_data, outcomes in log:
            again.force_chance(outcomes)
            again.apply(seat, game.action_from_dict(action_data))
        assert again.to_dict() == state.to_dict()


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_copies_are_independent(name: str, players: int, options: dict[str, Any]) -> None:
    _, state = _start(name, players, options, 5)
    twin = state.copy()
    d = state.deciders()[0]
    state.apply(d.seat, state.legal_actions(d.seat)[0])
    assert twin.to_dict() != state.to_dict()
    assert twin.deciders()[0] == d


def test_an_out_of_turn_window_asks_every_card_holder_at_once() -> None:
    game = contract.game_named("claim_line")
    state, _ = game.new_game([None, None, None], 1, {})
    data = state.to_dict() | {"cards": [1, 6, 4], "current": 0}
    g = game.load(data)
    g.apply(0, game.action_from_dict({"kind": "claim", "cell": "b2"}))
    assert g.deciders() == [contract.Decision(1, "respond"), contract.Decision(2, "respond")]
    assert g.view_for(0).card == 1 and g.view_for(None).card is None
    g.apply(2, game.action_from_dict({"kind": "contest"}))
    out = g.apply(1, game.action_from_dict({"kind": "contest"}))
    assert [e.kind for e in out] == ["contested", "revealed"]
    assert g.view_for(None).grid["b2"] == 1, "the highest card takes the cell (CL-3)"
    assert g.view_for(None).holding == (True, False, False)


def test_forcing_a_shuffle_deals_the_forced_cards_and_leaves_later_chance_alone() -> None:
    plain, _ = pyramids.new_game("european_war", [None, None], 11)
    forced = plain.copy()
    deck = sorted(pyramids.cards.DECK)
    forced.force_chance([deck])
    for state in (plain, forced):
        while state.deciders()[0].kind == "setup":
            seat = state.deciders()[0].seat
            state.apply(seat, state.legal_actions(seat)[0])
    assert sorted(forced.hands[0] + forced.hands[1]) != sorted(plain.hands[0] + plain.hands[1])
    # the last cards of the forced order were dealt: the pile is drawn from its end
    dealt = sorted(forced.hands[0] + forced.hands[1])
    assert dealt == sorted(deck[-len(dealt) :])
    assert forced.rng.state == plain.rng.state, "forcing moves the generator on as usual"
    with pytest.raises(rules.errors.InvalidState, match="not a rearrangement"):
        bad = pyramids.new_game("european_war", [None, None], 11)[0]
        bad.force_chance([[1, 2, 3]])
        while True:
            seat = bad.deciders()[0].seat
            bad.apply(seat, bad.legal_actions(seat)[0])


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_the_presentation_words_every_step_of_a_game(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game, state = _start(name, players, options, 2)
    words = game.presentation
    names = [f"P{s}" for s in range(state.player_count)]
    rng = random.Random(2)
    described = 0
    for _ in range(MAX_STEPS):
        if state.over:
            break
        d = state.deciders()[0]
        view = state.view_for(d.seat)
        assert words.prompt(d.kind, view, names).strip()
        offered = words.offered(d.kind, state.legal_actions(d.seat))
        assert set(state.legal_actions(d.seat)) <= set(offered)
        for a in offered[:10]:
            assert words.action_label(a, view, names).strip()
        for p in game.action_kinds[state.kinds(d.seat)[0]].params[:1]:
            value = state.values(d.seat, state.kinds(d.seat)[0], {})[0]
            assert words.value_label(p, value, view, names).strip()
        assert words.result_line(state.view_for(None), names) is None
        words.status_lines(state.view_for(None), names)
        legal = state.legal_actions(d.seat)
        for e in state.apply(d.seat, legal[rng.randrange(len(legal))]):
            seen_by = None if e.to in (None, HIDDEN) else e.to
            text = words.describe(e, state.view_for(seen_by), names)
            assert (text is None) or text.strip()
            described += text is not None
            if e.kind == "chance":
                assert text is None, "a chance step is never put in words"
    assert described > 10
    assert (words.result_line(state.view_for(None), names) or "").strip()
    assert all(line.strip() for line in words.summary_lines(state.view_for(None), names))
    for side in game.sides(game.options_from_dict(options)):
        assert words.find_side(words.side_name(side)) == side
        assert words.find_side(side) == side
        assert words.computer_name(side).strip() != words.side_name(side)
    assert words.find_side("no such side at all") is None
    sections = words.rulebook()
    assert sections and all(s.title and s.rulings for s in sections)
    for spec in words.options():
        setting: Any = {
            "flag": True,
            "word": spec.choices[-1] if spec.choices else "",
            "number": spec.high,
        }[spec.kind]
        assert game.options_from_dict({spec.name: setting}) is not None, spec


def test_private_lines_show_a_hand_to_its_owner_only() -> None:
    game, state = _start("european_war", 3, {}, 4)
    names = ["A", "B", "C"]
    while state.deciders()[0].kind == "setup":
        d = state.deciders()[0]
        state.apply(d.seat, state.legal_actions(d.seat)[0])
    words = game.presentation
    hand = state.view_for(0).hand
    assert hand
    mine = "\n".join(words.private_lines(state.view_for(0), names))
    assert all(pyramids.cards.card_name(c) in mine for c in hand)
    spectator = "\n".join(words.private_lines(state.view_for(None), names))
    assert not any(pyramids.cards.card_name(c) in spectator for c in hand)


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_the_command_spec_covers_every_decision_and_reads_back_its_values(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game, state = _start(name, players, options, 5)
    words = game.presentation
    commands = words.commands()
    assert commands and len({c.name for c in commands}) == len(commands)
    for command in commands:
        assert command.description.strip() and command.kinds, command
        for option in command.options:
            kinds = [k for k in command.kinds if k in game.action_kinds]
            assert kinds == list(command.kinds), (command.name, "unknown kind")
            filled = [
                p for k in kinds for p in game.action_kinds[k].params if p.name in option.fills
            ]
            assert filled and all(p.kind == option.kind for p in filled), (command, option)
            assert option.required or option.choices or not filled[0].name.startswith("_")
    assert all(
        words.choice_tone(k) in ("primary", "secondary", "danger") for k in game.action_kinds
    )
    by_kind = {k for c in commands for k in c.kinds}
    names = [f"P{s}" for s in range(state.player_count)]
    rng = random.Random(5)
    for _ in range(MAX_STEPS):
        if state.over:
            break
        d = state.deciders()[0]
        view = state.view_for(d.seat)
        if d.kind not in words.panel_decisions():
            assert set(state.kinds(d.seat)) & by_kind, (
                f"no command for a {d.kind} decision of {name}"
            )
        for kind in state.kinds(d.seat):
            for param in game.action_kinds[kind].params[:1]:
                for value in state.values(d.seat, kind, {}):
                    label = words.value_label(param, value, view, names)
                    if param.kind in ("space", "seat", "card"):
                        assert words.value_of(param, str(value), view, names) == value, label
                        assert words.value_of(param, label, view, names) == value, label
        legal = state.legal_actions(d.seat)
        state.apply(d.seat, legal[rng.randrange(len(legal))])
    assert state.over


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_what_the_platform_asks_of_a_game(name: str, players: int, options: dict[str, Any]) -> None:
    """Options as JSON, the timings of every decision, the seating, the turn number, the
    agreed draw and the presentation's two comparisons, over a random game."""
    game = contract.game_named(name)
    opts = game.options_from_dict(options)
    data = game.options_to_dict(opts)
    assert json.loads(json.dumps(data)) == data and game.options_from_dict(data) == opts
    offered = {spec.name: spec for spec in game.presentation.options()}
    for timing in game.timings.values():
        if timing.option is not None:  # a window's length is an option a host may set
            assert offered[timing.option].kind == "number" and isinstance(data[timing.option], int)
        else:
            assert timing.limit == "turn" or timing.seconds is None or timing.seconds > 0
    words = game.presentation
    rng = random.Random(11)
    state, _ = game.new_game([None] * players, 11, opts)
    assert len(state.sides) == players and set(state.sides) <= set(game.sides(opts))
    assert sorted(state.origins) == list(range(players))
    turn = state.turn
    for _ in range(MAX_STEPS):
        if state.over:
            break
        deciders = state.deciders()
        assert {d.kind for d in deciders} <= set(game.timings), "every decision is timed"
        windows = [d for d in deciders if game.timings[d.kind].window]
        assert not windows or len(windows) == len(deciders), "a window is all who decide"
        draw = game.agreed_draw()
        if draw is not None and rng.random() < 0.02:
            twin = state.copy()
            twin.apply(contract.SYSTEM, draw)
            result = twin.result()
            assert twin.over and result is not None and result.draw
        views = [state.view_for(None), *(state.view_for(s) for s in range(players))]
        d = deciders[rng.randrange(len(deciders))]
        legal = state.legal_actions(d.seat)
        state.apply(d.seat, legal[rng.randrange(len(legal))])
        assert state.turn >= turn
        turn = state.turn
        assert not words.board_changed(views[0], views[0], [])
        assert not any(words.hand_changed(v, v) for v in views[1:])
    assert state.over


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_every_decision_is_worded_and_a_contest_is_followed_to_its_end(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """What the channel is told of each decision, and of a contest: while one is under way
    its steps keep it so, and its result ends it."""
    game, state = _start(name, players, options, 7)
    words = game.presentation
    contest = words.contest()
    names = [f"P{s}" for s in range(state.player_count)]
    rng = random.Random(7)
    steps = ended = 0
    for _ in range(MAX_STEPS):
        if state.over:
            break
        deciders = state.deciders()
        for d in deciders:
            spoken = words.decisions().get(d.kind)
            assert spoken is not None and spoken.name.strip(), f"no words for {d.kind}"
            if spoken.waiting:
                assert spoken.line([names[d.seat]], "soon", False).strip()
        d = deciders[rng.randrange(len(deciders))]
        before = contest is not None and contest.under_way(state.view_for(None))
        legal = state.legal_actions(d.seat)
        public = [e for e in state.apply(d.seat, legal[rng.randrange(len(legal))]) if e.to is None]
        if contest is None:
            continue
        spectator = state.view_for(None)
        under_way = contest.under_way(spectator)
        if under_way:
            assert all(line.strip() for line in contest.lines(spectator, names))
        if before and contest.step(public):
            steps += 1
            assert under_way, public
        if contest.result(public) is not None:
            ended += 1
            assert before and not under_way and not contest.step(public), public
    assert state.over
    if contest is not None and name == "european_war":
        assert steps and ended, "a game of European War has duels"
