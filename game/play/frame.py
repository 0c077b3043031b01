"""One frame of the board in play, as plain data: what any front end draws.

The presenter (``game/play/presenter.py``) builds a :class:`Frame` from its state once per
frame: the ray with its drawing points and verdict, the field-of-view mask, the compare masks,
the markers of the map check, the ruler and the reach, the status line, the side panel's
content, the sentences written on the board and the notice next to the attack when the drawn
rule is not the one the attack is judged by. The pygame window (``game/ui/app.py``) draws it;
:meth:`Frame.as_json` hands the same thing to any other front end (squares are ``[x, y]``,
masks are lists of the visible squares).

No pygame here.

>>> frame = Frame(status="Click a figure or press Tab to select it.")
>>> frame.as_json()["status"]["text"]
'Click a figure or press Tab to select it.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from game.core.board import Square
from game.core.findings import Finding
from game.core.profiles import Profile
from game.play.classroom import Lecture
from game.play.findings import Marker
from game.play.measuring import Ruler
from game.play.sight_calls import Ray


@dataclass
class PanelInfo:
    """Everything the side panel shows, gathered by the presenter once per frame (cheap values)."""

    title: str = ""
    subtitle: str = ""
    figure: Sequence[str] = ()
    status: str = ""
    status_kind: str = "info"
    findings: Sequence[Finding] = ()
    log: Sequence[str] = ()
    log_serial: int = 0  #: grows with every log line: the log box redraws only when it changes
    #: next to the attack: the drawn rule is not the rule the attack is judged by ("" when it is)
    rule_notice: str = ""
    extra: dict[str, Any] = field(default_factory=dict)  #: for sections added later

    def as_json(self) -> dict[str, object]:
        """The panel's content: title, subtitle, figure lines, status, findings, log, notice."""
        return {
            "title": self.title, "subtitle": self.subtitle, "figure": list(self.figure),
            "status": self.status, "status_kind": self.status_kind,
            "findings": [f.as_json() for f in self.findings], "log": list(self.log),
            "rule_notice": self.rule_notice,
            "extra": {k: v for k, v in self.extra.items() if isinstance(v, str | int | float | bool | type(None))},
        }


#: a sentence written on the board (top left): text and kind (``text``, ``clear``, ``blocked``)
Note = tuple[str, str]


def _squares(mask: np.ndarray | None) -> list[list[int]] | None:
    """A bool ``[y, x]`` mask as the list of its true squares ``[x, y]``."""
    if mask is None:
        return None
    ys, xs = np.nonzero(mask)
    return [[int(x), int(y)] for y, x in zip(ys, xs, strict=True)]


def _square(square: Square | None) -> list[int] | None:
    return None if square is None else [square[0], square[1]]


@dataclass(frozen=True)
class Frame:
    """Everything a front end draws this frame, as plain data (see the module's docstring)."""

    #: the board shown (its serial) and the map's or lesson's name; None with no board
    board: int | None = None
    selected: int | None = None
    #: figures ringed as the attack's targets
    targets: tuple[int, ...] = ()
    hover: Square | None = None
    pinned: Square | None = None
    #: the ray's start square when no figure is selected (sight from any square)
    start: Square | None = None
    #: the ray drawn now (None: no ray); with ``verdict_hidden`` it is drawn neutral
    ray: Ray | None = None
    verdict_hidden: bool = False
    #: the lesson's highlighted crossing (0-based index into ``ray.crossings``)
    step: int | None = None
    #: ``F``: bool ``[y, x]`` mask of the squares the ray's start sees
    field_of_view: np.ndarray | None = None
    #: ``X``: seen under the rule only, under the compared rule only (bool ``[y, x]`` masks)
    compare: tuple[np.ndarray, np.ndarray] | None = None
    #: the figure being dragged, and the square a refused drop flashes on
    dragging: int | None = None
    refused: Square | None = None
    markers: tuple[Marker, ...] = ()
    #: ``W``: every reachable square with its steps; ``M``: the ruler
    reach: Mapping[Square, int] | None = None
    ruler: Ruler | None = None
    #: the line-of-sight rule drawn and whether its badge is shown
    rule: Profile | None = None
    rule_badge: bool = False
    #: the rule's parameter rows when shown: (parameter, value, changed, why it is our reading)
    rule_rows: tuple[tuple[str, str, bool, str | None], ...] = ()
    rule_row: int = 0
    #: sentences written at the top of the board (compare counts, the ray's sentence of a rule
    #: drawn by its checked lines)
    notes: tuple[Note, ...] = ()
    status: str = ""
    status_kind: str = "info"
    panel: PanelInfo = field(default_factory=PanelInfo)
    #: the red banner over the board (None: none)
    banner: str | None = None
    heat: bool = False
    coordinates: bool = True
    #: classroom mode (None: off)
    lecture: Lecture | None = None

    @property
    def status_line(self) -> tuple[str, str]:
        """The status line and its kind together."""
        return self.status, self.status_kind

    def as_json(self) -> dict[str, object]:
        """The frame as one JSON-able document."""
        compare = None
        if self.compare is not None:
            compare = {"rule_only": _squares(self.compare[0]), "compared_only": _squares(self.compare[1])}
        return {
            "board": self.board, "selected": self.selected, "targets": list(self.targets),
            "hover": _square(self.hover), "pinned": _square(self.pinned), "start": _square(self.start),
            "ray": self.ray.as_json() if self.ray is not None else None,
            "verdict_hidden": self.verdict_hidden, "step": self.step,
            "field_of_view": _squares(self.field_of_view), "compare": compare,
            "dragging": self.dragging, "refused": _square(self.refused),
            "markers": [m.as_json() for m in self.markers],
            "reach": None if self.reach is None else [[x, y, n] for (x, y), n in sorted(self.reach.items())],
            "ruler": self.ruler.as_json() if self.ruler is not None else None,
            "rule": {"spec": self.rule.spec() if self.rule is not None else None, "badge": self.rule_badge, "row": self.rule_row,
                     "rows": [{"parameter": p, "value": v, "changed": c, "interp": why}
                              for p, v, c, why in self.rule_rows]},
            "notes": [{"text": text, "kind": kind} for text, kind in self.notes],
            "status": {"text": self.status, "kind": self.status_kind},
            "panel": self.panel.as_json(), "banner": self.banner,
            "heat": self.heat, "coordinates": self.coordinates,
            "lecture": self.lecture.as_json() if self.lecture is not None else None,
        }
