"""Boards out to virtual tabletops: a Universal VTT file or a Foundry scene (``sightline export``).

Pure: a :class:`~game.core.board.Board` (and the picture's PNG bytes or file name) in, a JSON
document out. What each format says, and what Sightline adds so that reading the file back gives
the same board (docs/vtt.md, "Export"):

* **walls** (minus the edges a door decides) as straight runs: ``line_of_sight`` lines, or
  Foundry walls that block movement, sight, light and sound;
* **doors**, one per edge, with their state: a portal whose ``closed`` says whether it blocks
  (plus ``"sightline": {"kind": "door", "state": ...}``), or a Foundry door (``door`` 1, ``ds``);
* **windows** (block movement, not sight): portals that let light through, or Foundry walls with
  ``sight`` and ``light`` none;
* **blocked squares**: ``objects_line_of_sight`` rectangles (every square whose centre lies
  inside is blocked again on reading), or in Foundry walls around them marked
  ``flags.sightline.outline`` plus the squares in ``flags.sightline``;
* **figures**: Foundry tokens (side as disposition, the exact side and stats in
  ``flags.sightline``); a Universal VTT file has no tokens, so they go in its ``sightline`` object;
* **void and impassable squares, door squares, map properties**: in the ``sightline`` object
  (Foundry: ``flags.sightline``), which other tools ignore.

>>> from game.core.board import Board, Door, DoorState, Edge
>>> board = Board(3, 2, walls=[Edge("V", 1, 0), Edge("V", 1, 1)], doors=[Door(Edge("V", 1, 1), DoorState.OPEN)])
>>> doc = uvtt_document(board, None, 50)
>>> doc["line_of_sight"], doc["portals"][0]["closed"], doc["portals"][0]["sightline"]
([[{'x': 1, 'y': 0}, {'x': 1, 'y': 1}]], False, {'kind': 'door', 'state': 'open'})
"""

from __future__ import annotations

import base64
import math
from collections.abc import Iterable
from typing import Any

from game.core.board import Board, Corner, Edge, Square, Stat

#: the Universal VTT format number written (Dungeondraft's current one)
UVTT_FORMAT = 0.3
#: Foundry's restriction value for "normal" (blocks) and "none"
NORMAL, NONE = 20, 0
#: a side named so keeps its disposition; other sides: the first figure's side is friendly
DISPOSITIONS = {"friendly": 1, "neutral": 0, "hostile": -1, "secret": -2}

Run = tuple[Corner, Corner]


def edge_runs(edges: Iterable[Edge]) -> list[Run]:
    """Unit edges merged into maximal straight runs, each ``(start corner, end corner)``, sorted.

    >>> edge_runs([Edge("H", 0, 2), Edge("H", 1, 2), Edge("V", 3, 0), Edge("H", 3, 2)])
    [((0, 2), (2, 2)), ((3, 2), (4, 2)), ((3, 0), (3, 1))]
    """
    rows: dict[tuple[str, int], list[int]] = {}
    for edge in edges:
        key = (edge.axis, edge.y if edge.axis == "H" else edge.x)
        rows.setdefault(key, []).append(edge.x if edge.axis == "H" else edge.y)
    runs: list[Run] = []
    for (axis, line), starts in sorted(rows.items()):
        starts.sort()
        first = prev = starts[0]
        for at in [*starts[1:], None]:
            if at is not None and at <= prev + 1:
                prev = max(prev, at)
                continue
            runs.append(((first, line), (prev + 1, line)) if axis == "H" else ((line, first), (line, prev + 1)))
            if at is not None:
                first = prev = at
    return runs


def square_rects(squares: Iterable[Square]) -> list[tuple[int, int, int, int]]:
    """Squares as rectangles ``(x0, y0, x1, y1)`` (corners), one per run of a row, sorted.

    >>> square_rects([(0, 0), (1, 0), (3, 0), (1, 1)])
    [(0, 0, 2, 1), (3, 0, 4, 1), (1, 1, 2, 2)]
    """
    return [(a[0], a[1], b[0], a[1] + 1) for a, b in edge_runs(Edge("H", x, y) for x, y in squares)]


def outline_edges(squares: frozenset[Square]) -> set[Edge]:
    """The edges between a square of ``squares`` and one that is not.

    >>> sorted(str(e) for e in outline_edges(frozenset({(0, 0), (1, 0)})))
    ['H(0,0)', 'H(0,1)', 'H(1,0)', 'H(1,1)', 'V(0,0)', 'V(2,0)']
    """
    out: set[Edge] = set()
    for x, y in squares:
        for edge, other in ((Edge("V", x, y), (x - 1, y)), (Edge("V", x + 1, y), (x + 1, y)),
                            (Edge("H", x, y), (x, y - 1)), (Edge("H", x, y + 1), (x, y + 1))):
            if other not in squares:
                out.add(edge)
    return out


def _properties(board: Board) -> dict[str, Stat]:
    """The map properties to write back: the board's, with its ruleset and capacity."""
    return {**dict(board.properties), "ruleset": board.ruleset, "capacity": board.capacity}


def _extension(board: Board, roles: tuple[str, ...]) -> dict[str, Any]:
    """What the format cannot say, for Sightline's own ``sightline`` object."""
    cells = {"void": board.void, "impassable": board.impassable,
             "blocked": board.blocked - frozenset(board.door_squares)}
    out: dict[str, Any] = {"version": 1}
    for role in roles:
        if cells[role]:
            out[role] = [list(sq) for sq in sorted(cells[role])]
    if board.door_squares:
        out["door_squares"] = [{"square": list(sq), "state": state.value}
                               for sq, state in sorted(board.door_squares.items())]
    out["properties"] = _properties(board)
    return out


