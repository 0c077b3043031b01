"""Load a map file into a :class:`~game.tiled.derive.LoadedMap`: read it, then derive the board.

The map conventions are in ``docs/maps.md``. :func:`load_map` runs the four steps, each in its
own module:

1. :func:`game.tiled.prepare.prepare` checks the file and flattens it (size and decompression
   limits, no XML entities, external tilesets and templates inlined, JSON read as its TMX twin,
   an infinite map cropped to its painted part, tile layers decoded); a grid the derivation does
   not build on (:data:`~game.tiled.derive.ORIENTATIONS`) is refused here;
2. :func:`game.tiled.settings.load_conventions` merges a preset, ``sightline.toml`` and the
   caller's mappings (what the map's own class and property names mean);
3. :func:`game.tiled.read.read_tiled` reads the prepared file into plain records
   (:mod:`game.tiled.records`);
4. :func:`game.tiled.derive.derive_map` derives the board, every object's role and traced
   geometry, and the findings from the records.

Another format is another step 1 and 3 producing the same records; steps 2 and 4 stay: a
virtual-tabletop file (Universal VTT ``.dd2vtt``/``.uvtt``/``.df2vtt``, or a Foundry scene
``.json``) is read by :func:`game.tiled.vtt_records.read_vtt`. This package never imports pytmx.

>>> is_map_file(Path("missing.tmx"))
False
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from game.core import safe_json
from game.core.errors import MapError, SightlineError
from game.tiled.derive import ORIENTATIONS, LoadedMap, ObjectInfo, derive_map
from game.tiled.guard import parse_xml_file, read_bytes
from game.tiled.prepare import prepare
from game.tiled.read import read_tiled
from game.tiled.records import ArtLayer, MapArt, MapRecords, TileImage
from game.tiled.settings import load_conventions, parse_class_mapping
from game.tiled.unreadable import explain_unreadable

__all__ = [
    "MAP_SUFFIXES",
    "ArtLayer",
    "LoadedMap",
    "MapArt",
    "ObjectInfo",
    "TileImage",
    "collector_paused",
    "is_map_file",
    "load_map",
    "parse_class_mapping",
    "read_records",
]

#: Universal VTT's file endings (:data:`game.tiled.uvtt.UVTT_SUFFIXES`; written out so that a Tiled
#: map loads without importing the VTT readers)
UVTT_SUFFIXES = (".dd2vtt", ".uvtt", ".df2vtt")
#: the file endings of maps: Tiled's, and Universal VTT's (``.json`` only when the file is a
#: Tiled map or a Foundry scene, see is_map_file)
MAP_SUFFIXES = (".tmx", ".tmj", ".json", *UVTT_SUFFIXES)


def is_map_file(path: Path) -> bool:
    """Whether a file is a map by its name: ``.tmx``, ``.tmj``, a Universal VTT file, or a
    ``.json`` file whose top-level object is a Tiled map (``"type": "map"``; tilesets and
    templates are not maps) or a Foundry scene.

    A ``.tmx``, ``.tmj`` or Universal VTT name that is not a regular file (a pipe, a link to a
    device or to nothing) counts, unopened: a folder check reports it in one line rather than
    skip it."""
    suffix = path.suffix.lower()
    if suffix in (".tmx", ".tmj", *UVTT_SUFFIXES):
        return os.path.lexists(path) and not path.is_dir()
    if suffix != ".json" or not path.is_file():
        return False
    try:
        doc = safe_json.loads(read_bytes(path, "map"))
    except (MapError, safe_json.JsonError):
        return False
    if not isinstance(doc, dict):
        return False
    from game.tiled.foundry import looks_like_scene

    return doc.get("type") == "map" or "layers" in doc or looks_like_scene(doc)


def load_map(
    path: str | Path,
    *,
    classes: Mapping[str, Sequence[str]] | None = None,
    tiles: Mapping[str, Sequence[str]] | None = None,
    properties: Mapping[str, str] | None = None,
    preset: str | None = None,
    collision: bool | None = None,
    layers: Mapping[str, Sequence[str]] | None = None,
    names: Mapping[str, Sequence[str]] | None = None,
) -> LoadedMap:
    """Load a map (Tiled's ``.tmx``, ``.tmj`` or ``.json``; Universal VTT's ``.dd2vtt``, ``.uvtt``
    or ``.df2vtt``; a Foundry scene ``.json``); raises :class:`MapError` (one line: file, object,
    fix) for anything unusable.

    ``classes`` maps our object roles onto the map's own class names, ``tiles`` our cell roles
    onto tile classes and properties, ``properties`` our figure property names onto theirs;
    ``preset`` names a set of conventions (:data:`~game.tiled.conventions.PRESETS`),
    ``collision`` (default: read) turns the Tile Collision Editor shapes on or off, ``layers``
    gives layers roles (and ``empty``: what an unpainted cell is) and ``names`` object names
    roles. All of them are added to (and win over) ``sightline.toml``'s.
    """
    path = Path(path)
    with one_line_refusal(path) as reading, collector_paused():
        reading.tiled = False  # until the file is known to be no virtual-tabletop file
        records = _read_vtt(path)
        reading.tiled = records is None
        prepared = prepare(path, ORIENTATIONS) if reading.tiled else None
        conventions = load_conventions(
            path, classes=classes, tiles=tiles, properties=properties, preset=preset,
            collision=collision, layers=layers, names=names,
        )
        if prepared is not None:
            records = read_tiled(prepared, conventions.project)
        else:
            from game.tiled.vtt_records import CELL_TILES

            conventions.add_tiles(CELL_TILES)  # the squares Sightline's export lists
        assert records is not None
        return derive_map(records, conventions)
    raise AssertionError("unreachable")  # pragma: no cover - the block returns or raises


@dataclass
class Reading:
    """What :func:`one_line_refusal` needs to word a failure: whether the file is read as Tiled's."""

    tiled: bool = True


