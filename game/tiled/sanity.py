"""Boards that cannot be what the designer meant: sanity findings after the derivation.

A map read with the wrong conventions still gives a board, and nothing in it is wrong square by
square: a raycaster's level whose walls are a tile layer reads as one open room, a maze drawn as
walls only reads inside out, a preset that blocks every painted tile leaves nowhere to stand.
:func:`sanity_findings` looks at the board as a whole and says so, each finding with the likely
fix (a layer to map, ``empty = "floor"``, a preset limited to a layer, ``check --suggest``):

==========================  ======================================================================
code                        the board
==========================  ======================================================================
board-nothing-blocks        nothing blocks sight or movement, on a map with art and several layers
board-mostly-blocked        at least 90 % of its squares are blocked, impassable or void
board-no-standable          no square a figure can stand on
board-inverted              the empty cells are enclosed by painted ones (corridors left empty)
==========================  ======================================================================

All warnings: the map may be right and its reading wrong. Cost follows the board (numpy, and one
walk over the void squares).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from game.core.board import Board, Square
from game.core.findings import Finding, Severity
from game.core.words import plural, plural_of
from game.tiled.conventions import CLASSES_FILE, Conventions, layer_name_role, toml_line
from game.tiled.guard import GID_MASK
from game.tiled.records import MapRecords, tileset_of

if TYPE_CHECKING:
    from game.tiled.records import ObjectInfo

__all__ = ["MOSTLY", "SANITY_CODES", "sanity_findings", "standable"]

#: the share of squares blocked, impassable or void past which a board is "mostly blocked"
MOSTLY = 0.9
#: the share of the board enclosed void must reach for the board to look inside out
INVERTED = 0.2
SANITY_CODES = ("board-nothing-blocks", "board-mostly-blocked", "board-no-standable", "board-inverted")
SUGGEST = "`sightline check --suggest MAP` proposes a sightline.toml"


def standable(board: Board) -> int:
    """How many squares a figure can stand on: on the board, not blocked, impassable or a door
    square (whatever its state)."""
    stopped = board.blocked | board.impassable | frozenset(board.door_squares)
    return board.width * board.height - len(board.void) - len(stopped - board.void)


def sanity_findings(
    records: MapRecords,
    board: Board,
    stats: dict[str, int],
    objects: Iterable[ObjectInfo],
    conventions: Conventions,
) -> list[Finding]:
    """The sanity findings of one derived board (see the module), each with its likely fix."""
    total = board.width * board.height
    if total < 4:
        return []
    out: list[Finding] = []
    stand = standable(board)
    stopped = total - stand
    painted = _painted_layers(records)
    cell = board.grid.noun
    cells = plural_of(cell)
    if stand == 0:
        out.append(Finding(
            "board-no-standable", Severity.WARNING,
            f"no {cell} of the {board.width}x{board.height} board is one a figure can stand on "
            f"({_shares(board, total)})",
            hint=_stopped_hint(board, conventions, painted, total),
        ))
    elif stopped >= MOSTLY * total:
        out.append(Finding(
            "board-mostly-blocked", Severity.WARNING,
            f"{stopped} of the board's {plural(total, cell)} are blocked, impassable or void "
            f"({_shares(board, total)}); a figure can stand on {plural(stand, cell)}",
            hint=_stopped_hint(board, conventions, painted, total),
        ))
    out += _inverted(board, records, painted, total, list(objects))
    if stats.get("empty_floor") and stand:
        out += _floor_outside(board, painted, total)
    if _nothing_blocks(board) and _has_art(records, painted):
        rim = _rim_tiles(board, records, painted) if board.void else []
        if not board.void or rim:
            out.append(Finding(
                "board-nothing-blocks", Severity.WARNING,
                f"nothing on the {board.width}x{board.height} board blocks sight or movement "
                + (f"but the void around it, though the {cells} along its edge hold {_tiles(rim)} as "
                   "if they were walls" if rim else
                   f"(no wall, door, blocked or void {cell}), though the map has "
                   f"{plural(len(painted), 'layer')} of tiles"),
                hint=_rim_hint(rim) if rim else _walls_hint(records, painted, total),
            ))
    return out


def _rim_tiles(
    board: Board, records: MapRecords, painted: Sequence[tuple[str, np.ndarray]]
) -> list[tuple[int, str]]:
    """The tiles painted mostly along the edge of the painted part, next to the void (at least
    40 % of each one's squares), covering most of that edge but little of the inside: walls
    drawn as tiles nothing reads, as ``(gid, where)``; [] when the edge looks like the rest."""
    void = np.zeros((board.height, board.width), dtype=bool)
    for x, y in board.void:
        void[y, x] = True
    rim = _next_to(board, void) & ~void
    if int(rim.sum()) < 8:
        return []
    top = np.zeros((board.height, board.width), dtype=np.uint32)
    for _, gids in painted:
        ids = gids & GID_MASK
        top = np.where(ids != 0, ids, top)
    found: list[tuple[int, str]] = []
    covered = np.zeros_like(rim)
    for gid in np.unique(top[rim]).tolist():
        where = top == gid
        on_rim = int((where & rim).sum())
        if gid and on_rim >= 0.4 * int(where.sum()) and on_rim >= 4:
            covered |= where
            holder = tileset_of(gid, records.tilesets)
            found.append((gid - holder.first_gid, holder.name) if holder is not None else (gid, ""))
    inner = ~void & ~rim
    if int((covered & rim).sum()) < 0.6 * int(rim.sum()) or int((covered & inner).sum()) > 0.4 * int(inner.sum()):
        return []  # the edge looks like the rest (a cave drawn as floor), not like walls
    return found


def _next_to(board: Board, void: np.ndarray) -> np.ndarray:
    """Bool ``[y, x]``: the cells with a neighbour (of the board's grid) in ``void`` or off the map."""
    if board.grid.kind == "square":  # four neighbours, by shifted copies
        outside = np.pad(void, 1, constant_values=True)  # past the map's edge is outside too
        near: np.ndarray = outside[:-2, 1:-1] | outside[2:, 1:-1] | outside[1:-1, :-2] | outside[1:-1, 2:]
        return near
    near = np.zeros_like(void)
    grid = board.grid
    for x, y in grid.cells():
        around = grid.neighbours((x, y))
        near[y, x] = len(around) < 6 or any(void[b, a] for a, b in around)
    return near


def _tiles(rim: Sequence[tuple[int, str]]) -> str:
    """``tiles 58, 79 of tileset 'dungeon'`` for a message (tile ids as Tiled's tileset editor
    shows them)."""
    by_set: dict[str, list[str]] = {}
    for local, name in rim:
        by_set.setdefault(name, []).append(str(local))
    parts = [f"{', '.join(ids[:6])}{' ...' if len(ids) > 6 else ''}"
             + (f" of tileset {name!r}" if name else " (no tileset holds them)") for name, ids in by_set.items()]
    return f"tile{'s' if len(rim) > 1 else ''} " + "; ".join(parts)


def _rim_hint(rim: Sequence[tuple[int, str]]) -> str:
    """How to make walls drawn as tiles count: give the tiles a class and read it."""
    return ("give those tiles the class wall (or the bool property blocked) in Tiled's tileset "
            "editor, or put them on a layer of their own and map it with --layers blocked=LAYER; read "
            f"the class with --tiles blocked=wall, or in {CLASSES_FILE}: {toml_line('tiles', 'blocked', ['wall'])}")


def _floor_outside(board: Board, painted: Sequence[tuple[str, np.ndarray]], total: int) -> list[Finding]:
    """A board read as walls only (its empty cells the floor) whose floor lies around the painted
    part rather than inside it: the painted part is more likely the floor."""
    empty = np.ones((board.height, board.width), dtype=bool)
    for _, gids in painted:
        empty &= (gids & GID_MASK) == 0
    floor = {(int(x), int(y)) for y, x in zip(*np.nonzero(empty), strict=True)}
    if not floor:
        return []
    outside = _reach_edge(board, frozenset(floor))
    if len(outside) * 2 < len(floor):
        return []
    return [Finding(
        "board-inverted", Severity.WARNING,
        f"the {plural(len(floor), 'empty cell')} read as floor lie around the painted part of the map "
        f"({len(outside)} of them reach its edge), not inside it: is the painted part the floor "
        "rather than the walls?",
        hint=f"read the empty cells as off the board: --layers empty=void ({SUGGEST}); or in "
        f"{CLASSES_FILE}: {toml_line('layers', 'empty', ['void'])}",
    )]


def _nothing_blocks(board: Board) -> bool:
    """Whether no wall, window, door, blocked, impassable or door square is on the board (void
    squares aside: they may be all around it)."""
    return not (board.walls or board.windows or board.doors or board.blocked or board.impassable
                or board.door_squares)


def _has_art(records: MapRecords, painted: Sequence[tuple[str, np.ndarray]]) -> bool:
    """A map with art and several layers: two painted tile layers or more, or one painted with
    at least four different tiles (a lesson board's one floor tile and its figures are not)."""
    if len(painted) >= 2:
        return True
    kinds = {g for _, gids in painted for g in np.unique(gids & GID_MASK).tolist() if g}
    return len(kinds) >= 4


def _painted_layers(records: MapRecords) -> list[tuple[str, np.ndarray]]:
    """The tile layers with at least one painted cell, as ``(name, gids)``."""
    return [(layer.name, layer.gids) for layer in records.tile_layers if bool((layer.gids & GID_MASK).any())]


def _shares(board: Board, total: int) -> str:
    """``blocked 12, void 40`` for a message (only the kinds present)."""
    parts = [(len(board.blocked), "blocked"), (len(board.impassable), "impassable"),
             (len(board.door_squares), f"door {plural_of(board.grid.noun)}"), (len(board.void), "void")]
    return ", ".join(f"{kind} {n}" for n, kind in parts if n) or "none"


def _stopped_hint(
    board: Board, conventions: Conventions, painted: Sequence[tuple[str, np.ndarray]], total: int
) -> str:
    """The likely fix of a board with (almost) nowhere to stand."""
    if conventions.preset and len(board.blocked) >= MOSTLY * (total - len(board.void)) and len(painted) > 1:
        names = [name for name, _ in painted]
        return (f"the {conventions.preset} preset blocks every painted tile it reads: limit it to "
                f"the layer the game collides with, e.g. --tiles blocked=collides@{names[-1]} ({SUGGEST}); "
                f"or in {CLASSES_FILE}: {toml_line('tiles', 'blocked', ['collides@' + names[-1]])}")
    if len(board.void) >= total / 2 and conventions.empty is None:
        return ("a board drawn as walls only, its corridors left empty? Read the empty cells as "
                f"floor: --layers empty=floor ({SUGGEST}); or in {CLASSES_FILE}: "
                + toml_line("layers", "empty", ["floor"]))
    return f"check which layers and tiles are read as blocked (sightline check --json stats); {SUGGEST}"


def _walls_hint(records: MapRecords, painted: Sequence[tuple[str, np.ndarray]], total: int) -> str:
    """The likely fix of a board where nothing blocks: the tile layer that looks like walls."""
    candidates = [
        name for i, (name, gids) in enumerate(painted)
        if i > 0 and 0.05 * total <= int(((gids & GID_MASK) != 0).sum()) <= 0.7 * total
    ]
    named = [n for n, _ in painted if layer_name_role(n) is not None]
    layer = (named or candidates or [""])[0]
    if layer:
        return (f"if tile layer {layer!r} is the walls, say so: --layers blocked={layer} ({SUGGEST}); "
                f"or in {CLASSES_FILE}: {toml_line('layers', 'blocked', [layer])}")
    return f"map the layer, tile class or property that marks walls (--layers, --tiles); {SUGGEST}"


def _inverted(
    board: Board, records: MapRecords, painted: Sequence[tuple[str, np.ndarray]], total: int,
    objects: Sequence[ObjectInfo],
) -> list[Finding]:
    """A board that looks inside out: many void squares enclosed by painted ones (a maze drawn as
    walls only, its corridors left empty), or figures standing in the void."""
    void = board.void
    if not void or not painted:
        return []
    enclosed = _enclosed(board, void)
    in_void = [o for o in objects if o.role == "figure" and o.square in void]
    big = len(enclosed) >= INVERTED * total and len(enclosed) * 2 >= len(void)
    if not big and len(in_void) < 2:
        return []
    layer = painted[-1][0]
    who = f"; {plural(len(in_void), 'figure')} stand in them" if in_void else ""
    return [Finding(
        "board-inverted", Severity.WARNING,
        f"{plural(len(enclosed), 'empty ' + board.grid.noun)} lie inside the painted part of the map and are "
        f"read as void{who}: is the board drawn as walls only, with its floor left empty?",
        in_void[0].id if in_void else None, min(enclosed, key=lambda s: (s[1], s[0])) if enclosed else None,
        hint=f"read tile layer {layer!r} as walls and the empty cells as floor: --layers "
        f"blocked={layer},empty=floor, or in {CLASSES_FILE}: {toml_line('layers', 'blocked', [layer])} "
        f"and {toml_line('layers', 'empty', ['floor'])}",
    )]


def _enclosed(board: Board, void: frozenset[Square]) -> set[Square]:
    """The void squares that no path of void squares joins to the map's edge."""
    return set(void) - _reach_edge(board, void)


def _reach_edge(board: Board, cells: frozenset[Square]) -> set[Square]:
    """The cells a path of cells joins to the map's edge, stepping between neighbours of the board's
    grid (four on squares, six on hexes)."""
    w, h = board.width, board.height
    outside: set[Square] = {sq for sq in cells if sq[0] in (0, w - 1) or sq[1] in (0, h - 1)}
    queue = deque(outside)
    neighbours = board.grid.neighbours
    while queue:
        for nxt in neighbours(queue.popleft()):
            if nxt in cells and nxt not in outside:
                outside.add(nxt)
                queue.append(nxt)
    return outside
