"""The database schema as numbered, forward-only migrations.

Each migration is applied in its own transaction (``BEGIN IMMEDIATE`` … ``COMMIT``): its
statements and the row recording it in ``schema_migrations`` commit together or not at
all, so a crash mid-upgrade leaves the file at the previous version. The version is
re-read inside the transaction, so two processes starting at once apply each step once.
SQLite DDL is transactional, which is what makes this safe.

Numbers are distinct and increasing but may skip one reserved for a step still being
written elsewhere: a database records each step it applied, and :func:`migrate` applies
every step it lacks, in order, so a skipped number applied later (once its step lands)
finds the database the same. A database holding a step this code does not know is
refused.

Never edit a released migration: add a new one. The schema after the last migration:

``games``
    one row per game, keyed by ``id``. ``status`` is ``lobby`` | ``running`` |
    ``finished`` | ``cancelled`` | ``archived``; a partial unique index allows at most one
    ``lobby``/``running`` game per ``channel_id`` (the database enforces it).
    ``state`` is the JSON snapshot after ``version`` actions; ``revision`` counts every
    write to the game (actions, seats, settings, pause) and guards them all against stale
    writers. ``settings`` is the per-game JSON (``service.models.GameSettings``), ``creation``
    the engine's creation record, ``start_events`` what ``rules.new_game`` announced,
    ``result`` the JSON end of a finished game, ``paused_at`` set while paused.
``seats``
    lobby entries and, once started, the engine seat (``seat``) and ``power`` of each;
    ``user_id`` is a Discord user id, or NULL with ``computer_level`` set for a computer
    player (a CHECK makes it exactly one of the two); ``agrees_draw`` is the seat's vote
    for a draw by agreement.
``actions``
    the append-only log (UPDATE and DELETE are refused by triggers, except the cascade of
    a deleted game): ``seq`` 1, 2, 3 … per game, the acting ``seat`` (-1 for the table),
    who sent it, the action and the events it caused as JSON.
``decisions``
    the open decisions of each game with their deadlines: ``opened_version`` (the game
    version when the decision opened), ``duration``, ``due_at`` (NULL: no limit, or
    paused) and ``remind_at`` (NULL: no reminder due). Seat -1 kind ``lobby`` is a lobby's
    expiry.
``guild_settings``
    per-server defaults (turn timeout, reminder lead, lobby expiry, cap on active games)
    and ``options``, the JSON defaults of game options by option name (migration 9; it
    carried the two option columns of migration 3 over into it).
``user_preferences``
    per-user choices of the Discord front end, only for people who made one: ``pings``
    (1: pinged when it is their move, the default; 0: named, not pinged).
``guild_departures``
    servers the bot was removed from and when (``left_at``); their data is deleted some
    days later unless the bot comes back, which removes the row.
``bot_meta``
    small ``key`` → ``value`` facts of the bot process, e.g. ``commands_hash``: the
    command set last synced globally with Discord.
``game_messages``
    the Discord messages the bot keeps editing for a game, so a restart edits them
    instead of posting new ones: the lobby message (``lobby_channel_id``,
    ``lobby_message_id``) and the message of the duel under way (``duel_message_id``).
    Deleted with the game.
``seats.dms_closed``
    1 when a direct message to the seat's person was refused (their DMs are closed): the
    bot does not DM them again, and offers their panels in the channel instead.

Indexes (migration 6): every query a cold load runs is an index search, so loading the
unfinished games costs the same with ten or a hundred thousand finished games in the
file. ``seats_by_game`` (``seats(game_id)``: the lobby seats have no ``seat`` yet, so the
partial ``seats_one_per_seat`` cannot serve them) and ``actions_by_seat``
(``actions(game_id, seat, seq)``: a seat's latest action is one search for ``MAX(seq)``
instead of a read of the game's whole log).

The outbox (migration 7):

``outbox``
    every channel message, edit and direct message the bot owes Discord and has not
    sent yet (see :mod:`bot.outbox`), so a restart resumes them: ``kind`` ``send`` (to
    ``channel_id``), ``edit`` (of ``message_id`` in ``channel_id``) or ``dm`` (to
    ``user_id``); the ``game_id`` it belongs to (NULL: none); ``priority`` (0 first);
    ``merge_key`` (items with the same key may be coalesced); ``payload``: the message as
    Discord's JSON (content, allowed mentions, components, kept attachments; sends carry
    a ``nonce`` with ``enforce_nonce`` so a message sent just before a crash is not sent
    twice); ``meta``: JSON of what to do once it is settled (remember a lobby or duel
    message, tell a channel that someone's DMs are closed). A row is deleted once sent or
    given up.
``outbox_files``
    the files (board and hand PNG bytes, with ``filename`` and ``description``, the alt
    text) of an outbox item, in order (``idx``).

What the bot owes a game's channel (migration 8):

``announcements``
    a row per game whose channel has not been told of every committed action yet:
    ``owed_from`` is the first action (``actions.seq``) whose message (words and board)
    is neither sent nor kept in the outbox. The row is written in the action's own
    transaction and moved on (or deleted) in the transaction that keeps the message, so
    a restart announces what a crash left untold (see :meth:`bot.delivery.Delivery.catch_up`).
    Deleted with the game.
``permission_holds``
    a game's channel where the bot lacks a permission (``missing``: which): its messages
    wait and ``paused`` says whether the bot paused the game for it, so after a restart
    the channel stays held, the game paused, and it resumes when the permission is back
    or by /resume.

Several processes on one database (migration 10):

``leases``
    a named claim (``name``: a shard range, ``leader``) held by one process
    (``holder``) until ``expires_at`` (wall-clock seconds) unless renewed: a process hosts
    a shard's games only while it holds that shard's lease, so another with the same
    range takes over once a dead one's lease expires; the ``leader`` runs the jobs of
    the whole bot (command sync, the purge of departed servers).

Ratings (migration 11; see :mod:`service.rating`). Everything but ``seat_departures`` is
derived from the finished games and rebuilt from them:

``seat_departures``
    each person who left an engine seat of a running game (resigned, or replaced by the
    host: ``seats`` then names the new holder), with the name they played under and
    ``left_at``; a finished game rates them as a loss. Deleted with the game.
``games.rating_seq``
    a finished game's place in the order games were rated (NULL: not rated yet; games
    of no server, the console's, are never rated). A rebuild rates the games again in
    this order.
``rating_head``
    one row: ``seq``, the last step of the ratings (a game rated, or a rebuild). Every
    write of ratings names the step it was computed after and moves it on, so two
    writers never both write over the same ratings.
``player_results``
    per person and finished game: the game kind (``variant``), server, place in the
    rating order (``seq``), seat and side (``power``), name, ``outcome`` (``win``,
    ``shared``, ``draw``, ``loss``, ``left``) and the rating after it (``mu``,
    ``sigma``; NULL when the game was not rated, having fewer than two people). Deleted
    with the game.
``ratings``
    per game kind and person: ``mu``, ``sigma``, the ``ordinal`` ranked by
    (``mu - 3 sigma``), rated ``games`` and ``wins``, the latest name and when the
    latest rated game ended (``updated_at``).

Hints (migration 12):

``hints``
    how many hints (``/hint``, the console's ``hint``) each person (``user_id``) took in
    each game: a row once the first is taken, ``taken`` counted up by each one after.
    Deleted with the game.

Taking an action back (migration 13; see :mod:`service.undo`):

``actions.undoes``
    NULL for an action; on a row that takes one back, the ``seq`` of the action it takes
    back (the row's ``seat`` and ``user_id`` are who took it back, ``action`` is
    ``{"undoes": seq}``, ``events`` empty). Nothing is deleted: whatever is rebuilt from
    the log skips both rows (:func:`service.models.standing`).
``games.undo_point``
    the JSON before-image of the game's latest action while it may be taken back (the
    state and the open decisions before it, who took it, when, and the revision it
    left): written with every action (NULL unless the game says it is undoable, and for
    an action that ends the game) and cleared by the undo.

Languages (migration 14; see :mod:`service.languages`):

``guild_settings.language``
    the language a server's new games speak in its channels (``/settings``: one of
    :data:`i18n.LOCALES`); NULL: the server's own Discord language.
``user_locales``
    each person's client language (``locale``, Discord's tag such as ``de`` or
    ``en-US``) as last seen on any interaction, and when (``updated_at``): what their
    direct messages and private prompts are written in.

Undo buttons (migration 15; see :mod:`bot.undo_offers`):

``game_messages.undo_offer``
    the JSON of the *Undo* button up under one of the game's messages
    (:class:`service.models.UndoOffer`: the message, the action it takes back, until
    when, and the edit that takes it off); NULL when none is up. A restart (or a process
    taking the game over) re-arms its timer or takes it off. The partial index
    ``game_messages_undo_offers`` finds the few games with one at start-up.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import aiosqlite


class MigrationError(RuntimeError):
    """The schema cannot be brought up to date (the message says why)."""


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered step: statements run in one transaction."""

    version: int
    name: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "games, seats and the action log",
        (
            """CREATE TABLE schema_migrations (
            version    INTEGER PRIMARY KEY,
            name       TEXT NOT NULL,
            applied_at REAL NOT NULL
        )""",
            """CREATE TABLE games (
            id           INTEGER PRIMARY KEY,
            guild_id     INTEGER,
            channel_id   INTEGER NOT NULL,
            status       TEXT NOT NULL
                         CHECK (status IN ('lobby','running','finished','cancelled','archived')),
            variant      TEXT NOT NULL,
            host_id      INTEGER,
            settings     TEXT NOT NULL,
            creation     TEXT,
            start_events TEXT,
            state        TEXT,
            version      INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
            revision     INTEGER NOT NULL DEFAULT 0,
            created_at   REAL NOT NULL,
            started_at   REAL,
            ended_at     REAL,
            result       TEXT
        )""",
            """CREATE UNIQUE INDEX games_one_active_per_channel ON games(channel_id)
           WHERE status IN ('lobby', 'running')""",
            "CREATE INDEX games_by_guild ON games(guild_id, status)",
            "CREATE INDEX games_by_status ON games(status)",
            """CREATE TABLE seats (
            id              INTEGER PRIMARY KEY,
            game_id         INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seat            INTEGER,
            user_id         INTEGER,
            computer_level  TEXT CHECK (computer_level IN ('easy', 'normal', 'hard')),
            display_name    TEXT NOT NULL,
            requested_power TEXT,
            power           TEXT,
            joined_at       REAL NOT NULL,
            CHECK ((user_id IS NULL) != (computer_level IS NULL))
        )""",
            "CREATE UNIQUE INDEX seats_one_per_seat ON seats(game_id, seat) WHERE seat IS NOT NULL",
            """CREATE UNIQUE INDEX seats_one_per_user ON seats(game_id, user_id)
           WHERE user_id IS NOT NULL""",
            "CREATE INDEX seats_by_user ON seats(user_id)",
            """CREATE TABLE actions (
            game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq        INTEGER NOT NULL CHECK (seq >= 1),
            seat       INTEGER NOT NULL,
            user_id    INTEGER,
            source     TEXT NOT NULL CHECK (source IN ('player','computer','timeout','system')),
            action     TEXT NOT NULL,
            events     TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID""",
            """CREATE TRIGGER actions_append_only_update BEFORE UPDATE ON actions
           BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END""",
            """CREATE TRIGGER actions_append_only_delete BEFORE DELETE ON actions
           WHEN EXISTS (SELECT 1 FROM games WHERE id = OLD.game_id)
           BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END""",
        ),
    ),
    Migration(
        2,
        "open decisions and their deadlines; pause",
        (
            """CREATE TABLE decisions (
            game_id        INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seat           INTEGER NOT NULL,
            kind           TEXT NOT NULL,
            opened_version INTEGER NOT NULL,
            duration       REAL,
            due_at         REAL,
            remind_at      REAL,
            PRIMARY KEY (game_id, seat, kind)
        ) WITHOUT ROWID""",
            "CREATE INDEX decisions_by_due ON decisions(due_at) WHERE due_at IS NOT NULL",
            "ALTER TABLE games ADD COLUMN paused_at REAL",
        ),
    ),
    Migration(
        3,
        "per-server settings; draw votes",
        (
            """CREATE TABLE guild_settings (
            guild_id          INTEGER PRIMARY KEY,
            turn_timeout      REAL NOT NULL,
            expiry_action     TEXT NOT NULL CHECK (expiry_action IN ('pass', 'arm')),
            diplomacy_seconds INTEGER NOT NULL,
            reminder_lead     REAL NOT NULL,
            lobby_expiry      REAL NOT NULL,
            max_games         INTEGER NOT NULL,
            updated_at        REAL NOT NULL
        )""",
            "ALTER TABLE seats ADD COLUMN agrees_draw INTEGER NOT NULL DEFAULT 0",
        ),
    ),
    Migration(
        4,
        "user preferences, server departures, bot facts",
        (
            """CREATE TABLE user_preferences (
            user_id    INTEGER PRIMARY KEY,
            pings      INTEGER NOT NULL CHECK (pings IN (0, 1)),
            updated_at REAL NOT NULL
        )""",
            """CREATE TABLE guild_departures (
            guild_id INTEGER PRIMARY KEY,
            left_at  REAL NOT NULL
        )""",
            "CREATE INDEX guild_departures_by_time ON guild_departures(left_at)",
            """CREATE TABLE bot_meta (
            key   TEXT PRIMARY KEY,
            value TEXT NOT NULL
        )""",
        ),
    ),
    Migration(
        5,
        "message ids and closed DMs",
        (
            """CREATE TABLE game_messages (
            game_id          INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            lobby_channel_id INTEGER,
            lobby_message_id INTEGER,
            duel_message_id  INTEGER
        )""",
            "ALTER TABLE seats ADD COLUMN dms_closed INTEGER NOT NULL DEFAULT 0",
        ),
    ),
    Migration(
        6,
        "indexes for every lookup of a cold load",
        (
            "CREATE INDEX seats_by_game ON seats(game_id)",
            "CREATE INDEX actions_by_seat ON actions(game_id, seat, seq)",
        ),
    ),
    Migration(
        7,
        "the outbox: messages, edits and DMs owed to Discord",
        (
            """CREATE TABLE outbox (
            id         INTEGER PRIMARY KEY,
            game_id    INTEGER,
            kind       TEXT NOT NULL CHECK (kind IN ('send', 'edit', 'dm')),
            channel_id INTEGER,
            user_id    INTEGER,
            message_id INTEGER,
            priority   INTEGER NOT NULL,
            merge_key  TEXT,
            payload    TEXT NOT NULL,
            meta       TEXT NOT NULL,
            created_at REAL NOT NULL,
            CHECK ((kind = 'dm') = (user_id IS NOT NULL)),
            CHECK ((kind = 'edit') = (message_id IS NOT NULL))
        )""",
            """CREATE TABLE outbox_files (
            item_id     INTEGER NOT NULL REFERENCES outbox(id) ON DELETE CASCADE,
            idx         INTEGER NOT NULL,
            filename    TEXT NOT NULL,
            description TEXT,
            data        BLOB NOT NULL,
            PRIMARY KEY (item_id, idx)
        ) WITHOUT ROWID""",
        ),
    ),
    Migration(
        8,
        "announcements owed to a game's channel, and channels held for a permission",
        (
            """CREATE TABLE announcements (
            game_id   INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            owed_from INTEGER NOT NULL
        )""",
            """CREATE TABLE permission_holds (
            channel_id INTEGER PRIMARY KEY,
            game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            paused     INTEGER NOT NULL,
            missing    TEXT NOT NULL
        )""",
        ),
    ),
    Migration(
        9,
        "per-server defaults of game options as JSON",
        (
            """CREATE TABLE guild_settings_9 (
            guild_id      INTEGER PRIMARY KEY,
            turn_timeout  REAL NOT NULL,
            reminder_lead REAL NOT NULL,
            lobby_expiry  REAL NOT NULL,
            max_games     INTEGER NOT NULL,
            options       TEXT NOT NULL CHECK (json_valid(options)),
            updated_at    REAL NOT NULL
        )""",
            # migration 3's two columns were the defaults of these two game options
            """INSERT INTO guild_settings_9 SELECT guild_id, turn_timeout, reminder_lead,
            lobby_expiry, max_games, json_object('turn_timeout_action', expiry_action,
            'diplomacy_seconds', diplomacy_seconds), updated_at FROM guild_settings""",
            "DROP TABLE guild_settings",
            "ALTER TABLE guild_settings_9 RENAME TO guild_settings",
        ),
    ),
    Migration(
        10,
        "leases: which process hosts a shard range, which one leads",
        (
            """CREATE TABLE leases (
            name       TEXT PRIMARY KEY,
            holder     TEXT NOT NULL,
            expires_at REAL NOT NULL
        )""",
        ),
    ),
    Migration(
        11,
        "ratings: who left a seat, each person's result of each game, ratings",
        (
            """CREATE TABLE seat_departures (
            id           INTEGER PRIMARY KEY,
            game_id      INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seat         INTEGER NOT NULL,
            user_id      INTEGER NOT NULL,
            display_name TEXT NOT NULL,
            left_at      REAL NOT NULL
        )""",
            "CREATE INDEX seat_departures_by_game ON seat_departures(game_id)",
            "ALTER TABLE games ADD COLUMN rating_seq INTEGER",
            """CREATE UNIQUE INDEX games_rating_order ON games(rating_seq)
           WHERE rating_seq IS NOT NULL""",
            """CREATE INDEX games_unrated ON games(ended_at, id)
           WHERE status = 'finished' AND rating_seq IS NULL AND guild_id IS NOT NULL""",
            """CREATE TABLE rating_head (
            id  INTEGER PRIMARY KEY CHECK (id = 1),
            seq INTEGER NOT NULL
        )""",
            "INSERT INTO rating_head (id, seq) VALUES (1, 0)",
            """CREATE TABLE player_results (
            game_id      INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            user_id      INTEGER NOT NULL,
            variant      TEXT NOT NULL,
            guild_id     INTEGER,
            seq          INTEGER NOT NULL,
            seat         INTEGER NOT NULL,
            power        TEXT,
            display_name TEXT NOT NULL,
            outcome      TEXT NOT NULL
                         CHECK (outcome IN ('win', 'shared', 'draw', 'loss', 'left')),
            ended_at     REAL NOT NULL,
            mu           REAL,
            sigma        REAL,
            PRIMARY KEY (game_id, user_id),
            CHECK ((mu IS NULL) = (sigma IS NULL))
        )""",
            "CREATE INDEX player_results_by_user ON player_results(user_id, seq)",
            """CREATE INDEX player_results_by_guild ON player_results(variant, guild_id, user_id)
           WHERE mu IS NOT NULL""",
            """CREATE TABLE ratings (
            variant      TEXT NOT NULL,
            user_id      INTEGER NOT NULL,
            display_name TEXT NOT NULL,
            mu           REAL NOT NULL,
            sigma        REAL NOT NULL,
            ordinal      REAL NOT NULL,
            games        INTEGER NOT NULL,
            wins         INTEGER NOT NULL,
            updated_at   REAL NOT NULL,
            PRIMARY KEY (variant, user_id)
        )""",
            "CREATE INDEX ratings_by_ordinal ON ratings(variant, ordinal)",
            "CREATE INDEX ratings_by_user ON ratings(user_id)",
        ),
    ),
    Migration(
        12,
        "hints taken per person and game",
        (
            """CREATE TABLE hints (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            user_id INTEGER NOT NULL,
            taken   INTEGER NOT NULL CHECK (taken > 0),
            PRIMARY KEY (game_id, user_id)
        ) WITHOUT ROWID""",
            "CREATE INDEX hints_by_user ON hints(user_id)",
        ),
    ),
    Migration(
        13,
        "taking an action back: the log's undo rows, the latest action's before-image",
        (
            "ALTER TABLE actions ADD COLUMN undoes INTEGER",
            "ALTER TABLE games ADD COLUMN undo_point TEXT",
        ),
    ),
    Migration(
        14,
        "languages: a server's channel language, each person's last seen client language",
        (
            "ALTER TABLE guild_settings ADD COLUMN language TEXT",
            """CREATE TABLE user_locales (
            user_id    INTEGER PRIMARY KEY,
            locale     TEXT NOT NULL,
            updated_at REAL NOT NULL
        )""",
        ),
    ),
    Migration(
        15,
        "the Undo button up under a game's message, kept across a restart",
        (
            "ALTER TABLE game_messages ADD COLUMN undo_offer TEXT",
            """CREATE INDEX game_messages_undo_offers ON game_messages(game_id)
           WHERE undo_offer IS NOT NULL""",
        ),
    ),
)

