"""Hostile variations of real-shaped VTT files: the readers answer with a board or one MapError.

Hypothesis replaces values anywhere in the hand-made files (numbers, text, lists, objects, null,
huge and tiny numbers) and removes keys; reading, describing in squares, deciding every wall into
the reader's records and deriving the board must end in a board or in one line, never in another
exception.
"""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.errors import MapError
from game.tiled.conventions import Conventions
from game.tiled.derive import derive_map
from game.tiled.foundry import parse_foundry
from game.tiled.uvtt import parse_uvtt
from game.tiled.vtt_records import CELL_TILES, scene_records

DATA = Path(__file__).resolve().parent / "data" / "vtt"
ODD = st.one_of(
    st.none(), st.booleans(), st.integers(-10**30, 10**30), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=5), st.just([]), st.just({}), st.just([1, 2]), st.just({"x": 1}),
    st.sampled_from([0, 1, 2, -1, 10, 20, 1e300, -1e300, 1e-300, 0.5, "closed", "open", "\x00"]),
)


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document (paths of keys and indices), the picture left out."""
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            if key != "image":
                out += _places(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value[:6]):
            out += _places(item, (*path, i))
    return out


def _mutated(doc: Any, data: st.DataObject) -> Any:
    doc = json.loads(json.dumps(doc))
    places = _places(doc)
    for _ in range(data.draw(st.integers(1, 3))):
        place = data.draw(st.sampled_from(places[1:]))
        parent = doc
        for step in place[:-1]:
            if not isinstance(parent, dict | list):
                break
            try:
                parent = parent[step]
            except (KeyError, IndexError, TypeError):
                break
        else:
            if isinstance(parent, dict) and data.draw(st.booleans()) and place[-1] in parent:
                del parent[place[-1]]
            elif isinstance(parent, dict | list):
                with contextlib.suppress(IndexError, TypeError):
                    # a copy: st.just's list or dict is one object, which a later mutation would
                    # change for every test case after (hypothesis calls that flaky generation)
                    parent[place[-1]] = copy.deepcopy(data.draw(ODD))
    return doc


def _read(parse: Callable[[bytes, str], Any], doc: Any) -> None:
    """Read, describe, decide every wall into records and derive the board (load_map's steps)."""
    try:
        scene = parse(json.dumps(doc).encode(), "fuzz.json").scene()
        conventions = Conventions()
        conventions.add_tiles(CELL_TILES)
        derive_map(scene_records(scene), conventions)
    except MapError as error:
        assert "\n" not in str(error)


@settings(max_examples=300)
@given(st.sampled_from(["uvtt/room.dd2vtt", "uvtt/cave.uvtt", "real/oganm-test.dd2vtt"]), st.data())
def test_universal_vtt_files_never_raise_anything_else(name: str, data: st.DataObject) -> None:
    doc = json.loads((DATA / name).read_text())
    doc["image"] = doc["image"][:200]
    _read(parse_uvtt, _mutated(doc, data))


@settings(max_examples=300)
@given(st.sampled_from(["foundry/hall-v12.json", "foundry/keep-v9.json"]), st.data())
def test_foundry_scenes_never_raise_anything_else(name: str, data: st.DataObject) -> None:
    _read(parse_foundry, _mutated(json.loads((DATA / name).read_text()), data))
