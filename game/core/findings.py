"""Findings: what the loader and the linter report about a map (pure data)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from game.core.board import Square


class Severity(StrEnum):
    """How bad a finding is: errors make ``sightline check`` exit 1; a note says how something
    was read (a layer's role taken from its name ...), for the designer to confirm."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True)
class Finding:
    """One problem in a map, with where it is and how to fix it.

    ``code`` is a stable kebab-case identifier (``wall-diagonal``, ``figure-in-void`` ...).

    >>> Finding("wall-diagonal", Severity.ERROR, "wall segment is diagonal", 12, None, "draw it along grid lines").as_json()["object_id"]
    12
    """

    code: str
    severity: Severity
    message: str
    object_id: int | None = None
    square: Square | None = None
    hint: str | None = None

    def as_json(self) -> dict[str, object]:
        """The JSON form of docs/commands.md: code, message, object_id, square, hint (plus severity)."""
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "object_id": self.object_id,
            "square": list(self.square) if self.square is not None else None,
            "hint": self.hint,
        }
