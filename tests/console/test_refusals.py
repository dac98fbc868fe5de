"""Refusals name the first real reason and list only legal options: lines typed at the
console, read by the game's reader and refused by the reader or the engine, for a table
of positions and illegal inputs. Nothing refused changes the game."""

from __future__ import annotations

import json

import pytest

from console.parse import Context, ParseError, parse
from rules import RulesError, contract, pyramids
from rules.pyramids.state import DUEL, GameState
from tests.rules.positions import BRIT, CENT, FRAN, cards, position

NAMES = ["Ann", "Bob", "Cy"]
S, M, L = 1, 2, 3


def europe(cy: str = "3H") -> GameState:
    """Ann (France, to play) also holds Germany; Bob (Central Powers) holds Austria,
    Hungary, West Russia and Middle East; Cy (Britain) is at home. Ann holds a 5 and a J
    (no enemy stands on her home fields: nothing to sabotage), Cy the card ``cy``."""
    return position(
        [FRAN, CENT, BRIT],
        {
            "france_benelux": (0, L),
            "italy": (0, M),
            "north_africa": (0, S),
            "germany": (0, M),
            "austria": (1, M),
            "hungary": (1, S),
            "west_russia": (1, L),
            "middle_east": (1, S),
            "britain": (2, L),
            "south_scandinavia": (2, M),
            "spain": (2, S),
        },
        hands=[cards("5C", "JD"), cards("KH", "2S"), cards(cy)],
    )


def duel() -> GameState:
    """Ann's Italy attacks Bob's Austria; Ann is to play her first card."""
    g = europe()
    g.apply(0, pyramids.Attack("italy", "austria"))
    g.apply(2, pyramids.LetPass())
    assert g.phase == DUEL
    return g


def americas() -> GameState:
    """World War 5: Ann (North America, to play) against Bob (Europe)."""
    return position(
        ["north_america", "europe"],
        {
            "alaska": (0, S),
            "canada": (0, M),
            "usa": (0, L),
            "scandinavia": (1, S),
            "western_europe": (1, L),
            "north_asia": (1, M),
        },
        variant="world_war_5",
        seed=5,
    )


def refusal(g: GameState, seat: int, line: str) -> str:
    """What the console says to ``line`` typed by ``seat``: the reader's refusal, or the
    engine's. Fails if the line is accepted or the refusal changes the game."""
    game = contract.game_named(g.variant)
    view = g.view_for(seat)
    decision = next((d for d in g.deciders() if d.seat == seat), None)
    kind = decision.kind if decision is not None else None
    choices = game.presentation.offered(kind, g.legal_actions(seat)) if kind else ()
    ctx = Context(
        board=None,
        variant=g.variant,
        names=NAMES[: len(g.seats)],
        powers=list(g.seats),
        seat=seat,
        hand=view.hand or (),
        prompt_kind=kind,
        choices=choices,
        view=view,
    )
    before = json.dumps(g.to_dict(), sort_keys=True)
    try:
        cmd = parse(line, ctx)
    except ParseError as exc:
        return str(exc)
    assert cmd.action is not None, line
    with pytest.raises(RulesError) as refused:
        g.apply(seat, cmd.action)
    assert json.dumps(g.to_dict(), sort_keys=True) == before, "a refusal changed the game"
    return str(refused.value)


TURN_OPTIONS = "conscript, move, invade, arm or pass"
"""What Ann may do on her turn in :func:`europe` (no enemy on her home fields: no
sabotage; no Q or A: no espionage; her medium on Italy can grow)."""

