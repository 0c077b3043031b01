"""Foundry VTT scene exports (``fvtt-Scene-*.json``): read, type-check, describe in grid units.

A scene export is one JSON object (Foundry: right-click a scene > Export Data). Sightline reads

* the grid: ``grid`` as the v10+ object (``{"type": 1, "size": 100, ...}``) or the older plain
  number with ``gridType``; square grids only (gridless and hex scenes are refused, one line);
* ``width``/``height`` (pixels) and ``padding`` (the share of the size added around the scene,
  rounded up to whole squares, as Foundry does): the board is the scene, in squares;
* ``walls``: each ``c`` = [x0, y0, x1, y1] in canvas pixels, with ``move``, ``sight`` (older
  scenes: ``sense``), ``door`` (0 none, 1 door, 2 secret door), ``ds`` (0 closed, 1 open,
  2 locked) and ``dir`` (0 both ways, 1 and 2 one way). A wall that blocks sight is a **wall**;
  one that blocks movement and not sight (``sight`` none or limited) a **window**; one that
  blocks neither is ignored; a door keeps its state whatever it blocks. One-way walls, limited
  (terrain) walls, proximity walls and sight-only walls are read as said and reported;
* ``tokens``: figures, by name; the side from ``disposition`` (friendly, neutral, hostile, secret);
* the background picture: ``background.src`` (v10+) or ``img``, looked for beside the scene file.

Values of both eras are read: Foundry 9 wrote ``sense``/``move`` as 0, 1 (normal), 2 (limited);
Foundry 10 on writes ``sight``/``light``/``move`` as 0 (none), 10 (limited), 20 (normal),
30 (proximity), 40 (reverse proximity), the same mapping Foundry's own migration applies.

A scene Sightline wrote (``sightline export --to foundry``) keeps what Foundry has no field for
in ``flags.sightline`` (blocked and void squares, sides and stats, map properties).

>>> import json
>>> raw = {"name": "Hall", "width": 300, "height": 200, "padding": 0, "grid": {"type": 1, "size": 100},
...        "walls": [{"c": [100, 0, 100, 200], "move": 20, "sight": 20, "door": 0}],
...        "tokens": [{"name": "Ann", "x": 0, "y": 0, "disposition": 1}]}
>>> scene = parse_foundry(json.dumps(raw).encode(), "hall.json")
>>> scene.board, scene.walls[0].c, scene.tokens[0].side
((3, 2), (Fraction(100, 1), Fraction(0, 1), Fraction(100, 1), Fraction(200, 1)), 'friendly')
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path, PurePosixPath
from typing import Any

from game.core.board import DoorState, Stat
from game.core.findings import Finding, Severity
from game.tiled.guard import MAX_CELLS
from game.tiled.uvtt import MAX_POINTS
from game.tiled.vtt_json import Fields, Point, RawJson, parse_text, read_json_file, show
from game.tiled.vtt_scene import FilePicture, VttDoor, VttFigure, VttPath, VttScene

HINT = "export the scene again from Foundry (right-click the scene > Export Data)"
#: wall restriction values (Foundry 10 on); Foundry 9's 1 and 2 are read as NORMAL and LIMITED
NONE, LIMITED, NORMAL, PROXIMITY, DISTANCE = 0, 10, 20, 30, 40
_LEGACY = {1: NORMAL, 2: LIMITED}
_SIGHT_VALUES = (NONE, LIMITED, NORMAL, PROXIMITY, DISTANCE)
#: a token's disposition as a side name
SIDES = {1: "friendly", 0: "neutral", -1: "hostile", -2: "secret"}
_DOOR_STATES = (DoorState.CLOSED, DoorState.OPEN, DoorState.LOCKED)
#: scene content Sightline does not use; each one present is named in one finding
UNUSED_CONTENT = ("lights", "tiles", "drawings", "notes", "sounds", "templates", "regions")
#: cell roles only Sightline's own export lists (in ``flags.sightline``)
EXTENSION_CELLS = ("blocked", "void", "impassable")


@dataclass(frozen=True)
class FoundryWall:
    """One wall document as written (restrictions already in Foundry 10's values)."""

    index: int
    ident: str
    c: tuple[Fraction, Fraction, Fraction, Fraction]
    move: int
    sight: int
    door: int
    ds: int
    dir: int
    outline: bool = False  #: a wall Sightline wrote around blocked squares (flags.sightline)


@dataclass(frozen=True)
class FoundryToken:
    """One token as written: top-left corner in canvas pixels, size in squares."""

    index: int
    name: str
    x: Fraction
    y: Fraction
    width: Fraction
    height: Fraction
    disposition: int
    hidden: bool
    side: str
    stats: dict[str, Stat]


@dataclass(frozen=True)
class FoundryScene:
    """A Foundry scene in its own terms (pixels); :meth:`scene` describes it in squares.

    ``offset`` is the canvas pixel of the board's top-left corner (the padding, whole squares),
    ``board`` the scene in whole squares, ``shift`` the picture's offset against the grid.
    """

    path: Path
    name: str
    width: Fraction
    height: Fraction
    grid: int
    padding: Fraction
    offset: tuple[int, int]
    board: tuple[int, int]
    shift: tuple[Fraction, Fraction]
    background: str | None
    walls: tuple[FoundryWall, ...]
    tokens: tuple[FoundryToken, ...]
    extension: Mapping[str, Any]
    findings: tuple[Finding, ...]

    def to_squares(self, x: Fraction, y: Fraction) -> Point:
        """A canvas pixel position in squares from the board's top-left corner."""
        return (x - self.offset[0]) / self.grid, (y - self.offset[1]) / self.grid

    def scene(self) -> VttScene:
        """The scene in grid units (walls chained into paths, doors, tokens as figures)."""
        return _describe(self)


def looks_like_scene(doc: Mapping[str, Any]) -> bool:
    """Whether a parsed JSON object is a Foundry scene (and not a Tiled map).

    >>> looks_like_scene({"walls": [], "grid": 100, "width": 1, "height": 1}), looks_like_scene({"layers": []})
    (True, False)
    """
    return "grid" in doc and "width" in doc and "layers" not in doc and "tilewidth" not in doc


def read_foundry(path: str | Path) -> FoundryScene:
    """Read and check a Foundry scene export; a one-line MapError for anything unusable."""
    path = Path(path)
    return _Reader(path, read_json_file(path, "Foundry scene")).read()


def parse_foundry(data: bytes, shown: str) -> FoundryScene:
    """:func:`read_foundry` for bytes already in memory (``shown`` names them in messages)."""
    return _Reader(Path(shown), parse_text(data, shown)).read()


def check_foundry(path: Path, raw: RawJson) -> FoundryScene:
    """:func:`read_foundry` for a file already parsed (:func:`~game.tiled.vtt_json.parse_text`)."""
    return _Reader(path, raw).read()


class _Reader:
    """Checks one scene field by field (the place of each value in its messages)."""

    def __init__(self, path: Path, raw: RawJson) -> None:
        self.path = path
        self.doc = raw.doc
        self.f = Fields(str(path), HINT)
        self.findings: list[Finding] = []
        self.size = 1
        self.offset = (0, 0)
        self.board = (1, 1)

    def warn(self, code: str, message: str, hint: str | None = None) -> None:
        self.findings.append(Finding(code, Severity.WARNING, message, None, None, hint))

    def read(self) -> FoundryScene:
        doc, f = self.doc, self.f
        if not looks_like_scene(doc):
            f.fail("not a Foundry scene (no grid, width and height)",
                   hint="export the scene from Foundry: right-click it > Export Data")
        name = f.string(f.optional(doc, "name", ""), "name")
        width, height, padding = self.dimensions()
        shift = self.shift()
        walls = [self.wall(w, f"walls[{i}]", i)
                 for i, w in enumerate(f.array(f.optional(doc, "walls", []), "walls"))]
        if 2 * len(walls) > MAX_POINTS:
            f.fail(f"the scene has {len(walls):,} walls, over Sightline's limit of {MAX_POINTS // 2:,}")
        tokens = [self.token(t, f"tokens[{i}]", i)
                  for i, t in enumerate(f.array(f.optional(doc, "tokens", []), "tokens"))]
        unused = [key for key in UNUSED_CONTENT if isinstance(doc.get(key), list) and doc[key]]
        if unused:
            self.warn("vtt-unread", f"the scene's {', '.join(unused)} are not used by Sightline's "
                      "board (line of sight ignores lighting and decoration)")
        extension = self.extension(f.optional(f.obj(f.optional(doc, "flags", {}), "flags"), "sightline", {}))
        return FoundryScene(self.path, name, width, height, self.size, padding, self.offset,
                            self.board, shift, self.background(), tuple(walls), tuple(tokens),
                            extension, tuple(self.findings))

    def dimensions(self) -> tuple[Fraction, Fraction, Fraction]:
        doc, f = self.doc, self.f
        grid = doc["grid"]
        if isinstance(grid, dict):
            grid_type = f.integer(f.optional(grid, "type", 1), "grid.type")
            size = f.integer(grid.get("size"), "grid.size")
        else:
            grid_type = f.integer(f.optional(doc, "gridType", 1), "gridType")
            size = f.integer(grid, "grid")
        if grid_type == 0:
            f.fail("the scene is gridless; Sightline needs a square grid",
                   hint="in Foundry: Configure Scene > Grid > Grid Type: Square")
        if grid_type != 1:
            f.fail(f"the scene's grid is {'hexagonal' if 2 <= grid_type <= 5 else f'of type {grid_type}'}; "
                   "Sightline reads square grids", hint="in Foundry: Configure Scene > Grid > Square")
        if not 2 <= size <= 4096:
            f.fail(f"the grid size is {size} pixels; it must be between 2 and 4096")
        width, height = f.number(doc["width"], "width"), f.number(doc.get("height"), "height")
        if width <= 0 or height <= 0:
            f.fail(f"the scene is {show(width)}x{show(height)} pixels; it needs a size")
        padding = f.number(f.optional(doc, "padding", 0.25), "padding")
        if not 0 <= padding <= 1:
            f.fail(f"padding is {show(padding)}; Foundry's padding is between 0 and 0.5")
        columns, rows = math.ceil(width / size), math.ceil(height / size)
        if columns * rows > MAX_CELLS:
            f.fail(f"the scene is {columns}x{rows} squares, over the limit of {MAX_CELLS:,} squares")
        if columns * size != width or rows * size != height:
            self.warn("vtt-partial-square", f"the scene is {show(width)}x{show(height)} pixels, "
                      f"not whole {size}-pixel squares: the board is {columns}x{rows}")
        self.size, self.board = size, (columns, rows)
        self.offset = (math.ceil(padding * width / size) * size, math.ceil(padding * height / size) * size)
        return width, height, padding

    def shift(self) -> tuple[Fraction, Fraction]:
        doc, f = self.doc, self.f
        background = doc.get("background")
        if isinstance(background, dict):
            sx = f.number(f.optional(background, "offsetX", 0), "background.offsetX")
            sy = f.number(f.optional(background, "offsetY", 0), "background.offsetY")
        else:
            sx = f.number(f.optional(doc, "shiftX", 0), "shiftX")
            sy = f.number(f.optional(doc, "shiftY", 0), "shiftY")
        if sx or sy:
            self.warn("vtt-picture-shifted", f"the background picture is shifted by "
                      f"({show(sx)}, {show(sy)}) pixels against the grid; it is drawn shifted, and "
                      "the board follows the grid")
        return sx, sy

    def background(self) -> str | None:
        doc, f = self.doc, self.f
        background = doc.get("background")
        if isinstance(background, dict):
            src = background.get("src")
            return None if src is None else f.string(src, "background.src")
        if background is not None:
            f.obj(background, "background")
        img = doc.get("img")
        return None if img is None else f.string(img, "img")

    def restriction(self, wall: Mapping[str, Any], key: str, where: str, allowed: tuple[int, ...]) -> int:
        value = wall.get(key)
        if value is None and key in ("sight", "light"):
            value = wall.get("sense")  # Foundry 9: one value for sight and light
            where = where.rsplit(".", 1)[0] + ".sense"
        number = self.f.integer(NORMAL if value is None else value, where)
        number = _LEGACY.get(number, number)
        if number not in allowed:
            self.f.fail(f"{where} is {number}; Foundry's values are {', '.join(map(str, allowed))}")
        return number

    def wall(self, value: object, where: str, index: int) -> FoundryWall:
        f = self.f
        wall = f.obj(value, where)
        coords = f.array(wall.get("c"), f"{where}.c")
        if len(coords) != 4:
            f.fail(f"{where}.c has {len(coords)} numbers; a wall is [x0, y0, x1, y1]")
        c = tuple(f.number(v, f"{where}.c[{i}]") for i, v in enumerate(coords))
        for i in (0, 2):
            self.check_far(c[i], c[i + 1], f"{where}.c")
        move = self.restriction(wall, "move", f"{where}.move", (NONE, NORMAL))
        sight = self.restriction(wall, "sight", f"{where}.sight", _SIGHT_VALUES)
        door, ds, direction = (
            self.choice(wall, key, f"{where}.{key}", (0, 1, 2)) for key in ("door", "ds", "dir")
        )
        ident = wall.get("_id")
        flags = f.obj(f.optional(wall, "flags", {}), f"{where}.flags")
        outline = bool(f.obj(f.optional(flags, "sightline", {}), f"{where}.flags.sightline").get("outline"))
        return FoundryWall(index, ident if isinstance(ident, str) else "", (c[0], c[1], c[2], c[3]),
                           move, sight, door, ds, direction, outline)

    def choice(self, item: Mapping[str, Any], key: str, where: str, allowed: tuple[int, ...]) -> int:
        number = self.f.integer(self.f.optional(item, key, 0), where)
        if number not in allowed:
            self.f.fail(f"{where} is {number}; it must be {', '.join(map(str, allowed[:-1]))} or {allowed[-1]}")
        return number

    def check_far(self, x: Fraction, y: Fraction, where: str) -> None:
        """Refuse a canvas position far outside the scene (more than the scene's size off it)."""
        far = max(self.board) * self.size
        w, h = self.board[0] * self.size, self.board[1] * self.size
        ox, oy = self.offset
        if not (ox - far <= x <= ox + w + far and oy - far <= y <= oy + h + far):
            self.f.fail(f"{where} has the point ({show(x)}, {show(y)}), far outside the "
                        f"{show(self.doc['width'])}x{show(self.doc['height'])} pixel scene")

    def token(self, value: object, where: str, index: int) -> FoundryToken:
        f = self.f
        token = f.obj(value, where)
        name = f.string(f.optional(token, "name", ""), f"{where}.name")
        x, y = (f.number(token.get(k), f"{where}.{k}") for k in ("x", "y"))
        self.check_far(x, y, where)
        width, height = (f.number(f.optional(token, k, 1), f"{where}.{k}") for k in ("width", "height"))
        if not (0 < width <= 64 and 0 < height <= 64):
            f.fail(f"{where} is {show(width)}x{show(height)} squares; a token is 0 to 64 squares")
        disposition = f.integer(f.optional(token, "disposition", -1), f"{where}.disposition")
        if disposition not in SIDES:
            f.fail(f"{where}.disposition is {disposition}; Foundry's are -2, -1, 0 and 1")
        hidden = f.boolean(f.optional(token, "hidden", False), f"{where}.hidden")
        flags = f.obj(f.optional(token, "flags", {}), f"{where}.flags")
        ours = f.obj(f.optional(flags, "sightline", {}), f"{where}.flags.sightline")
        side = f.string(ours.get("side", SIDES[disposition]), f"{where}.flags.sightline.side")
        stats = f.properties(f.optional(ours, "stats", {}), f"{where}.flags.sightline.stats")
        return FoundryToken(index, name, x, y, width, height, disposition, hidden, side, stats)

    def extension(self, value: object) -> Mapping[str, Any]:
        return self.f.extension(value, "flags.sightline", EXTENSION_CELLS)


# --- the scene in grid units ------------------------------------------------------------------


def wall_role(wall: FoundryWall) -> str | None:
    """What a (non-door) wall is on the board: ``wall``, ``window`` or None (ignored).

    >>> w = FoundryWall(0, "", (Fraction(0),) * 4, NORMAL, NONE, 0, 0, 0)
    >>> wall_role(w), wall_role(FoundryWall(0, "", (Fraction(0),) * 4, NONE, NONE, 0, 0, 0))
    ('window', None)
    """
    if wall.sight in (NORMAL, PROXIMITY, DISTANCE):
        return "wall"
    return "window" if wall.move == NORMAL else None


#: kinds of wall Sightline reads differently from Foundry: (code, which walls, what Sightline does)
_WALL_NOTES = (
    ("vtt-one-way-wall", lambda w: bool(w.dir), "one-way walls",
     "read as two-way (Sightline has no one-way walls yet)"),
    ("vtt-limited-wall", lambda w: w.sight == LIMITED and not w.door, "limited (terrain) sight walls",
     "read as see-through (Foundry blocks sight behind two of them)"),
    ("vtt-proximity-wall", lambda w: w.sight in (PROXIMITY, DISTANCE) and not w.door,
     "proximity sight walls", "read as walls that always block"),
    ("vtt-sight-only-wall", lambda w: wall_role(w) == "wall" and w.move == NONE and not w.door,
     "walls that block sight but not movement", "read as walls, which block both"),
    ("vtt-inert-wall", lambda w: not w.door and wall_role(w) is None,
     "walls that block neither sight nor movement (light or sound only)", "ignored"),
    ("vtt-see-through-door", lambda w: bool(w.door) and w.sight in (NONE, LIMITED),
     "doors that let sight through", "read as doors, which block sight while closed"),
    ("vtt-secret-door", lambda w: w.door == 2, "secret doors",
     "read as ordinary doors (Sightline's doors are never hidden)"),
)


def _notes(walls: tuple[FoundryWall, ...]) -> list[Finding]:
    """One finding per kind of wall Sightline reads differently from Foundry (with how many)."""
    out = []
    for code, test, which, what in _WALL_NOTES:
        n = sum(1 for w in walls if not w.outline and test(w))
        if n:
            out.append(Finding(code, Severity.WARNING, f"{which}: {n}, {what}"))
    return out


def _describe(scene: FoundryScene) -> VttScene:
    """A scene in grid units: consecutive walls of one role that share an end become one path."""
    paths: list[VttPath] = []
    doors: list[VttDoor] = []
    run: list[FoundryWall] = []
    ident = 0

    def flush() -> None:
        nonlocal ident
        if run:
            ident += 1
            points = [scene.to_squares(run[0].c[0], run[0].c[1])] + [scene.to_squares(w.c[2], w.c[3]) for w in run]
            span = f"walls[{run[0].index}]" if len(run) == 1 else f"walls[{run[0].index}..{run[-1].index}]"
            paths.append(VttPath(ident, span, wall_role(run[0]) or "wall", tuple(points)))
            run.clear()

    for wall in scene.walls:
        if wall.outline:
            continue
        if wall.door:
            flush()
            ident += 1
            doors.append(VttDoor(ident, f"walls[{wall.index}]", scene.to_squares(wall.c[0], wall.c[1]),
                                 scene.to_squares(wall.c[2], wall.c[3]), _DOOR_STATES[wall.ds]))
            continue
        role = wall_role(wall)
        if role is None:
            flush()
            continue
        if run and (wall_role(run[-1]) != role or run[-1].c[2:] != wall.c[:2]):
            flush()
        run.append(wall)
    flush()
    figures = []
    for token in scene.tokens:
        ident += 1
        centre = scene.to_squares(token.x + token.width * scene.grid / 2, token.y + token.height * scene.grid / 2)
        figures.append(VttFigure(ident, f"tokens[{token.index}]", token.name, token.side, centre, token.stats))
    findings = list(scene.findings) + _notes(scene.walls)
    picture = None
    if scene.background:
        found: Path | None = scene.path.parent / PurePosixPath(scene.background).name
        try:
            found = found if found is not None and found.is_file() else None
        except (OSError, ValueError):  # a name with a NUL byte, or one too long for the system
            found = None
        picture = FilePicture(scene.background, found)
        if picture.found is None:
            findings.append(Finding("vtt-picture-missing", Severity.WARNING,
                                    f"the background picture {scene.background!r} is not beside the scene "
                                    "file; the board is drawn without it", None, None,
                                    f"copy {PurePosixPath(scene.background).name} next to {scene.path.name}"))
    ext = scene.extension
    cells = {role: ext[role] for role in EXTENSION_CELLS if ext.get(role)}
    return VttScene(scene.path, "foundry", scene.board[0], scene.board[1], tuple(paths), tuple(doors), (),
                    tuple(figures), cells, dict(ext.get("door_squares", {})), dict(ext.get("properties", {})),
                    picture, scene.grid, tuple(findings),
                    (scene.shift[0] / scene.grid, scene.shift[1] / scene.grid,
                     scene.width / scene.grid, scene.height / scene.grid))


__all__ = [
    "DISTANCE", "LIMITED", "NONE", "NORMAL", "PROXIMITY", "SIDES", "FoundryScene", "FoundryToken",
    "FoundryWall", "check_foundry", "looks_like_scene", "parse_foundry", "read_foundry", "wall_role",
]
