"""Colours, sizes and fonts of the board: every value the painter draws with, by name.

Tests sample pixels against these constants (``RAY_CLEAR`` on a clear ray, ``FOV_HIDDEN_SHADE``
over a hidden square ...), so change a colour here and the tests follow. Colours are ``(r, g, b)``
or ``(r, g, b, a)`` tuples; sizes that scale with the zoom are fractions of one cell.

The hierarchy: the board (tile art or the vector floor) is muted and low-contrast; walls and doors
are crisp and dark; live overlays (the ray, corner dots, rings) are saturated and on top.

>>> side_colour("monsters", ["monsters", "red"]) == MONSTERS
True
>>> side_colour("red", ["red"]) == NAMED_SIDES["red"]
True
>>> side_colour("guild b", ["guild a", "guild b"]) != side_colour("guild a", ["guild a", "guild b"])
True
"""

from __future__ import annotations

from collections.abc import Iterable

Colour = tuple[int, int, int]
ColourA = tuple[int, int, int, int]

# --- zoom -----------------------------------------------------------------------------------
CELL_MIN = 8.0  #: smallest cell, pixels per square
CELL_MAX = 200.0  #: largest cell
CELL_DEFAULT = 48.0  #: the cell of ``sightline render`` and of a fresh view
FIT_MARGIN = 0.04  #: fraction of the viewport left free around a fitted board

# --- background and floor (vector style) ----------------------------------------------------
BACKGROUND: Colour = (24, 26, 31)  #: around the board, outside the map
VOID: Colour = (34, 36, 42)  #: off-board squares inside the map
FLOOR_LIGHT: Colour = (206, 200, 186)  #: checker, light tone
FLOOR_DARK: Colour = (194, 187, 172)  #: checker, dark tone (close to the light one)
GRID_LINE: ColourA = (120, 112, 98, 70)  #: faint grid over the floor and over tile art
BLOCKED_FILL: Colour = (124, 117, 106)  #: blocked terrain square
BLOCKED_HATCH: Colour = (92, 86, 78)  #: hatching over blocked terrain
IMPASSABLE_FILL: Colour = (96, 140, 178)  #: an impassable square (water, pit) in the vector style
IMPASSABLE_WAVE: Colour = (40, 92, 150)  #: the waves over an impassable square: movement only
ART_WASH: ColourA = (232, 228, 218, 84)  #: translucent wash that mutes tile art under overlays

# --- edges ----------------------------------------------------------------------------------
WALL: Colour = (33, 30, 35)  #: wall line
WALL_WIDTH = 0.13  #: wall thickness, fraction of a cell (at least 3 px)
WINDOW: Colour = (120, 190, 235)  #: the two thin lines of a window
WINDOW_GAP = 0.09  #: distance between the two window lines, fraction of a cell
DOOR_CLOSED: Colour = (139, 90, 43)  #: a closed door: solid brown bar
DOOR_OPEN: Colour = (139, 90, 43)  #: an open door: hollow bar outline + the leaf swung open
DOOR_LOCKED: Colour = (112, 62, 28)  #: a locked door: darker bar ...
LOCK_MARK: Colour = (238, 196, 64)  #: ... with a gold lock plate in the middle
DOOR_OUTLINE: Colour = (58, 36, 18)  #: outline of every door bar
DOOR_WIDTH = 0.22  #: door bar thickness, fraction of a cell
DOOR_LENGTH = 0.84  #: door bar length, fraction of a cell

# --- figures --------------------------------------------------------------------------------
#: distinct side colours, used in order for sides not named after a colour
SIDE_PALETTE: tuple[Colour, ...] = (
    (52, 110, 206),  # blue
    (46, 150, 84),  # green
    (214, 132, 32),  # orange
    (30, 156, 160),  # teal
    (196, 64, 150),  # magenta
    (150, 120, 40),  # ochre
    (90, 96, 110),  # slate
    (200, 60, 52),  # red
)
MONSTERS: Colour = (110, 40, 110)  #: the side "monsters" (and "monster", "enemies")
MONSTER_SIDES = frozenset({"monsters", "monster", "enemies", "enemy"})
#: sides named after a colour get that colour
NAMED_SIDES: dict[str, Colour] = {
    "blue": (52, 110, 206),
    "green": (46, 150, 84),
    "orange": (214, 132, 32),
    "teal": (30, 156, 160),
    "magenta": (196, 64, 150),
    "pink": (226, 110, 170),
    "yellow": (214, 186, 40),
    "red": (200, 60, 52),
    "purple": (128, 78, 190),
    "grey": (110, 110, 118),
    "gray": (110, 110, 118),
    "black": (40, 40, 46),
    "white": (232, 232, 236),
}
TOKEN_RADIUS = 0.36  #: token radius, fraction of a cell (one figure on the square)
TOKEN_OUTLINE: Colour = (20, 20, 24)
TOKEN_TEXT: Colour = (250, 250, 250)
TOKEN_TEXT_DARK: Colour = (20, 20, 24)  #: label colour on light tokens
TOKEN_SHADOW: ColourA = (0, 0, 0, 70)
KILLED: Colour = (128, 128, 128)  #: a killed figure's token
KILLED_MARK: Colour = (60, 60, 60)  #: the X over a killed figure
PIP_WOUND: Colour = (214, 40, 40)  #: a wound pip
PIP_LIFE: Colour = (245, 245, 245)  #: a remaining-life pip
NAME_ZOOM = 72.0  #: from this cell size on, tokens show the name instead of initials
SELECT_RING: Colour = (255, 230, 80)  #: ring around the selected figure
TARGET_RING: Colour = (255, 80, 64)  #: ring around the target
RING_WIDTH = 0.07  #: ring thickness, fraction of a cell

