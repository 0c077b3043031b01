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


def test_it_gives_up_past_its_limit_and_forgets() -> None:
    """On an open board the caster would visit every point: it stops at its limit and forgets
    what it marked; with no limit it finishes, with the walk's field."""
    board = HexBoard.build(HexGrid(30, 30))
    rule = HEX_PRESETS["hexside"]
    o = origin(board, (15, 15), rule)
    assert not hex_cast.cast_centres(o, 440)
    o.forget()
    assert not any(o.seen)
    assert (field(board, (15, 15), rule, engine="lazy") == field_by_lines(board, (15, 15), rule)).all()


def test_on_a_big_open_board_the_paint_answers() -> None:
    """From :data:`hex_cast.SMALLEST` cells on the field tries the caster within its budget; on an
    open board the caster gives up and the paint's field is the answer."""
    board = HexBoard.build(HexGrid(180, 180))
    rule = HEX_PRESETS["hex-strict"]
    assert hex_cast.budget(180, 180) is not None and hex_cast.budget(179, 180) is None
    assert not hex_cast.cast_centres(origin(board, (90, 90), rule), hex_cast.budget(180, 180))
    assert (field(board, (90, 90), rule, engine="cast") == field(board, (90, 90), rule, engine="paint")).all()


def test_on_a_big_dense_board_the_caster_answers() -> None:
    """A 180×180 board with walls, doors, void, blocked cells and figures: the caster finishes
    within its budget, and its field is the paint's."""
    board = random_board(random.Random(180), 180, 180, 0.12)
    rule = HEX_PRESETS["hexside"]
    a = next(c for c in [(90, 90), *board.grid.cells()] if board.on_board(c))
    assert hex_cast.cast_centres(origin(board, a, rule, "red"), hex_cast.budget(180, 180))
    assert (field(board, a, rule, "red", engine="cast") == field(board, a, rule, "red", engine="paint")).all()


def test_one_sextant_may_use_a_sixth_of_the_limit() -> None:
    """On an open 30×30 board, with what each sextant visits counted first: a limit of six times
    the largest count lets the cast finish; six times the first sextant's count less one stops it
    inside the first sextant."""
    board = HexBoard.build(HexGrid(30, 30))
    o = origin(board, (15, 15), HEX_PRESETS["hexside"])
    status = hex_cast._status_bytes(o.casts[0].touch)
    visits = [(1 << 40) - hex_cast._sextant(o.sg, o.flags, o.casts[0], status, k, 1 << 40) for k in range(6)]
    assert min(visits) > 300
    left: list[int] = []
    real = hex_cast._sextant

    def counted(*args: object) -> int:
        rest = real(*args)  # type: ignore[arg-type]
        left.append(rest)
        return rest

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hex_cast, "_sextant", counted)
        assert hex_cast.cast_centres(origin(board, (15, 15), HEX_PRESETS["hexside"]), 6 * max(visits))
        assert len(left) == 6 and min(left) >= 0
        left.clear()
        assert not hex_cast.cast_centres(origin(board, (15, 15), HEX_PRESETS["hexside"]), 6 * (visits[0] - 1))
        assert len(left) == 1 and left[0] < 0


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


def test_a_wide_front_gives_the_origin_to_the_paint() -> None:
    """With a budget, a level of a sextant with more than ``FRONT`` open targets stops the cast
    however much budget is left (an open part of the board, where the paint is cheaper); with no
    limit the same cast finishes."""
    board = HexBoard.build(HexGrid(120, 120))
    rule = HEX_PRESETS["hexside"]
    assert not hex_cast.cast_centres(origin(board, (60, 60), rule), 1 << 40)
    assert hex_cast.cast_centres(origin(board, (60, 60), rule))