LATEST = MIGRATIONS[-1].version


async def current_version(conn: aiosqlite.Connection) -> int:
    """The schema version recorded in the database (0 for an empty file): its newest
    applied step."""
    return max(await applied_versions(conn), default=0)


async def applied_versions(conn: aiosqlite.Connection) -> set[int]:
    """The numbers of every step applied to the database (none for an empty file)."""
    cur = await conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    )
    if await cur.fetchone() is None:
        return set()
    cur = await conn.execute("SELECT version FROM schema_migrations")
    return {int(row[0]) for row in await cur.fetchall()}


def ordered(migrations: Sequence[Migration]) -> list[Migration]:
    """``migrations`` in order of their numbers, checked distinct and positive.

    Raises:
        MigrationError: two steps share a number, or one is below 1.
    """
    steps = sorted(migrations, key=lambda m: m.version)
    numbers = [m.version for m in steps]
    if len(set(numbers)) != len(numbers) or (numbers and numbers[0] < 1):
        raise MigrationError("migrations must have distinct numbers from 1 up")
    return steps


def unknown_steps(applied: set[int], steps: Sequence[Migration]) -> str | None:
    """Why a database that applied ``applied`` is newer than this code's ``steps``, or
    None when every applied step is one of them."""
    unknown = sorted(applied - {m.version for m in steps})
    if not unknown:
        return None
    newest = steps[-1].version if steps else 0
    return (
        f"the database is at schema version {max(applied)}, newer than this code ({newest}): "
        f"it has step(s) {', '.join(map(str, unknown))} this code does not know; "
        "run a newer release"
    )


