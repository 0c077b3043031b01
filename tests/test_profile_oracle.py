"""An independent brute-force oracle for the rule profiles, and its own sanity tests.

Written from docs/line-of-sight.md ("Rule profiles") without game/core/profile_los.py: every
segment is judged by testing **every** wall edge, blocking square and grid point near it with exact
cross products (no walk along the segment, no 8-direction table: directions are compared by an
exact pseudo-angle), and for ``any`` endpoints every line through two grid points of the bounding
box of A and B and its turns about every half-step of that line is tried. The exhaustive and
property tests compare the engine with this oracle.

What does not depend on the board is computed once, as far as some board needs it, and memoised
(module-level): each pair's candidate lines for an endpoint rule, deduplicated, and each candidate
segment's geometry (``Segment``: the squares, edges and grid points it meets). :meth:`Oracle.judge` then reads the
board's walls and blocking squares through the clauses of the text, in the same order as ever.
"""

from __future__ import annotations

import pytest
from support.profile_oracle import (  # noqa: F401
    _SEGMENTS,
    VECTORS,
    F,
    Oracle,
    Pt,
    Segment,
    _chord_mid,
    _cross,
    _parallel_same,
    _pseudo,
    _Segments,
    _sign,
    _strictly_ccw_between,
    _unit,
    segment_geometry,
    vector_board,
)

from game.core.board import Board
from game.core.profiles import PRESETS, Profile

# --- a segment's geometry: what it meets, whatever the board holds ---------------------------


















def oracle_visible(board: Board, a, b, profile: Profile, viewer: str | None = None) -> bool:
    """The oracle's verdict for one pair."""
    return Oracle(board, profile, viewer).visible(a, b)


# --- the oracle on the file's vectors (so that it cannot silently agree with a broken engine) ---





@pytest.mark.parametrize("name", sorted(VECTORS))
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_oracle_gives_the_vectors(name: str, preset: str) -> None:
    board, a, b, viewer = vector_board(name)
    assert oracle_visible(board, a, b, PRESETS[preset], viewer) is VECTORS[name][3][preset]
