"""Undo and redo of board states, and the action log: pure data, no pygame, no clock.

Every change a person makes in the window (a move, a door, "close all doors") is recorded as an
:class:`Action`: a label in words and the board state before and after it. Undo hands back the
action so the caller restores ``action.before``; redo hands it back to restore ``action.after``.
Recording a new action after an undo drops the redo branch, as every editor does. The log keeps
every line, including undos and redos, for the side panel.

>>> history: History[str] = History()
>>> history.record("open door V(3,1)", "closed", "open")
>>> history.record("move Rook (1,1) -> (2,1)", "open", "moved")
>>> history.undo().before
'open'
>>> history.can_redo, history.redo().after
(True, 'moved')
>>> history.log[-2:]
['undid: move Rook (1,1) -> (2,1)', 'redid: move Rook (1,1) -> (2,1)']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

State = TypeVar("State")

#: how many actions undo reaches back by default
DEFAULT_LIMIT = 1000
#: how many log lines are kept
LOG_LIMIT = 500


@dataclass(frozen=True)
class Action(Generic[State]):
    """One undoable change: what it was, in words, and the states on either side of it."""

    label: str
    before: State
    after: State


class History(Generic[State]):
    """Undo/redo stacks of :class:`Action` plus a log of everything that happened.

    ``limit`` bounds the undo stack (the oldest actions fall off); the log keeps the last
    :data:`LOG_LIMIT` lines.

    >>> h: History[int] = History(limit=2)
    >>> for n in range(3):
    ...     h.record(f"step {n}", n, n + 1)
    >>> [a.label for a in h.undo_stack]
    ['step 1', 'step 2']
    >>> h.undo().label, h.undo().label, h.undo()
    ('step 2', 'step 1', None)
    """

    def __init__(self, limit: int = DEFAULT_LIMIT, log: Iterable[str] = ()) -> None:
        if limit < 1:
            raise ValueError(f"an undo history needs room for at least one action, not {limit}")
        self.limit = limit
        self._undo: list[Action[State]] = []
        self._redo: list[Action[State]] = []
        self.log: list[str] = list(log)[-LOG_LIMIT:]
        #: counts every line ever noted (the log itself is capped): lets views skip redraws
        self.serial = len(self.log)

    @property
    def undo_stack(self) -> tuple[Action[State], ...]:
        """The actions undo would revert, oldest first."""
        return tuple(self._undo)

    @property
    def can_undo(self) -> bool:
        """Whether there is an action to undo."""
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        """Whether there is an undone action to redo."""
        return bool(self._redo)

    def record(self, label: str, before: State, after: State) -> None:
        """Remember a change that was just made; this drops anything that could be redone."""
        self._undo.append(Action(label, before, after))
        if len(self._undo) > self.limit:
            del self._undo[: len(self._undo) - self.limit]
        self._redo.clear()
        self.note(label)

    def undo(self, outcome: Callable[[State, State], str] | None = None) -> Action[State] | None:
        """Take back the latest action: returns it (restore ``.before``), or None if none is left.

        The log says what happened (``undid: LABEL``); ``outcome(left, restored)`` may add what
        the board is like now, so a label naming the new state is not read as the current one.

        >>> h: History[str] = History()
        >>> h.record("door V(7,3): closed", "locked", "closed")
        >>> _ = h.undo(lambda left, now: f"door V(7,3) back to {now}")
        >>> h.log[-1]
        'undid: door V(7,3): closed; door V(7,3) back to locked'
        """
        if not self._undo:
            return None
        action = self._undo.pop()
        self._redo.append(action)
        self.note(self._line("undid", action, outcome, action.after, action.before))
        return action

    def redo(self, outcome: Callable[[State, State], str] | None = None) -> Action[State] | None:
        """Re-apply the latest undone action: returns it (restore ``.after``), or None.

        The log line is ``redid: LABEL`` (plus ``outcome(left, restored)`` when given).
        """
        if not self._redo:
            return None
        action = self._redo.pop()
        self._undo.append(action)
        self.note(self._line("redid", action, outcome, action.before, action.after))
        return action

    @staticmethod
    def _line(
        verb: str,
        action: Action[State],
        outcome: Callable[[State, State], str] | None,
        left: State,
        now: State,
    ) -> str:
        detail = outcome(left, now) if outcome is not None else ""
        return f"{verb}: {action.label}" + (f"; {detail}" if detail else "")

    def clear(self) -> None:
        """Forget every undoable action (the log stays), e.g. after the map is reloaded."""
        self._undo.clear()
        self._redo.clear()

    def note(self, line: str) -> None:
        """Append a line to the log without making it undoable (reloads, errors, lessons)."""
        self.log.append(line)
        self.serial += 1
        if len(self.log) > LOG_LIMIT:
            del self.log[: len(self.log) - LOG_LIMIT]
