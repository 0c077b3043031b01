"""Make the pictures of docs/vtt.md with the commands users run: ``sightline render`` (the decided
board, the map's picture under it, the drawn lines the off-grid policy moved over it, magenta for
walls and cyan for doors and windows) and the window's first frame (``sightline play --frames``).

    SDL_VIDEODRIVER=dummy python docs/make_vtt_pictures.py
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from game.cli import main  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
IMAGES = REPO / "docs" / "images"
VTT = REPO / "tests" / "data" / "vtt"

#: a small made-up map: a diagonal wall, a wall off the grid lines, a door centred on a corner
RULE_EXAMPLE = """{"format": 0.3, "resolution": {"map_size": {"x": 7, "y": 4}, "pixels_per_grid": 50},
  "line_of_sight": [[{"x": 0.5, "y": 0.3}, {"x": 3.4, "y": 3.6}],
                    [{"x": 4, "y": 0.4}, {"x": 4, "y": 1.5}], [{"x": 4, "y": 2.5}, {"x": 4, "y": 3.6}],
                    [{"x": 4.6, "y": 1.3}, {"x": 6.6, "y": 1.2}]],
  "portals": [{"position": {"x": 4, "y": 2}, "bounds": [{"x": 4, "y": 1.5}, {"x": 4, "y": 2.5}],
               "rotation": 1.570796, "closed": true, "freestanding": false}]}"""


def render(path: Path, scale: int, out: str) -> None:
    """``sightline render MAP -o docs/images/OUT --scale SCALE --no-legend``."""
    assert main(["render", str(path), "-o", str(IMAGES / out), "--scale", str(scale), "--no-legend"]) == 0


def main_pictures() -> None:
    with tempfile.TemporaryDirectory() as folder:
        rule = Path(folder) / "rule.dd2vtt"
        rule.write_text(RULE_EXAMPLE)
        render(rule, 64, "vtt-offgrid-rule.png")
    render(VTT / "real" / "oganm-test.dd2vtt", 40, "vtt-offgrid-dungeondraft.png")
    render(VTT / "uvtt" / "cave.uvtt", 48, "vtt-offgrid-cave.png")
    render(VTT / "foundry" / "keep-v9.json", 28, "vtt-offgrid-foundry.png")
    assert main(["play", str(VTT / "real" / "oganm-test.dd2vtt"), "--frames", "2", "--fresh", "--size",
                 "1280x800", "--screenshot", str(IMAGES / "vtt-window.png")]) == 0


if __name__ == "__main__":
    main_pictures()
