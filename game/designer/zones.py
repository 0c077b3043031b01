"""Deployment zones and the board's symmetries, for the balance report (pure).

**Zones.** A map marks where each side deploys with objects of class ``deploy`` (or ``spawn``)
carrying a string property ``side``: rectangles, ellipses or polygons covering the squares whose
centres they hold (the same tracing as blocked and void areas), several objects of one side
adding up. A map without such objects takes each side's figures' squares as its zone. A
square a figure cannot stand on (void, blocked terrain) is never part of a zone.

**Symmetries.** The eight reflections and rotations of a square grid (the four rotations and
four reflections of a square board; on an oblong board the identity, the half turn and the two
mirrors). :func:`swaps` finds those that map one zone exactly onto the other and back.

>>> from game.core.board import Board, Figure
>>> board = Board(6, 3)
>>> board.place_figure(Figure(1, "A", "red", (0, 1)))
>>> board.place_figure(Figure(2, "B", "blue", (5, 1)))
>>> first, second = zones_from(board, {})
>>> first.side, sorted(first.squares), second.source
('blue', [(5, 1)], 'figures')
>>> [t.name for t in swaps(board, first, second)]
['mirror left-right', 'half turn']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from game.core.board import Board, Edge, Square, fmt_square
from game.core.errors import UsageError

if TYPE_CHECKING:
    from game.tiled import ObjectInfo

#: the object role of a deployment zone (classes ``deploy`` and ``spawn``)
ZONE_ROLE = "deploy"


@dataclass(frozen=True)
class Zone:
    """Where one side deploys: its squares and where they came from (``objects`` or ``figures``)."""

    side: str
    squares: frozenset[Square]
    source: str
    object_ids: tuple[int, ...] = ()

    def mask(self, board: Board) -> np.ndarray:
        """Bool ``[y, x]`` of the zone's squares."""
        out = np.zeros((board.height, board.width), dtype=bool)
        for x, y in self.squares:
            out[y, x] = True
        return out

    def as_json(self) -> dict[str, object]:
        """``{"side", "source", "objects", "squares": [[x, y], ...]}`` (row by row)."""
        return {"side": self.side, "source": self.source, "objects": list(self.object_ids),
                "squares": [list(sq) for sq in sorted(self.squares, key=lambda s: (s[1], s[0]))]}


def _standable(board: Board, sq: Square) -> bool:
    return board.on_board(sq) and not board.is_blocked_terrain(sq)


def zones_from(board: Board, objects: Mapping[int, ObjectInfo]) -> list[Zone]:
    """Every side's zone, sides sorted by name: from the map's ``deploy`` objects (and ``spawn``
    objects with a ``side``; a ``spawn`` without one is another project's and left alone) when
    it has any, else from the figures. UsageError when fewer than two sides have a zone."""
    from game.tiled.geometry import cells_inside

    marked: dict[str, set[Square]] = {}
    ids: dict[str, list[int]] = {}
    for obj in objects.values():
        side = str(obj.properties.get("side", "") or "").strip()
        spawn = obj.class_name.strip().lower() == "spawn" and bool(side)  # a spawn point of a side
        if obj.role != ZONE_ROLE and not spawn:
            continue
        if not side:
            raise UsageError(f"deploy object {obj.id} has no side: give it a string property side")
        cells = cells_inside(obj.shape, obj.x, obj.y, obj.width, obj.height, obj.points, obj.skewed,
                             (board.width, board.height))
        marked.setdefault(side, set()).update(sq for sq in cells if _standable(board, sq))
        ids.setdefault(side, []).append(obj.id)
    if marked:
        zones = [Zone(side, frozenset(sq), "objects", tuple(ids[side])) for side, sq in sorted(marked.items())]
    else:
        by_side: dict[str, set[Square]] = {}
        for figure in board.figures.values():
            by_side.setdefault(figure.side, set()).add(figure.square)
        zones = [Zone(side, frozenset(sq), "figures") for side, sq in sorted(by_side.items())]
    zones = [z for z in zones if z.squares]
    if len(zones) < 2:
        found = ", ".join(z.side for z in zones) or "none"
        raise UsageError(
            f"the balance report needs two sides with a deployment zone (found: {found}); draw "
            "objects of class deploy with a property side, or place figures of two sides"
        )
    return zones


@dataclass(frozen=True)
class Symmetry:
    """One reflection or rotation of the board: its name and the square it sends each square to."""

    name: str
    apply: Callable[[Square], Square]

    def edge(self, edge: Edge) -> Edge:
        """The edge between the images of the two squares ``edge`` separates."""
        a, b = edge.squares()
        return Edge.between(self.apply(a), self.apply(b))


def symmetries(board: Board) -> list[Symmetry]:
    """The board's reflections and rotations other than the identity (see the module)."""
    w, h = board.width - 1, board.height - 1
    out = [
        Symmetry("mirror left-right", lambda s: (w - s[0], s[1])),
        Symmetry("mirror top-bottom", lambda s: (s[0], h - s[1])),
        Symmetry("half turn", lambda s: (w - s[0], h - s[1])),
    ]
    if board.width == board.height:
        out += [
            Symmetry("quarter turn", lambda s: (h - s[1], s[0])),
            Symmetry("three-quarter turn", lambda s: (s[1], w - s[0])),
            Symmetry("mirror on the main diagonal", lambda s: (s[1], s[0])),
            Symmetry("mirror on the other diagonal", lambda s: (h - s[1], w - s[0])),
        ]
    return out


def swaps(board: Board, first: Zone, second: Zone) -> list[Symmetry]:
    """The symmetries that map ``first`` exactly onto ``second`` and ``second`` onto ``first``."""
    return [t for t in symmetries(board)
            if {t.apply(sq) for sq in first.squares} == second.squares
            and {t.apply(sq) for sq in second.squares} == first.squares]


def geometry_breaks(board: Board, symmetry: Symmetry) -> list[str]:
    """What in the board's geometry the symmetry does not map onto its like: walls, windows,
    doors (and their states), void, blocked and impassable squares; one phrase each."""
    out: list[str] = []
    for name, edges in (("wall", board.walls), ("window", board.windows)):
        for edge in sorted(edges, key=str):
            if symmetry.edge(edge) not in edges:
                out.append(f"{name} {edge} has no {name} at {symmetry.edge(edge)}")
    doors = board.doors
    for edge, door in sorted(doors.items(), key=lambda item: str(item[0])):
        image = doors.get(symmetry.edge(edge))
        if image is None or image.state != door.state:
            there = "no door" if image is None else f"a {image.state.value} door"
            out.append(f"{door.state.value} door {edge} has {there} at {symmetry.edge(edge)}")
    for name, squares in (("void", board.void), ("blocked", board.blocked), ("impassable", board.impassable)):
        for sq in sorted(squares, key=lambda s: (s[1], s[0])):
            if symmetry.apply(sq) not in squares:
                out.append(f"{name} square {fmt_square(sq)} has none at {fmt_square(symmetry.apply(sq))}")
    return out
