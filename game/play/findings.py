"""Where the map check's findings are on the board: the markers outlined over it, the squares
under a finding's object, a region finding's whole region, and how far the check has got.

No pygame: the presenter (``game/play/presenter.py``) puts the :class:`Marker` s in its
:class:`~game.play.frame.Frame` and the painter outlines them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from game.core.board import Edge, Square
from game.play.session import Session

#: the most squares outlined for one clicked finding's object
FOCUS_SQUARES = 24

#: the linter's region findings and whether their regions are walked with every door open
REGION_CODES = {"region-unreachable": True, "region-sealed-by-doors": False}


@dataclass
class Marker:
    """A lint finding to outline on the board: a square, an edge, or both."""

    square: Square | None
    edge: Edge | None
    severity: str
    label: str = ""
    #: a region finding: every square of the region, outlined as one shape (its boundary)
    region: frozenset[Square] | None = None

    def as_json(self) -> dict[str, object]:
        """``{"square", "edge", "severity", "label", "region"}`` (squares as ``[x, y]``).

        >>> Marker((3, 1), None, "error", "figure-in-void").as_json()["square"]
        [3, 1]
        """
        return {
            "square": list(self.square) if self.square is not None else None,
            "edge": str(self.edge) if self.edge is not None else None,
            "severity": self.severity,
            "label": self.label,
            "region": sorted([x, y] for x, y in self.region) if self.region is not None else None,
        }


def finding_area(session: Session | None, finding: Any) -> tuple[tuple[float, float], list[Square]] | None:
    """Where a finding without a square is: the centre of its object (grid units) and the board
    squares under the object's shape, from the loaded map's objects (None when unknown).

    A diagonal wall from corner (9,0) to (10,2) is centred at (9.5, 1) and covers (9,0), (9,1).
    """
    if session is None or finding.object_id is None:
        return None
    info = (getattr(session.loaded, "objects", None) or {}).get(finding.object_id)
    if info is None:
        return None
    points = list(info.points) or [(info.x, info.y), (info.x + info.width, info.y + info.height)]
    xs = [float(p[0]) for p in points]
    ys = [float(p[1]) for p in points]
    left, right, top, bottom = min(xs), max(xs), min(ys), max(ys)
    board = session.board

    def span(low: float, high: float, size: int) -> range:
        first = math.floor(low)
        last = max(first, math.ceil(high) - 1)
        return range(max(0, first), min(size - 1, last) + 1)

    squares = [(x, y) for y in span(top, bottom, board.height) for x in span(left, right, board.width)]
    return ((left + right) / 2, (top + bottom) / 2), squares[:FOCUS_SQUARES]


def map_check_state(session: Session) -> str | None:
    """What the map check heading adds to its counts: the check still running, or the board it
    describes when the saved file is broken (None: the check is complete and current)."""
    progress = session.lint_progress
    if session.reload_error:
        return "· last good board"
    if progress is not None:
        return f"· checking, {progress[0]} of {progress[1]} done…"
    return None


class RegionLookup:
    """The walking regions of one board, labelled once per door setting by one array pass
    (:func:`game.designer.regions.movement_labels`, the labels the linter's ``walk_regions`` reads)
    and looked up per finding: drawing 672 region findings costs two labellings, not 672 walks."""

    def __init__(self, board: Any) -> None:
        self.board = board
        self._labels: dict[bool, Any] = {}
        self._regions: dict[tuple[bool, int], list[Square]] = {}
        self._frozen: dict[tuple[bool, int], frozenset[Square]] = {}

    def region(self, square: Square, doors_open: bool) -> list[Square]:
        """Every square of the walking region holding ``square`` (row by row), empty if none."""
        from game.designer.regions import movement_labels

        x, y = square
        w, h = self.board.width, self.board.height
        if not (0 <= x < w and 0 <= y < h):
            return []
        labels = self._labels.get(doors_open)
        if labels is None:
            labels = self._labels[doors_open] = movement_labels(self.board, doors_open=doors_open)
        label = int(labels[y * w + x])
        if label < 0:
            return []
        key = (doors_open, label)
        if key not in self._regions:
            self._regions[key] = [(int(i % w), int(i // w)) for i in (labels == label).nonzero()[0]]
        return self._regions[key]

    def frozen(self, square: Square, doors_open: bool) -> frozenset[Square]:
        """:meth:`region` as a set, built once per region (the markers of many findings share it)."""
        region = self.region(square, doors_open)
        if not region:
            return frozenset()
        key = (doors_open, region[0][1] * self.board.width + region[0][0])
        if key not in self._frozen:
            self._frozen[key] = frozenset(region)
        return self._frozen[key]


_LOOKUP: list[tuple[tuple[int, int], RegionLookup]] = []  # the last board's lookup, by (id, version)


def region_lookup(board: Any) -> RegionLookup:
    """The :class:`RegionLookup` of ``board`` as it is now: kept until the board changes (its
    version), so stepping through the findings labels the board once, not once per finding."""
    key = (id(board), board.version)
    if not _LOOKUP or _LOOKUP[0][0] != key or _LOOKUP[0][1].board is not board:
        _LOOKUP[:] = [(key, RegionLookup(board))]
    return _LOOKUP[0][1]


def finding_region(session: Session, finding: Any, lookup: RegionLookup | None = None) -> list[Square]:
    """Every square of the region a region finding is about (empty for other findings).

    The linter names a region by its first square; the window outlines all of it, looked up in
    the board's walking regions (``lookup``; default: :func:`region_lookup`, labelled once per
    board version).
    """
    doors_open = REGION_CODES.get(finding.code)
    if doors_open is None or finding.square is None:
        return []
    if lookup is None:
        lookup = region_lookup(session.board)
    return list(lookup.region(finding.square, doors_open))


def markers(session: Session | None, focused: Any, lesson: bool) -> list[Marker]:
    """The findings outlined on the board: every error, and a warning only when it is the one
    clicked (``focused``); none in the lessons. A region finding outlines its whole region; a
    finding without a square, when clicked, the squares under its object."""
    found: list[Marker] = []
    if session is None or lesson:
        return found
    lookup = region_lookup(session.board)
    for finding in session.findings:
        severity = str(getattr(finding.severity, "value", finding.severity))
        if severity != "error" and finding != focused:
            continue  # warnings are outlined only when clicked in the panel
        doors_open = REGION_CODES.get(finding.code)
        region = lookup.frozen(finding.square, doors_open) if doors_open is not None and finding.square else None
        if region:  # a region finding outlines the whole region, its label on the first square
            found.append(Marker(finding.square, None, severity, finding.code, region=region))
        elif finding.square is not None:
            found.append(Marker(finding.square, None, severity, finding.code))
        elif finding == focused:  # an object without a square: the squares under it
            area = finding_area(session, finding)
            for n, square in enumerate(area[1] if area is not None else ()):
                found.append(Marker(square, None, severity, "" if n else finding.code))
    return found

