"""Draw Sightline's street tileset: pixel art made by code for this project (no copied art).

Build tool only (not imported by the game): it uses **pygame** to draw and save the PNG, so run it
from the project's venv::

    python assets/make_art.py            # writes assets/tiles/street.png

The output is deterministic (every tile has its own seeded ``random.Random``), so re-running it
gives the same pixels. ``maps/make_maps.py`` reads :data:`TILES` (tile names, ids and the Tiled
properties ``blocked`` / ``void``) from this file to write ``maps/tiles/street.tsx``; keep the two
in step by running both scripts after a change here.

The look: a clean board-game street. Muted warm cobbles and pale flagstones for streets, darker
wood and stone for floors, red and slate roofs. Every walkable tile carries a faint centre dot, as
the printed spaces of Arcadia Quest do; blocked squares (roofs, crates, trees) have none.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TILE = 32
COLUMNS = 4
OUT = Path(__file__).resolve().parent / "tiles" / "street.png"

Color = tuple[int, int, int]


@dataclass(frozen=True)
class TileSpec:
    """One tile of the sheet: its name (Tiled property ``terrain``) and its bool properties."""

    name: str
    blocked: bool = False
    void: bool = False
    note: str = ""
    extra: dict[str, str] = field(default_factory=dict)


#: The tiles in sheet order (tile id = index; gid = firstgid + index).
TILES: tuple[TileSpec, ...] = (
    TileSpec("cobble"),
    TileSpec("cobble-worn"),
    TileSpec("cobble-moss"),
    TileSpec("flagstone"),
    TileSpec("grass"),
    TileSpec("grass-flowers"),
    TileSpec("dirt"),
    TileSpec("wood-floor"),
    TileSpec("wood-floor-knots"),
    TileSpec("stone-floor"),
    TileSpec("roof-red", blocked=True, note="house block: blocked terrain"),
    TileSpec("roof-slate", blocked=True, note="house block: blocked terrain"),
    TileSpec("crates", blocked=True, note="stacked crates: blocked terrain"),
    TileSpec("tree", blocked=True, note="old tree: blocked terrain"),
    TileSpec("water", void=True, note="canal: off the board"),
    TileSpec("chasm", void=True, note="chasm: off the board"),
    TileSpec("well", blocked=True, note="well: blocked terrain"),
    TileSpec("barrels", blocked=True, note="barrels: blocked terrain"),
    TileSpec("hedge", blocked=True, note="hedge: blocked terrain"),
    TileSpec("stone-floor-cracked"),
)

# --- palette: muted, warm, a clean board-game look ------------------------------------------
MORTAR: Color = (124, 110, 94)
COBBLES: tuple[Color, ...] = (
    (170, 152, 126), (158, 140, 114), (180, 163, 136), (150, 134, 112), (166, 150, 130), (174, 150, 120),
)
FLAG: Color = (196, 182, 152)
FLAG_LINE: Color = (140, 126, 102)
GRASS: Color = (104, 130, 72)
GRASS_DARK: Color = (84, 108, 58)
GRASS_LIGHT: Color = (128, 152, 86)
DIRT: Color = (150, 120, 84)
WOOD: tuple[Color, ...] = ((112, 78, 50), (104, 72, 46), (118, 84, 54), (98, 68, 44))
WOOD_SEAM: Color = (60, 40, 26)
STONE: tuple[Color, ...] = ((92, 90, 96), (86, 84, 90), (98, 96, 102))
STONE_LINE: Color = (56, 54, 60)
ROOF_RED: tuple[Color, Color, Color] = ((150, 72, 52), (122, 56, 42), (176, 96, 70))
ROOF_SLATE: tuple[Color, Color, Color] = ((88, 100, 118), (68, 78, 94), (112, 126, 144))
CRATE: Color = (164, 118, 66)
CRATE_DARK: Color = (112, 76, 40)
CRATE_LIGHT: Color = (196, 150, 92)
WATER: Color = (54, 96, 124)
WATER_DARK: Color = (40, 74, 100)
WATER_LIGHT: Color = (104, 148, 170)
CHASM: Color = (24, 20, 20)
LEAF: Color = (62, 96, 52)
LEAF_DARK: Color = (44, 72, 40)
LEAF_LIGHT: Color = (96, 132, 70)
INK: Color = (40, 32, 28)


def _shade(color: Color, amount: int) -> Color:
    """Lighten (positive) or darken (negative) a colour, clamped."""
    return tuple(max(0, min(255, c + amount)) for c in color)  # type: ignore[return-value]


def _noise(surface: Any, rng: random.Random, amount: int, density: float) -> None:
    """Speckle a tile: each pixel is nudged lighter or darker with probability ``density``."""
    for y in range(TILE):
        for x in range(TILE):
            if rng.random() < density:
                r, g, b, _ = surface.get_at((x, y))
                surface.set_at((x, y), _shade((r, g, b), rng.randint(-amount, amount)))


def _board_marks(surface: Any, base: Color) -> None:
    """The printed-board touches of a walkable square: a faint grid edge and a centre dot."""
    import pygame

    line = _shade(base, -22)
    pygame.draw.line(surface, line, (0, 0), (TILE - 1, 0))
    pygame.draw.line(surface, line, (0, 0), (0, TILE - 1))
    dot = _shade(base, -42)
    c = TILE // 2
    pygame.draw.rect(surface, dot, (c - 1, c - 1, 2, 2))
    surface.set_at((c - 1, c - 1), _shade(dot, 14))


def _stone(surface: Any, rect: tuple[int, int, int, int], color: Color) -> None:
    """One rounded cobble with a light top-left and a dark bottom-right rim."""
    import pygame

    x, y, w, h = rect
    pygame.draw.rect(surface, color, rect, border_radius=2 + (w + h) % 3)
    pygame.draw.line(surface, _shade(color, 14), (x + 2, y), (x + w - 3, y))
    pygame.draw.line(surface, _shade(color, 8), (x, y + 2), (x, y + h - 3))
    pygame.draw.line(surface, _shade(color, -20), (x + 2, y + h - 1), (x + w - 3, y + h - 1))
    pygame.draw.line(surface, _shade(color, -12), (x + w - 1, y + 2), (x + w - 1, y + h - 3))


def draw_cobble(surface: Any, rng: random.Random, variant: str) -> None:
    """Rows of offset cobbles on dark mortar; ``worn`` is paler, ``moss`` grows green in the joints."""
    surface.fill(MORTAR)
    rows = [(0, 8), (8, 8), (16, 8), (24, 8)]
    for i, (y, h) in enumerate(rows):
        x = -6 if i % 2 else 0
        while x < TILE:
            w = rng.choice((9, 10, 11, 12))
            color = rng.choice(COBBLES)
            if variant == "worn":
                color = _shade(color, 10)
            left, right = max(x, 0) + 1, min(x + w, TILE) - 1
            if right - left >= 3:
                top = y + 1 + rng.choice((0, 0, 1))
                _stone(surface, (left, top, right - left, y + h - 1 - top), color)
            x += w
    if variant == "moss":
        for _ in range(46):
            px, py = rng.randrange(TILE), rng.randrange(TILE)
            r, g, b, _ = surface.get_at((px, py))
            if (r, g, b) == MORTAR:
                surface.set_at((px, py), rng.choice((GRASS, GRASS_DARK)))
    _noise(surface, rng, 8, 0.25)
    _board_marks(surface, COBBLES[0])


def draw_flagstone(surface: Any, rng: random.Random) -> None:
    """Four large pale slabs (a plaza)."""
    import pygame

    surface.fill(FLAG_LINE)
    for sx, sy in ((0, 0), (16, 0), (0, 16), (16, 16)):
        color = _shade(FLAG, rng.randint(-10, 6))
        pygame.draw.rect(surface, color, (sx + 1, sy + 1, 14, 14))
        pygame.draw.line(surface, _shade(color, 14), (sx + 1, sy + 1), (sx + 14, sy + 1))
        pygame.draw.line(surface, _shade(color, -16), (sx + 1, sy + 14), (sx + 14, sy + 14))
    _noise(surface, rng, 7, 0.3)
    _board_marks(surface, FLAG)


def draw_grass(surface: Any, rng: random.Random, flowers: bool) -> None:
    """Short grass with tufts; optionally a few small flowers."""
    surface.fill(GRASS)
    for _ in range(70):
        x, y = rng.randrange(TILE), rng.randrange(1, TILE)
        color = rng.choice((GRASS_DARK, GRASS_LIGHT))
        surface.set_at((x, y), color)
        surface.set_at((x, y - 1), _shade(color, 8))
    if flowers:
        for _ in range(7):
            x, y = rng.randrange(2, TILE - 2), rng.randrange(2, TILE - 2)
            petal = rng.choice(((226, 210, 120), (222, 150, 160), (236, 236, 226), (170, 150, 220)))
            for dx, dy in ((0, -1), (-1, 0), (1, 0), (0, 1)):
                surface.set_at((x + dx, y + dy), petal)
            surface.set_at((x, y), (230, 190, 70))
    _noise(surface, rng, 6, 0.2)
    _board_marks(surface, GRASS)


def draw_dirt(surface: Any, rng: random.Random) -> None:
    """Packed earth with pebbles."""
    surface.fill(DIRT)
    _noise(surface, rng, 12, 0.45)
    for _ in range(9):
        x, y = rng.randrange(1, TILE - 2), rng.randrange(1, TILE - 2)
        surface.set_at((x, y), _shade(DIRT, 30))
        surface.set_at((x + 1, y), _shade(DIRT, 18))
        surface.set_at((x, y + 1), _shade(DIRT, -30))
    _board_marks(surface, DIRT)


def draw_wood(surface: Any, rng: random.Random, knots: bool) -> None:
    """Dark floor planks, 8 px high, with staggered end joints and grain."""
    import pygame

    for row in range(4):
        y = row * 8
        color = WOOD[row % len(WOOD)]
        pygame.draw.rect(surface, color, (0, y, TILE, 8))
        for _ in range(5):
            gx, gy = rng.randrange(TILE), y + rng.randrange(2, 7)
            length = rng.randint(3, 9)
            pygame.draw.line(surface, _shade(color, -12), (gx, gy), (min(TILE - 1, gx + length), gy))
        pygame.draw.line(surface, _shade(color, 14), (0, y), (TILE - 1, y))
        pygame.draw.line(surface, WOOD_SEAM, (0, y + 7), (TILE - 1, y + 7))
        joint = (row * 13 + 9) % TILE
        pygame.draw.line(surface, WOOD_SEAM, (joint, y), (joint, y + 7))
        if knots and row in (1, 3):
            kx = rng.randrange(4, TILE - 4)
            pygame.draw.ellipse(surface, _shade(color, -26), (kx, y + 2, 4, 3))
    _noise(surface, rng, 5, 0.2)
    _board_marks(surface, WOOD[0])


def draw_stone_floor(surface: Any, rng: random.Random, cracked: bool) -> None:
    """Cool dark slabs in a running bond (crypt or cellar floor)."""
    import pygame

    surface.fill(STONE_LINE)
    for row in range(2):
        y = row * 16
        offset = 0 if row == 0 else -8
        for col in range(3):
            x = offset + col * 16
            color = rng.choice(STONE)
            rect = pygame.Rect(x + 1, y + 1, 15, 15).clip(pygame.Rect(0, 0, TILE, TILE))
            if rect.width > 0:
                pygame.draw.rect(surface, color, rect)
                pygame.draw.line(surface, _shade(color, 12), rect.topleft, (rect.right - 1, rect.top))
    if cracked:
        x, y = 6, 5
        for _ in range(16):
            surface.set_at((x, y), STONE_LINE)
            x = min(TILE - 2, x + rng.choice((0, 1, 1)))
            y = min(TILE - 2, y + rng.choice((0, 1, 1, 1)))
    _noise(surface, rng, 6, 0.25)
    _board_marks(surface, STONE[0])


def draw_roof(surface: Any, rng: random.Random, colors: tuple[Color, Color, Color]) -> None:
    """Overlapping rows of shingles seen from above: a house block (no centre dot)."""
    import pygame

    base, dark, light = colors
    surface.fill(dark)
    for row in range(5):
        y = row * 7 - 3
        offset = 0 if row % 2 == 0 else -4
        for col in range(5):
            x = offset + col * 8
            color = _shade(base, rng.randint(-8, 8))
            pygame.draw.rect(surface, color, (x, y, 7, 8), border_bottom_left_radius=3,
                             border_bottom_right_radius=3)
            pygame.draw.line(surface, light, (x + 1, y + 1), (x + 5, y + 1))
        pygame.draw.line(surface, _shade(dark, -14), (0, y + 7), (TILE - 1, y + 7))
    _noise(surface, rng, 6, 0.2)
    pygame.draw.rect(surface, _shade(dark, -20), (0, 0, TILE, TILE), 1)


def draw_crates(surface: Any, rng: random.Random) -> None:
    """Two stacked crates on cobbles."""
    import pygame

    draw_cobble(surface, rng, "worn")
    for rect in ((3, 8, 17, 17), (13, 3, 16, 15)):
        x, y, w, h = rect
        pygame.draw.rect(surface, (60, 50, 40), (x + 2, y + 2, w, h))  # shadow
        pygame.draw.rect(surface, CRATE, rect)
        pygame.draw.rect(surface, CRATE_DARK, rect, 1)
        pygame.draw.line(surface, CRATE_DARK, (x + 1, y + 1), (x + w - 2, y + h - 2))
        pygame.draw.line(surface, CRATE_DARK, (x + w - 2, y + 1), (x + 1, y + h - 2))
        pygame.draw.line(surface, CRATE_LIGHT, (x + 1, y + 1), (x + w - 2, y + 1))


def draw_tree(surface: Any, rng: random.Random) -> None:
    """A round canopy with a soft shadow, over grass."""
    import pygame

    draw_grass(surface, rng, flowers=False)
    pygame.draw.circle(surface, (66, 86, 48), (18, 19), 13)  # shadow on the grass
    pygame.draw.circle(surface, LEAF_DARK, (16, 16), 13)
    pygame.draw.circle(surface, LEAF, (15, 15), 11)
    for _ in range(16):
        x, y = rng.randrange(7, 23), rng.randrange(6, 22)
        pygame.draw.circle(surface, rng.choice((LEAF_LIGHT, LEAF_DARK, LEAF)), (x, y), 2)
    pygame.draw.circle(surface, LEAF_LIGHT, (11, 10), 3)


def draw_hedge(surface: Any, rng: random.Random) -> None:
    """A clipped hedge block filling the square."""
    import pygame

    draw_grass(surface, rng, flowers=False)
    pygame.draw.rect(surface, LEAF_DARK, (2, 3, 28, 27), border_radius=5)
    pygame.draw.rect(surface, LEAF, (3, 3, 26, 24), border_radius=5)
    for _ in range(40):
        x, y = rng.randrange(4, 28), rng.randrange(4, 26)
        surface.set_at((x, y), rng.choice((LEAF_LIGHT, LEAF_DARK)))
    pygame.draw.line(surface, LEAF_LIGHT, (6, 4), (25, 4))


def draw_water(surface: Any, rng: random.Random) -> None:
    """Canal water: off the board."""
    import pygame

    surface.fill(WATER)
    for y in range(0, TILE, 2):
        if rng.random() < 0.5:
            pygame.draw.line(surface, WATER_DARK, (0, y), (TILE - 1, y))
    for _ in range(6):
        x, y = rng.randrange(0, TILE - 8), rng.randrange(2, TILE - 2)
        pygame.draw.line(surface, WATER_LIGHT, (x, y), (x + rng.randint(3, 7), y))
    _noise(surface, rng, 5, 0.2)


def draw_chasm(surface: Any, rng: random.Random) -> None:
    """A dark rocky drop, streaked with strata: off the board."""
    import pygame

    surface.fill(CHASM)
    for _ in range(14):
        x, y = rng.randrange(TILE), rng.randrange(TILE)
        length = rng.randint(3, 10)
        pygame.draw.line(surface, _shade(CHASM, rng.randint(8, 18)), (x, y), (x + length, y + 1))
    _noise(surface, rng, 6, 0.3)


def draw_well(surface: Any, rng: random.Random) -> None:
    """A stone well on flagstones."""
    import pygame

    draw_flagstone(surface, rng)
    pygame.draw.circle(surface, (70, 62, 54), (17, 17), 13)
    pygame.draw.circle(surface, (150, 140, 128), (16, 16), 13)
    pygame.draw.circle(surface, (118, 108, 98), (16, 16), 13, 2)
    pygame.draw.circle(surface, WATER_DARK, (16, 16), 8)
    pygame.draw.circle(surface, WATER, (15, 15), 6)
    pygame.draw.line(surface, WATER_LIGHT, (12, 13), (16, 13))


def draw_barrels(surface: Any, rng: random.Random) -> None:
    """Three barrels seen from above, on cobbles."""
    import pygame

    draw_cobble(surface, rng, "")
    for cx, cy in ((10, 11), (22, 12), (16, 22)):
        pygame.draw.circle(surface, (60, 50, 40), (cx + 1, cy + 2), 8)
        pygame.draw.circle(surface, (128, 90, 54), (cx, cy), 8)
        pygame.draw.circle(surface, (70, 66, 62), (cx, cy), 8, 1)
        pygame.draw.circle(surface, (70, 66, 62), (cx, cy), 5, 1)
        pygame.draw.circle(surface, (152, 110, 68), (cx - 1, cy - 1), 3)


DRAWERS: dict[str, Callable[[Any, random.Random], None]] = {
    "cobble": lambda s, r: draw_cobble(s, r, ""),
    "cobble-worn": lambda s, r: draw_cobble(s, r, "worn"),
    "cobble-moss": lambda s, r: draw_cobble(s, r, "moss"),
    "flagstone": draw_flagstone,
    "grass": lambda s, r: draw_grass(s, r, False),
    "grass-flowers": lambda s, r: draw_grass(s, r, True),
    "dirt": draw_dirt,
    "wood-floor": lambda s, r: draw_wood(s, r, False),
    "wood-floor-knots": lambda s, r: draw_wood(s, r, True),
    "stone-floor": lambda s, r: draw_stone_floor(s, r, False),
    "roof-red": lambda s, r: draw_roof(s, r, ROOF_RED),
    "roof-slate": lambda s, r: draw_roof(s, r, ROOF_SLATE),
    "crates": draw_crates,
    "tree": draw_tree,
    "water": draw_water,
    "chasm": draw_chasm,
    "well": draw_well,
    "barrels": draw_barrels,
    "hedge": draw_hedge,
    "stone-floor-cracked": lambda s, r: draw_stone_floor(s, r, True),
}


def sheet_size() -> tuple[int, int]:
    """Pixel size of the tileset image: :data:`COLUMNS` tiles wide."""
    rows = -(-len(TILES) // COLUMNS)
    return COLUMNS * TILE, rows * TILE


def draw_sheet() -> Any:
    """Draw every tile of :data:`TILES` into one pygame Surface (tile id = index, row-major)."""
    import pygame

    sheet = pygame.Surface(sheet_size(), pygame.SRCALPHA)
    for index, spec in enumerate(TILES):
        tile = pygame.Surface((TILE, TILE), pygame.SRCALPHA)
        tile.fill((0, 0, 0, 255))
        DRAWERS[spec.name](tile, random.Random(f"sightline-street-{spec.name}"))
        sheet.blit(tile, ((index % COLUMNS) * TILE, (index // COLUMNS) * TILE))
    return sheet


def main(out: Path = OUT) -> Path:
    """Draw the sheet and save it as an 8-bit-per-channel PNG (atomically)."""
    import os
    import tempfile

    import pygame

    out.parent.mkdir(parents=True, exist_ok=True)
    sheet = draw_sheet()
    fd, tmp = tempfile.mkstemp(suffix=".png", dir=out.parent)
    os.close(fd)
    pygame.image.save(sheet, tmp)
    os.chmod(tmp, 0o644)
    os.replace(tmp, out)
    return out


if __name__ == "__main__":
    print(main())
