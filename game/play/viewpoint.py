"""Sight from anywhere: where the ray starts and whose eyes it is seen with (the presenter's state).

The ray starts at the selected figure's square, or, with no figure selected, at any square the
user chose (a click on an empty square, ``S`` at the keyboard cursor, or a drag of the start
marker). It ends at the pinned square (right-click, ``E``) or the hovered one. The *viewer* is
the side whose enemies block: ``auto`` (the side of the figure the ray starts from; no figure:
no side), one of the sides on the map, or no side at all (every figure counts as an enemy).
``V`` cycles through them.

No pygame here: plain state the presenter (``game/play/presenter.py``) keeps and reads every frame.

>>> from game.core.board import Board, Figure
>>> board = Board.from_ascii(["....", "...."], figures=[Figure(1, "Rook", "red", (0, 0))])
>>> sight = Viewpoint()
>>> sight.viewer(board, None), sight.viewer_label(board)
(None, 'no side (the start square is empty: every figure counts as an enemy)')
>>> sight.cycle_viewer(board); sight.viewer(board, None), sight.viewer_label(board)
('red', 'red')
>>> sight.cycle_viewer(board); sight.viewer(board, "red"), sight.viewer_label(board)
(None, 'no side (every figure counts as an enemy)')
>>> sight.cycle_viewer(board); sight.choice
'auto'
"""

from __future__ import annotations

from dataclasses import dataclass

from game.core.board import Board, Square

AUTO = "auto"
NO_SIDE = "no side"


@dataclass
class Viewpoint:
    """The ray's chosen start (when no figure is selected) and the viewer choice."""

    #: the square the ray starts from when no figure is selected (None: no ray)
    start: Square | None = None
    #: ``auto``, ``no side`` or a side's name
    choice: str = AUTO
    #: the square the keyboard cursor is on (Ctrl+arrows move it; ``S``/``E`` use it)
    cursor: Square | None = None

    def choices(self, board: Board) -> list[str]:
        """Every viewer choice for this board, in the order ``V`` walks them."""
        return [AUTO, *board.sides(), NO_SIDE]

    def cycle_viewer(self, board: Board, step: int = 1) -> None:
        """The next viewer choice (a side that left the board is skipped)."""
        options = self.choices(board)
        index = options.index(self.choice) if self.choice in options else 0
        self.choice = options[(index + step) % len(options)]

    def viewer(self, board: Board, figure_side: str | None) -> str | None:
        """The side whose enemies block now; ``figure_side`` is the starting figure's side."""
        if self.choice == AUTO:
            return figure_side
        if self.choice == NO_SIDE or self.choice not in board.sides():
            return None
        return self.choice

    def viewer_label(self, board: Board, figure_side: str | None = None) -> str:
        """The viewer choice in words, for the panel."""
        if self.choice == AUTO:
            if figure_side is None:
                return f"no side (the start {board.grid.kind} is empty: every figure counts as an enemy)"
            return f"{figure_side} (the starting figure's side)"
        if self.choice == NO_SIDE or self.choice not in board.sides():
            return "no side (every figure counts as an enemy)"
        return self.choice

    def forget(self) -> None:
        """Another board: the chosen start and cursor mean nothing there."""
        self.start = None
        self.cursor = None


def step_cursor(board: Board, cursor: Square | None, dx: int, dy: int) -> Square:
    """The keyboard cursor moved one square, kept on the board (it starts in the middle).

    >>> board = Board.from_ascii(["...", "..."])
    >>> step_cursor(board, None, 1, 0), step_cursor(board, (2, 1), 1, 1), step_cursor(board, (0, 0), -1, 0)
    ((1, 1), (2, 1), (0, 0))
    """
    if cursor is None:
        return board.width // 2, board.height // 2
    x = min(board.width - 1, max(0, cursor[0] + dx))
    y = min(board.height - 1, max(0, cursor[1] + dy))
    return x, y


def sees_only_itself(board: Board, origin: Square, target: Square, figure_id: int | None) -> bool:
    """Whether a same-square ray is a figure looking at itself: nobody else stands there.

    Rules §1.3 (FAQ): a figure has line of sight to another figure in its own square, never to
    itself. The square-to-square verdict (``game.core.los``) is "clear: the same square"; this
    is the figure-level "no" the lessons (L29b) and the window show.

    >>> from game.core.board import Figure
    >>> b = Board.from_ascii(["..."], figures=[Figure(1, "A", "red", (1, 0))])
    >>> sees_only_itself(b, (1, 0), (1, 0), 1), sees_only_itself(b, (1, 0), (1, 0), None)
    (True, False)
    """
    if origin != target:
        return False
    here = board.figures_at(origin)
    others = [f for f in here if f.id != figure_id]
    return figure_id is not None and any(f.id == figure_id for f in here) and not others
