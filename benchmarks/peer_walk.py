"""The peer of the LOS engine: a plain-Python integer walk with early exit, same rule.

For each target the ray from centre to centre is walked crossing by crossing (compare the next
vertical and horizontal crossing with integer cross-products; equal means a grid corner) and
stops at the first blocker. No numpy, no tables: what a careful newcomer would write. It must
agree with :func:`game.core.los.visible_from` (``tests/test_los_peer.py`` checks it).

:func:`numba_fov` / :func:`numba_pairs`: the same walk compiled by numba (the compiled peer of
``fov_100x100_first`` and ``pair_table_128x128``), when numba is installed
(``pip install -e '.[bench]'``); compiled once by :func:`numba_ready` before anything is timed.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from game.core.board import Board, Edge, corner_edges


def peer_fov(board: Board, origin: tuple[int, int], viewer: str | None = None) -> list[list[bool]]:
    """Rows ``[y][x]``: whether each square is seen from ``origin`` (void squares never)."""
    w, h = board.width, board.height
    cells = {(x, y) for y in range(h) for x in range(w) if board.square_blocks_sight((x, y), viewer)}
    edges = {(e.axis, e.x, e.y) for e in set(board.walls) | set(board.doors) if board.edge_blocks_sight(e)}

    def closed(sq: tuple[int, int], arms: tuple[Edge, Edge]) -> bool:
        x, y = sq
        outside = not (0 <= x < w and 0 <= y < h)
        return outside or sq in cells or any((a.axis, a.x, a.y) in edges for a in arms)

    def clear(bx: int, by: int) -> bool:
        ax, ay = origin
        dx, dy = bx - ax, by - ay
        nx, ny = abs(dx), abs(dy)
        sx = 1 if dx > 0 else -1
        sy = 1 if dy > 0 else -1
        cx, cy, ix, iy = ax, ay, 0, 0
        while ix < nx or iy < ny:
            if ix < nx and iy < ny:
                order = (2 * ix + 1) * ny - (2 * iy + 1) * nx
            else:
                order = -1 if ix < nx else 1
            lx = cx + 1 if sx > 0 else cx
            ly = cy + 1 if sy > 0 else cy
            if order == 0:
                north, east, south, west = corner_edges((lx, ly))
                if sx * sy > 0:
                    both = closed((lx, ly - 1), (north, east)) and closed((lx - 1, ly), (south, west))
                else:
                    both = closed((lx - 1, ly - 1), (north, west)) and closed((lx, ly), (east, south))
                if both:
                    return False
                cx, cy, ix, iy = cx + sx, cy + sy, ix + 1, iy + 1
            elif order < 0:
                if ("V", lx, cy) in edges:
                    return False
                cx, ix = cx + sx, ix + 1
            else:
                if ("H", cx, ly) in edges:
                    return False
                cy, iy = cy + sy, iy + 1
            if (cx, cy) != (bx, by) and (cx, cy) in cells:
                return False
        return True

    return [[board.on_board((x, y)) and clear(x, y) for x in range(w)] for y in range(h)]


# --- the same walk compiled by numba (``pip install -e '.[bench]'``; never a runtime dependency) ---


def sight_arrays(board: Board, viewer: str | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What the compiled walk reads, built with numpy from the board's public sets: squares that
    block ``[y, x]`` (void, blocked terrain, shut door squares, enemies), blocking V edges
    ``[y, x]`` (H, W+1), blocking H edges (H+1, W) and on-board squares ``[y, x]``."""
    w, h = board.width, board.height
    cells = np.zeros((h, w), dtype=np.bool_)
    on = np.ones((h, w), dtype=np.bool_)
    for x, y in board.void:
        cells[y, x], on[y, x] = True, False
    for x, y in board.blocked:
        cells[y, x] = True
    for figure in board.figures.values():
        x, y = figure.square
        cells[y, x] |= board.square_blocks_sight((x, y), viewer)
    codes = np.fromiter(board.sight_edge_codes, dtype=np.int64)
    vertical = np.zeros(h * (w + 1), dtype=np.bool_)
    horizontal = np.zeros((h + 1) * w, dtype=np.bool_)
    vertical[codes[codes < h * (w + 1)]] = True
    horizontal[codes[codes >= h * (w + 1)] - h * (w + 1)] = True
    return cells, vertical.reshape(h, w + 1), horizontal.reshape(h + 1, w), on


