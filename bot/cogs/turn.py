"""Turn commands, made at start-up from every registered game's command spec
(:meth:`rules.presentation.Presentation.commands`; for the pyramid games PRODUCT.md's
/place, /conscript, /move, /invade, /arm, /sabotage, /spy, /pass, /grow and /build).

One slash command per command name across the games (:func:`service.command_union`);
a look-up (``/map``) shows the asker the game's answer privately instead of acting;
each option is a string whose :class:`ParamTransformer` (one per parameter kind: space,
seat, card, flag, word) autocompletes the values that make a legal action now, by their
words, or offers the option's fixed choices. The command hands the options as typed to
the service (:meth:`service.GameService.command`), which reads them with the game's words
and acts; a refusal (a command or option this table's game lacks, a value that names
nothing, the game's own reason) comes back as an ephemeral reason from the one handler.
"""

from __future__ import annotations

import inspect
import keyword
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from rules.presentation import CommandOption
from service import UnionCommand, command_union

from ..entry import ANSWER_PUBLIC
from ..errors import expect_ok
from ..reply import Reply, with_picture
from ..texts import clip
from .common import MAX_CHOICES, game_here, log

if TYPE_CHECKING:
    from ..client import GameBot

Choice = app_commands.Choice
PARAM_KINDS = ("space", "seat", "card", "flag", "word")


def focused_option(interaction: discord.Interaction) -> str | None:
    """The name of the option being autocompleted."""
    data: Any = interaction.data or {}
    stack: list[Any] = list(data.get("options") or [])
    while stack:
        option = stack.pop()
        if option.get("focused"):
            return str(option["name"])
        stack.extend(option.get("options") or [])
    return None


class ParamTransformer(app_commands.Transformer):
    """The values of one parameter kind, autocompleted with what is legal now for the
    user (asked of :meth:`service.GameService.offers`); the text is handed on as typed,
    for the service to read with the game's words."""

    def __init__(self, bot: GameBot, kind: str) -> None:
        self.bot = bot
        self.kind = kind

    async def transform(self, interaction: discord.Interaction, value: Any) -> str:
        return str(value)

    async def autocomplete(  # type: ignore[override]  # choices of str
        self, interaction: discord.Interaction, value: int | float | str
    ) -> list[Choice[str]]:
        try:
            return await self._offer(interaction, str(value))
        except Exception:  # autocomplete never fails in the user's face
            log.warning("autocomplete failed in channel %s", interaction.channel_id, exc_info=True)
            return []

    async def _offer(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        command, option = interaction.command, focused_option(interaction)
        gid = await self.bot.service.active_game(interaction.channel_id or 0)
        if gid is None or command is None or option is None:
            return []
        typed = {
            name: str(v)
            for name, v in vars(interaction.namespace).items()
            if name != option and v is not None
        }
        offers = await self.bot.service.offers(
            gid, interaction.user.id, command.name, option, typed
        )
        low = current.strip().lower()
        return [
            Choice(name=o.label[:100], value=o.word[:100])
            for o in offers
            if not low or low in o.label.lower() or low in o.word.lower()
        ][:MAX_CHOICES]


class FixedChoices(app_commands.Transformer):
    """An option with fixed choices (``card``: the figure itself, or an ace)."""

    def __init__(self, option: CommandOption) -> None:
        self.option = option

    @property
    def choices(self) -> list[Choice[int | float | str]]:
        return [
            Choice(name=locale_str(c.label[:100], template=c.label), value=c.word)
            for c in self.option.choices
        ]

    async def transform(self, interaction: discord.Interaction, value: Any) -> str:
        return str(value)


Callback = Callable[..., Coroutine[Any, Any, None]]


def _safe_name(name: str, index: int) -> str:
    """A Python parameter name for option ``name`` (renamed back for Discord)."""
    return name if name.isidentifier() and not keyword.iskeyword(name) else f"option_{index}"


def make_command(bot: GameBot, spec: UnionCommand) -> app_commands.Command[Any, ..., None]:
    """The slash command for ``spec``: its options typed by parameter kind, its answer
    public on success (a private refusal)."""
    kinds = {k: ParamTransformer(bot, k) for k in PARAM_KINDS}
    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    renames: dict[str, str] = {}
    described: dict[str, str | locale_str] = {}
    for i, u in enumerate(sorted(spec.options, key=lambda u: not u.required)):
        o = u.option
        py = _safe_name(o.name, i)
        if py != o.name:
            renames[py] = o.name
        described[py] = locale_str(o.description[:100], template=o.description)
        transformer = FixedChoices(o) if o.choices else kinds.get(o.kind, kinds["word"])
        params.append(
            inspect.Parameter(
                py,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=transformer,
                default=inspect.Parameter.empty if u.required else None,
            )
        )
    real = {py: renames.get(py, py) for py in described}

    async def callback(interaction: discord.Interaction, **given: str | None) -> None:
        gid = await game_here(bot.service, interaction)
        typed = {real[py]: text for py, text in given.items() if text is not None}
        if spec.lookup:
            await look_up(bot, interaction, gid, spec.name, typed)
            return
        out = expect_ok(await bot.service.command(gid, interaction.user.id, spec.name, typed))
        await bot.delivery.deliver(out, interaction)

    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__qualname__ = callback.__name__ = f"turn_{spec.name}"
    func: Callback = callback
    if described:
        func = app_commands.describe(**described)(func)
    if renames:
        func = app_commands.rename(**renames)(func)
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=spec.name,
        description=locale_str(spec.description[:100], template=spec.description),
        callback=func,
        extras={} if spec.lookup else ANSWER_PUBLIC,  # a look-up is answered privately
    )
    return app_commands.guild_only()(command)


async def look_up(
    bot: GameBot, interaction: discord.Interaction, gid: int, name: str, typed: dict[str, str]
) -> None:
    """Answer look-up ``name`` privately: the game's words, and its image if it names one
    (drawn from the asker's view; the words go first if it is slow)."""
    looked = await bot.service.look_up(gid, interaction.user.id, name, typed)
    reply = Reply.of(interaction)
    content = clip("\n".join(looked.shown.lines))
    images = bot.delivery.images
    image = looked.shown.image
    if image is None or not images.draws(looked.variant):
        await reply.private(content)
        return
    drawing = images.extra(image, looked.view, list(looked.names), game=looked.variant)
    await with_picture(reply, content, drawing, bot.delivery.later)


class TurnCog(commands.Cog):
    """The player to move acts with these: one command per name among the registered
    games' turn commands, added to the bot's tree when the cog loads."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.made = [make_command(bot, spec) for spec in command_union()]

    async def cog_load(self) -> None:
        for command in self.made:
            self.bot.tree.add_command(command)

    async def cog_unload(self) -> None:
        for command in self.made:
            self.bot.tree.remove_command(command.name)
