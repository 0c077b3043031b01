"""Load a map file into a :class:`~game.tiled.derive.LoadedMap`: read it, then derive the board.

The map conventions are in ``docs/maps.md``. :func:`load_map` runs the four steps, each in its
own module:

1. :func:`game.tiled.guard.prepare` checks the file and flattens it (size and decompression
   limits, no XML entities, external tilesets and templates inlined, JSON read as its TMX twin,
   an infinite map cropped to its painted part, tile layers decoded); a grid the derivation does
   not build on (:data:`~game.tiled.derive.ORIENTATIONS`) is refused here;
2. :func:`game.tiled.conventions.load_conventions` merges a preset, ``sightline.toml`` and the
   caller's mappings (what the map's own class and property names mean);
3. :func:`game.tiled.read.read_tiled` reads the prepared file into plain records
   (:mod:`game.tiled.records`);
4. :func:`game.tiled.derive.derive_map` derives the board, every object's role and traced
   geometry, and the findings from the records.

Another format is another step 1 and 3 producing the same records; steps 2 and 4 stay. This
package never imports pytmx.

>>> is_map_file(Path("missing.tmx"))
False
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from game.core import safe_json
from game.core.errors import MapError, SightlineError
from game.tiled.conventions import load_conventions, parse_class_mapping
from game.tiled.derive import ORIENTATIONS, LoadedMap, ObjectInfo, derive_map
from game.tiled.guard import explain_unreadable, parse_xml_file, prepare, read_bytes
from game.tiled.read import read_tiled
from game.tiled.records import ArtLayer, MapArt, TileImage

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
]

#: the file endings of Tiled maps (``.json`` only when the file is a Tiled map, see is_map_file)
MAP_SUFFIXES = (".tmx", ".tmj", ".json")


def is_map_file(path: Path) -> bool:
    """Whether a file is a Tiled map by its name: ``.tmx``, ``.tmj``, or a ``.json`` file whose
    top-level object is a Tiled map (``"type": "map"``; tilesets and templates are not maps).

    A ``.tmx`` or ``.tmj`` name that is not a regular file (a pipe, a link to a device or to
    nothing) counts, unopened: a folder check reports it in one line rather than skip it."""
    suffix = path.suffix.lower()
    if suffix in (".tmx", ".tmj"):
        return os.path.lexists(path) and not path.is_dir()
    if suffix != ".json" or not path.is_file():
        return False
    try:
        doc = safe_json.loads(read_bytes(path, "map"))
    except (MapError, safe_json.JsonError):
        return False
    return isinstance(doc, dict) and (doc.get("type") == "map" or "layers" in doc)


def load_map(
    path: str | Path,
    *,
    classes: Mapping[str, Sequence[str]] | None = None,
    tiles: Mapping[str, Sequence[str]] | None = None,
    properties: Mapping[str, str] | None = None,
    preset: str | None = None,
    collision: bool | None = None,
) -> LoadedMap:
    """Load a Tiled map (``.tmx``, ``.tmj`` or ``.json``); raises :class:`MapError` (one line:
    file, object, fix) for anything unusable.

    ``classes`` maps our object roles onto the map's own class names, ``tiles`` our cell roles
    onto tile classes and properties, ``properties`` our figure property names onto theirs;
    ``preset`` names a set of conventions (:data:`~game.tiled.conventions.PRESETS`) and
    ``collision`` (default: read) turns the Tile Collision Editor shapes on or off. All of them
    are added to (and win over) ``sightline.toml``'s.
    """
    path = Path(path)
    try:
        with collector_paused():
            prepared = prepare(path, ORIENTATIONS)
            conventions = load_conventions(
                path, classes=classes, tiles=tiles, properties=properties, preset=preset,
                collision=collision,
            )
            return derive_map(read_tiled(prepared, conventions.project), conventions)
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
        try:
            why = explain_unreadable(parse_xml_file(path, "map"))
        except MapError:
            why = "an element or attribute is not as Tiled writes it"
        raise MapError(
            f"cannot read this map: {why}", path=str(path),
            hint="fix it, or open the map in Tiled and save it again",
        ) from None


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