def _point(corner: Corner) -> dict[str, int]:
    return {"x": corner[0], "y": corner[1]}


def _portal(a: Corner, b: Corner, closed: bool, tag: dict[str, str]) -> dict[str, Any]:
    return {
        "position": {"x": (a[0] + b[0]) / 2, "y": (a[1] + b[1]) / 2},
        "bounds": [_point(a), _point(b)],
        "rotation": 0.0 if a[1] == b[1] else round(math.pi / 2, 6),
        "closed": closed,
        "freestanding": False,
        "sightline": tag,
    }


def uvtt_document(board: Board, picture_png: bytes | None, scale: int) -> dict[str, Any]:
    """The board as a Universal VTT document (see the module docstring); ``scale`` is the
    picture's pixels per square."""
    walls = set(board.walls) - set(board.doors)
    portals = [_portal(*door.edge.ends(), door.state.blocks, {"kind": "door", "state": door.state.value})
               for door in sorted(board.doors.values(), key=lambda d: d.edge)]
    portals += [_portal(a, b, False, {"kind": "window"})
                for a, b in edge_runs(set(board.windows) - walls - set(board.doors))]
    blocked = board.blocked - frozenset(board.door_squares)
    extension = _extension(board, ("void", "impassable"))
    extension["figures"] = [
        {"name": f.name, "side": f.side, "centre": {"x": f.square[0] + 0.5, "y": f.square[1] + 0.5},
         "stats": dict(f.stats)}
        for f in sorted(board.figures.values(), key=lambda f: f.id)
    ]
    return {
        "format": UVTT_FORMAT,
        "resolution": {"map_origin": {"x": 0, "y": 0},
                       "map_size": {"x": board.width, "y": board.height}, "pixels_per_grid": scale},
        "line_of_sight": [[_point(a), _point(b)] for a, b in edge_runs(walls)],
        "objects_line_of_sight": [
            [_point((x0, y0)), _point((x1, y0)), _point((x1, y1)), _point((x0, y1))]
            for x0, y0, x1, y1 in square_rects(blocked)
        ],
        "portals": portals,
        "environment": {"baked_lighting": False, "ambient_light": "ffffffff"},
        "lights": [],
        "image": base64.b64encode(picture_png).decode("ascii") if picture_png else "",
        "sightline": extension,
    }


def _wall(n: int, a: Corner, b: Corner, scale: int, **fields: Any) -> dict[str, Any]:
    wall = {"_id": f"sightlinew{n:06d}",  # Foundry ids are 16 letters and digits
            "c": [a[0] * scale, a[1] * scale, b[0] * scale, b[1] * scale],
            "move": NORMAL, "sight": NORMAL, "light": NORMAL, "sound": NORMAL,
            "door": 0, "ds": 0, "dir": 0, "flags": {}}
    wall.update(fields)
    return wall


def dispositions(board: Board) -> dict[str, int]:
    """Each side's Foundry disposition: sides named friendly, neutral, hostile or secret keep
    theirs; otherwise the side of the first figure (lowest id) is friendly, the others hostile.

    >>> from game.core.board import Figure
    >>> dispositions(Board(3, 1, figures=[Figure(2, "Grub", "monsters", (2, 0)), Figure(1, "Ann", "guild", (0, 0))]))
    {'guild': 1, 'monsters': -1}
    """
    figures = sorted(board.figures.values(), key=lambda f: f.id)
    first = figures[0].side if figures else None
    return {side: DISPOSITIONS.get(side.casefold(), 1 if side == first else -1)
            for side in sorted({f.side for f in figures})}


def foundry_document(board: Board, picture: str | None, scale: int, name: str) -> dict[str, Any]:
    """The board as a Foundry scene (see the module docstring); ``picture`` is the background
    file's name, ``scale`` the grid size in pixels."""
    walls = set(board.walls) - set(board.doors)
    docs: list[dict[str, Any]] = []
    for a, b in edge_runs(walls):
        docs.append(_wall(len(docs), a, b, scale))
    for a, b in edge_runs(set(board.windows) - walls - set(board.doors)):
        docs.append(_wall(len(docs), a, b, scale, sight=NONE, light=NONE, sound=NONE))
    for door in sorted(board.doors.values(), key=lambda d: d.edge):
        docs.append(_wall(len(docs), *door.edge.ends(), scale, door=1,
                          ds={"closed": 0, "open": 1, "locked": 2}[door.state.value]))
    blocked = board.blocked - frozenset(board.door_squares)
    for a, b in edge_runs(outline_edges(blocked) - walls - set(board.doors)):
        docs.append(_wall(len(docs), a, b, scale, flags={"sightline": {"outline": True}}))
    sides = dispositions(board)
    tokens = [
        {"_id": f"sightlinet{i:06d}", "name": f.name, "x": f.square[0] * scale, "y": f.square[1] * scale,
         "width": 1, "height": 1, "disposition": sides[f.side], "hidden": False,
         "flags": {"sightline": {"side": f.side, "stats": dict(f.stats)}}}
        for i, f in enumerate(sorted(board.figures.values(), key=lambda f: f.id))
    ]
    return {
        "name": name,
        "width": board.width * scale,
        "height": board.height * scale,
        "padding": 0,
        "grid": {"type": 1, "size": scale, "distance": 5, "units": "ft"},
        "background": {"src": picture},
        "walls": docs,
        "tokens": tokens,
        "flags": {"sightline": _extension(board, ("blocked", "void", "impassable"))},
    }


__all__ = [
    "UVTT_FORMAT", "dispositions", "edge_runs", "foundry_document", "outline_edges", "square_rects",
    "uvtt_document",
]
