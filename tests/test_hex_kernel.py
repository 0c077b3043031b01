"""The compiled loops of the hex paint (game/core/hex_kernel.py) against plain Python: the
minimum-paint against a minimum over each interval (random intervals, hypothesis, and the edge
cases), the one-offset frame against :func:`game.core.hex_paint.frames` over a whole box, and the
board's byte grid against the walk's own corners and cells.
What :func:`place` and :func:`read` decide is proven through the fields: tests/test_hex_fov.py,
tests/test_hex_paint.py and tests/test_hex_exhaustive.py compare them with the walk and the
reference under every rule."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.hex_boards import RULES, random_board

from game.core import hex_fov, hex_kernel, hex_paint
from game.core.hex_board import HexView
from game.core.hex_los import _Corner


def _plain(total: int, pieces: list[tuple[int, int, int]]) -> list[int]:
    """Per leaf, the smallest key of the intervals holding it (:data:`hex_kernel.NOTHING` else)."""
    out = [hex_kernel.NOTHING] * total
    for lo, hi, key in pieces:
        for leaf in range(lo, hi):
            out[leaf] = min(out[leaf], key)
    return out


def _painted(total: int, count: int, pieces: list[tuple[int, int, int]]) -> list[int]:
    lo = np.array([p[0] for p in pieces], dtype=np.int32)
    hi = np.array([p[1] for p in pieces], dtype=np.int32)
    key = np.array([p[2] for p in pieces], dtype=np.int32)
    found: list[int] = hex_kernel.paint(total, count, lo, hi, key).tolist()
    return found


@st.composite
def _pieces(draw: st.DrawFn) -> tuple[int, int, list[tuple[int, int, int]]]:
    """Frames of ``count`` leaves and intervals inside one frame each (as the paint places them)."""
    count, frames = draw(st.integers(1, 40)), draw(st.integers(1, 6))
    pieces = []
    for _ in range(draw(st.integers(0, 60))):
        frame = draw(st.integers(0, frames - 1))
        a, b = sorted((draw(st.integers(0, count)), draw(st.integers(0, count))))
        pieces.append((frame * count + a, frame * count + b, draw(st.integers(0, 50))))
    return frames * count, count, pieces


@settings(max_examples=300, deadline=None)
@given(_pieces())
def test_the_paint_is_the_smallest_key_over_the_intervals(drawn: tuple[int, int, list[tuple[int, int, int]]]) -> None:
    total, count, pieces = drawn
    assert _painted(total, count, pieces) == _plain(total, pieces)


def test_the_paint_s_edge_cases() -> None:
    """No interval; empty intervals; one leaf; nested and equal keys; a frame wholly covered."""
    assert _painted(5, 5, []) == [hex_kernel.NOTHING] * 5
    cases = [
        [(2, 2, 1), (3, 3, 0)],
        [(0, 1, 4), (0, 1, 2), (4, 5, 0)],
        [(0, 10, 9), (2, 8, 5), (3, 4, 1), (3, 4, 1), (0, 10, 9)],
        [(0, 10, 3), (0, 10, 1), (10, 20, 2), (12, 13, 0)],
    ]
    for pieces in cases:
        assert _painted(20, 10, pieces) == _plain(20, pieces), pieces


def test_a_bug_planted_in_the_paint_is_caught() -> None:
    """The plain minimum is not a test that cannot fail: the largest key instead is caught."""
    pieces = [(0, 4, 3), (2, 6, 1)]
    wrong = [hex_kernel.NOTHING] * 8
    for lo, hi, key in pieces:
        for leaf in range(lo, hi):
            wrong[leaf] = key if wrong[leaf] == hex_kernel.NOTHING else max(wrong[leaf], key)
    assert _painted(8, 8, pieces) != wrong


@pytest.mark.parametrize(("stride", "rows"), [(9, 7), (13, 20)])
def test_one_offset_s_frame_is_the_frame_of_the_whole_box(stride: int, rows: int) -> None:
    """The compiled ``_frame`` of every offset of a box equals :func:`hex_paint.frames`."""
    dx = np.arange(1 - stride, stride, dtype=np.int64)[None, :]
    dy = np.arange(1 - rows, rows, dtype=np.int64)[:, None]
    x, y = (a.ravel() for a in np.broadcast_arrays(dx, dy))
    k, level, row = hex_paint.frames(x, y)
    for i in range(x.size):
        found = hex_kernel._frame(int(x[i]), int(y[i]), hex_paint._SEXTANT, hex_paint._FORMS)
        want = (int(k[i]), int(level[i]), int(row[i])) if k[i] >= 0 else (-1, 0, 0)
        assert tuple(found) == want, (x[i], y[i])


# --- numba loaded only where a hex field is painted -------------------------------------------------

REPO = Path(__file__).resolve().parent.parent
_RUN = """
import sys
from game.cli import main
code = main({args!r})
print("numba" in sys.modules, code)
"""


def _numba_loaded(args: list[str], before: str = "") -> tuple[bool, int]:
    """Run the command in a fresh process: whether numba was imported, and its exit code."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", before + _RUN.format(args=args)], cwd=REPO, env=env, capture_output=True,
        text=True, timeout=120, check=False,
    )
    loaded, code = done.stdout.split()[-2:]
    return loaded == "True", int(code)