@contextmanager
def one_line_refusal(path: Path) -> Iterator[Reading]:
    """Turn whatever reading a bad map raises into one :class:`MapError` line naming the file and
    what to fix (never a traceback); a missing module is re-raised (our installation's fault)."""
    reading = Reading()
    try:
        yield reading
    except MapError:
        raise
    except SightlineError as exc:
        raise MapError(str(exc), path=str(path)) from None
    except RecursionError:
        raise MapError("the map is nested too deeply to read", path=str(path)) from None
    except MemoryError:
        raise MapError("the map is too large to read", path=str(path)) from None
    except ImportError:
        raise  # a missing module is our installation's fault, not the map's
    except Exception:  # noqa: BLE001 - a bad map must never become a traceback
        if not reading.tiled:
            raise MapError("cannot read this file: a value is not as the map maker writes it",
                           path=str(path), hint="export the map again") from None
        try:
            why = explain_unreadable(parse_xml_file(path, "map"))
        except MapError:
            why = "an element or attribute is not as Tiled writes it"
        raise MapError(
            f"cannot read this map: {why}", path=str(path),
            hint="fix it, or open the map in Tiled and save it again",
        ) from None


def read_records(path: Path) -> MapRecords:
    """The records of a map (Tiled's, or a virtual tabletop's), read but not derived (steps 1
    and 3 of :func:`load_map`; no conventions): what ``check --suggest`` derives again and
    again under candidate mappings.
    Raises :class:`MapError` like :func:`load_map`."""
    with one_line_refusal(path), collector_paused():
        records = _read_vtt(path)  # a virtual-tabletop file as load_map reads it
        return records if records is not None else read_tiled(prepare(path, ORIENTATIONS))
    raise AssertionError("unreachable")  # pragma: no cover - the block returns or raises


def _read_vtt(path: Path) -> MapRecords | None:
    """The records of a virtual-tabletop file (:func:`game.tiled.vtt_records.read_vtt`), None for
    any other file; the VTT readers are imported only for the endings they may read."""
    suffix = path.suffix.lower()
    if suffix not in UVTT_SUFFIXES and suffix != ".json":
        return None
    from game.tiled.vtt_records import read_vtt

    return read_vtt(path)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector while a map loads (restored after, as it was; nests).

    A big map makes tens of thousands of small objects that all stay alive; the collector would
    walk all of them again and again as they pile up (about a third of the load of a 400×400
    map with 15,000 wall objects). Loading makes no reference cycles worth collecting, and
    plain reference counting still frees everything it drops. A one-shot command can hold the
    pause until it has dropped the map, so that the collector never walks it at all.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
