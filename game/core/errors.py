"""The error types every layer raises: each carries one line a person can act on."""

from __future__ import annotations


class SightlineError(Exception):
    """Base of every error Sightline reports to a user as one line (exit code 2)."""


class UsageError(SightlineError):
    """A command-line argument is malformed (``--faces``, a square, a figure name...)."""


class MapError(SightlineError):
    """A map cannot be read or used.

    >>> str(MapError("wall is diagonal", path="maps/x.tmx", object_id=12, hint="snap it to the grid"))
    'maps/x.tmx: object 12: wall is diagonal (snap it to the grid)'
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        object_id: int | None = None,
        hint: str | None = None,
    ) -> None:
        self.message = message
        self.path = path
        self.object_id = object_id
        self.hint = hint
        super().__init__(self.one_line())

    def one_line(self) -> str:
        """The error as the single line printed on stderr."""
        parts = []
        if self.path:
            parts.append(f"{self.path}:")
        if self.object_id is not None:
            parts.append(f"object {self.object_id}:")
        parts.append(self.message)
        line = " ".join(parts)
        if self.hint:
            line += f" ({self.hint})"
        return line


class PlacementError(SightlineError, ValueError):
    """A figure cannot stand on a square (off the board, void, blocked terrain)."""


class CapacityError(PlacementError):
    """A square already holds as many figures as the board's capacity allows."""


class IllegalAttackError(SightlineError, ValueError):
    """An attack that the rules do not allow was asked to resolve."""