# --- squares under the cursor ---------------------------------------------------------------
HOVER: ColourA = (255, 255, 255, 150)  #: outline of the hovered square
REFUSED: ColourA = (230, 40, 40, 120)  #: a refused drop: red flash filling the square
REFUSED_OUTLINE: Colour = (230, 40, 40)

# --- the ray --------------------------------------------------------------------------------
RAY_CLEAR: Colour = (40, 200, 90)  #: the ray while clear
RAY_BLOCKED: Colour = (235, 50, 50)  #: the ray from the first blocker on
RAY_WIDTH = 0.085  #: ray thickness, fraction of a cell (at least 3 px)
RAY_HALO: Colour = (20, 22, 28)  #: dark outline under the ray, for contrast on any floor
RULE_LINE_CLEAR: Colour = (90, 220, 120)  #: a clear line a rule decided by other lines checked
RULE_LINE_BLOCKED: Colour = (235, 80, 80)  #: a blocked line of such a rule (and its sentence)
EDGE_TICK: Colour = (250, 250, 250)  #: tick on a crossed open edge
EDGE_TICK_BLOCKING: Colour = (235, 50, 50)  #: tick on a crossed blocking edge
TICK_LENGTH = 0.3  #: tick length, fraction of a cell
CORNER_OPEN: Colour = (250, 250, 250)  #: a corner the ray passes with both sides open
CORNER_ONE_SIDE: Colour = (255, 176, 0)  #: amber: one side of the corner closed (still clear)
CORNER_BOTH: Colour = (235, 50, 50)  #: red: both sides closed (blocked)
CORNER_DOT = 0.11  #: corner dot radius, fraction of a cell
CORNER_SIDE_SHADE_ONE: ColourA = (255, 176, 0, 60)  #: closed side of an amber corner
CORNER_SIDE_SHADE_BOTH: ColourA = (235, 50, 50, 60)  #: closed sides of a red corner
BLOCKING_SQUARE_FILL: ColourA = (235, 50, 50, 46)  #: a crossed square that blocks
BLOCKING_SQUARE_HATCH: ColourA = (235, 50, 50, 200)  #: its red hatching
STEP_HIGHLIGHT: Colour = (0, 220, 255)  #: lesson mode: the current crossing
STEP_WIDTH = 0.06

# --- field of view --------------------------------------------------------------------------
FOV_HIDDEN_SHADE: ColourA = (10, 14, 32, 172)  #: over every square the viewer cannot see
FOV_TOKEN_DIM: ColourA = (120, 120, 140, 150)  #: multiplies a token standing where the viewer cannot see

# --- lint markers ---------------------------------------------------------------------------
MARKER_ERROR: Colour = (235, 50, 50)
MARKER_WARNING: Colour = (255, 176, 0)
MARKER_INFO: Colour = (90, 170, 255)
MARKER_WIDTH = 0.06

# --- text -----------------------------------------------------------------------------------
FONT_NAME: str | None = None  #: pygame's default font (bundled with pygame-ce)
LEGEND_BACKGROUND: Colour = (30, 32, 38)
LEGEND_TEXT: Colour = (228, 228, 232)
LEGEND_MUTED: Colour = (150, 152, 160)
LEGEND_FONT_SIZE = 18
LEGEND_PADDING = 10


def marker_colour(severity: str) -> Colour:
    """The outline colour of a lint marker of this severity (``error``, ``warning``, other).

    >>> marker_colour("error") == MARKER_ERROR, marker_colour("info") == MARKER_INFO
    (True, True)
    """
    text = str(getattr(severity, "value", severity)).lower()
    if text == "error":
        return MARKER_ERROR
    if text == "warning":
        return MARKER_WARNING
    return MARKER_INFO


def side_colour(side: str, sides: Iterable[str] = ()) -> Colour:
    """The token colour of ``side`` among all the ``sides`` on the board.

    Sides named after a colour get it, monster sides get :data:`MONSTERS`; the others take the
    palette in sorted order, skipping colours already taken, so the choice is stable for a board
    and two sides never share a colour while the palette lasts.
    """
    key = side.strip().lower()
    named = _named_colour(key)
    if named is not None:
        return named
    others = sorted({s.strip().lower() for s in sides} | {key})
    taken = {c for c in map(_named_colour, others) if c is not None}
    free = [c for c in SIDE_PALETTE if c not in taken] or list(SIDE_PALETTE)
    plain = [s for s in others if _named_colour(s) is None]
    return free[plain.index(key) % len(free)]


def _named_colour(key: str) -> Colour | None:
    """The colour a side's name asks for: monsters, or a colour word in it ("Red Guild").

    >>> _named_colour("red guild") == NAMED_SIDES["red"], _named_colour("guild") is None
    (True, True)
    """
    if key in MONSTER_SIDES:
        return MONSTERS
    if key in NAMED_SIDES:
        return NAMED_SIDES[key]
    for word in key.replace("-", " ").replace("_", " ").split():
        if word in MONSTER_SIDES:
            return MONSTERS
        if word in NAMED_SIDES:
            return NAMED_SIDES[word]
    return None


def readable_text(background: Colour) -> Colour:
    """White or near-black, whichever reads better on ``background``.

    >>> readable_text((250, 250, 250)) == TOKEN_TEXT_DARK
    True
    """
    r, g, b = background[:3]
    luma = 0.299 * r + 0.587 * g + 0.114 * b
    return TOKEN_TEXT_DARK if luma > 160 else TOKEN_TEXT
