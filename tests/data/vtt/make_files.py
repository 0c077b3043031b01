"""Write the hand-made virtual-tabletop test files of this folder (run it from the repository root).

    SDL_VIDEODRIVER=dummy python tests/data/vtt/make_files.py

Each file has the shape of what the tool writes (key order, number formats, the fields the tool
fills), with geometry made up for the tests: see SOURCES.md for what each one holds.
"""

from __future__ import annotations

import base64
import io
import json
import math
from pathlib import Path

import pygame

HERE = Path(__file__).resolve().parent


def png(width: int, height: int, colour: tuple[int, int, int], grid: int) -> str:
    """A flat picture with grid lines every ``grid`` pixels, as base64 PNG."""
    surface = pygame.Surface((width, height))
    surface.fill(colour)
    for x in range(0, width, grid):
        pygame.draw.line(surface, (0, 0, 0), (x, 0), (x, height))
    for y in range(0, height, grid):
        pygame.draw.line(surface, (0, 0, 0), (0, y), (width, y))
    buffer = io.BytesIO()
    pygame.image.save(surface, buffer, "x.png")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def pts(*coords: float) -> list[dict[str, float]]:
    return [{"x": x, "y": y} for x, y in zip(coords[::2], coords[1::2], strict=True)]


def room() -> dict:
    """An 8x6 Dungeondraft-style room, all on the grid: walls stop at the portals' bounds."""
    return {
        "format": 0.3,
        "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 8, "y": 6}, "pixels_per_grid": 32},
        "line_of_sight": [
            pts(3, 1, 1, 1, 1, 5, 7, 5, 7, 4),   # the outer wall, from the door round to the window
            pts(7, 3, 7, 1, 4, 1),               # from the window round to the door
            pts(4, 1, 4, 3),                     # an inner wall
        ],
        "objects_line_of_sight": [pts(5.2, 2.2, 5.8, 2.2, 5.8, 2.8, 5.2, 2.8)],  # a pillar on (5,2)
        "portals": [
            {"position": {"x": 3.5, "y": 1}, "bounds": pts(3, 1, 4, 1), "rotation": 0,
             "closed": True, "freestanding": False},
            {"position": {"x": 7, "y": 3.5}, "bounds": pts(7, 3, 7, 4), "rotation": 1.570796,
             "closed": False, "freestanding": False},
        ],
        "environment": {"baked_lighting": True, "ambient_light": "ffffffff"},
        "lights": [{"position": {"x": 2.5, "y": 2.5}, "range": 4, "intensity": 1, "color": "ffeccd8b",
                    "shadows": True}],
        "image": png(256, 192, (170, 150, 120), 32),
    }


def cave() -> dict:
    """A 12x10 cave: an off-grid outline, a diagonal wall, a door centred on a grid corner."""
    outline = []
    for i in range(25):
        angle = 2 * math.pi * i / 24
        radius = 4.3 + 0.35 * math.sin(3 * angle)
        outline += [round(6 + radius * math.cos(angle), 6), round(5 + radius * math.sin(angle), 6)]
    outline[-2:] = outline[:2]  # closed: the last point repeats the first, as Dungeondraft writes
    return {
        "format": 0.2,
        "resolution": {"map_origin": {"x": 3, "y": 2}, "map_size": {"x": 12, "y": 10}, "pixels_per_grid": 50},
        "line_of_sight": [
            pts(*[v + (3 if k % 2 == 0 else 2) for k, v in enumerate(outline)]),
            pts(7.2, 4.1, 10.8, 7.9),             # a diagonal wall
            pts(11, 3, 11, 8.5),                  # a wall ending at a door
            pts(11, 9.5, 11, 11),
        ],
        "objects_line_of_sight": [],
        "portals": [{"position": {"x": 11, "y": 9}, "bounds": pts(11, 8.5, 11, 9.5), "rotation": -1.570796,
                     "closed": True, "freestanding": False}],
        "environment": {"baked_lighting": False, "ambient_light": "ff404040"},
        "lights": [],
        "image": png(600, 500, (90, 90, 100), 50),
    }


