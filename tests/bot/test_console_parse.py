"""The console's reading of commands: forgiving field, player and card names, choice
numbers, and the words of the other variant refused with a reason."""

from __future__ import annotations

import pytest

from console.parse import Context, ParseError, completions, parse
from rules import pyramids
from rules.pyramids.typed import field_matches, resolve_fields

EW = pyramids.load_board("european_war", False)
WW = pyramids.load_board("world_war_5", False)
NAMES = ["Ann", "Britain (computer)", "Russian Empire (computer)"]
POWERS = ["france_allies", "britain_allies", "russian_empire"]


def card(text: str) -> int:
    return pyramids.cards.parse_card(text)


def ctx(
    hand: tuple[str, ...] = ("4c", "9d", "Qh", "Ks", "As"),
    kind: str | None = "turn",
    choices: tuple[pyramids.Action, ...] = (),
    variant: str = "european_war",
) -> Context:
    return Context(
        board=EW if variant == "european_war" else WW,
        variant=variant,
        names=NAMES,
        powers=POWERS,
        seat=0,
        hand=tuple(card(c) for c in hand),
        prompt_kind=kind,
        choices=choices,
    )


def action(line: str, context: Context | None = None) -> pyramids.Action | None:
    return parse(line, context or ctx()).action


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("invade germany france", pyramids.Attack("germany", "france_benelux")),
        ("INVADE Germany France+Benelux", pyramids.Attack("germany", "france_benelux")),
        ("attack germany france", pyramids.Attack("germany", "france_benelux")),
        ("move north africa italy", pyramids.Move("north_africa", "italy")),
        ('move "north africa" italy', pyramids.Move("north_africa", "italy")),
        ("move north-africa italy", pyramids.Move("north_africa", "italy")),
        ("move north_africa italy", pyramids.Move("north_africa", "italy")),
        ("move italy north africa", pyramids.Move("italy", "north_africa")),
        ("move south scandinavia north russia", pyramids.Move("south_scandinavia", "north_russia")),
        ("conscript benelux", pyramids.Conscript("france_benelux")),
        ("conscript fra", pyramids.Conscript("france_benelux")),
        (
            "place italy france north africa",
            pyramids.PlaceAll("italy", "france_benelux", "north_africa"),
        ),
        ("retreat middle east", pyramids.Retreat("middle_east")),
        ("arm", pyramids.Arm()),
        ("pass", pyramids.Pass()),
    ],
)
def test_fields_are_read_forgivingly(line: str, expected: pyramids.Action) -> None:
    kind = "retreat" if line.startswith("retreat") else "turn"
    assert action(line, ctx(kind=kind)) == expected


def test_a_prefix_shared_by_two_fields_is_settled_by_the_legal_moves() -> None:
    legal = (pyramids.Move("north_africa", "italy"), pyramids.Arm())
    assert action("move north italy", ctx(choices=legal)) == pyramids.Move("north_africa", "italy")
    with pytest.raises(ParseError, match=r"Which do you mean: .*North Africa.*North Russia"):
        parse("move north italy", ctx())


def test_unknown_and_missing_fields_say_what_is_wrong() -> None:
    with pytest.raises(ParseError, match=r"Unknown field 'narnia'.*Germany"):
        parse("invade narnia germany", ctx())
    with pytest.raises(ParseError, match="from where to where"):
        parse("move italy", ctx())
    with pytest.raises(ParseError, match="Unknown command 'fly'"):
        parse("fly italy", ctx())


def test_words_of_the_other_variant_are_refused_with_the_right_words() -> None:
    with pytest.raises(ParseError, match=r"not in this variant.*conscript"):
        parse("grow italy", ctx())
    with pytest.raises(ParseError, match=r"not in this variant.*World War 5"):
        parse("arm", ctx(variant="world_war_5"))
    assert action("grow east asia", ctx(variant="world_war_5")) == pyramids.Grow("east_asia")
    assert action("build usa", ctx(variant="world_war_5")) == pyramids.Build("usa")


def test_cards_by_name_or_rank() -> None:
    duel = ctx(kind="duel")
    assert action("play 9d", duel) == pyramids.PlayCard(card("9d"))
    assert action("play 9♦", duel) == pyramids.PlayCard(card("9d"))
    assert action("play k", duel) == pyramids.PlayCard(card("Ks"))
    assert action("play 4", duel) == pyramids.PlayCard(card("4c"))
    assert action("stop", duel) == pyramids.StopPlaying()
    assert action("pass", duel) == pyramids.StopPlaying()
    with pytest.raises(ParseError, match="You hold no 7"):
        parse("play 7", duel)
    with pytest.raises(ParseError, match="not a card"):
        parse("play zebra", duel)


def test_figures_prefer_the_figure_then_the_ace() -> None:
    assert action("spy russia") == pyramids.Spy(2, False)
    assert action("spy brit ace") == pyramids.Spy(1, True)
    assert action("sabotage italy") == pyramids.Sabotage("italy", True)  # no J held: the A
    assert action("sabotage italy", ctx(hand=("Jc", "As"))) == pyramids.Sabotage("italy", False)
    window = ctx(kind="diplomacy", hand=("Ks",))
    assert action("k", window) == pyramids.StopAttack(False)
    assert action("stop", window) == pyramids.StopAttack(False)
    assert action("let", window) == pyramids.LetPass()
    assert action("pass", window) == pyramids.LetPass()
    assert action("k", ctx(kind="diplomacy", hand=("As",))) == pyramids.StopAttack(True)
    with pytest.raises(ParseError, match="No player is called"):
        parse("spy nobody", ctx())


def test_numbers_pick_the_open_prompts_choices() -> None:
    choices = (pyramids.Retreat("italy"), pyramids.Retreat("spain"))
    assert action("2", ctx(kind="retreat", choices=choices)) == pyramids.Retreat("spain")
    assert action("retreat 1", ctx(kind="retreat", choices=choices)) == pyramids.Retreat("italy")
    with pytest.raises(ParseError, match="from 1 to 2"):
        parse("3", ctx(kind="retreat", choices=choices))
    with pytest.raises(ParseError, match="nothing to choose"):
        parse("1", ctx(kind=None))


def test_console_commands_carry_their_argument() -> None:
    assert parse("log 5", ctx()).name == "log"
    assert parse("log 5", ctx()).arg == "5"
    assert parse("rules diplomacy", ctx()).arg == "diplomacy"
    assert parse("exit", ctx()).name == "quit"
    assert parse("   ", ctx()).name == ""


def test_field_matching_levels() -> None:
    assert field_matches(EW, "France + Benelux") == (["france_benelux"], True)
    assert field_matches(EW, "scandinavia") == (["south_scandinavia"], False)
    assert sorted(field_matches(EW, "russia")[0]) == ["north_russia", "south_russia", "west_russia"]
    assert resolve_fields(EW, ["germany", "france"], 2) == [("germany", "france_benelux")]


def test_completion_of_commands_fields_players_and_cards() -> None:
    c = ctx()
    assert completions("inv", "inv", c) == ["invade "]
    assert completions("invade no", "no", c) == ["north-africa ", "north-russia "]
    assert "russian-empire " in completions("spy r", "r", c)
    assert completions("play k", "k", c) == ["ks "]
    assert "grow " not in completions("", "", c)
    assert "grow " in completions("", "", ctx(variant="world_war_5"))
