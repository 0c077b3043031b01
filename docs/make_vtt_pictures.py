"""Make the off-grid pictures of docs/vtt.md: the decided board, drawn by the PNG renderer, with
the walls as the map maker drew them on top (magenta; doors and windows cyan).

    SDL_VIDEODRIVER=dummy python docs/make_vtt_pictures.py
"""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from game.core.board import Board, Door  # noqa: E402
from game.tiled.foundry import read_foundry  # noqa: E402
from game.tiled.geometry import trace_wall  # noqa: E402
from game.tiled.offgrid import decide_path  # noqa: E402
from game.tiled.uvtt import parse_uvtt, read_uvtt  # noqa: E402
from game.tiled.vtt_scene import VttScene  # noqa: E402
from game.ui.render import margin, render_surface, save_png  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
IMAGES = REPO / "docs" / "images"
VTT = REPO / "tests" / "data" / "vtt"
DRAWN, PORTAL = (230, 40, 200), (40, 200, 230)


def decided_board(scene: VttScene) -> Board:
    """Walls, windows and doors as the off-grid policy decides them (nothing else)."""
    kinds: dict[str, set] = {"wall": set(), "window": set(), "door": set()}
    states = {}
    drawn = [(p.role, p.points, p.closed) for p in scene.paths]
    drawn += [("door", (d.a, d.b), False) for d in scene.doors]
    for (role, points, closed), state in zip(drawn, [None] * len(scene.paths) + [d.state for d in scene.doors],
                                             strict=True):
        corners = [(Fraction(x), Fraction(y)) for x, y in decide_path(points, closed).corners]
        for edge in trace_wall([(corners, False)]).edges if len(corners) > 1 else ():
            kinds[role].add(edge)
            if state is not None:
                states[edge] = state
    return Board(scene.width, scene.height, walls=kinds["wall"], windows=kinds["window"],
                 doors=[Door(e, states[e]) for e in kinds["door"]])


def picture(scene: VttScene, scale: int, out: str) -> None:
    """Render the decided board and draw the drawing over it."""
    pygame.init()
    surface = render_surface(decided_board(scene), None, scale=scale)
    m = margin(scale)

    def at(point: tuple[Fraction, Fraction]) -> tuple[float, float]:
        return m + float(point[0]) * scale, m + float(point[1]) * scale

    for path in scene.paths:
        colour = DRAWN if path.role == "wall" else PORTAL
        points = [at(p) for p in path.points] + ([at(path.points[0])] if path.closed else [])
        pygame.draw.lines(surface, colour, False, points, 2)
    for door in scene.doors:
        pygame.draw.line(surface, PORTAL, at(door.a), at(door.b), 2)
    for path in scene.paths:  # the drawn vertices
        for point in path.points:
            pygame.draw.circle(surface, DRAWN if path.role == "wall" else PORTAL, at(point), 2)
    save_png(surface, IMAGES / out)
    print(f"wrote docs/images/{out}")


def rule_example() -> VttScene:
    """A small made-up map: a diagonal wall, a wall off the grid lines, a door centred on a corner."""
    doc = b"""{"format": 0.3, "resolution": {"map_size": {"x": 7, "y": 4}, "pixels_per_grid": 50},
      "line_of_sight": [[{"x": 0.5, "y": 0.3}, {"x": 3.4, "y": 3.6}],
                        [{"x": 4, "y": 0.4}, {"x": 4, "y": 1.5}], [{"x": 4, "y": 2.5}, {"x": 4, "y": 3.6}],
                        [{"x": 4.6, "y": 1.3}, {"x": 6.6, "y": 1.2}]],
      "portals": [{"position": {"x": 4, "y": 2}, "bounds": [{"x": 4, "y": 1.5}, {"x": 4, "y": 2.5}],
                   "rotation": 1.570796, "closed": true, "freestanding": false}]}"""
    return parse_uvtt(doc, "rule.dd2vtt").scene()


def main() -> None:
    picture(rule_example(), 64, "vtt-offgrid-rule.png")
    picture(read_uvtt(VTT / "real" / "oganm-test.dd2vtt").scene(), 40, "vtt-offgrid-dungeondraft.png")
    picture(read_uvtt(VTT / "uvtt" / "cave.uvtt").scene(), 48, "vtt-offgrid-cave.png")
    picture(read_foundry(VTT / "foundry" / "keep-v9.json").scene(), 28, "vtt-offgrid-foundry.png")


if __name__ == "__main__":
    main()
