"""No map is read wrong in silence (issue #22): over every map of ``tests/data``, ``maps/`` and
``../shared/corpus`` (when present), a map that ``check --suggest`` would read differently has
at least one finding about how it was read, and boards that cannot be right have a sanity finding.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from game.core.errors import MapError
from game.designer.lint import lint
from game.tiled import is_map_file, load_map
from game.tiled.derive import derive_map
from game.tiled.reader import read_records
from game.tiled.sanity import SANITY_CODES
from game.tiled.suggest import conventions_of, suggest

REPO = Path(__file__).resolve().parents[1]
#: findings that say how a map was read (or that it cannot be right)
READING = frozenset({
    *SANITY_CODES, "unknown-class", "tile-unread", "layer-role", "collision-rectangle", "collision-shape",
    "map-isometric", "wall-off-grid", "wall-diagonal", "wall-shape", "area-shape", "door-not-on-edge",
    "tile-gid-unknown", "figure-in-void", "region-unreachable", "hidden-layer", "reserved-property",
})


def maps_under(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if is_map_file(p))


def assert_not_silent(path: Path) -> None:
    """The map is refused in one line, or reads as its suggestion does, or says how it was read."""
    try:
        loaded = load_map(path)
    except MapError as exc:
        assert "\n" not in str(exc)
        return
    said = {f.code for f in lint(loaded)}
    found = suggest(path)
    if not found.table:
        return
    records = read_records(path)
    default = derive_map(records, conventions_of({})).board
    better = derive_map(records, conventions_of(found.table)).board
    same = (default.walls, default.blocked, default.void, frozenset(default.figures)) == (
        better.walls, better.blocked, better.void, frozenset(better.figures))
    assert same or said & READING, f"{path}: read differently by {found.table}, but check says nothing of it"


@pytest.mark.parametrize("folder", ["tests/data", "maps"])
def test_no_map_of_the_repository_is_read_wrong_in_silence(folder: str) -> None:
    maps = maps_under(REPO / folder)
    assert len(maps) >= 20
    for path in maps:
        assert_not_silent(path)


def test_no_corpus_map_is_read_wrong_in_silence(corpus_dir: Path) -> None:
    maps = maps_under(corpus_dir)
    assert len(maps) >= 30
    for path in maps:
        assert_not_silent(path)
