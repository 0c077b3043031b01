"""The threat view of the selected figure, as the window shows it (no pygame).

While a figure is selected the board shows a **badge** on each enemy it can attack now (its best
attack's chance to hit and to take the enemy out) and a **ring** on each enemy that threatens it
(can attack it now, or by next turn after moving: told apart). ``Shift+H`` cycles a **danger map** for
the selected figure: on every square it could stand on, how many enemies could attack it there
(now / next turn), then the damage it would expect there next turn, then off; on a hex map the
same, hex by hex (hex steps, the hex sight rules). The numbers are
:mod:`game.designer.threats` and :mod:`game.designer.danger`; this module keeps what is switched on
and works them out a few milliseconds per frame (:data:`BUDGET`), so dragging a figure never
stalls the window: until the new numbers are ready the last ones stay, and the legend says so.

Every sight question goes through :func:`game.play.sight_calls.cast_field` (the window's seam).

>>> from game.resources import bundled_maps
>>> from game.play.session import Session
>>> session = Session.open(bundled_maps() / "demo.tmx", autosave=False)
>>> view = ThreatView(clock=lambda: 0.0)
>>> ember = session.board.find_figure("Ember").id
>>> shown = view.frame(session.board, ember)
>>> [(session.board.figure(b.figure).name, round(b.hit, 3)) for b in shown.badges]
[('Cinder', 0.597)]
>>> sorted((session.board.figure(r.figure).name, r.when, r.steps) for r in shown.rings)
[('Cinder', 'now', 0)]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from game.core.board import Board, Square, fmt_square
from game.play.sight_calls import cast_field

if TYPE_CHECKING:  # the designer's solver is imported when first asked for (start-up time)
    from game.designer.danger import DangerMap
    from game.designer.threats import ThreatSolver

#: seconds of threat work per frame (the rest of a 60 Hz frame is the window's)
BUDGET = 0.004
#: the danger map's modes, in the order ``Shift+H`` cycles them
MODES = ("off", "attackers", "damage")


@dataclass(frozen=True)
class Badge:
    """An enemy the selected figure can attack now: its best attack's chances."""

    figure: int
    attack: str
    hit: float
    take_out: float | None
    take_out_word: str

    def text(self) -> str:
        """``69% · 25%``: hit, then take-out (the badge's words)."""
        out = f"{self.hit * 100:.0f}%"
        return out if self.take_out is None else f"{out} · {self.take_out * 100:.0f}%"


@dataclass(frozen=True)
class Ring:
    """An enemy that threatens the selected figure: ``now`` or ``next`` (after moving
    ``steps`` to ``square``), with the attack."""

    figure: int
    when: str
    attack: str
    steps: int = 0
    square: Square | None = None


@dataclass(frozen=True)
class Danger:
    """The danger map as shown: ``mode`` (``attackers`` or ``damage``), the map, the legend."""

    mode: str
    map: DangerMap
    legend: str

    def values(self) -> np.ndarray:
        """What the tint shows per square: enemies next turn, or expected damage next turn."""
        return self.map.next_turn.astype(np.float64) if self.mode == "attackers" else self.map.damage


@dataclass(frozen=True)
class ThreatFrame:
    """The threat view of one figure for one frame: badges, rings, the danger map, the legend,
    and whether newer numbers are being worked out (``working``)."""

    figure: int
    badges: tuple[Badge, ...] = ()
    rings: tuple[Ring, ...] = ()
    danger: Danger | None = None
    legend: str = ""
    working: bool = False

    def as_json(self) -> dict[str, object]:
        """Badges, rings, the danger map's mode and legend (its squares: ``danger.squares``)."""
        return {
            "figure": self.figure, "working": self.working, "legend": self.legend,
            "badges": [{"figure": b.figure, "attack": b.attack, "hit": b.hit, "take_out": b.take_out,
                        "take_out_word": b.take_out_word} for b in self.badges],
            "rings": [{"figure": r.figure, "when": r.when, "attack": r.attack, "steps": r.steps,
                       "square": None if r.square is None else list(r.square)} for r in self.rings],
            "danger": None if self.danger is None else {"mode": self.danger.mode, "legend": self.danger.legend,
                                                        **self.danger.map.as_json()},
        }