CASES = [
    # the case: two land fields that do not touch (not "across the sea")
    (
        europe,
        0,
        "invade germany hungary",
        "Hungary does not touch Germany: attacks go only to a neighbouring field, by land "
        "or special link (EW-11)",
    ),
    (
        europe,
        0,
        "invade italy middle east",
        "Middle East and Italy are joined only by sea: attacks go by land or special link "
        "(sea attacks are not on at this table, EW-11)",
    ),
    # a field that does not touch comes before what stands on it
    (
        europe,
        0,
        "invade germany south balkans",
        "South Balkans does not touch Germany: attacks go only to a neighbouring field, by land "
        "or special link (EW-11)",
    ),
    (
        europe,
        0,
        "invade italy south balkans",
        "South Balkans is empty: no enemy piece to attack (move there instead, EW-11)",
    ),
    (
        europe,
        0,
        "invade italy france",
        "France + Benelux holds your own piece: attack an enemy's (EW-11)",
    ),
    (europe, 0, "invade austria italy", "You have no piece on Austria (EW-11)"),
    (
        europe,
        0,
        "move germany south russia",
        "South Russia is not next to Germany, and no harbour of one group joins them (EW-11)",
    ),
    (europe, 0, "move germany austria", "Austria is occupied: one piece per field (EW-1)"),
    (europe, 0, "conscript germany", "Conscription only on your home fields (EW-11)"),
    (europe, 0, "sabotage italy", "No enemy piece on Italy to sabotage (EW-9)"),
    (europe, 0, "sabotage germany", "Sabotage only on your own home fields (EW-9)"),
    (
        europe,
        0,
        "spy bob",
        "Espionage needs a Q (or an A in its place) in your hand (EW-10)",
    ),
    # answer words outside their decision: what is open instead, and only what is legal
    (
        europe,
        0,
        "play 5",
        f"There is no duel to play a card in now (EW-17). You can: {TURN_OPTIONS}.",
    ),
    (
        europe,
        0,
        "k",
        f"No attack waits for a diplomacy answer now (EW-13). You can: {TURN_OPTIONS}.",
    ),
    (
        europe,
        0,
        "retreat spain",
        f"None of your pieces has to retreat now (EW-19). You can: {TURN_OPTIONS}.",
    ),
    (europe, 1, "arm", "Not your turn: waiting for France and its allies"),
    (
        duel,
        0,
        "invade germany west russia",
        "A duel is on: play a card or stop (EW-17)",
    ),
    (duel, 0, "stop", "The attacker must play at least one card (EW-17)"),
    (duel, 0, "play 7", "You hold no 7. Your hand: 5♣ J♦"),
    # World War 5
    (
        americas,
        0,
        "invade usa north asia",
        "North Asia is not connected to USA (WW-1)",
    ),
    (
        americas,
        0,
        "invade alaska east asia",
        "East Asia is empty: no enemy piece to invade (move there instead, WW-2)",
    ),
    (americas, 0, "invade usa canada", "Canada holds your own piece: invade an enemy's (WW-2)"),
    (americas, 0, "pass", "You may pass only when no option is legal (WW-2)"),
    (
        americas,
        0,
        "retreat canada",
        "None of your pieces has to retreat now (WW-3). You can: grow, move or invade.",
    ),
    (americas, 0, "build usa", "USA is not empty (WW-2)"),
    (
        americas,
        0,
        "k",
        "'k' is not in this variant: World War 5 has no cards. Use grow, build, move, "
        "invade (or pass when nothing is legal).",
    ),
    (
        americas,
        0,
        "hand",
        "World War 5 has no cards: nothing is hidden, `board` shows everything.",
    ),
]


@pytest.mark.parametrize(("make", "seat", "line", "reason"), CASES, ids=[c[2] for c in CASES])
def test_each_refusal_names_the_first_real_reason(
    make: object, seat: int, line: str, reason: str
) -> None:
    assert callable(make)
    assert refusal(make(), seat, line) == reason


def test_after_a_stopped_attack_a_refusal_lists_what_is_left() -> None:
    g = europe(cy="KS")
    g.apply(0, pyramids.Attack("italy", "austria"))
    g.apply(2, pyramids.StopAttack(False))  # EW-14: no other attack, no more figures
    assert refusal(g, 0, "play 5") == (
        "There is no duel to play a card in now (EW-17). You can: conscript, move, arm or pass."
    )
    assert refusal(g, 0, "invade germany west russia") == (
        "Your attack was stopped: no other attack this turn (EW-14)"
    )
    assert refusal(g, 0, "k") == (
        "No attack waits for a diplomacy answer now (EW-13). You can: conscript, move, arm or pass."
    )
