"""Coverage, door effects and map diffs under a line-of-sight rule profile (pure).

:mod:`game.designer.coverage` builds its tables with the Arcadia Quest engine; these functions take
a :class:`~game.core.profiles.Profile` (the map's ``los_rule`` or the command line's rule) and use
the same engine for ``arcadia`` and :mod:`game.core.profile_los` for every other rule, with the
same contracts: geometry only (figures taken off), standable squares only, never a square with
itself.

>>> from game.core.board import Board
>>> from game.core.profiles import parse_rule
>>> board = Board.from_ascii(["...", ".#.", "..."])
>>> int(visibility_table_under(board, parse_rule("arcadia"))[0, 8]), int(visibility_table_under(board, parse_rule("corners"))[0, 8])
(0, 1)
"""

from __future__ import annotations

import numpy as np

from game.core.board import Board, DoorState
from game.core.profiles import Profile
from game.designer.coverage import (
    DoorEffect,
    door_effects,
    geometry_board,
    standable_mask,
    visibility_table,
)

__all__ = ["door_effects_under", "visibility_table_under"]


def visibility_table_under(board: Board, profile: Profile) -> np.ndarray:
    """Bool ``(N, N)``, index ``y * width + x``: who sees whom under ``profile`` (the contract of
    :func:`game.designer.coverage.visibility_table`, which it is for ``arcadia``)."""
    if profile.is_arcadia:
        return visibility_table(board)
    from game.core.profile_los import visible_from

    bare = geometry_board(board) if board.figures else board
    w, n = board.width, board.width * board.height
    keep = standable_mask(board)
    flat = keep.reshape(-1)
    table = np.zeros((n, n), dtype=bool)
    for y, x in zip(*np.nonzero(keep), strict=True):
        table[y * w + x] = visible_from(bare, (int(x), int(y)), profile).reshape(-1) & flat
    np.fill_diagonal(table, False)
    return table


def door_effects_under(
    board: Board, profile: Profile, table: np.ndarray | None = None, *, examples: int = 5
) -> list[DoorEffect]:
    """For each door, the pairs whose visibility changes when it opens, under ``profile`` (for
    ``arcadia`` :func:`game.designer.coverage.door_effects`; otherwise one table per door, toggled)."""
    if profile.is_arcadia:
        return door_effects(board, table, examples=examples)
    bare = geometry_board(board) if board.figures else board.copy()
    if table is None:
        table = visibility_table_under(bare, profile)
    w = board.width
    out: list[DoorEffect] = []
    for edge, door in sorted(bare.doors.items()):
        original = door.state
        bare.set_door(edge, DoorState.CLOSED if original is DoorState.OPEN else DoorState.OPEN)
        other = visibility_table_under(bare, profile)
        bare.set_door(edge, original)
        changed = table ^ other
        changed |= changed.T
        upper = np.triu(changed, 1)
        per_square = changed.sum(axis=0).reshape(board.height, w).astype(np.int64)
        shown = tuple(((int(a % w), int(a // w)), (int(b % w), int(b // w))) for a, b in np.argwhere(upper)[:examples])
        out.append(DoorEffect(door, int(upper.sum()), per_square, shown))
    return out
