"""The map reader: the only package that knows Tiled's formats.

:func:`load_map` reads a map file into a plain :class:`~game.core.board.Board` plus what the linter
and the window need (:class:`LoadedMap`); no parser object leaves this package.
"""

from game.tiled.reader import (
    MAP_SUFFIXES,
    ArtLayer,
    LoadedMap,
    MapArt,
    ObjectInfo,
    TileImage,
    is_map_file,
    load_map,
    parse_class_mapping,
)

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