def hall_v12() -> dict:
    """A Foundry 12-style export: grid object, sight/light/sound/move, threshold, tokens."""
    g = 100
    pad = 200  # ceil(0.25 * 800 / 100) * 100 and ceil(0.25 * 600 / 100) * 100

    def wall(i: int, c: list[int], **kw: object) -> dict:
        doc = {"_id": f"wall{i:012d}", "c": [v + pad for v in c], "light": 20, "move": 20, "sight": 20,
               "sound": 20, "dir": 0, "door": 0, "ds": 0, "doorSound": "", "threshold":
               {"light": None, "sight": None, "sound": None, "attenuation": False}, "flags": {}}
        doc.update(kw)
        return doc

    return {
        "name": "Hall", "_id": "hallscene0000001", "active": False, "navigation": True,
        "background": {"src": "worlds/test/hall.webp", "anchorX": 0, "anchorY": 0, "offsetX": 0,
                       "offsetY": 0, "fit": "fill", "scaleX": 1, "scaleY": 1, "rotation": 0,
                       "tint": "#ffffff", "alphaThreshold": 0},
        "width": 800, "height": 600, "padding": 0.25, "backgroundColor": "#999999",
        "grid": {"type": 1, "size": g, "style": "solidLines", "thickness": 1, "color": "#000000",
                 "alpha": 0.2, "distance": 5, "units": "ft"},
        "tokenVision": True,
        "walls": [
            wall(0, [100, 100, 700, 100]), wall(1, [700, 100, 700, 500]), wall(2, [700, 500, 100, 500]),
            wall(3, [100, 500, 100, 300]), wall(4, [100, 300, 100, 200], door=1, ds=1),
            wall(5, [100, 200, 100, 100]),
            wall(6, [400, 100, 400, 200], door=1, ds=2),
            wall(7, [400, 200, 400, 300], sight=0, light=0),    # a window: blocks movement only
            wall(8, [400, 300, 400, 400], dir=1),               # one-way
            wall(9, [500, 300, 600, 300], sight=10, light=10),  # limited (terrain)
            wall(10, [500, 400, 600, 400], move=0),             # blocks sight only
            wall(11, [200, 400, 300, 400], door=2, ds=0),       # secret door
        ],
        "tokens": [
            {"_id": "tok0000000000001", "name": "Ann", "x": 300, "y": 300, "width": 1, "height": 1,
             "disposition": 1, "hidden": False, "actorId": None, "flags": {}},
            {"_id": "tok0000000000002", "name": "Grub", "x": 800, "y": 600, "width": 2, "height": 2,
             "disposition": -1, "hidden": True, "actorId": None, "flags": {}},
        ],
        "lights": [{"_id": "light00000000001", "x": 500, "y": 500, "config": {"dim": 20, "bright": 10}}],
        "notes": [], "sounds": [], "templates": [], "tiles": [], "drawings": [], "regions": [],
        "flags": {}, "_stats": {"coreVersion": "12.331", "systemId": "dnd5e"},
    }


def keep_v9() -> dict:
    """A Foundry 9-style export with walls traced round a painted tower, off the grid."""
    g, pad_x, pad_y = 140, 840, 700  # 3360x2800 px = 24x20 squares; padding 0.25 rounds up
    walls = []
    centre = (pad_x + 12 * g, pad_y + 10 * g)
    corners = []
    for i in range(17):
        angle = 2 * math.pi * i / 16
        corners.append((round(centre[0] + 4.6 * g * math.cos(angle)), round(centre[1] + 4.6 * g * math.sin(angle))))
    for i, (a, b) in enumerate(zip(corners, corners[1:], strict=False)):
        door = 1 if i == 4 else 0
        walls.append({"_id": f"keepwall{i:08d}", "flags": {}, "c": [*a, *b], "move": 1,
                      "sense": 1 if i % 5 else 2, "door": door, "ds": 0})
    walls.append({"_id": "keepwall00000099", "flags": {}, "c": [pad_x + 2 * g, pad_y + 3 * g, pad_x + 2 * g,
                  pad_y + 9 * g], "move": 1, "sense": 0, "door": 0, "ds": 0})
    return {
        "name": "Keep", "permission": {"default": 0}, "flags": {}, "navigation": False, "navOrder": None,
        "navName": "", "active": False, "initial": None, "img": "modules/made-up/maps/keep.webp",
        "thumb": None, "width": 24 * g, "height": 20 * g, "padding": 0.25, "backgroundColor": "#999999",
        "gridType": 1, "grid": g, "shiftX": 0, "shiftY": 0, "gridColor": "#000000", "gridAlpha": 0.2,
        "gridDistance": 5, "gridUnits": "ft", "tokens": [], "walls": walls, "tokenVision": True,
        "fogExploration": True, "lights": [], "globalLight": True, "darkness": 0, "playlist": "",
        "journal": "", "weather": "",
    }


def main() -> None:
    pygame.init()
    (HERE / "uvtt").mkdir(exist_ok=True)
    (HERE / "foundry").mkdir(exist_ok=True)
    (HERE / "uvtt" / "room.dd2vtt").write_text(json.dumps(room(), indent="\t") + "\n")
    (HERE / "uvtt" / "cave.uvtt").write_text(json.dumps(cave(), indent="\t") + "\n")
    (HERE / "foundry" / "hall-v12.json").write_text(json.dumps(hall_v12(), indent=2) + "\n")
    (HERE / "foundry" / "keep-v9.json").write_text(json.dumps(keep_v9()) + "\n")


if __name__ == "__main__":
    main()
