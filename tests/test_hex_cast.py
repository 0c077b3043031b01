"""The lazy hex caster (game/core/hex_cast.py): its budget, and that its rim of rows is needed.
Its fields against the walk and the reference: tests/test_hex_fov.py, tests/test_hex_paint.py."""

from __future__ import annotations

import random

import numpy as np
import pytest
from support.hex_boards import random_board

from game.core import hex_cast
from game.core.hex_board import HexBoard
from game.core.hex_fov import origin
from game.core.hex_los import field, field_by_lines
from game.core.hex_rules import HEX_PRESETS
from game.core.hexgrid import HexGrid


def test_it_gives_up_past_its_budget_and_the_paint_answers() -> None:
    """On an open board the caster would visit every point: it stops at its budget, forgets what
    it marked, and the field (by the paint) is still the walk's."""
    board = HexBoard.build(HexGrid(30, 30))
    rule = HEX_PRESETS["hexside"]
    o = origin(board, (15, 15), rule)
    assert not hex_cast.cast_centres(o, hex_cast.budget(30, 30))
    o.forget()
    assert not any(o.seen)
    assert hex_cast.cast_centres(origin(board, (15, 15), rule))  # no limit: it finishes
    assert (field(board, (15, 15), rule, engine="cast") == field_by_lines(board, (15, 15), rule)).all()


def test_it_gives_up_early_when_the_first_sextants_use_their_share() -> None:
    """A limit the first sextant alone uses more than a sixth of: given up after that sextant."""
    board = HexBoard.build(HexGrid(30, 30))
    o = origin(board, (15, 15), HEX_PRESETS["hexside"])
    visited = []
    real = hex_cast._sextant

    def counted(*args: object) -> int:
        left = real(*args)  # type: ignore[arg-type]
        visited.append(left)
        return left

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hex_cast, "_sextant", counted)
        assert not hex_cast.cast_centres(o, 1500)
    assert len(visited) == 1 and visited[0] >= 0  # stopped by the pace, not by the limit


@pytest.mark.slow
def test_a_rim_of_one_row_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The caster visits two rows around each open interval; with one, an edge crossing a thin
    interval can be missed, and the comparison with the walk sees it."""
    monkeypatch.setattr(hex_cast, "_WIDEN", 1)
    rule = HEX_PRESETS["hexside"]
    rng = random.Random(rule.spec())
    wrong = 0
    for density in (0.0, 0.02, 0.06, 0.15):
        board = random_board(rng, rng.randint(14, 22), rng.randint(14, 22), density)
        cells = [c for c in board.grid.cells() if board.on_board(c)]
        for a in rng.sample(cells, 4):
            lazy = field(board, a, rule, engine="lazy")
            wrong += int(np.count_nonzero(lazy != field_by_lines(board, a, rule)))
    assert wrong > 0
