"""service/choices.py on a real SQLite file: the kinds a player may take now, each
option's legal values with their words, and acting from a turn command's typed options
(values read by the game's words, left-out options filled only when one action fits,
refusals specific and changing nothing)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules import pyramids
from rules.pyramids.cards import ACE, QUEEN, rank
from service import GameService, command_union
from service.scheduler import FakeClock
from tests.bot.helpers import make_service, new_game, play_until

T0 = 1_700_000_000.0


@pytest.fixture
async def svc(tmp_path: Path):
    service = await make_service(tmp_path / "games.db", FakeClock(T0))
    yield service
    await service.close()


def test_the_commands_of_both_pyramid_games_merge_by_name() -> None:
    union = {c.name: c for c in command_union(["european_war", "world_war_5"])}
    assert list(union) == [
        "place", "conscript", "move", "invade", "arm", "pass", "sabotage", "spy", "grow", "build"
    ]  # fmt: skip
    assert union["move"].games == ("european_war", "world_war_5")
    assert union["grow"].games == ("world_war_5",)
    move = {o.option.name: o for o in union["move"].options}
    assert move["from"].required and move["to"].required
    sabotage = {o.option.name: o for o in union["sabotage"].options}
    assert sabotage["target"].required and not sabotage["card"].required
    assert [c.word for c in sabotage["card"].option.choices] == ["figure", "ace"]
    # the first game's words describe a shared command
    assert union["move"].description.endswith("(EW-11)")


async def _at_turn(svc: GameService) -> tuple[int, int, pyramids.GameState]:
    gid, _ = await new_game(svc, humans=3)
    await play_until(svc, gid, random.Random(3), "turn")
    state = svc._games[gid].state
    assert isinstance(state, pyramids.GameState)
    st = await svc.status(gid)
    user = next(d.user_id for d in st.decisions if d.kind == "turn")
    assert user is not None
    return gid, user, state


async def _other(svc: GameService, gid: int, user: int) -> int:
    st = await svc.status(gid)
    return next(s.user_id for s in st.seats if s.user_id not in (None, user))


async def test_values_and_offers_are_the_legal_ones_with_their_words(svc: GameService) -> None:
    gid, user, state = await _at_turn(svc)
    legal = state.legal_actions(state.current)
    assert set(await svc.kinds_now(gid, user)) == {a.kind for a in legal}
    other = await _other(svc, gid, user)
    assert await svc.kinds_now(gid, other) == ()
    assert await svc.offers(gid, other, "move", "from", {}) == ()
    moves = [a for a in legal if isinstance(a, pyramids.Move)]
    got = await svc.offers(gid, user, "move", "from", {})
    assert {o.value for o in got} == {a.src for a in moves}
    assert all(o.label == state.board.fields[str(o.value)].name for o in got)
    src = moves[0].src
    # the option before, typed by name, narrows the one after
    got = await svc.offers(gid, user, "move", "to", {"from": state.board.fields[src].name})
    assert {o.value for o in got} == {a.dst for a in moves if a.src == src}
    by_param = await svc.values_now(gid, user, "move", "dst", {"src": src})
    assert {o.value for o in by_param} == {o.value for o in got}
    # an option left out before the one asked about may be anything legal
    got = await svc.offers(gid, user, "move", "to", {})
    assert {o.value for o in got} == {a.dst for a in moves}
    spies = await svc.offers(gid, user, "spy", "player", {})
    assert {o.value for o in spies} == {a.target for a in legal if isinstance(a, pyramids.Spy)}
    assert all(o.word == str(o.value) and "(" in o.label for o in spies)


async def test_a_command_acts_or_refuses_specifically(svc: GameService) -> None:
    gid, user, state = await _at_turn(svc)
    version = (await svc.status(gid)).version
    cases = [
        ("grow", {"field": "Spain"}, "not in this variant"),
        ("move", {"from": "Narnia", "to": "Spain"}, "no field called 'Narnia'"),
        ("move", {"from": "Spain", "speed": "fast"}, "has no option `speed`"),
        ("spy", {"player": "nobody"}, "no player called 'nobody'"),
        ("sabotage", {"target": "Spain", "card": "joker"}, "`card` is one of: figure, ace"),
        ("place", {"large": "Spain"}, "no piece to place"),
    ]
    for command, typed, reason in cases:
        out = await svc.command(gid, user, command, typed)
        assert not out.ok and reason in (out.error or ""), (command, out.error)
    not_mine = await svc.command(gid, await _other(svc, gid, user), "arm", {})
    assert not not_mine.ok and "not your turn" in (not_mine.error or "").lower()
    # an illegal move between real fields: the game's own words, naming its rule
    board = state.board
    src = next(f for f, (seat, _) in state.pieces.items() if seat == state.current)
    far = next(f for f in board.field_order if f not in board.adjacency[src] and f != src)
    out = await svc.command(
        gid, user, "move", {"from": board.fields[src].name, "to": board.fields[far].name}
    )
    assert not out.ok and "EW-" in (out.error or "")
    assert (await svc.status(gid)).version == version, "no refusal changed anything"
    # a legal one acts, with the values typed by name
    move = next(a for a in state.legal_actions(state.current) if isinstance(a, pyramids.Move))
    out = await svc.command(
        gid, user, "move", {"from": board.fields[move.src].name, "to": move.dst}
    )
    assert out.ok and (await svc.status(gid)).version == version + 1


async def test_left_out_options_are_filled_only_when_one_action_fits(svc: GameService) -> None:
    gid, out = await new_game(svc, humans=3)
    prompt = next(p for p in out.prompts if p.user_id == 101)
    assert prompt.kind == "setup"
    whole = [a for a in prompt.choices if isinstance(a, pyramids.PlaceAll)]
    state = svc._games[gid].state
    assert (
        isinstance(state, pyramids.GameState) and len(whole) == 6
    )  # three home fields, every arrangement
    name = state.board.fields
    vague = await svc.command(gid, 101, "place", {"large": name[whole[0].large].name})
    assert not vague.ok and "Say `medium`, `small` as well" in (vague.error or "")
    offers = await svc.offers(gid, 101, "place", "medium", {"large": whole[0].large})
    assert {o.value for o in offers} == {a.medium for a in whole if a.large == whole[0].large}
    done = await svc.command(
        gid, 101, "place", {"large": whole[0].large, "medium": whole[0].medium}
    )
    assert done.ok, done.error
    assert any(whole[0].large in str(e.data) for e in done.events)


async def test_a_fixed_choice_left_out_takes_the_first_that_works(svc: GameService) -> None:
    gid, user, state = await _at_turn(svc)
    seat = state.current
    # give the mover (in the cached copy) an ace and no queen: /spy without `card`
    # spends the ace, as the figure itself is not at hand
    hand = state.hands[seat]
    keep = [c for c in hand if rank(c) not in (QUEEN, ACE)]
    ace = next(c for c in range(52) if rank(c) == ACE and c not in hand)
    state.hands[seat] = [*keep, ace]
    target = next(s for s in range(3) if s != seat)
    out = await svc.command(gid, user, "spy", {"player": str(target)})
    assert out.ok, out.error
    after = svc._games[gid].state
    assert (
        isinstance(after, pyramids.GameState)
        and ace not in after.hands[seat]
        and after.hands[seat] == keep
    )


async def test_one_piece_at_a_time_takes_any_one_size_option(svc: GameService) -> None:
    gid, out = await new_game(svc, humans=3, options={"setup_order": "by_size"})
    prompt = out.prompts[0]
    assert prompt.user_id is not None and prompt.kind == "setup"
    fields = [a.field for a in prompt.choices if isinstance(a, pyramids.PlacePiece)]
    assert len(fields) == 3
    vague = await svc.command(gid, prompt.user_id, "place", {})
    assert not vague.ok
    assert "Say one of `large`, `medium`, `small`" in (vague.error or "")
    two = await svc.command(gid, prompt.user_id, "place", {"large": fields[0], "small": fields[1]})
    assert not two.ok and "Give only one of `large`, `small` now" in (two.error or "")
    done = await svc.command(gid, prompt.user_id, "place", {"medium": fields[2]})
    assert done.ok, done.error
