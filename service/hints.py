"""Hints: the strongest computer player's choice for a person's own decision, and why.

A hint is a query: it takes no lock and changes no game. It is worked out from the
asker's own view only, in a worker thread under the computer players' time cap, and
offered only for the asker's seat and only while that seat has a decision open. Each
hint given is counted for the asker and the game in the store (for ``/stats``).
"""

from __future__ import annotations

import asyncio
import logging

from . import computer
from .catalogue import N_, _
from .core import ServiceBase, ServiceError, player_seat
from .outcome import HintInfo
from .store import StoreError

log = logging.getLogger("service")

NOT_A_PLAYER = N_("You are not playing in this game: hints are for players.")
HINT_SALT = 0x41D5
"""Sets a hint's seed apart from the computer move's seed of the same seat."""


class HintOps(ServiceBase):
    """Hints of :class:`service.GameService`."""

    async def hint(self, game_id: int, user_id: int) -> HintInfo:
        """``/hint``: for ``user_id``'s open decision in ``game_id``, the action the
        strongest computer player would take there and why, from that person's view.

        Raises:
            ServiceError: no such game, not started or over, the user does not play in
                it, has no decision open now, or no hint could be worked out in time
                (the message says which).
        """
        live = await self._live(game_id, cache=False)
        seat = player_seat(live, user_id, NOT_A_PLAYER)
        g = live.state
        assert g is not None  # a running game's
        decision = next((d for d in g.deciders() if d.seat == seat), None)
        if decision is None:
            raise ServiceError(_("You have no decision to make now: a hint is for your own."))
        version = live.version
        view = live.views().of(seat)
        legal = list(g.legal_actions(seat))
        seed = computer.seed_for(game_id, version, seat) ^ HINT_SALT
        try:
            async with asyncio.timeout(self.computer_time_limit):
                advice = await asyncio.to_thread(self.adviser, live.variant, view, legal, seed)
        except TimeoutError:
            log.warning("game %s: a hint took over %.1f s", game_id, self.computer_time_limit)
            raise ServiceError(
                _("No hint could be worked out in time; please ask again.")
            ) from None
        except Exception:
            log.exception("game %s: a hint failed", game_id)
            raise ServiceError(_("No hint could be worked out; please ask again.")) from None
        now = self._games.get(game_id, live)
        if now.version != version:
            raise ServiceError(_("The game moved on while the hint was worked out; ask again."))
        words = live.game.presentation
        label = words.action_label(advice.action, view, live.names())
        taken: int | None
        try:
            taken = await self.store.count_hint(game_id, user_id)
        except StoreError:
            log.warning("game %s: a hint was given but could not be counted", game_id)
            taken = None
        return HintInfo(game_id, seat, decision.kind, advice.action, label, advice.why, taken)
