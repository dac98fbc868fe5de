"""Server administration: per-server settings, archiving, deleting a server's data.

Archiving (a channel or thread deleted, the bot removed from a server) keeps the games
for history in status ``archived`` and stops their timers and computer players. Deleting
a server's data (some days after the bot left it, see ``/about``) removes its games, their
seats, logs, deadlines and results, and its settings; the ratings are then rebuilt from
the games that are left.
"""

from __future__ import annotations

import asyncio

from .core import ServiceBase
from .models import GuildSettings


class AdminOps(ServiceBase):
    """Administration operations of :class:`service.GameService`."""

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (defaults if never changed)."""
        return await self.store.guild_settings(guild_id)

    async def update_guild_settings(self, guild_id: int, **changes: object) -> GuildSettings:
        """``/settings`` (Manage Server): change a server's defaults for new games.

        Returns the new settings.

        Raises:
            SettingsError: an unknown setting or a value out of range (user-facing).
        """
        current = await self.store.guild_settings(guild_id)
        new = current.with_changes(**changes)
        await self.store.save_guild_settings(new, self.clock.now())
        return new

    async def archive_channel(self, channel_id: int) -> list[int]:
        """The channel (or thread) is gone: archive its active game. Returns the ids."""
        ids = await self.store.archive(channel_id=channel_id, now=self.clock.now())
        await self._drop_all(ids)
        return ids

    async def archive_guild(self, guild_id: int) -> list[int]:
        """The bot left the server: archive its active games. Returns the ids."""
        ids = await self.store.archive(guild_id=guild_id, now=self.clock.now())
        await self._drop_all(ids)
        return ids

    async def delete_guild_data(self, guild_id: int) -> int:
        """Delete everything stored about a server, its games' part of the ratings too
        (they are rebuilt from the games left). Returns how many games were deleted."""
        await self.archive_guild(guild_id)
        deleted = await self.store.delete_guild(guild_id)
        if deleted:
            await self.rebuild_ratings()
        return deleted

    async def _drop_all(self, ids: list[int]) -> None:
        for gid in ids:
            async with self._lock(gid):
                self._forget(gid)
                self.scheduler.cancel_group(gid)
                task = self._drivers.get(gid)
                if task is not None:
                    task.cancel()
                    await asyncio.gather(task, return_exceptions=True)
        self._notify()