async def migrate(
    conn: aiosqlite.Connection,
    target: int | None = None,
    migrations: Sequence[Migration] = MIGRATIONS,
) -> int:
    """Apply every migration the database lacks, in order, up to ``target`` (default: all).

    ``conn`` must be in autocommit mode (``isolation_level=None``). Returns the version
    reached (the newest step applied).

    Raises:
        MigrationError: the database is newer than this code, or a step failed (that
            step was rolled back; the database stays as it was before it).
    """
    steps = ordered(migrations)
    newest = steps[-1].version if steps else 0
    target = newest if target is None else target
    applied = await applied_versions(conn)
    why = unknown_steps(applied, steps)
    if why is not None:
        raise MigrationError(why)
    for step in steps:
        if step.version > target:
            break
        if step.version in applied:
            continue
        await conn.execute("BEGIN IMMEDIATE")
        try:
            if step.version in await applied_versions(conn):  # another process was first
                await conn.execute("COMMIT")
                continue
            for sql in step.statements:
                await conn.execute(sql)
            await conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (step.version, step.name, time.time()),
            )
            await conn.execute("COMMIT")
        except Exception as exc:
            await conn.execute("ROLLBACK")
            raise MigrationError(
                f"migration {step.version} ({step.name}) failed and was rolled back: {exc}"
            ) from exc
    return await current_version(conn)
