"""Golden boards: ASCII boards with their expected visibility masks (tests/golden/los/README.md).

Run ``python tests/test_los_golden.py --write`` to fill in or refresh the masks from the reference
engine after adding a board (then read the new masks by eye before committing them).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from game.core.board import Board, Figure, parse_square
from game.core.los import mask_to_ascii, visible_from
from game.core.sight import reference

GOLDEN = Path(__file__).resolve().parent / "golden" / "los"


@dataclass
class Golden:
    """One golden file: the board description and, per origin, the expected mask rows."""

    path: Path
    header: list[str] = field(default_factory=list)  # everything up to the first "from" line
    rows: list[str] = field(default_factory=list)
    walls: list[str] = field(default_factory=list)
    doors: dict[str, str] = field(default_factory=dict)
    figures: list[tuple[str, tuple[int, int]]] = field(default_factory=list)
    viewer: str | None = None
    masks: dict[tuple[int, int], list[str]] = field(default_factory=dict)

    def board(self) -> Board:
        board = Board.from_ascii(self.rows, walls=self.walls, doors=self.doors)
        for i, (side, sq) in enumerate(self.figures, start=1):
            board.place_figure(Figure(i, f"{side}{i}", side, sq))
        return board


def parse(path: Path) -> Golden:
    golden = Golden(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    section = None
    current: tuple[int, int] | None = None
    for line in lines:
        if line.startswith("from "):
            current = parse_square(line[5:].rstrip(":"))
            golden.masks[current] = []
            section = "mask"
            continue
        if section != "mask":
            golden.header.append(line)
        if not line.strip() or line.startswith("#"):
            continue
        if section == "mask":
            assert current is not None
            golden.masks[current].append(line)
        elif line == "board:":
            section = "board"
        elif line.startswith("walls:"):
            golden.walls = line.split(":", 1)[1].split()
        elif line.startswith("doors:"):
            golden.doors = dict(item.split("=") for item in line.split(":", 1)[1].split())
        elif line.startswith("figures:"):
            for item in line.split(":", 1)[1].split():
                side, sq = item.split("@")
                golden.figures.append((side, parse_square(sq)))
        elif line.startswith("viewer:"):
            name = line.split(":", 1)[1].strip()
            golden.viewer = None if name == "none" else name
        elif section == "board":
            golden.rows.append(line)
        else:
            raise ValueError(f"{path.name}: unexpected line {line!r}")
    return golden


FILES = sorted(GOLDEN.glob("*.txt"))


def test_golden_files_exist() -> None:
    assert len(FILES) >= 5


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_masks(path: Path) -> None:
    golden = parse(path)
    board = golden.board()
    assert golden.masks, f"{path.name} names no origin"
    for origin, expected in golden.masks.items():
        mask = visible_from(board, origin, golden.viewer)
        assert mask_to_ascii(board, mask, origin) == expected, f"{path.name} from {origin}"
        for x, y in board.squares():
            if (x, y) != origin:
                ref = reference(board, origin, (x, y), "arcadia", viewer=golden.viewer)
                assert ref.clear is bool(mask[y, x]), (path.name, origin, (x, y))


# Masks worked out by hand from the rule (docs/line-of-sight.md), not by any engine:
# (rows, walls, figures as (side, square), viewer, origin, expected rows, why). "@" origin, "o"
# seen, "." hidden, "~" void. Squares are (x, y); centres at (x + 1/2, y + 1/2).
HAND_CHECKED = [
    (
        ["....."], ["V(2,0)"], [], None, (0, 0), ["@o..."],
        # (1,0): the ray to x = 1.5 crosses only the open edge V(1,0). (2,0), (3,0), (4,0): each ray
        # runs along y = 0.5 and crosses the wall V(2,0) at (2, 0.5), an interior point of it.
    ),
    (
        ["...", ".#.", "..."], [], [], None, (0, 0), ["@oo", "oo.", "o.."],
        # Row 0 and column 0 stay at y = 0.5 / x = 0.5, outside the blocked square (1,1). (1,1) is
        # the target's own square: end squares never block. (2,1): the ray of slope 1/2 is at
        # y = 1.0 when x = 1.5 and inside (1,1) for x in (1.5, 2): blocked; (1,2) the mirror
        # image. (2,2): the diagonal runs through the middle of (1,1): blocked.
    ),
    (
        ["..", ".."], ["V(1,0)", "H(0,1)"], [], None, (0, 0), ["@.", ".."],
        # (1,0) and (0,1): their rays cross the walls V(1,0) and H(0,1). (1,1): the ray goes
        # exactly through the corner (1,1) between the north-east square (1,0), closed by its arm
        # V(1,0), and the south-west square (0,1), closed by its arm H(0,1): both sides closed.
    ),
    (
        ["..", ".."], ["V(1,0)"], [], None, (0, 0), ["@.", "oo"],
        # As above without H(0,1): only the north-east side of corner (1,1) is closed, so the
        # diagonal ray skims it (a corner blocks only when both sides are closed); (0,1) is open.
    ),
    (
        ["...."], [], [("blue", (2, 0)), ("blue", (2, 0))], "red", (0, 0), ["@oo."],
        # Two blue figures on (2,0) fill it (capacity 2) and are red's enemies: the ray to (3,0)
        # crosses their square's interior and is blocked; (2,0) itself is the target's square.
    ),
    (
        ["...."], [], [("blue", (2, 0)), ("blue", (2, 0))], "blue", (0, 0), ["@ooo"],
        # The same squares seen by blue: its own figures never block its sight.
    ),
    (
        ["..~.."], [], [], None, (0, 0), ["@o~.."],
        # (2,0) is void: never seen, and the rays to (3,0) and (4,0) cross its interior.
    ),
]


@pytest.mark.parametrize("case", HAND_CHECKED, ids=[f"hand{i}" for i in range(len(HAND_CHECKED))])
def test_hand_checked_masks(case: tuple) -> None:
    rows, walls, figures, viewer, origin, expected = case
    board = Board.from_ascii(rows, walls=walls)
    for i, (side, sq) in enumerate(figures, start=1):
        board.place_figure(Figure(i, f"{side}{i}", side, sq))
    assert mask_to_ascii(board, visible_from(board, origin, viewer), origin) == expected


def write_all() -> None:
    """Recompute every mask from the reference engine and rewrite the files."""
    for path in FILES:
        golden = parse(path)
        board = golden.board()
        out = list(golden.header)
        while out and not out[-1].strip():
            out.pop()
        for origin in golden.masks:
            mask = np.zeros((board.height, board.width), dtype=bool)
            for x, y in board.squares():
                mask[y, x] = reference(board, origin, (x, y), "arcadia", viewer=golden.viewer).clear
            out.append(f"from {origin[0]},{origin[1]}:")
            out.extend(mask_to_ascii(board, mask, origin))
        path.write_text("\n".join(out) + "\n", encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    if "--write" in sys.argv:
        write_all()
