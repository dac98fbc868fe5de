"""service/steps.py on a real SQLite file: an action built step by step as a panel offers
it (the kinds in the game's order, each parameter's legal values given the ones before,
a value with one legal choice taken without asking, the whole action in words at the
end), and every way a panel goes out of date refused with a reason."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules import contract, pyramids
from service import GameService, Nth, ServiceError, StalePrompt, kind_offers
from service.scheduler import FakeClock
from tests.bot.helpers import make_service, new_game, play_until

T0 = 1_700_000_000.0


@pytest.fixture
async def svc(tmp_path: Path):
    service = await make_service(tmp_path / "games.db", FakeClock(T0))
    yield service
    await service.close()


async def _at_turn(svc: GameService, seed: int = 3) -> tuple[int, int, int, pyramids.GameState]:
    gid, _ = await new_game(svc, humans=3)
    await play_until(svc, gid, random.Random(seed), "turn")
    state = svc._games[gid].state
    assert isinstance(state, pyramids.GameState)
    st = await svc.status(gid)
    user = next(d.user_id for d in st.decisions if d.kind == "turn")
    assert user is not None
    return gid, user, st.version, state


async def test_the_first_step_offers_the_kinds_in_the_game_s_order(svc: GameService) -> None:
    gid, user, version, state = await _at_turn(svc)
    step = await svc.step_now(gid, user, version)
    legal = state.legal_actions(state.current)
    kinds = [str(o.value) for o in step.offers]
    assert set(kinds) == {a.kind for a in legal}
    game = contract.game_named(state.game_name)
    order = list(game.action_kinds)
    assert kinds == sorted(kinds, key=order.index), "figures first, then the actions"
    labels = {o.value: o.label for o in step.offers}
    assert labels["arm"] == "Arm (draw two cards)" and labels["pass"] == "Pass"
    assert labels["move"] == "Move" and labels.get("attack", "Invade") == "Invade"
    assert step.kind is None and not step.complete
    # the same offers from a prompt's choices, as a DM's panel makes them
    prompt = (await svc.view(gid, user)).prompt
    assert prompt is not None
    assert kind_offers(game, prompt.choices, prompt.labels) == step.offers


async def test_each_parameter_offers_what_is_legal_given_the_ones_before(
    svc: GameService,
) -> None:
    gid, user, version, state = await _at_turn(svc)
    moves = [a for a in state.legal_actions(state.current) if isinstance(a, pyramids.Move)]
    step = await svc.step_now(gid, user, version, "move", fill=False)
    assert step.param is not None and step.param.name == "src"
    assert step.question == "The field your piece stands on:"
    assert {o.value for o in step.offers} == {m.src for m in moves}
    src = next(m.src for m in moves)
    step = await svc.step_now(gid, user, version, "move", [src], fill=False)
    assert step.param is not None and step.param.name == "dst"
    assert {o.value for o in step.offers} == {m.dst for m in moves if m.src == src}
    assert step.chosen[0].label == state.board.fields[src].name
    dst = step.offers[0].value
    done = await svc.step_now(gid, user, version, "move", [src, dst])
    assert done.complete and done.values == {"src": src, "dst": dst}
    names = state.board.fields
    assert done.label == f"Move {names[src].name} → {names[str(dst)].name}"
    # by place among the offers: the same action
    by_place = await svc.step_now(gid, user, version, "move", [src, Nth(0)])
    assert by_place.values == done.values and by_place.places[1] == 0


async def test_a_value_with_one_legal_choice_is_taken_without_asking(svc: GameService) -> None:
    for seed in range(3, 40):
        gid, user, version, state = await _at_turn(svc, seed)
        spies = [a for a in state.legal_actions(state.current) if isinstance(a, pyramids.Spy)]
        aces = {a.ace for a in spies}
        if spies and len(aces) == 1:
            break
    else:
        pytest.skip("no turn with a spy and one card for it")
    target = spies[0].target
    step = await svc.step_now(gid, user, version, "spy", [target])
    assert step.complete and step.forced == (False, True)
    assert step.values == {"target": target, "ace": aces.pop()}
    assert step.label.startswith("Spy on ")


async def test_out_of_date_panels_are_refused_with_a_reason(svc: GameService) -> None:
    gid, user, version, _ = await _at_turn(svc)
    st = await svc.status(gid)
    other = next(s.user_id for s in st.seats if s.user_id not in (None, user))
    assert other is not None
    with pytest.raises(ServiceError, match="nothing to decide"):
        await svc.step_now(gid, other, version)
    with pytest.raises(ServiceError, match="not playing"):
        await svc.step_now(gid, 424242, version)
    # a value or kind not legal at the prompt's own version: the game's reason, or
    # (no action of the game's) a general one; not "out of date"
    for kind, chosen, reason in (
        ("move", ["narnia"], "Unknown field 'narnia'"),
        ("grow", [], "That choice is not valid in this game."),
    ):
        with pytest.raises(ServiceError) as refused:
            await svc.step_now(gid, user, version, kind, chosen)
        assert not isinstance(refused.value, StalePrompt)
        assert str(refused.value) == reason
    with pytest.raises(StalePrompt):
        await svc.step_now(gid, user, version, "move", [Nth(99)])
    # the player acts: a panel made before is out of date, even where it is still legal
    arm = await svc.act_with(gid, user, "arm", {}, version=version)
    assert arm.ok
    await play_until(svc, gid, random.Random(5), "turn")
    with pytest.raises(ServiceError):
        await svc.step_now(gid, user, version, "move")
