"""Suite-wide setup: bots started by the tests draw their images in threads.

Dozens of tests start a bot each, and a pool of worker processes per bot would cost
seconds of warm-up every time; the worker pool itself is tested in
``tests/bot/test_images.py``. ``RENDER_WORKERS=2 pytest`` runs the suite on real pools.

The PostgreSQL tests share one server per run (``postgres_server``). ``claim_line``
registers the tests' third game for one test (a module that wants it for every test
says ``pytestmark = pytest.mark.usefixtures("claim_line")``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from rules import contract
from tests.games.claim_line import ClaimGame
from tests.postgres import PostgresServer, find_binaries

os.environ.setdefault("RENDER_WORKERS", "0")
# the console speaks the environment's language when not told one: the tests that do not
# set one read English, whatever this machine's locale
for _variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
    os.environ.pop(_variable, None)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the whole run (see :mod:`tests.postgres`); tests that
    need it are skipped, saying why, only when this machine has no PostgreSQL binaries."""
    binaries = find_binaries()
    if binaries is None:
        pytest.skip(
            "no PostgreSQL server binaries (initdb, pg_ctl) on PATH or in "
            "/usr/lib/postgresql/*/bin; install Debian's postgresql package"
        )
    with PostgresServer(binaries) as server:
        yield server


@pytest.fixture
def claim_line() -> Iterator[contract.Game]:
    """Claim the Line (``tests/games/claim_line.py``) registered for the test only."""
    game = contract.register(ClaimGame())
    try:
        yield game
    finally:
        contract.unregister(game.name)
