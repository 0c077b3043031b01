"""The map reader: the only package that knows Tiled's formats.

:func:`load_map` reads a map file into a plain :class:`~game.core.board.Board` plus what the linter
and the window need (:class:`LoadedMap`); no parser object leaves this package. Reading and
deriving are apart: a reader turns a file into plain records (:mod:`game.tiled.records`; Tiled's
is :mod:`game.tiled.read`), and :func:`game.tiled.derive.derive_map` builds the board from records,
with :mod:`game.tiled.geometry` tracing shapes and :mod:`game.tiled.conventions` giving names roles.
"""

from game.tiled.derive import LoadedMap, ObjectInfo
from game.tiled.reader import MAP_SUFFIXES, is_map_file, load_map
from game.tiled.records import ArtLayer, MapArt, TileImage
from game.tiled.settings import parse_class_mapping

__all__ = [
    "MAP_SUFFIXES",
    "is_map_file",
    "ArtLayer",
    "LoadedMap",
    "MapArt",
    "ObjectInfo",
    "TileImage",
    "load_map",
    "parse_class_mapping",
]
