"""Which of the permissions the bot needs in a game's channel it is missing."""

from __future__ import annotations

from typing import Any

import discord

from .catalogue import N_, _

NEEDED: tuple[tuple[str, str], ...] = (
    ("view_channel", N_("View Channel")),
    ("send_messages", N_("Send Messages")),
    ("attach_files", N_("Attach Files")),
    ("embed_links", N_("Embed Links")),
    ("read_message_history", N_("Read Message History")),
)
"""(discord.py flag, the name Discord's settings show) of what a game's channel needs."""

CAN_TALK = frozenset({"View Channel", "Send Messages"})


def missing_permissions(channel: Any) -> list[str]:
    """The names of the needed permissions the bot lacks in ``channel`` (a guild
    channel or thread, from the cache); empty if it has them all or cannot tell."""
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if guild is None or me is None:
        return []
    perms: discord.Permissions = channel.permissions_for(me)
    found = []
    for flag, name in NEEDED:
        if flag == "send_messages" and isinstance(channel, discord.Thread):
            flag = "send_messages_in_threads"
        if not getattr(perms, flag):
            found.append(name)
    return found


def can_talk(missing: list[str]) -> bool:
    """The bot can still post text there (only files, embeds or history are missing)."""
    return not CAN_TALK & set(missing)


def missing_text(missing: list[str], detail: str = "") -> str:
    """'the **Attach Files** permission' / 'the **A** and **B** permissions', in the
    current language (as Discord's settings name them there)."""
    if not missing:
        return _("a permission I need ({detail})").format(detail=detail or _("Discord refused"))
    names = [f"**{_(m)}**" for m in missing]
    if len(names) == 1:
        return _("the {name} permission").format(name=names[0])
    return _("the {names} and {last} permissions").format(
        names=", ".join(names[:-1]), last=names[-1]
    )
