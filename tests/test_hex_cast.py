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
    board = HexBoard.build(HexGrid(130, 130))
    rule = HEX_PRESETS["hex-strict"]
    assert hex_cast.budget(130, 130) is not None and hex_cast.budget(127, 128) is None
    assert not hex_cast.cast_centres(origin(board, (65, 65), rule), hex_cast.budget(130, 130))
    assert (field(board, (65, 65), rule, engine="cast") == field(board, (65, 65), rule, engine="paint")).all()


def test_on_a_big_dense_board_the_caster_answers() -> None:
    """A 130×130 board with walls, doors, void, blocked cells and figures: the caster finishes
    within its budget, and its field is the paint's."""
    board = random_board(random.Random(130), 130, 130, 0.12)
    rule = HEX_PRESETS["hexside"]
    a = next(c for c in [(65, 65), *board.grid.cells()] if board.on_board(c))
    assert hex_cast.cast_centres(origin(board, a, rule, "red"), hex_cast.budget(130, 130))
    assert (field(board, a, rule, "red", engine="cast") == field(board, a, rule, "red", engine="paint")).all()


def _first_sextant(limit: int) -> list[int]:
    """What the first sextant left of its allowance when ``cast_centres`` gave up (asserted) on an
    open 30×30 board with ``limit``: one entry per sextant cast."""
    board = HexBoard.build(HexGrid(30, 30))
    o = origin(board, (15, 15), HEX_PRESETS["hexside"])
    left: list[int] = []
    real = hex_cast._sextant

    def counted(*args: object) -> int:
        rest = real(*args)  # type: ignore[arg-type]
        left.append(rest)
        return rest

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hex_cast, "_sextant", counted)
        assert not hex_cast.cast_centres(o, limit)
    return left


def test_one_sextant_may_use_a_quarter_of_the_limit() -> None:
    """The first sextant visits 558 points: with a limit of 1,500 it is stopped inside, at 375."""
    assert len(left := _first_sextant(1500)) == 1 and left[0] < 0


def test_it_gives_up_when_the_first_sextants_use_more_than_their_share() -> None:
    """With a limit of 3,000 the first sextant (558 points) finishes, but six at that pace would
    pass the limit: given up after it."""
    assert len(left := _first_sextant(3000)) == 1 and left[0] >= 0


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
