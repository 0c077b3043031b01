"""Worker processes for the long every-pair tables: a hex map's report asks, per rule and per
door, the bit table of every pair of standable hexes (one field of view per hex: minutes on a
100×100 map); :class:`Workers` hands its rows to other processes, a batch of origins each, and
puts the same table together (:data:`game.designer.coverage.Pairs`).

The pure engines stay pure: each worker runs :func:`game.core.sight.pair_bits_among` on its own
rows (``rows=``), exactly what the whole table holds there. Workers are started (``spawn``: a
fresh interpreter, safe whatever the parent has loaded) on the first table big enough to be worth
it, and stopped when the ``with`` block ends; Ctrl+C stops them at once (they ignore the signal
themselves, so only the parent says it was interrupted). Where processes cannot start (a platform
without the semaphores they need) or a worker dies (killed for memory), the table is computed in
this process instead: the same bits, later.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import TracebackType

import numpy as np

from game.core import sight
from game.core.board import Board
from game.core.profile_los import on_board_mask
from game.core.profiles import Profile

__all__ = ["Workers", "available_cpus"]

#: a table with fewer rows than this is computed in this process (starting workers costs ~1 s)
SMALLEST = 1024


def available_cpus() -> int:
    """How many CPUs this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)


def _quiet() -> None:
    """In a worker: leave Ctrl+C to the parent (no traceback from each worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _rows(board: Board, keep: np.ndarray, rule: Profile, start: int, stop: int) -> np.ndarray:
    """In a worker: rows ``start .. stop - 1`` of the table."""
    return sight.pair_bits_among(board, keep, rule, rows=(start, stop))


class Workers:
    """Bit tables of every pair among a mask's cells (:data:`game.designer.coverage.Pairs`), their
    rows computed by ``jobs`` worker processes (1: all in this process), in a ``with`` block."""

    def __init__(self, jobs: int) -> None:
        self.jobs = max(1, jobs)
        self._pool: ProcessPoolExecutor | None = None
        #: the workers could not start or one died: the tables are computed here since
        self.fell_back = False

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.close(error is not None)

    def close(self, now: bool = False) -> None:
        """Stop the workers: after their work (``now``: at once, their work dropped)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if now:
            for process in list(getattr(pool, "_processes", {}).values()):
                process.terminate()  # a worker may be minutes into its rows: do not wait for it
        pool.shutdown(wait=not now, cancel_futures=True)

    def pair_bits(self, board: Board, keep: np.ndarray, rule: Profile) -> np.ndarray:
        """The table :func:`game.core.sight.pair_bits_among` gives, its rows computed
        :data:`game.core.sight.AMONG_BATCH` at a time by the workers when it is big enough."""
        count = int(np.count_nonzero(keep & on_board_mask(board)))  # the table's rows, as it counts them
        if self.jobs == 1 or count < SMALLEST:
            return sight.pair_bits_among(board, keep, rule)
        try:
            return self._shared(board, keep, rule, count)
        except (BrokenProcessPool, OSError):  # no processes here (no semaphores, a worker killed): alone
            self.close(now=True)
            self.jobs, self.fell_back = 1, True
            return sight.pair_bits_among(board, keep, rule)

    def _shared(self, board: Board, keep: np.ndarray, rule: Profile, count: int) -> np.ndarray:
        """:meth:`pair_bits` by the workers (started on the first call)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.jobs, mp_context=multiprocessing.get_context("spawn"), initializer=_quiet)
        step = sight.AMONG_BATCH
        parts: list[Future[np.ndarray]] = [
            self._pool.submit(_rows, board, keep, rule, start, min(start + step, count)) for start in range(0, count, step)
        ]
        out = np.empty((count, (count + 7) // 8), dtype=np.uint8)
        for start, part in zip(range(0, count, step), parts, strict=True):
            found = part.result()
            out[start : start + found.shape[0]] = found
        return out

