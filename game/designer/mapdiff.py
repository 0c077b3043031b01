"""What changed in line of sight between two versions of a map (pure: boards in, numbers out).

Both boards are compared on their geometry (figures removed, see :mod:`game.designer.coverage`). When the
boards differ in size, only their common area (the top-left ``min(width) x min(height)``
squares) is compared, and :attr:`MapDiff.sizes_differ` says so.

>>> from game.core.board import Board
>>> old = Board.from_ascii(["...", "..."], walls=["V(1,0)"])
>>> new = Board.from_ascii(["...", "..."])
>>> d = diff_boards(old, new)
>>> d.pairs_gained, d.pairs_lost, [c.square for c in d.changes]
(3, 0, [(0, 0), (1, 0), (2, 0), (2, 1)])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from game.core.board import Board, Square
from game.core.words import plural
from game.designer.coverage import visibility_table


@dataclass(frozen=True)
class SquareChange:
    """One square whose view changed: how many squares it sees before/after, and which pairs."""

    square: Square
    sees_before: int
    sees_after: int
    gained: tuple[Square, ...]
    lost: tuple[Square, ...]

    def as_json(self) -> dict[str, object]:
        """``{"square", "sees_before", "sees_after", "gained", "lost"}`` with squares as [x, y]."""
        return {
            "square": list(self.square),
            "sees_before": self.sees_before,
            "sees_after": self.sees_after,
            "gained": [list(s) for s in self.gained],
            "lost": [list(s) for s in self.lost],
        }


@dataclass(frozen=True)
class MapDiff:
    """The visibility changes between two boards over their common area."""

    old_size: tuple[int, int]
    new_size: tuple[int, int]
    width: int  # of the common area
    height: int
    changes: tuple[SquareChange, ...]  # squares in row order
    pairs_gained: int  # unordered pairs that see each other only in the new version
    pairs_lost: int
    gained: np.ndarray  # int (H, W) of the common area: pairs gained per square
    lost: np.ndarray  # int (H, W)
    cell: str = "square"  # what one cell is called (the grid's noun)

    @property
    def sizes_differ(self) -> bool:
        """Whether the two boards have different sizes (only the common area was compared)."""
        return self.old_size != self.new_size

    def summary(self) -> str:
        """One line: how many squares and pairs changed, and the compared area."""
        area = f"{self.width}x{self.height}"
        if self.sizes_differ:
            (ow, oh), (nw, nh) = self.old_size, self.new_size
            area = f"the common {area} area only (old {ow}x{oh}, new {nw}x{nh})"
        return (
            f"{plural(len(self.changes), self.cell)} changed: "
            f"{plural(self.pairs_gained, 'pair')} gained, {plural(self.pairs_lost, 'pair')} lost; "
            f"compared {area}"
        )

    def as_json(self) -> dict[str, object]:
        """The JSON document of ``sightline diff --json``."""
        return {
            "old_size": list(self.old_size),
            "new_size": list(self.new_size),
            "common_area": [self.width, self.height],
            "sizes_differ": self.sizes_differ,
            "pairs_gained": self.pairs_gained,
            "pairs_lost": self.pairs_lost,
            "squares": [c.as_json() for c in self.changes],
        }


def _common_table(
    board: Board, width: int, height: int, table_of: Callable[[Board], np.ndarray] = visibility_table
) -> np.ndarray:
    """The visibility table of ``board`` restricted to the top-left ``width x height`` squares."""
    full = table_of(board)
    w, h = board.width, board.height
    idx = (np.arange(height)[:, None] * w + np.arange(width)[None, :]).reshape(-1)
    if width == w and height == h:
        return full
    return full[np.ix_(idx, idx)]


def diff_boards(old: Board, new: Board, table_of: Callable[[Board], np.ndarray] = visibility_table) -> MapDiff:
    """Compare the visibility of two boards square by square (``table_of``: the visibility table
    under another line-of-sight rule, e.g. ``lambda b: visibility_table(b, rule)``)."""
    width, height = min(old.width, new.width), min(old.height, new.height)
    before = _common_table(old, width, height, table_of)
    after = _common_table(new, width, height, table_of)
    gained = after & ~before
    lost = before & ~after
    sees_before = before.sum(axis=1)
    sees_after = after.sum(axis=1)
    changed_rows = np.nonzero(gained.any(axis=1) | lost.any(axis=1))[0]

    def square(i: int) -> Square:
        return int(i % width), int(i // width)

    changes = tuple(
        SquareChange(
            square(int(i)),
            int(sees_before[i]),
            int(sees_after[i]),
            tuple(square(int(j)) for j in np.nonzero(gained[i])[0]),
            tuple(square(int(j)) for j in np.nonzero(lost[i])[0]),
        )
        for i in changed_rows
    )
    return MapDiff(
        (old.width, old.height),
        (new.width, new.height),
        width,
        height,
        changes,
        int(np.triu(gained | gained.T, 1).sum()),
        int(np.triu(lost | lost.T, 1).sum()),
        gained.sum(axis=1).reshape(height, width).astype(np.int64),
        lost.sum(axis=1).reshape(height, width).astype(np.int64),
        new.grid.noun,
    )
