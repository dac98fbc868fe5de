"""Turn commands: /place, /conscript, /move, /invade, /arm, /sabotage, /spy, /pass, and
World War 5's /grow and /build. Each parses its options into an engine action (fields by
readable name, autocompleted with what is legal now), lets the service apply it, and
delivers the outcome; a refusal comes back as an ephemeral reason from the one handler.
"""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands
from discord.ext import commands

from rules import pyramids
from service import UserView

from ..entry import ANSWER_PUBLIC
from ..errors import UserError, expect_ok
from .common import (
    MAX_CHOICES,
    Completer,
    board_here,
    bot_of,
    field_choices,
    field_id,
    game_here,
    legal_now,
    my_view,
    not_in_variant,
    safe,
)

Choice = app_commands.Choice
EW, WW = "european_war", "world_war_5"
CARD_CHOICES = [
    Choice(name="J / Q (the figure itself)", value="figure"),
    Choice(name="A (an ace standing in for it)", value="ace"),
]


def _legal_fields(kind: str, attr: str, filter_attr: str | None = None) -> Completer:
    """An autocomplete callback offering ``attr`` of the legal ``kind`` actions; with
    ``filter_attr``, only those whose ``filter_attr`` matches the option already given
    (``from`` for ``to``)."""

    @safe
    async def complete(
        interaction: discord.Interaction,
        current: str,
    ) -> list[Choice[str]]:
        uv, legal = await legal_now(interaction)
        if uv is None:
            return []
        board = board_here(uv)
        acts = [a for a in legal if a.kind == kind]
        if filter_attr is not None:
            ns = interaction.namespace
            given = vars(ns).get("from")
            src = board.field_by_name(given) if isinstance(given, str) and given else None
            if src is not None:
                acts = [a for a in acts if getattr(a, filter_attr) == src]
        return field_choices(board, {getattr(a, attr) for a in acts}, current)

    return complete


def _place_fields(size_attr: str) -> Completer:
    @safe
    async def complete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        uv, legal = await legal_now(interaction)
        if uv is None:
            return []
        fields = {getattr(a, size_attr) for a in legal if a.kind == "place_all"}
        fields |= {a.field for a in legal if a.kind == "place_piece"}  # type: ignore[attr-defined]  # PlacePiece
        return field_choices(board_here(uv), fields, current)

    return complete


