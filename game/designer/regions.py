"""Where figures can walk (docs/lint.md): the board's walking regions with doors open or shut, as
one array pass (:func:`movement_labels`) or as lists of squares (:func:`walk_regions`), and the
linter's findings about them (:func:`check_regions`: squares no one can reach, rooms behind locked
doors). The window's findings panel looks regions up in the same labels."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from game.core.board import Board, DoorState, Square, fmt_square
from game.core.findings import Finding, Severity
from game.core.words import plural, plural_of
from game.designer.coverage import connected_components, label_groups

# --- regions -------------------------------------------------------------------------------


def walk_regions(board: Board, *, doors_open: bool) -> list[list[Square]]:
    """Squares a figure can walk between, as connected regions, largest first (ties: by first
    square, row then column); each region's squares by row, then column.

    Blocked terrain squares are not walkable; walls and windows stop a figure; doors stop it
    unless ``doors_open`` (or unless the door is open on the board). The regions are the labels
    of :func:`movement_labels`.

    >>> b = Board.from_ascii(["...", "..."], walls=["V(2,0)", "V(2,1)"])
    >>> [len(r) for r in walk_regions(b, doors_open=True)]
    [4, 2]
    """
    if board.grid.kind != "square":
        return _walk_grid(board, doors_open)
    w = board.width
    regions = [
        [(int(i % w), int(i // w)) for i in group] for group in label_groups(movement_labels(board, doors_open=doors_open))
    ]
    regions.sort(key=lambda r: (-len(r), r[0][1], r[0][0]))
    return regions


def _walk_grid(board: Board, doors_open: bool) -> list[list[Square]]:
    """:func:`walk_regions` on any grid, one cell at a time through ``grid.neighbours`` (the
    square grid's regions come from :func:`movement_labels`, the same rule as one array pass)."""
    seen: set[Square] = set()
    regions: list[list[Square]] = []
    doors = board.doors
    door_squares = board.door_squares

    def stops(sq: Square) -> bool:
        """Blocked terrain, impassable squares, shut door squares unless ``doors_open``."""
        if board.is_impassable(sq):
            return True
        if sq in door_squares:
            return door_squares[sq].blocks and not doors_open
        return board.is_blocked_terrain(sq)

    for start in board.squares():
        if start in seen or stops(start):
            continue
        region = [start]
        seen.add(start)
        stack = [start]
        while stack:
            here = stack.pop()
            for nxt in board.grid.neighbours(here):
                if nxt in seen or not board.on_board(nxt) or stops(nxt):
                    continue
                edge = board.grid.edge_between(here, nxt)
                if edge in doors and doors_open:
                    passable = True
                else:
                    passable = not board.edge_blocks_movement(edge)
                if passable:
                    seen.add(nxt)
                    region.append(nxt)
                    stack.append(nxt)
        region.sort(key=lambda s: (s[1], s[0]))
        regions.append(region)
    regions.sort(key=lambda r: (-len(r), r[0][1], r[0][0]))
    return regions


def movement_labels(board: Board, *, doors_open: bool) -> np.ndarray:
    """The walking regions of :func:`walk_regions` as one array pass: int64 flat labels
    ``[y * width + x]``, equal for two squares a figure can walk between (the smallest flat index
    of the region), -1 for a square no figure can stand on (void, impassable, blocked terrain, a
    shut door square unless ``doors_open``).

    >>> b = Board.from_ascii(["..#", "..."], walls=["V(1,0)", "V(1,1)"])
    >>> movement_labels(b, doors_open=True).tolist()
    [0, 1, -1, 0, 1, 1]
    """
    w, h = board.width, board.height
    if board.grid.kind != "square":  # other grids: the labels of the cell-by-cell walk
        out = np.full(w * h, -1, dtype=np.int64)
        for region in _walk_grid(board, doors_open):
            cells = [y * w + x for x, y in region]
            out[cells] = min(cells)
        return out
    walk = np.ones((h, w), dtype=bool)
    for x, y in board.void:
        if 0 <= x < w and 0 <= y < h:
            walk[y, x] = False
    terrain = set(board.impassable)
    door_squares = board.door_squares
    terrain.update(sq for sq in board.blocked if sq not in door_squares)
    terrain.update(sq for sq, state in door_squares.items() if state.blocks and not doors_open)
    for x, y in terrain:
        if 0 <= x < w and 0 <= y < h:
            walk[y, x] = False
    v = np.zeros((h, w + 1), dtype=bool)  # V(x, y) stops a figure
    hh = np.zeros((h + 1, w), dtype=bool)  # H(x, y)
    doors = board.doors
    stopping = [e for e in board.walls | board.windows if e not in doors]
    stopping += [e for e, door in doors.items() if door.state.blocks and not doors_open]
    for edge in stopping:
        if edge.axis == "V" and 0 <= edge.x <= w and 0 <= edge.y < h:
            v[edge.y, edge.x] = True
        elif edge.axis == "H" and 0 <= edge.x < w and 0 <= edge.y <= h:
            hh[edge.y, edge.x] = True
    flat = np.arange(h * w, dtype=np.int64).reshape(h, w)
    across = walk[:, :-1] & walk[:, 1:] & ~v[:, 1:w]
    down = walk[:-1, :] & walk[1:, :] & ~hh[1:h, :]
    labels = connected_components(
        h * w,
        np.concatenate((flat[:, :-1][across], flat[:-1, :][down])),
        np.concatenate((flat[:, 1:][across], flat[1:, :][down])),
    )
    return np.where(walk.reshape(-1), labels, -1)


def _list_squares(squares: Sequence[Square], limit: int = 6) -> str:
    shown = " ".join(fmt_square(s) for s in squares[:limit])
    return shown + (f" and {len(squares) - limit} more" if len(squares) > limit else "")


def check_regions(board: Board) -> list[Finding]:
    """Regions nobody can walk to even with every door open (error), or while doors stay shut.

    With every door open, the largest region is "the board"; every other region is unreachable: a
    missing door, or squares that should be blocked terrain or void. With doors as drawn (closed and
    locked doors shut), a region of the open board cut off from its largest part is a warning naming
    the doors that seal it.

    >>> b = Board.from_ascii(["...", "..."], walls=["V(2,0)"], doors={"V(2,1)": "closed"})
    >>> [(f.code, f.square) for f in check_regions(b)]
    [('region-sealed-by-doors', (2, 0))]
    """
    out: list[Finding] = []
    open_regions = walk_regions(board, doors_open=True)
    if not open_regions:
        return out
    figures_at = {f.square: f for f in board.figures.values()}
    for region in open_regions[1:]:
        who = next((figures_at[s] for s in region if s in figures_at), None)
        stranded = f"; figure {who.label} starts there" if who else ""
        out.append(Finding(
            "region-unreachable", Severity.ERROR if who else Severity.WARNING,
            f"{plural(len(region), board.grid.noun)} {_list_squares(region)} cannot be reached from the rest of "
            f"the board even with every door open{stranded}",
            who.id if who else None, region[0],
            f"add a door, or mark those {plural_of(board.grid.noun)} as blocked terrain or void if nobody should stand there",
        ))
    main = set(open_regions[0])
    shut_regions = walk_regions(board, doors_open=False)
    inside_main = [r for r in shut_regions if r[0] in main]
    for region in inside_main[1:]:
        members = set(region)
        sealing = sorted(
            {
                door for edge, door in board.doors.items() if door.state.blocks
                and (board.grid.edge_cells(edge)[0] in members) != (board.grid.edge_cells(edge)[1] in members)
                and all(board.on_board(s) for s in board.grid.edge_cells(edge))
            },
            key=lambda d: d.edge,
        )
        doors = ", ".join(
            [f"{d.edge} ({d.state.value}{', object ' + str(d.object_id) if d.object_id is not None else ''})"
             for d in sealing]
            + [f"door {board.grid.noun} {fmt_square(sq)} ({state.value})" for sq, state in _door_squares_around(board, members)]
        )
        first = sealing[0].object_id if sealing else None
        out.append(Finding(
            "region-sealed-by-doors", Severity.WARNING,
            f"{plural(len(region), board.grid.noun)} {_list_squares(region)} {'is' if len(region) == 1 else 'are'} sealed off while these doors stay "
            f"shut: {doors}",
            first, region[0], "fine if intended; otherwise open a door or add another way in",
        ))
    return out


def _door_squares_around(board: Board, members: set[Square]) -> list[tuple[Square, DoorState]]:
    """The shut door cells next to a region (they seal it like shut doors on its edges): the
    board's grid says which cells are next to one (four squares, six hexes)."""
    out = []
    for sq, state in sorted(board.door_squares.items()):
        if state.blocks and any(n in members for n in board.grid.neighbours(sq)):
            out.append((sq, state))
    return out
