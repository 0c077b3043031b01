"""How a computed resolution is shown to the person: the :class:`Reveal` the attack flow drives
(the window's dice tray implements it) and :class:`InstantReveal`, which lands at once (scripts,
tests of the flow). Pure: no pygame, no clock of its own (``advance`` is given the time).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from game.rules.base import Resolution

__all__ = ["InstantReveal", "Reveal"]


class Reveal(Protocol):
    """What shows a computed resolution to the person (the window's dice tray implements it).

    ``start`` begins the reveal; ``on_land`` is called once when the result lands (the controller
    records the attack then); ``skip`` lands at once; ``clear`` hides a finished reveal;
    ``advance`` moves its clock; ``damaged_figure`` is the figure the result lands on.
    """

    on_land: Callable[[Resolution], None] | None

    @property
    def active(self) -> bool:
        """Whether a resolution is shown (revealing or finished)."""
        ...

    @property
    def busy(self) -> bool:
        """Whether the reveal has not landed yet."""
        ...

    def start(self, resolution: Resolution, *, title: str = "", target: int | None = None) -> None:
        """Reveal ``resolution`` from the beginning."""

    def skip(self) -> None:
        """Jump to the end: the result lands now."""

    def clear(self) -> None:
        """Hide the reveal."""

    def advance(self, dt: float) -> None:
        """Move the reveal's clock on by ``dt`` seconds."""

    def damaged_figure(self) -> int | None:
        """The figure the result lands on (None: nobody)."""
        ...


class InstantReveal:
    """A :class:`Reveal` that lands at once (no window: scripts, tests of the flow)."""

    def __init__(self) -> None:
        self.on_land: Callable[[Resolution], None] | None = None
        self.resolution: Resolution | None = None

    @property
    def active(self) -> bool:
        """Whether a resolution was shown and not cleared."""
        return self.resolution is not None

    @property
    def busy(self) -> bool:
        """Never: it lands at once."""
        return False

    def start(self, resolution: Resolution, *, title: str = "", target: int | None = None) -> None:
        """Land ``resolution`` now."""
        self.resolution = resolution
        if self.on_land is not None:
            self.on_land(resolution)

    def skip(self) -> None:
        """Nothing to skip."""

    def clear(self) -> None:
        """Forget the resolution shown."""
        self.resolution = None

    def advance(self, dt: float) -> None:
        """No clock."""

    def damaged_figure(self) -> int | None:
        """The first figure the resolution changes."""
        changes = self.resolution.changes if self.resolution is not None else ()
        return changes[0].figure_id if changes else None