@safe
async def _spy_targets(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    uv, legal = await legal_now(interaction)
    if uv is None:
        return []
    names = [s.name for s in (await bot_of(interaction).service.status(uv.game_id)).seats]
    typed = current.strip().lower()
    out = []
    for seat in sorted({a.target for a in legal if isinstance(a, pyramids.Spy)}):
        label = f"{names[seat]} ({uv.view.seats[seat].power_name})"[:100]
        if not typed or typed in label.lower():
            out.append(Choice(name=label, value=str(seat)))
    return out[:MAX_CHOICES]


class TurnCog(commands.Cog):
    """The player to move acts with these."""

    async def _play(
        self,
        interaction: discord.Interaction,
        make: Callable[[UserView], pyramids.Action],
        *,
        only: str | None = None,
        command: str = "",
    ) -> None:
        gid = await game_here(interaction)
        uv = await my_view(interaction, gid)
        if only is not None and uv.view.variant != only:
            raise not_in_variant(command, uv.view.variant)
        action = make(uv)
        bot = bot_of(interaction)
        out = expect_ok(await bot.service.act(gid, interaction.user.id, action))
        await bot.delivery.deliver(out, interaction)

    # ------------------------------------------------------------------ setup
    @app_commands.command(
        name="place",
        description="Setup: choose which home field gets your large, medium and small (EW-5)",
        extras=ANSWER_PUBLIC,
    )
    @app_commands.guild_only()
    @app_commands.describe(
        large="Home field for your large",
        medium="Home field for your medium",
        small="Home field for your small",
    )
    @app_commands.autocomplete(
        large=_place_fields("large"), medium=_place_fields("medium"), small=_place_fields("small")
    )
    async def place(
        self,
        interaction: discord.Interaction,
        large: str | None = None,
        medium: str | None = None,
        small: str | None = None,
    ) -> None:
        """Setup placement, all at once or one piece by size."""

        def make(uv: UserView) -> pyramids.Action:
            board = board_here(uv)
            given = {
                k: field_id(board, v)
                for k, v in (("large", large), ("medium", medium), ("small", small))
                if v
            }
            prompt = uv.prompt
            if prompt is None or prompt.kind != "setup":
                raise UserError("You have no piece to place now (EW-5).")
            whole = [a for a in prompt.choices if isinstance(a, pyramids.PlaceAll)]
            if whole:
                fits = [a for a in whole if all(getattr(a, k) == f for k, f in given.items())]
                if len(fits) == 1:
                    return fits[0]
                if not fits:
                    raise UserError(
                        "That arrangement is not possible: put one piece on each "
                        "of your three home fields (EW-5)."
                    )
                raise UserError(
                    "Say which home field gets the large, the medium and the "
                    "small (or use the panel I sent you)."
                )
            fields = set(given.values())
            if len(fields) != 1:
                raise UserError("Place one piece now: give the home field for it.")
            return pyramids.PlacePiece(fields.pop())

        await self._play(interaction, make)

    # ------------------------------------------------------------------ actions
    @app_commands.command(
        name="conscript",
        description="Put a small on an empty home field, or grow your piece there (EW-11)",
        extras=ANSWER_PUBLIC,
    )
    @app_commands.guild_only()
    @app_commands.describe(field="One of your home fields")
    @app_commands.autocomplete(field=_legal_fields("conscript", "field"))
    async def conscript(self, interaction: discord.Interaction, field: str) -> None:
        """Conscription."""
        await self._play(
            interaction,
            lambda uv: pyramids.Conscript(field_id(board_here(uv), field)),
            only=EW,
            command="conscript",
        )

    @app_commands.command(
        name="grow",
        description="World War 5: grow your piece on a home territory by one size (WW-2)",
        extras=ANSWER_PUBLIC,
    )
    @app_commands.guild_only()
    @app_commands.describe(field="A home territory with your piece on it")
    @app_commands.autocomplete(field=_legal_fields("grow", "field"))
    async def grow(self, interaction: discord.Interaction, field: str) -> None:
        """GROW."""
        await self._play(
            interaction,
            lambda uv: pyramids.Grow(field_id(board_here(uv), field)),
            only=WW,
            command="grow",
        )

    @app_commands.command(
        name="build",
        description="World War 5: build a small on an empty home territory (WW-2)",
        extras=ANSWER_PUBLIC,
    )
    @app_commands.guild_only()
    @app_commands.describe(field="An empty home territory")
    @app_commands.autocomplete(field=_legal_fields("build", "field"))
    async def build(self, interaction: discord.Interaction, field: str) -> None:
        """BUILD."""
        await self._play(
            interaction,
            lambda uv: pyramids.Build(field_id(board_here(uv), field)),
            only=WW,
            command="build",
        )

    @app_commands.command(
        name="move",
        description="Move a piece to an empty neighbouring "
        "field, or by sea between harbours (EW-11)",
        extras=ANSWER_PUBLIC,
    )
    @app_commands.guild_only()
    @app_commands.rename(src="from", dst="to")
    @app_commands.describe(src="The field your piece stands on", dst="The empty field it goes to")
    @app_commands.autocomplete(
        src=_legal_fields("move", "src"), dst=_legal_fields("move", "dst", "src")
    )
    async def move(self, interaction: discord.Interaction, src: str, dst: str) -> None:
        """Movement."""

        def make(uv: UserView) -> pyramids.Action:
            board = board_here(uv)
            return pyramids.Move(field_id(board, src), field_id(board, dst))

        await self._play(interaction, make)

    @app_commands.command(
        name="invade",
        description="Attack an enemy piece on a neighbouring field: diplomacy, then a duel (EW-11)",
        extras=ANSWER_PUBLIC,
    )
    @app_commands.guild_only()
    @app_commands.rename(src="from", dst="to")
    @app_commands.describe(
        src="The field of your attacking piece", dst="The enemy's field you attack"
    )
    @app_commands.autocomplete(
        src=_legal_fields("attack", "src"), dst=_legal_fields("attack", "dst", "src")
    )
    async def invade(self, interaction: discord.Interaction, src: str, dst: str) -> None:
        """Attack."""

        def make(uv: UserView) -> pyramids.Action:
            board = board_here(uv)
            return pyramids.Attack(field_id(board, src), field_id(board, dst))

        await self._play(interaction, make)

    @app_commands.command(
        name="arm", description="Armament: draw two cards (EW-11)", extras=ANSWER_PUBLIC
    )
    @app_commands.guild_only()
    async def arm(self, interaction: discord.Interaction) -> None:
        """Armament."""
        await self._play(interaction, lambda uv: pyramids.Arm(), only=EW, command="arm")

    @app_commands.command(
        name="pass", description="End your turn without an action", extras=ANSWER_PUBLIC
    )
    @app_commands.guild_only()
    async def pass_(self, interaction: discord.Interaction) -> None:
        """Pass."""
        await self._play(interaction, lambda uv: pyramids.Pass())

    @app_commands.command(
        name="sabotage",
        description="Before your action: shrink an enemy piece on your home field with a J (EW-9)",
        extras=ANSWER_PUBLIC,
    )
    @app_commands.guild_only()
    @app_commands.describe(
        target="The enemy piece's field (one of your home fields)",
        card="Spend the J itself (default) or an A",
    )
    @app_commands.autocomplete(target=_legal_fields("sabotage", "target"))
    @app_commands.choices(card=CARD_CHOICES)
    async def sabotage(
        self, interaction: discord.Interaction, target: str, card: Choice[str] | None = None
    ) -> None:
        """Sabotage."""

        def make(uv: UserView) -> pyramids.Action:
            fid = field_id(board_here(uv), target)
            return pyramids.Sabotage(fid, _ace(uv, card, pyramids.Sabotage(fid, False)))

        await self._play(interaction, make, only=EW, command="sabotage")

    @app_commands.command(
        name="spy",
        description="Before your action: look at an opponent's hand with a Q (EW-10)",
        extras=ANSWER_PUBLIC,
    )
    @app_commands.guild_only()
    @app_commands.describe(
        player="The opponent whose hand you see", card="Spend the Q itself (default) or an A"
    )
    @app_commands.autocomplete(player=_spy_targets)
    @app_commands.choices(card=CARD_CHOICES)
    async def spy(
        self, interaction: discord.Interaction, player: str, card: Choice[str] | None = None
    ) -> None:
        """Espionage."""
        gid = await game_here(interaction)
        names = [s.name for s in (await bot_of(interaction).service.status(gid)).seats]

        def make(uv: UserView) -> pyramids.Action:
            seat = _seat(player, names, uv)
            return pyramids.Spy(seat, _ace(uv, card, pyramids.Spy(seat, False)))

        await self._play(interaction, make, only=EW, command="spy")


def _ace(uv: UserView, card: Choice[str] | None, plain: pyramids.Action) -> bool:
    """Spend an A when asked, or when the figure itself is not at hand but an A is."""
    if card is not None:
        return card.value == "ace"
    legal = uv.prompt.choices if uv.prompt is not None else ()
    return plain not in legal and any(
        type(a) is type(plain) and getattr(a, "ace", False) for a in legal
    )


def _seat(text: str, names: list[str], uv: UserView) -> int:
    """A seat from an autocompleted seat number, a player's name or a power's name."""
    text = text.strip()
    if text.isdigit() and int(text) < len(names):
        return int(text)
    low = text.lower()
    for i, name in enumerate(names):
        if low in (name.lower(), uv.view.seats[i].power_name.lower(), uv.view.seats[i].power):
            return i
    raise UserError(f"There is no player called {text[:60]!r} at this table.")