def test_a_command_that_paints_no_hex_field_never_loads_numba(tmp_path: Path) -> None:
    """``los`` on a hex map walks one line: no numba (its import costs a fresh process a third of a
    second); ``render --fov`` paints a field and does load it (so the check can fail)."""
    hex_map = str(REPO / "maps" / "hex-demo.tmx")
    assert _numba_loaded(["los", hex_map, "1,0", "1,2"]) == (False, 0)
    out = str(tmp_path / "fov.png")
    assert _numba_loaded(["render", hex_map, "-o", out, "--from", "9,5", "--fov", "--rule", "gloomhaven"]) == (True, 0)


def test_without_a_place_for_numba_s_cache_the_loops_compile_in_the_process(tmp_path: Path) -> None:
    """Where numba finds no writable cache (no locator), the loops are compiled without one and
    the field is still painted."""
    hide = "import numba.core.caching as c\ngetattr(c, 'CacheImpl', None) or c._CacheImpl\n"
    hide += "(getattr(c, 'CacheImpl', None) or c._CacheImpl)._locator_classes = []\n"
    out = tmp_path / "fov.png"
    hex_map = str(REPO / "maps" / "hex-demo.tmx")
    assert _numba_loaded(["render", hex_map, "-o", str(out), "--from", "9,5", "--fov"], hide) == (True, 0)
    assert out.stat().st_size > 0


# --- the byte grid ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_the_byte_grid_says_what_the_walk_says_at_every_corner_and_centre(seed: int) -> None:
    """``grid_bytes`` (through ``hex_fov.sight_grid``): every corner's code of every cell equals
    the walk's own corner (its arms' walls and wedges' cells, found one by one:
    ``hex_los._Corner``), and every centre's byte says "blocks" and "on the board" as the board
    view does — random boards of every stagger with void, walls, doors and figures, under a
    spread of rules and viewers."""
    rng = random.Random(seed)
    board = random_board(rng, rng.randint(1, 9), rng.randint(1, 9), rng.choice([0.0, 0.1, 0.3]))
    grid = board.grid
    for rule in RULES[seed % 4 :: 4]:
        viewer = rng.choice([None, "red"])
        sg = hex_fov.sight_grid(board, rule, viewer)
        view = HexView(board, rule, viewer)
        for cell in grid.cells():
            cx, cy = grid.pointy_frame(grid.centre(cell))
            centre = sg.flags[(cy - sg.y0) * sg.stride + cx - sg.x0]
            assert centre == (view.cell(cell) is not None) | board.on_board(cell) << 1, (rule.spec(), cell)
            for dx, dy in ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1)):
                g = (cx + dx, cy + dy)
                byte = sg.flags[(g[1] - sg.y0) * sg.stride + g[0] - sg.x0]
                assert byte == _Corner(view, g, ((-99, -99), (-99, -99))).code, (rule.spec(), cell, g)