def _walk_kernels() -> tuple[Callable[..., np.ndarray], Callable[..., np.ndarray]]:
    """The walk of :func:`peer_fov` compiled by numba: (one origin → every square, every pair
    among chosen squares). Raises ImportError without numba."""
    from numba import njit

    @njit(cache=False)
    def closed(cells, vertical, horizontal, x, y, ax, ay, a_vertical, bx, by, b_vertical):  # type: ignore[no-untyped-def]
        h, w = cells.shape
        if x < 0 or y < 0 or x >= w or y >= h or cells[y, x]:
            return True
        for ex, ey, vert in ((ax, ay, a_vertical), (bx, by, b_vertical)):
            if vert:
                if 0 <= ey < h and 0 <= ex <= w and vertical[ey, ex]:
                    return True
            elif 0 <= ey <= h and 0 <= ex < w and horizontal[ey, ex]:
                return True
        return False

    @njit(cache=False)
    def clear(cells, vertical, horizontal, ax, ay, bx, by):  # type: ignore[no-untyped-def]
        h, w = cells.shape
        dx, dy = bx - ax, by - ay
        nx, ny = abs(dx), abs(dy)
        sx = 1 if dx > 0 else -1
        sy = 1 if dy > 0 else -1
        cx, cy, ix, iy = ax, ay, 0, 0
        while ix < nx or iy < ny:
            if ix < nx and iy < ny:
                order = (2 * ix + 1) * ny - (2 * iy + 1) * nx
            else:
                order = -1 if ix < nx else 1
            lx = cx + 1 if sx > 0 else cx
            ly = cy + 1 if sy > 0 else cy
            if order == 0:  # a grid corner: arms north V(lx, ly-1), east H(lx, ly), south V(lx, ly), west H(lx-1, ly)
                if sx * sy > 0:
                    both = closed(cells, vertical, horizontal, lx, ly - 1, lx, ly - 1, True, lx, ly, False) and \
                        closed(cells, vertical, horizontal, lx - 1, ly, lx, ly, True, lx - 1, ly, False)
                else:
                    both = closed(cells, vertical, horizontal, lx - 1, ly - 1, lx, ly - 1, True, lx - 1, ly, False) and \
                        closed(cells, vertical, horizontal, lx, ly, lx, ly, False, lx, ly, True)
                if both:
                    return False
                cx, cy, ix, iy = cx + sx, cy + sy, ix + 1, iy + 1
            elif order < 0:
                if 0 <= lx <= w and vertical[cy, lx]:
                    return False
                cx, ix = cx + sx, ix + 1
            else:
                if 0 <= ly <= h and horizontal[ly, cx]:
                    return False
                cy, iy = cy + sy, iy + 1
            if (cx != bx or cy != by) and cells[cy, cx]:
                return False
        return True

    @njit(cache=False)
    def field(cells, vertical, horizontal, on, ox, oy):  # type: ignore[no-untyped-def]
        h, w = cells.shape
        out = np.zeros((h, w), dtype=np.bool_)
        for y in range(h):
            for x in range(w):
                out[y, x] = on[y, x] and clear(cells, vertical, horizontal, ox, oy, x, y)
        return out

    @njit(cache=False)
    def pairs(cells, vertical, horizontal, xs, ys):  # type: ignore[no-untyped-def]
        k = xs.size
        out = np.zeros((k, k), dtype=np.bool_)
        for i in range(k):
            for j in range(i + 1, k):
                if clear(cells, vertical, horizontal, xs[i], ys[i], xs[j], ys[j]):
                    out[i, j] = True
                    out[j, i] = True
        return out

    return field, pairs


_KERNELS: list[tuple[Callable[..., np.ndarray], Callable[..., np.ndarray]]] = []


def numba_ready() -> bool:
    """Whether numba is installed; compiles the walk on a tiny board the first time (so no timed
    call pays for the compiler)."""
    if not _KERNELS:
        try:
            kernels = _walk_kernels()
        except ImportError:
            return False
        tiny = Board(3, 2, walls=[Edge("V", 1, 0)])
        cells, vertical, horizontal, on = sight_arrays(tiny)
        kernels[0](cells, vertical, horizontal, on, 0, 0)
        kernels[1](cells, vertical, horizontal, np.array([0, 2]), np.array([0, 1]))
        _KERNELS.append(kernels)
    return True


def numba_fov(board: Board, origin: tuple[int, int], viewer: str | None = None) -> np.ndarray:
    """:func:`peer_fov` compiled: bool ``[y, x]`` (the board's arrays built each call, as a
    first call on a new board would)."""
    numba_ready()
    cells, vertical, horizontal, on = sight_arrays(board, viewer)
    return _KERNELS[0][0](cells, vertical, horizontal, on, origin[0], origin[1])


def numba_pairs(board: Board, keep: np.ndarray, viewer: str | None = None) -> np.ndarray:
    """Every pair among the on-board squares of the bool mask ``keep`` ``[y, x]`` (row-major
    order), compiled walk, each unordered pair walked once: bool ``(k, k)``, never a square with
    itself."""
    numba_ready()
    cells, vertical, horizontal, on = sight_arrays(board, viewer)
    ys, xs = np.nonzero(keep & on)
    return _KERNELS[0][1](cells, vertical, horizontal, xs.astype(np.int64), ys.astype(np.int64))
