"""The peer of the LOS engine: a plain-Python integer walk with early exit, same rule.

For each target the ray from centre to centre is walked crossing by crossing (compare the next
vertical and horizontal crossing with integer cross-products; equal means a grid corner) and
stops at the first blocker. No numpy, no tables: what a careful newcomer would write. It must
agree with :func:`game.core.los.visible_from` (``tests/test_los_peer.py`` checks it).
"""

from __future__ import annotations

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
