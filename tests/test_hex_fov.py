"""The hex field of view (game/core/hex_fov.py) against the exact walk of every line, on random
boards under every rule; and the lattice fact its edge keys rest on, checked by enumeration
(docs/hex.md, "The field of view"; the paint's own facts: tests/test_hex_paint.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.hex_boards import RULES, random_board

from game.core import hex_cast
from game.core.hex_board import HexBoard
from game.core.hex_los import field, field_by_lines
from game.core.hex_rules import HexProfile


def _same(board: HexBoard, rule: HexProfile, viewer: str | None, rng: random.Random) -> None:
    """Both casters (the lazy one where the rule's lines run centre to centre, and the paint)
    give the walk's field from a random origin."""
    cells = [c for c in board.grid.cells() if board.on_board(c)]
    if not cells:
        return
    a = rng.choice(cells)
    walk = field_by_lines(board, a, rule, viewer)
    for engine in ("lazy", "paint") if hex_cast.fits(rule) else ("paint",):
        cast = field(board, a, rule, viewer, engine=engine)
        if not (cast == walk).all():
            ys, xs = np.nonzero(cast != walk)
            wrong = [((x, y), bool(cast[y, x])) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)]
            raise AssertionError(f"{engine}: {rule.spec()} viewer {viewer} from {a} on {board.grid}: it says {wrong[:8]}")


@settings(max_examples=60)
@given(st.integers(0, 2**32), st.sampled_from(RULES), st.sampled_from([0.0, 0.03, 0.1, 0.25]))
def test_the_cast_equals_the_walk_on_random_boards(seed: int, rule: HexProfile, density: float) -> None:
    rng = random.Random(seed)
    board = random_board(rng, rng.randint(1, 12), rng.randint(1, 12), density)
    _same(board, rule, rng.choice([None, "red"]), rng)


@pytest.mark.slow
@pytest.mark.parametrize("rule", RULES, ids=[r.spec() for r in RULES])
def test_the_cast_equals_the_walk_on_bigger_boards(rule: HexProfile) -> None:
    rng = random.Random(rule.spec())
    for density in (0.0, 0.02, 0.06, 0.15):
        board = random_board(rng, rng.randint(14, 22), rng.randint(14, 22), density)
        for _ in range(2):
            _same(board, rule, rng.choice([None, "red"]), rng)


# --- the lattice facts ---------------------------------------------------------------------------
# Thirds of axial coordinates relative to the source: centres and corners are the points with
# Q ≡ R (mod 3); their kind is the residue (0 centre, 1 and 2 the two kinds of corner) shifted by
# the source's own kind. The hex norm K = max(|Q|, |R|, |Q + R|) is the caster's level.


def _norm(p: tuple[int, int]) -> int:
    return max(abs(p[0]), abs(p[1]), abs(p[0] + p[1]))


def _cross(u: tuple[int, int], v: tuple[int, int]) -> int:
    return u[0] * v[1] - u[1] * v[0]


#: the arms of a corner of residue 1 (to corners of residue 2)
_ARMS = ((1, -2), (-2, 1), (1, 1))


def _points(residue: int, reach: int) -> list[tuple[int, int]]:
    return [(q, r) for q in range(-reach - 3, reach + 4) for r in range(-reach - 3, reach + 4)
            if q % 3 == residue and r % 3 == residue and _norm((q, r)) <= reach]


@pytest.mark.parametrize("reach", [27, pytest.param(60, marks=pytest.mark.slow)])
@pytest.mark.parametrize("source", [0, 1, 2], ids=["from a centre", "from a corner", "from the other corner"])
def test_no_target_lies_between_an_edge_s_levels_in_its_cone(source: int, reach: int) -> None:
    """An edge seen from the source holds the open interval of its ends' slopes; every centre or
    corner in that cone in front of the edge has a level at most the edge's farther end's, every
    one behind it at least one more: so "blocked from level K_max + 1 on" is exact."""
    ones = (1 - source) % 3  # residue of the corners of kind 1 relative to the source
    targets = [p for residue in (0, 1, 2) for p in _points(residue, reach + 9)]
    for u in _points(ones, reach):
        for arm in _ARMS:
            v = (u[0] + arm[0], u[1] + arm[1])
            turn = _cross(u, v)
            if turn == 0:
                continue
            edge = (v[0] - u[0], v[1] - u[1])
            near_side = _cross(edge, (-u[0], -u[1]))
            key = max(_norm(u), _norm(v)) + 1
            for t in targets:
                if turn * _cross(u, t) > 0 and turn * _cross(t, v) > 0:
                    behind = _cross(edge, (t[0] - u[0], t[1] - u[1])) * near_side < 0
                    assert behind == (_norm(t) >= key), (source, u, v, t)
