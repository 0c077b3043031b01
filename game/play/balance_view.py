"""The balance report in the window (``Shift+B``): the map's deployment zones and how much of
each one the other side sees, with the first strikes and the report's findings.

The numbers are :func:`game.designer.balance.balance` under the window's rule (at start the
map's own, the one attacks are judged by), the same as ``sightline balance MAP --rules RULE`` prints; the window shows:

* each zone outlined in its side's colour;
* on each zone square seen from the other zone, how many squares of that zone see it (the
  report's exposure picture);
* each side's first strike, drawn from the square it attacks from to the square it attacks;
* a legend: the exposures, the first-strike turns and the report's first finding.

A report takes a tenth of a second or so on the bundled maps; it is worked out again when the
geometry, the rule or a figure changes (zones taken from the figures' squares move with them),
at most once every :data:`PAUSE` seconds, the last numbers staying on screen meanwhile.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from game.core.board import Board, Square
from game.core.errors import SightlineError
from game.core.profiles import Profile
from game.core.sight import rule_or_default

if TYPE_CHECKING:  # the balance report is imported when first asked for (start-up time)
    from game.designer.balance import Balance

#: seconds between two reports while the board keeps changing (a drag)
PAUSE = 0.75


@dataclass(frozen=True)
class BalanceShown:
    """What the window draws: the zones (side, squares), per square how many squares of the
    other zone see it (``watched``, int ``[y, x]``, on zone squares only), the first strikes
    (side, from, to), the legend, and whether newer numbers are on the way."""

    zones: tuple[tuple[str, frozenset[Square]], ...]
    watched: np.ndarray
    strikes: tuple[tuple[str, Square, Square], ...]
    legend: str
    working: bool = False

    def as_json(self) -> dict[str, object]:
        """``{"zones": [{"side", "size"}], "strikes": [...], "legend", "working"}``."""
        return {"zones": [{"side": s, "size": len(q)} for s, q in self.zones],
                "strikes": [{"side": s, "from": list(a), "to": list(b)} for s, a, b in self.strikes],
                "legend": self.legend, "working": self.working}


def shown_of(report: Balance) -> BalanceShown:
    """The window's view of ``report`` (its first rule: the only one worked out here)."""
    numbers = report.rules[0]
    watched = np.zeros(report.standable.shape, dtype=np.int64)
    strikes = []
    for side in numbers.sides:
        watched = np.maximum(watched, side.watched)
        strike = side.first_strike
        if strike.square is not None and strike.target is not None:
            strikes.append((side.side, strike.square, strike.target))
    pairs = [f"{s.side} sees {float(s.exposure.share):.0%} of {s.other}, "
             + ("never" if s.first_strike.turn is None else f"turn {s.first_strike.turn}") for s in numbers.sides]
    finding = report.findings[0] if report.findings else "no finding: the sides come out even"
    legend = (f"Balance ({numbers.rule.spec()}): share of the other zone seen, first strike: " + "; ".join(pairs)
              + f" · {finding} (orange: zone {report.cells} seen from the other zone, by how many)")
    return BalanceShown(tuple((z.side, z.squares) for z in report.zones), watched, tuple(strikes), legend)


@dataclass
class BalanceView:
    """The balance overlay: on or off, and the last report (see the module)."""

    clock: Callable[[], float] = time.monotonic
    on: bool = False
    _key: Any = None
    _shown: BalanceShown | None = None
    _when: float = field(default=-1e9)

    def toggle(self) -> str:
        """``Shift+B``: the overlay on or off; returns the sentence saying which."""
        self.on = not self.on
        self._key, self._shown = None, None
        return "balance report " + ("on: zones, exposure, first strikes" if self.on else "off")

    def frame(self, board: Board, objects: Mapping[int, Any], rule: Profile | None = None) -> BalanceShown | None:
        """The overlay for ``board`` under ``rule`` (the window's; default the map's own), None
        when off; worked out again when what it depends on changed, at most every
        :data:`PAUSE` seconds."""
        if not self.on:
            return None
        rule = rule if rule is not None else rule_or_default(board)
        key = (board.serial, board.geometry_version, board.ruleset, rule.spec(),
               tuple(sorted((f.id, f.side, f.square, tuple(sorted(f.stats.items()))) for f in board.figures.values())))
        if key == self._key and self._shown is not None:
            return self._shown
        now = self.clock()
        if self._shown is not None and now - self._when < PAUSE:
            return BalanceShown(self._shown.zones, self._shown.watched, self._shown.strikes,
                                self._shown.legend + " · working out…", True)
        self._key, self._when = key, now
        try:
            from game.designer.balance import balance

            self._shown = shown_of(balance(board, objects, rules=[rule.spec()]))
        except SightlineError as problem:
            self._shown = BalanceShown((), np.zeros((board.height, board.width), dtype=np.int64), (),
                                       f"Balance: {problem}")
        return self._shown