@dataclass
class _Job:
    """Numbers being worked out: what they are for, the generator, and its result when done."""

    key: tuple[Any, ...]
    steps: Generator[None, None, Any]
    value: Any = None
    done: bool = False


@dataclass
class ThreatView:
    """What the threat view shows and the numbers behind it (see the module's docstring)."""

    clock: Callable[[], float] = time.monotonic
    #: badges and rings on (``Shift+A`` hides them)
    marks: bool = True
    #: the danger map's mode, one of :data:`MODES`
    mode: str = "off"
    budget: float = BUDGET
    _solver: ThreatSolver | None = None
    _marks: dict[str, _Job] = field(default_factory=dict)
    _copies: dict[str, tuple[tuple[Any, ...], Board]] = field(default_factory=dict)

    def cycle_danger(self, cell: str = "square") -> str:
        """``Shift+H``: the next danger-map mode; returns the sentence saying which (``cell``:
        what a cell of the board is called, ``square`` or ``hex``)."""
        self.mode = MODES[(MODES.index(self.mode) + 1) % len(MODES)]
        return {"off": "danger map off",
                "attackers": f"danger map: enemies that could attack the selected figure on each {cell}",
                "damage": f"danger map: the damage the selected figure would expect on each {cell}"}[self.mode]

    def toggle_marks(self) -> str:
        """``Shift+A``: badges and rings on or off; returns the sentence saying which."""
        self.marks = not self.marks
        return "threat badges and rings " + ("on" if self.marks else "off")

    def forget(self) -> None:
        """Drop every number (the map was reloaded)."""
        self._marks.clear()
        self._copies.clear()
        self._solver = None

    @property
    def solver(self) -> ThreatSolver:
        """The threat solver over the window's sight calls, made when first asked for."""
        if self._solver is None:
            from game.designer.threats import ThreatSolver

            self._solver = ThreatSolver(cast_field)
        return self._solver

    def _private(self, name: str, board: Board) -> Board:
        """Job ``name``'s own copy of ``board`` (its jobs move figures on it to ask the rules).
        A copy costs milliseconds, so while the geometry and rules stay the same the last copy
        is brought up to date instead: only the figures that differ are taken off and put back
        (taken off first, so no square is ever fuller than on ``board``). Called only when the
        job's previous work is done with it."""
        same = (board.serial, board.geometry_version, board.ruleset, board.capacity, dict(board.properties))
        kept = self._copies.get(name)
        if kept is None or kept[0] != same:
            private = board.copy()
            self._copies[name] = (same, private)
            return private
        private = kept[1]
        live = board.figures
        stale = [f for f in private.figures.values() if live.get(f.id) != f]
        for figure in stale:
            private.remove_figure(figure.id)
        for figure in live.values():
            if figure.id not in private.figures:
                private.place_figure(figure)
        return private

    # --- the work ------------------------------------------------------------------------

    def _run(self, name: str, key: tuple[Any, ...], make: Callable[[], Generator[None, None, Any]],
             until: float) -> tuple[Any, bool]:
        """The last finished value of job ``name`` and whether work is still going on. Work for
        ``key`` is advanced until the clock reaches ``until``; a job under way for an older key
        finishes first (so a drag always gets numbers, a few frames late at worst)."""
        job = self._marks.get(name)
        if job is None:
            job = self._marks[name] = _Job(key, make())
        elif job.done and job.key != key:
            job.key, job.steps, job.done = key, make(), False
        while not job.done and self.clock() < until:
            try:
                next(job.steps)
            except StopIteration as finished:
                job.value, job.done = finished.value, True
                if job.key != key:  # finished an older key's numbers: start the current ones
                    job.key, job.steps, job.done = key, make(), False
        return job.value, not job.done or job.key != key

    def frame(self, board: Board, figure: int) -> ThreatFrame:
        """The threat view of ``figure`` now (work advanced by at most :attr:`budget` seconds)."""
        until = self.clock() + self.budget
        marks: tuple[tuple[Badge, ...], tuple[Ring, ...], int] | None = None
        working = False
        if self.marks:
            key = (board.serial, board.version, figure)
            geometry = (board.serial, board.geometry_version)
            marks, working = self._run("marks", key, lambda: self._marks_steps(self._private("marks", board), figure, geometry), until)
            if marks is not None and marks[2] != figure:
                marks = None
        danger = None
        if self.mode != "off":
            key = danger_key(board, figure)
            geometry = (board.serial, board.geometry_version)
            from game.designer.danger import danger_steps

            found, busy = self._run("danger", key, lambda: danger_steps(self.solver, self._private("danger", board), figure, in_place=True,
                                                                        geometry=geometry), until)
            working = working or busy
            if found is not None and found.figure == figure:
                danger = Danger(self.mode, found, self._danger_words(board, found))
        badges, rings = (marks[0], marks[1]) if marks is not None else ((), ())
        return ThreatFrame(figure, badges, rings, danger, self._legend(board, figure, working), working)

    def _marks_steps(self, board: Board, figure: int, geometry: object) -> Generator[None, None, Any]:
        """Badges, then rings (now, else next turn), one figure at a time, on ``board``: the job's
        own copy of the board ``geometry`` names (the solver moves figures on it to ask the
        rules, and back)."""
        solver = self.solver
        badges = []
        for target in solver.enemies(board, figure):
            threat = solver.threat(board, figure, target, next_turn=False)
            best = threat.now
            if best is not None:
                badges.append(Badge(target, best.attack, float(best.hit),
                                    None if best.take_out is None else float(best.take_out), best.take_out_word))
            yield
        rings = []
        for enemy in solver.attackers(board, figure):
            approach = solver.next_turn(board, enemy, figure, in_place=True, geometry=geometry)
            if approach is not None:
                when = "now" if approach.steps == 0 else "next"
                rings.append(Ring(enemy, when, approach.attack, approach.steps, approach.square if approach.steps else None))
            yield
        return tuple(badges), tuple(rings), figure

    # --- words ---------------------------------------------------------------------------

    def _legend(self, board: Board, figure: int, working: bool) -> str:
        name = board.figure(figure).label
        parts = []
        if self.marks:
            parts.append(f"{name}: badge = chance to hit · to take out (best attack now); ring = threatens "
                         f"{name} (red: now, dashed orange: next turn)")
        if working:
            parts.append("working out…")
        parts.append("Shift+H: danger map" if self.mode == "off" else "Shift+H: next view")
        return " · ".join(parts)

    def _danger_words(self, board: Board, found: DangerMap) -> str:
        name = board.figure(found.figure).label
        if self.mode == "attackers":
            return (f"Danger to {name}: enemies that could attack it there, now/next turn "
                    f"(next turn: 0 blue to {int(found.next_turn.max())} red)")
        unit = found.unit or "damage"
        return (f"Danger to {name}: {unit} it would expect there next turn, each enemy able attacking once "
                f"(0 blue to {float(found.damage.max()):.1f} red)")

    def hovered(self, shown: ThreatFrame, square: Square | None) -> str:
        """What the danger map says about the hovered square (for the legend)."""
        if shown.danger is None or square is None:
            return ""
        found = shown.danger.map.at(square)
        if found is None:
            return f"{fmt_square(square)}: the figure cannot stand there"
        now, nxt, damage = found
        if shown.danger.mode == "attackers":
            return f"{fmt_square(square)}: {now} now, {nxt} next turn"
        return f"{fmt_square(square)}: {damage:.2f} {shown.danger.map.unit or 'damage'} expected next turn"


def danger_key(board: Board, figure: int) -> tuple[Any, ...]:
    """What a figure's danger map depends on: the geometry, the other figures (squares, sides,
    stats) and the figure's own side and stats — not where the figure itself stands."""
    others = tuple((f.id, f.square, f.side, f.stats) for f in sorted(board.figures.values(), key=lambda f: f.id)
                   if f.id != figure)
    own = board.figure(figure)
    return board.serial, board.geometry_version, figure, own.side, own.stats, others
