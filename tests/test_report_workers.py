"""The every-pair tables of a hex map's report computed by worker processes
(game/play/workers.py, ``sightline report -j N``): the rows the workers compute
(``sight.pair_bits_among(rows=…)``) put together are the table computed in one process, bit for
bit; the report's page is the same with and without workers; a bad ``-j`` is one line; the workers
stop at once when the report is interrupted. Real spawned processes, real maps."""

from __future__ import annotations

import os
import re
import signal
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from support.hex_maps import hex_tmx

from game.cli import main
from game.core import sight
from game.core.board import DoorState
from game.core.hex_sight import hex_board
from game.core.hexgrid import HexGrid, HexLayout
from game.designer.coverage import standable_mask
from game.play import workers
from game.play.workers import Workers

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def _board() -> object:
    """A 9×7 hex board with walls, a door, rock and a void hex (no two rows alike)."""
    grid = HexGrid(9, 7)
    walls = [grid.edges_of((2, 2))[1], grid.edges_of((5, 3))[0], grid.edges_of((6, 1))[2], grid.edges_of((1, 5))[1]]
    return hex_board(9, 7, walls=walls, blocked=[(4, 4), (7, 2)], void=[(0, 0)],
                     doors={grid.edges_of((3, 4))[1]: DoorState.CLOSED})


@pytest.mark.parametrize("rule", ["gloomhaven", "hexside", "hex-strict"])
def test_rows_of_the_table_are_the_table(rule: str) -> None:
    """``rows=`` gives exactly those rows of the whole table, never a hex with itself, for slices
    that cut the facade's batches anywhere (and past the end)."""
    board = _board()
    keep = standable_mask(board)  # type: ignore[arg-type]
    whole = sight.pair_bits_among(board, keep, rule)  # type: ignore[arg-type]
    k = whole.shape[0]
    for size in (1, 5, 13, k):
        parts = [sight.pair_bits_among(board, keep, rule, rows=(a, a + size)) for a in range(0, k, size)]  # type: ignore[arg-type]
        assert np.array_equal(np.concatenate(parts), whole), size
    assert sight.pair_bits_among(board, keep, rule, rows=(k - 2, k + 40)).shape == (2, whole.shape[1])  # type: ignore[arg-type]


def test_workers_put_together_the_table_of_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two spawned workers, batches of 7 rows: the same bits as one process, rule by rule."""
    monkeypatch.setattr(workers, "SMALLEST", 1)
    monkeypatch.setattr(sight, "AMONG_BATCH", 7)
    board = _board()
    keep = standable_mask(board)  # type: ignore[arg-type]
    with Workers(2) as pool:
        for rule in ("gloomhaven", "hexside"):
            profile = sight.resolve(board, rule)  # type: ignore[arg-type]
            assert np.array_equal(pool.pair_bits(board, keep, profile), sight.pair_bits_among(board, keep, profile))  # type: ignore[arg-type]
        assert pool._pool is not None  # the workers did it


def test_a_small_table_stays_in_this_process() -> None:
    """Starting workers costs about a second: a table under :data:`workers.SMALLEST` rows is
    computed here."""
    board = _board()
    keep = standable_mask(board)  # type: ignore[arg-type]
    with Workers(4) as pool:
        pool.pair_bits(board, keep, sight.resolve(board, "hexside"))  # type: ignore[arg-type]
        assert pool._pool is None


def test_an_interrupted_report_stops_its_workers_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl+C in the parent: leaving the ``with`` block by the exception terminates the workers
    (they may be minutes into their rows) instead of waiting for them."""
    monkeypatch.setattr(workers, "SMALLEST", 1)
    board = _board()
    keep = standable_mask(board)  # type: ignore[arg-type]
    processes = []
    with pytest.raises(KeyboardInterrupt), Workers(2) as pool:
        pool.pair_bits(board, keep, sight.resolve(board, "hexside"))  # type: ignore[arg-type]
        assert pool._pool is not None
        processes = list(pool._pool._processes.values())  # type: ignore[attr-defined]
        raise KeyboardInterrupt
    assert processes
    for process in processes:
        process.join(timeout=10)
        assert not process.is_alive()
    assert pool._pool is None


def test_the_report_is_the_same_with_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """``sightline report -j 2`` and ``-j 1`` write the same page and pictures (doors included)."""
    monkeypatch.setattr(workers, "SMALLEST", 1)
    grid, layout = HexGrid(8, 6), HexLayout(32, 37, 18)
    path = hex_tmx(tmp_path, grid, layout, blocked=[(3, 3)], walls=[((1, 1), (2, 1)), ((5, 2), (5, 3))],
                   doors=[((4, 1), (4, 2))])
    for jobs in ("1", "2"):
        assert main(["report", str(path), "-o", str(tmp_path / f"j{jobs}"), "-j", jobs]) == 0
    capsys.readouterr()
    one, two = ((tmp_path / f"j{j}" / "index.html").read_text(encoding="utf-8") for j in ("1", "2"))
    assert "door" in one and one == two
    for picture in sorted((tmp_path / "j1").glob("*.png")):
        assert picture.read_bytes() == (tmp_path / "j2" / picture.name).read_bytes(), picture.name


@pytest.mark.parametrize("bad", ["0", "-3", "many"])
def test_a_bad_jobs_count_is_one_line(tmp_path: Path, bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    grid, layout = HexGrid(3, 3), HexLayout(32, 37, 18)
    path = hex_tmx(tmp_path, grid, layout)
    assert main(["report", str(path), "-o", str(tmp_path / "out"), "-j", bad]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and re.search(r"-j/--jobs: .*not a number of worker processes: give 1 or more", err), err
    assert not (tmp_path / "out").exists()


def test_where_processes_cannot_start_the_table_is_computed_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """A platform without the semaphores a process pool needs (the standard library raises
    OSError there): the same table, computed in this process."""
    monkeypatch.setattr(workers, "SMALLEST", 1)

    def no_semaphores(method: str) -> object:
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(workers.multiprocessing, "get_context", no_semaphores)
    board = _board()
    keep = standable_mask(board)  # type: ignore[arg-type]
    profile = sight.resolve(board, "hexside")  # type: ignore[arg-type]
    with Workers(2) as pool:
        assert np.array_equal(pool.pair_bits(board, keep, profile), sight.pair_bits_among(board, keep, profile))  # type: ignore[arg-type]
        assert pool.fell_back and pool.jobs == 1


def test_a_worker_killed_midway_leaves_the_table_to_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker killed (as the kernel does when memory runs out) as soon as it exists: the pool
    breaks, the table is computed here, the same bits."""
    monkeypatch.setattr(workers, "SMALLEST", 1)
    monkeypatch.setattr(sight, "AMONG_BATCH", 4)
    grid = HexGrid(30, 30)
    walls = [grid.edges_of((x, y))[(x + y) % 3] for x in range(0, 30, 3) for y in range(1, 30, 2)]
    board = hex_board(30, 30, walls=walls, blocked=[(7, 7), (20, 11)])
    keep = standable_mask(board)
    profile = sight.resolve(board, "gloomhaven")
    killed: list[int] = []

    def kill_the_first_worker(pool: Workers) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            processes = getattr(pool._pool, "_processes", None) or {}
            if processes:
                pid = next(iter(processes))
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                return
            time.sleep(0.005)

    with Workers(2) as pool:
        killer = threading.Thread(target=kill_the_first_worker, args=(pool,))
        killer.start()
        found = pool.pair_bits(board, keep, profile)
        killer.join()
    assert killed and pool.fell_back
    assert np.array_equal(found, sight.pair_bits_among(board, keep, profile))
