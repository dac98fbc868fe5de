"""Every SQL statement the stores run, by name (RoboDanny style): the schema is in
``service.migrations``, the transactions that use these in ``service.sqlite_store`` and
``service.postgres_store``. The statements are portable SQL (SQLite and PostgreSQL
alike, with ``?`` placeholders); the PostgreSQL store numbers the placeholders."""

from __future__ import annotations


class Q:
    """Named SQL queries: every statement the store runs, transaction control and
    pragmas aside."""

    schema_version = "SELECT COALESCE(MAX(version), 0) FROM schema_migrations"

    GAME_COLUMNS = (
        "id, guild_id, channel_id, status, variant, host_id, settings, version, revision, "
        "created_at, creation, start_events, state, started_at, ended_at, result, paused_at, "
        "undo_point"
    )
    SEAT_COLUMNS = (
        "game_id, id, user_id, computer_level, display_name, joined_at, requested_power, "
        "seat, power, agrees_draw"
    )
    DECISION_COLUMNS = "game_id, seat, kind, opened_version, duration, due_at, remind_at"

    count_active_in_guild = (
        "SELECT COUNT(*) FROM games WHERE guild_id = ? AND status IN ('lobby', 'running')"
    )
    insert_game = (
        "INSERT INTO games (guild_id, channel_id, status, variant, host_id, settings, "
        "created_at) VALUES (?, ?, 'lobby', ?, ?, ?, ?)"
    )
    insert_seat = (
        "INSERT INTO seats (game_id, user_id, computer_level, display_name, requested_power, "
        "joined_at) VALUES (?, ?, ?, ?, ?, ?)"
    )
    delete_seat = "DELETE FROM seats WHERE game_id = ? AND id = ?"
    bump = "UPDATE games SET revision = revision + 1 WHERE id = ? AND revision = ? AND status = ?"
    set_host = (
        "UPDATE games SET host_id = ?, revision = revision + 1 "
        "WHERE id = ? AND revision = ? AND status = 'lobby'"
    )
    update_lobby = (
        "UPDATE games SET settings = ?, host_id = ?, revision = revision + 1 "
        "WHERE id = ? AND revision = ? AND status = 'lobby'"
    )
    start_game = (
        "UPDATE games SET status = 'running', creation = ?, start_events = ?, state = ?, "
        "started_at = ?, revision = revision + 1 "
        "WHERE id = ? AND revision = ? AND status = 'lobby'"
    )
    seat_started = (
        "UPDATE seats SET seat = ?, power = ?, display_name = ? WHERE game_id = ? AND id = ?"
    )
    record_state = (
        "UPDATE games SET state = ?, version = version + 1, revision = revision + 1, "
        "undo_point = NULL, status = ?, ended_at = ?, result = ? "
        "WHERE id = ? AND revision = ? AND version = ? AND status = 'running'"
    )
    # an action that does not end the game leaves status, ended_at and result alone, so
    # the indexes on status (three of them) are not rewritten for every action
    record_move = (
        "UPDATE games SET state = ?, undo_point = ?, version = version + 1, "
        "revision = revision + 1 "
        "WHERE id = ? AND revision = ? AND version = ? AND status = 'running'"
    )
    # taking back the latest action: only while its before-image is kept
    record_undo = (
        "UPDATE games SET state = ?, undo_point = NULL, version = version + 1, "
        "revision = revision + 1 WHERE id = ? AND revision = ? AND version = ? "
        "AND status = 'running' AND undo_point IS NOT NULL"
    )
    insert_undo = (
        "INSERT INTO actions (game_id, seq, seat, user_id, source, action, events, "
        "created_at, undoes) VALUES (?, ?, ?, ?, 'player', ?, '[]', ?, ?)"
    )
    insert_action = (
        "INSERT INTO actions (game_id, seq, seat, user_id, source, action, events, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    )
    delete_decision = "DELETE FROM decisions WHERE game_id = ? AND seat = ? AND kind = ?"
    delete_decisions = "DELETE FROM decisions WHERE game_id = ?"
    upsert_decision = (
        "INSERT INTO decisions (game_id, seat, kind, opened_version, duration, due_at, "
        "remind_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat, kind) DO UPDATE "
        "SET opened_version = excluded.opened_version, duration = excluded.duration, "
        "due_at = excluded.due_at, remind_at = excluded.remind_at"
    )
    mark_reminded = (
        "UPDATE decisions SET remind_at = NULL WHERE game_id = ? AND seat = ? AND kind = ? "
        "AND opened_version = ? AND remind_at IS NOT NULL"
    )
    end_game = (
        "UPDATE games SET status = ?, ended_at = ?, result = ?, revision = revision + 1 "
        "WHERE id = ? AND revision = ? AND status IN ('lobby', 'running')"
    )
    set_paused = (
        "UPDATE games SET paused_at = ?, revision = revision + 1 "
        "WHERE id = ? AND revision = ? AND status = 'running'"
    )
    replace_seat = (
        "UPDATE seats SET user_id = ?, computer_level = ?, display_name = ?, joined_at = ?, "
        "agrees_draw = 0, dms_closed = 0 WHERE game_id = ? AND seat = ?"
    )
    set_draw_vote = "UPDATE seats SET agrees_draw = ? WHERE game_id = ? AND seat = ?"
    select_game = f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?"
    select_active_games = (
        f"SELECT {GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'running') ORDER BY id"
    )
    select_seats = (
        f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? "
        "ORDER BY seat IS NULL, seat, joined_at, id"
    )
    select_active_seats = (
        f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id IN "
        "(SELECT id FROM games WHERE status IN ('lobby', 'running')) "
        "ORDER BY game_id, seat IS NULL, seat, joined_at, id"
    )
    select_decisions = f"SELECT {DECISION_COLUMNS} FROM decisions WHERE game_id = ?"
    select_active_decisions = (
        f"SELECT {DECISION_COLUMNS} FROM decisions WHERE game_id IN "
        "(SELECT id FROM games WHERE status IN ('lobby', 'running'))"
    )
    # a seat's latest action: one index search (MAX over actions_by_seat) per seat, never
    # a read of the game's whole log; the table's own actions (seat -1) are not needed
    LAST_ACTED = (
        "SELECT s.game_id, s.seat, (SELECT MAX(a.seq) FROM actions a "
        "WHERE a.game_id = s.game_id AND a.seat = s.seat) FROM seats s "
    )
    select_last_acted = LAST_ACTED + "WHERE s.game_id = ? AND s.seat IS NOT NULL"
    select_active_last_acted = LAST_ACTED + (
        "WHERE s.game_id IN (SELECT id FROM games WHERE status = 'running') AND s.seat IS NOT NULL"
    )
    select_actions = (
        "SELECT seq, seat, user_id, source, action, events, created_at, undoes FROM actions "
        "WHERE game_id = ? AND seq > ? ORDER BY seq"
    )
    select_last_actions = (
        "SELECT seq, seat, user_id, source, action, events, created_at, undoes FROM ("
        "SELECT * FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT ?) AS tail ORDER BY seq"
    )
    # a user's unfinished games: their seats by the seats_by_user index, then only
    # those games' rows (never a snapshot)
    USER_GAMES = (
        "SELECT s.game_id FROM seats s JOIN games g ON g.id = s.game_id "
        "WHERE s.user_id = ? AND g.status IN ('lobby', 'running')"
    )
    select_user_games = (
        "SELECT id, guild_id, channel_id, status, variant, paused_at FROM games "
        f"WHERE id IN ({USER_GAMES}) ORDER BY id"
    )
    select_user_game_seats = (
        f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id IN ({USER_GAMES}) "
        "ORDER BY game_id, seat IS NULL, seat, joined_at, id"
    )
    select_user_game_decisions = (
        f"SELECT {DECISION_COLUMNS} FROM decisions WHERE game_id IN ({USER_GAMES}) "
        "ORDER BY game_id, seat, kind"
    )
    select_active_in_channel = (
        "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'running')"
    )
    # by the server's index (games_by_guild), then its games in that channel, newest first
    select_played_in_channel = (
        "SELECT g.id, g.variant, g.status, g.started_at, g.ended_at, s.seat, s.display_name "
        "FROM games g JOIN seats s ON s.game_id = g.id "
        "WHERE g.id IN (SELECT id FROM games WHERE guild_id = ? AND channel_id = ? "
        "AND started_at IS NOT NULL ORDER BY id DESC LIMIT ?) AND s.seat IS NOT NULL "
        "ORDER BY g.id DESC, s.seat"
    )
    select_active_ids_in_guild = (
        "SELECT id FROM games WHERE guild_id = ? AND status IN ('lobby', 'running')"
    )
    archive_by_id = (
        "UPDATE games SET status = 'archived', ended_at = ?, revision = revision + 1 "
        "WHERE id = ? AND status IN ('lobby', 'running')"
    )
    delete_guild_games = "DELETE FROM games WHERE guild_id = ?"
    delete_guild_settings = "DELETE FROM guild_settings WHERE guild_id = ?"
    select_guild_settings = (
        "SELECT guild_id, turn_timeout, reminder_lead, lobby_expiry, max_games, options, "
        "language FROM guild_settings WHERE guild_id = ?"
    )
    upsert_guild_settings = (
        "INSERT INTO guild_settings (guild_id, turn_timeout, reminder_lead, lobby_expiry, "
        "max_games, options, language, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET turn_timeout = excluded.turn_timeout, "
        "reminder_lead = excluded.reminder_lead, lobby_expiry = excluded.lobby_expiry, "
        "max_games = excluded.max_games, options = excluded.options, "
        "language = excluded.language, updated_at = excluded.updated_at"
    )
    delete_guild_departure = "DELETE FROM guild_departures WHERE guild_id = ?"
    insert_guild_departure = (
        "INSERT INTO guild_departures (guild_id, left_at) VALUES (?, ?) "
        "ON CONFLICT (guild_id) DO NOTHING"
    )
    select_guild_departures = "SELECT guild_id, left_at FROM guild_departures ORDER BY guild_id"
    select_departures_due = (
        "SELECT guild_id FROM guild_departures WHERE left_at <= ? ORDER BY left_at, guild_id"
    )
    select_user_pings = "SELECT pings FROM user_preferences WHERE user_id = ?"
    upsert_user_pings = (
        "INSERT INTO user_preferences (user_id, pings, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET pings = excluded.pings, "
        "updated_at = excluded.updated_at"
    )
    select_user_locale = "SELECT locale FROM user_locales WHERE user_id = ?"
    upsert_user_locale = (
        "INSERT INTO user_locales (user_id, locale, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, "
        "updated_at = excluded.updated_at"
    )
    upsert_hint = (
        "INSERT INTO hints (game_id, user_id, taken) VALUES (?, ?, 1) "
        "ON CONFLICT (game_id, user_id) DO UPDATE SET taken = hints.taken + 1 RETURNING taken"
    )
    select_hints_of_user = "SELECT COALESCE(SUM(taken), 0) FROM hints WHERE user_id = ?"
    select_hints_in_game = "SELECT taken FROM hints WHERE game_id = ? AND user_id = ?"
    select_meta = "SELECT value FROM bot_meta WHERE key = ?"
    upsert_meta = (
        "INSERT INTO bot_meta (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
    )
    select_game_messages = (
        "SELECT lobby_channel_id, lobby_message_id, duel_message_id FROM game_messages "
        "WHERE game_id = ?"
    )
    # only for a game that exists: a message of a game deleted meanwhile is forgotten
    upsert_lobby_message = (
        "INSERT INTO game_messages (game_id, lobby_channel_id, lobby_message_id) "
        "SELECT id, ?, ? FROM games WHERE id = ? "
        "ON CONFLICT (game_id) DO UPDATE SET lobby_channel_id = excluded.lobby_channel_id, "
        "lobby_message_id = excluded.lobby_message_id"
    )
    upsert_duel_message = (
        "INSERT INTO game_messages (game_id, duel_message_id) SELECT id, ? FROM games "
        "WHERE id = ? ON CONFLICT (game_id) DO UPDATE SET "
        "duel_message_id = excluded.duel_message_id"
    )
    upsert_undo_offer = (
        "INSERT INTO game_messages (game_id, undo_offer) SELECT id, ? FROM games "
        "WHERE id = ? ON CONFLICT (game_id) DO UPDATE SET "
        "undo_offer = excluded.undo_offer"
    )
    select_undo_offers = (
        "SELECT game_id, undo_offer FROM game_messages WHERE undo_offer IS NOT NULL"
    )
    set_user_dms_closed = (
        "UPDATE seats SET dms_closed = ? WHERE user_id = ? AND dms_closed != ? AND game_id IN "
        "(SELECT id FROM games WHERE status IN ('lobby', 'running'))"
    )
    select_users_dms_closed = (
        "SELECT DISTINCT user_id FROM seats WHERE dms_closed = 1 AND game_id IN "
        "(SELECT id FROM games WHERE status IN ('lobby', 'running')) ORDER BY user_id"
    )

    # the outbox (bot.outbox)
    OUTBOX_COLUMNS = (
        "id, game_id, kind, channel_id, user_id, message_id, priority, "
        "merge_key, payload, meta, created_at"
    )
    insert_outbox = (
        "INSERT INTO outbox (game_id, kind, channel_id, user_id, message_id, priority, "
        "merge_key, payload, meta, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    )
    update_outbox = (
        "UPDATE outbox SET priority = ?, merge_key = ?, payload = ?, meta = ? WHERE id = ?"
    )
    insert_outbox_file = (
        "INSERT INTO outbox_files (item_id, idx, filename, description, data) "
        "VALUES (?, ?, ?, ?, ?)"
    )
    delete_outbox_files = "DELETE FROM outbox_files WHERE item_id = ?"
    delete_outbox = "DELETE FROM outbox WHERE id = ?"
    select_outbox = f"SELECT {OUTBOX_COLUMNS} FROM outbox ORDER BY id"
    select_outbox_files = (
        "SELECT item_id, filename, description, data FROM outbox_files ORDER BY item_id, idx"
    )

    # what a game's channel is owed, and channels held (migration 8)
    owe_announcement = (
        "INSERT INTO announcements (game_id, owed_from) VALUES (?, ?) "
        "ON CONFLICT (game_id) DO NOTHING"
    )
    move_announcement = (
        "UPDATE announcements SET owed_from = ? + 1 WHERE game_id = ? AND owed_from <= ?"
    )
    settle_announcement = (
        "DELETE FROM announcements WHERE game_id = ? "
        "AND owed_from > (SELECT version FROM games WHERE id = ?)"
    )
    select_announcements = "SELECT game_id, owed_from FROM announcements ORDER BY game_id"
    upsert_hold = (
        "INSERT INTO permission_holds (channel_id, game_id, paused, missing) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (channel_id) DO UPDATE SET game_id = excluded.game_id, "
        "paused = CASE WHEN excluded.paused = 1 THEN 1 ELSE permission_holds.paused END, "
        "missing = excluded.missing"
    )
    delete_hold = "DELETE FROM permission_holds WHERE channel_id = ?"
    select_holds = "SELECT channel_id, game_id, paused, missing FROM permission_holds"

    # leases (migration 10): taken when free, expired or already the holder's
    claim_lease = (
        "INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?) "
        "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, "
        "expires_at = excluded.expires_at "
        "WHERE leases.holder = excluded.holder OR leases.expires_at <= ?"
    )
    release_lease = "DELETE FROM leases WHERE name = ? AND holder = ?"
    select_lease = "SELECT holder, expires_at FROM leases WHERE name = ?"

    # ratings (migration 11; service.rating, service.ratings)
    # who left a seat: written in replace_seat's transaction, before the seat changes hands
    record_departure = (
        "INSERT INTO seat_departures (game_id, seat, user_id, display_name, left_at) "
        "SELECT game_id, seat, user_id, display_name, ? FROM seats "
        "WHERE game_id = ? AND seat = ? AND user_id IS NOT NULL"
    )
    FINISHED_COLUMNS = "id, variant, guild_id, ended_at, result, rating_seq"
    DEPARTURE_COLUMNS = "game_id, seat, user_id, display_name, left_at"
    # the first finished server games not rated yet, in the order they ended
    UNRATED = (
        "SELECT id FROM games WHERE status = 'finished' AND rating_seq IS NULL "
        "AND guild_id IS NOT NULL ORDER BY ended_at, id LIMIT ?"
    )
    select_unrated = (
        f"SELECT {FINISHED_COLUMNS} FROM games WHERE id IN ({UNRATED}) ORDER BY ended_at, id"
    )
    select_unrated_seats = (
        f"SELECT {SEAT_COLUMNS} FROM seats WHERE seat IS NOT NULL AND game_id IN ({UNRATED})"
    )
    select_unrated_departures = (
        f"SELECT {DEPARTURE_COLUMNS} FROM seat_departures WHERE game_id IN ({UNRATED}) ORDER BY id"
    )
    RATED = "SELECT id FROM games WHERE rating_seq IS NOT NULL"
    select_rated = f"SELECT {FINISHED_COLUMNS} FROM games WHERE rating_seq IS NOT NULL " + (
        "ORDER BY rating_seq"
    )
    select_rated_seats = (
        f"SELECT {SEAT_COLUMNS} FROM seats WHERE seat IS NOT NULL AND game_id IN ({RATED})"
    )
    select_rated_departures = (
        f"SELECT {DEPARTURE_COLUMNS} FROM seat_departures WHERE game_id IN ({RATED}) ORDER BY id"
    )
    select_rating_head = "SELECT seq FROM rating_head WHERE id = 1"
    move_rating_head = "UPDATE rating_head SET seq = seq + 1 WHERE id = 1 AND seq = ?"
    set_rating_seq = (
        "UPDATE games SET rating_seq = ? "
        "WHERE id = ? AND status = 'finished' AND rating_seq IS NULL"
    )
    RESULT_COLUMNS = (
        "game_id, user_id, variant, guild_id, seq, seat, power, display_name, outcome, "
        "ended_at, mu, sigma"
    )
    insert_player_result = (
        f"INSERT INTO player_results ({RESULT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    )
    delete_player_results = "DELETE FROM player_results"
    select_user_results = (
        f"SELECT {RESULT_COLUMNS} FROM player_results WHERE user_id = ? ORDER BY seq"
    )
    RATING_COLUMNS = "variant, user_id, display_name, mu, sigma, ordinal, games, wins, updated_at"
    upsert_rating = (
        f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (variant, user_id) DO UPDATE SET display_name = excluded.display_name, "
        "mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, "
        "games = excluded.games, wins = excluded.wins, updated_at = excluded.updated_at"
    )
    delete_ratings = "DELETE FROM ratings"
    select_rating = f"SELECT {RATING_COLUMNS} FROM ratings WHERE variant = ? AND user_id = ?"
    select_user_ratings = f"SELECT {RATING_COLUMNS} FROM ratings WHERE user_id = ? ORDER BY variant"
    # a leaderboard: by the rating shown, then more games, then the older account
    RANKED = "ORDER BY ordinal DESC, games DESC, user_id"
    IN_GUILD = (
        "user_id IN (SELECT user_id FROM player_results WHERE variant = ? AND guild_id = ? "
        "AND mu IS NOT NULL)"
    )
    ABOVE = "(ordinal > ? OR (ordinal = ? AND (games > ? OR (games = ? AND user_id < ?))))"
    select_leaderboard = f"SELECT {RATING_COLUMNS} FROM ratings WHERE variant = ? {RANKED} LIMIT ?"
    count_ratings = "SELECT COUNT(*) FROM ratings WHERE variant = ?"
    count_above = f"SELECT COUNT(*) FROM ratings WHERE variant = ? AND {ABOVE}"
    select_guild_leaderboard = (
        f"SELECT {RATING_COLUMNS} FROM ratings WHERE variant = ? AND {IN_GUILD} {RANKED} LIMIT ?"
    )
    count_guild_ratings = f"SELECT COUNT(*) FROM ratings WHERE variant = ? AND {IN_GUILD}"
    count_guild_above = f"SELECT COUNT(*) FROM ratings WHERE variant = ? AND {IN_GUILD} AND {ABOVE}"
    rated_in_guild = (
        "SELECT COUNT(*) FROM player_results WHERE variant = ? AND guild_id = ? AND user_id = ? "
        "AND mu IS NOT NULL"
    )
