"""The transport-agnostic game service: the one place that turns "user U did X in game G"
into load -> rules.apply -> save -> what to post and DM. The Discord cogs, the terminal
console and the tests all go through it.

Typical use::

    store = await open_store(settings.database_path)   # service.store: Store, open_store
    service = GameService(store, hosts=server_games)   # which games this front end hosts
    service.add_listener(deliver)          # computer moves, timeouts, reminders, expiries
    await service.start()                  # loads its unfinished games, re-arms deadlines
    out = await service.open_lobby(channel_id=c, host_id=u, host_name="Ann", guild_id=g)
    out = await service.add_computer(out.game_id, u)
    out = await service.start_game(out.game_id, u)
    for prompt in out.prompts: ...         # show each to prompt.user_id, privately
    out = await service.answer(gid, u, prompt.version, prompt.choices[0])
    await service.close()

Every operation returns an :class:`Outcome` (``ok`` False with ``error`` in words when
refused; nothing was changed then); the read-only queries and replays return their data
or raise :class:`ServiceError`. Modules: ``core`` (locks, cache, the apply path),
``lobby``, ``play``, ``timers`` (deadlines, pause/resume), ``computers`` (computer seats),
``undo``, ``queries``, ``hints`` (a person's hint), ``replays`` (a game rebuilt from its
log), ``admin``, ``ratings`` (rating finished games, leaderboards; the model in
``rating``), ``outcome`` (what a front end
delivers), ``deadlines`` (pure deadline rules), ``live`` (the in-memory copy of a game),
``languages`` (which language each part of an outcome is written in).

Languages: a game's channel speaks the game's language (fixed when its lobby opens, see
``open_lobby``'s ``guild_locale``), each person's private parts their client's language as
last seen (``note_locale``, which a front end calls on every interaction), and a reply to
the caller the language of the caller's context (``i18n.use`` around the call).
"""

from __future__ import annotations

from .admin import AdminOps
from .choices import ChoiceOps, LookedUp, Offer, UnionCommand, UnionOption, command_union
from .computers import ComputerOps
from .core import (
    DISK_FULL,
    INTERNAL_ERROR,
    OLD_BUTTON,
    Hosts,
    Listener,
    ServiceError,
    StalePrompt,
    every_game,
    server_games,
)
from .hints import HintOps
from .lobby import LobbyOps
from .outcome import (
    DecisionInfo,
    GameListing,
    GameStatus,
    HintInfo,
    LobbyInfo,
    Outcome,
    PrivateNote,
    Prompt,
    SeatInfo,
    UserView,
)
from .play import PlayOps
from .queries import QueryOps
from .ratings import KindStats, Leaderboard, PlayerStats, RatingOps, Standing
from .replays import Replay, ReplayOps, ReplayStep
from .steps import Nth, Step, StepOps, first_step, kind_offers
from .store import FrontStore
from .tally import Counts, TallyOps, opening, shortfall, suggested, upper_first
from .timers import TimerOps
from .undo import UndoOps


class GameService(
    LobbyOps,
    PlayOps,
    UndoOps,
    TimerOps,
    ComputerOps,
    QueryOps,
    HintOps,
    AdminOps,
    ChoiceOps,
    StepOps,
    TallyOps,
    RatingOps,
    ReplayOps,
):
    """Hosts games for any front end. See the package docstring and each mixin:

    - lobby: ``open_lobby``, ``join``, ``leave``, ``add_computer``, ``remove_computer``,
      ``configure``, ``start_game``, ``lobby_info``
    - play: ``act``, ``answer``, ``resign``, ``replace_seat``, ``agree_draw``, ``cancel``
    - undo: ``undo`` (the latest action taken back, :mod:`service.undo`)
    - timers: ``pause``, ``resume`` (deadlines, reminders and lobby expiry fire on their
      own and reach the listeners)
    - queries: ``active_game``, ``status``, ``view``, ``prompts``, ``prompt_stands``,
      ``games_of``, ``log``
    - replays: ``replay`` (a started game step by step, as its channel saw it),
      ``record`` (its public record as JSON data), ``played_in_channel``
    - hints: ``hint`` (the strongest computer player's choice for a person's own
      decision, and why; counted per person and game)
    - choices: ``kinds_now``, ``values_now``, ``offers``, ``act_with``, ``command``
      (structured choices and acting by kind or turn command, :mod:`service.choices`)
    - steps: ``step_now`` (an action built step by step on a panel, :mod:`service.steps`)
    - tallies: ``counts_now``, ``act_counts`` (a decision answered by counts per type,
      :mod:`service.tally`)
    - ratings: ``leaderboard``, ``player_stats``, ``last_played``, ``rate_finished``,
      ``rebuild_ratings`` (finished games are rated on their own, :mod:`service.ratings`)
    - admin: ``guild_settings``, ``update_guild_settings``, ``archive_channel``,
      ``archive_guild``, ``delete_guild_data``
    - languages: ``note_locale``, ``locale_of`` (:mod:`service.languages`)
    - lifecycle: ``start``, ``load``, ``close``, ``add_listener``, ``remove_listener``,
      ``idle``, ``busy`` (``hosts`` says which games this front end hosts)
    - what a front end keeps itself: ``front_store``

    Operations return the outcome for their caller; what the service does on its own
    (computer moves, timeouts, reminders, expiries) goes to the listeners, one game's
    outcomes in order. Each outcome carries the game ``version`` it leaves, so a front
    end that delivers a returned outcome and listener outcomes concurrently can keep
    them in order (computer moves also wait ``computer_pacing`` before they start).
    """

    @property
    def front_store(self) -> FrontStore:
        """The front end's door to the store: what it owes Discord (outbox items, the
        actions owed to channels, held channels, message ids, closed DMs), people's
        preferences, the servers it left and facts about itself. Games are changed only
        through the service's operations."""
        return self.store


__all__ = [
    "DISK_FULL",
    "INTERNAL_ERROR",
    "OLD_BUTTON",
    "Counts",
    "DecisionInfo",
    "GameListing",
    "GameService",
    "GameStatus",
    "HintInfo",
    "Hosts",
    "KindStats",
    "Leaderboard",
    "Listener",
    "LobbyInfo",
    "LookedUp",
    "Nth",
    "Offer",
    "Outcome",
    "PlayerStats",
    "PrivateNote",
    "Prompt",
    "Replay",
    "ReplayStep",
    "SeatInfo",
    "ServiceError",
    "StalePrompt",
    "Standing",
    "Step",
    "TallyOps",
    "UnionCommand",
    "UnionOption",
    "UserView",
    "command_union",
    "every_game",
    "first_step",
    "kind_offers",
    "opening",
    "server_games",
    "shortfall",
    "suggested",
    "upper_first",
]
