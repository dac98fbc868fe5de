"""The renderer keeps no threads or pools: a process forked after a board was drawn (its
caches warm) draws boards on its own, and the same bytes."""

from __future__ import annotations

import multiprocessing
from multiprocessing.connection import Connection

import render
from rules import pyramids

NAMES = ["Ada", "Bo", "Cy"]


def _view() -> pyramids.View:
    game, _ = pyramids.new_game("european_war", [None] * 3, seed=7)
    return pyramids.view_for(game, None)


def _draw_and_send(conn: Connection) -> None:
    conn.send(render.pyramids.board_png(_view(), NAMES))
    conn.close()


def test_a_process_forked_after_a_board_draws_boards() -> None:
    expected = render.pyramids.board_png(_view(), NAMES)  # warms caches in this process first
    ctx = multiprocessing.get_context("fork")
    ours, theirs = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_draw_and_send, args=(theirs,), daemon=True)
    child.start()
    theirs.close()
    try:
        assert ours.poll(120), "the forked child never sent its board (it hangs)"
        assert ours.recv() == expected
        child.join(120)
        assert not child.is_alive(), "the forked child did not exit"
        assert child.exitcode == 0
    finally:
        if child.is_alive():
            child.kill()
            child.join()
