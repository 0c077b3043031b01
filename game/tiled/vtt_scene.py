"""A virtual-tabletop map in grid units: what the Universal VTT and Foundry readers hand on.

Both readers (:mod:`game.tiled.uvtt`, :mod:`game.tiled.foundry`) first check a file in its own
terms, then describe it here the same way: the drawn wall paths, doors and windows, obstacle
outlines and figures, in grid units (exact ``Fraction``s, the board's top-left corner at 0,0), the
picture, and the findings of the reading. Nothing here decides a grid edge: the off-grid policy
(:mod:`game.tiled.offgrid`) turns drawn paths into grid paths, and the board is derived from those
the same way as from a Tiled map's objects (:mod:`game.tiled.geometry`).

>>> picture = EmbeddedPicture.sniff(b"iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAA=")
>>> picture.kind, picture.width, picture.height
('png', 2, 3)
"""

from __future__ import annotations

import base64
import binascii
import struct
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from game.core.board import DoorState, Square, Stat
from game.core.errors import MapError
from game.core.findings import Finding

Point = tuple[Fraction, Fraction]

#: the roles a drawn path can have: a wall blocks sight and movement, a window movement only
PATH_ROLES = ("wall", "window")


@dataclass(frozen=True)
class VttPath:
    """A drawn wall or window: a polyline (or closed polygon) in grid units.

    ``source`` names it in the file's words (``line_of_sight[3]``, ``walls[12..40]``); ``ident``
    is a number unique in the scene, used as the object id of findings.
    """

    ident: int
    source: str
    role: str
    points: tuple[Point, ...]
    closed: bool = False


@dataclass(frozen=True)
class VttDoor:
    """A door drawn from ``a`` to ``b`` (grid units), with its state."""

    ident: int
    source: str
    a: Point
    b: Point
    state: DoorState = DoorState.CLOSED


@dataclass(frozen=True)
class VttArea:
    """An outline whose enclosed squares take a cell role (``blocked``): every square whose
    centre lies inside the closed polygon ``points``."""

    ident: int
    source: str
    role: str
    points: tuple[Point, ...]


@dataclass(frozen=True)
class VttFigure:
    """A figure (a Foundry token, or one Sightline wrote): its centre point in grid units."""

    ident: int
    source: str
    name: str
    side: str
    centre: Point
    stats: dict[str, Stat] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class EmbeddedPicture:
    """A picture carried inside the file as base64 text (Universal VTT's ``image``).

    ``kind`` is ``png``, ``webp``, ``jpeg`` or ``unknown``; ``width``/``height`` come from the
    header (0 when the header does not say, as for JPEG). :meth:`data` decodes it.
    """

    kind: str
    width: int
    height: int
    text: bytes = field(repr=False)

    @staticmethod
    def sniff(text: bytes) -> EmbeddedPicture:
        """Read the kind and size from the first bytes of the base64 text (cheap: 64 characters)."""
        try:
            head = base64.b64decode(text[:64], validate=True)
        except (binascii.Error, ValueError):
            return EmbeddedPicture("unknown", 0, 0, text)
        if head.startswith(b"\x89PNG\r\n\x1a\n") and len(head) >= 24:
            w, h = struct.unpack(">II", head[16:24])
            return EmbeddedPicture("png", w, h, text)
        if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
            w, h = _webp_size(head)
            return EmbeddedPicture("webp", w, h, text)
        if head.startswith(b"\xff\xd8"):
            return EmbeddedPicture("jpeg", 0, 0, text)
        return EmbeddedPicture("unknown", 0, 0, text)

    def data(self, shown: str = "") -> bytes:
        """The picture's bytes; a MapError when the base64 text is broken."""
        try:
            return base64.b64decode(self.text, validate=True)
        except (binascii.Error, ValueError):
            raise MapError("the embedded picture is not valid base64 text", path=shown or None,
                           hint="export the map again") from None


def _webp_size(head: bytes) -> tuple[int, int]:
    """A WebP picture's size from its first chunk (VP8X, VP8L or VP8); (0, 0) when unreadable.

    >>> _webp_size(b"RIFF\\0\\0\\0\\0WEBPVP8X" + bytes(8) + bytes([9, 0, 0, 19, 0, 0]))
    (10, 20)
    """
    chunk = head[12:16]
    if chunk == b"VP8X" and len(head) >= 30:
        w = int.from_bytes(head[24:27], "little") + 1
        h = int.from_bytes(head[27:30], "little") + 1
        return w, h
    if chunk == b"VP8L" and len(head) >= 25:
        bits = int.from_bytes(head[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8 " and len(head) >= 30:
        w, h = struct.unpack("<HH", head[26:30])
        return w & 0x3FFF, h & 0x3FFF
    return 0, 0


@dataclass(frozen=True)
class FilePicture:
    """A picture the file names (a Foundry scene's background): ``src`` as written, and the file
    beside the scene that holds it, if one was found (the phase that draws it opens it)."""

    src: str
    found: Path | None


@dataclass(frozen=True)
class VttScene:
    """One virtual-tabletop map described in grid units (see the module docstring).

    ``width`` × ``height`` squares; ``cells`` holds cell roles the format has no drawing for
    (``void``, ``impassable``: only in files Sightline wrote); ``door_squares`` likewise;
    ``properties`` the map properties (``ruleset``, ``capacity`` ...), ``pixels_per_square`` the
    picture's scale and ``picture_box`` where the picture lies, ``(x, y, width, height)`` in
    squares from the board's corner (the whole board when None). ``findings`` are what the reading
    found (warnings; errors are raised).
    """

    path: Path
    fmt: str
    width: int
    height: int
    paths: tuple[VttPath, ...] = ()
    doors: tuple[VttDoor, ...] = ()
    areas: tuple[VttArea, ...] = ()
    figures: tuple[VttFigure, ...] = ()
    cells: dict[str, frozenset[Square]] = field(default_factory=dict, hash=False)
    door_squares: dict[Square, DoorState] = field(default_factory=dict, hash=False)
    properties: dict[str, Stat] = field(default_factory=dict, hash=False)
    picture: EmbeddedPicture | FilePicture | None = None
    pixels_per_square: int = 0
    findings: tuple[Finding, ...] = ()
    picture_box: tuple[Fraction, Fraction, Fraction, Fraction] | None = None


__all__ = [
    "PATH_ROLES", "EmbeddedPicture", "FilePicture", "Point", "VttArea", "VttDoor", "VttFigure",
    "VttPath", "VttScene",
]
