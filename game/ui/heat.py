"""The coverage heat map over the board (``H``): how many squares see each square.

The counts are :func:`game.designer.coverage.coverage` (geometry only: walls, windows, doors in
their current state, void and blocked terrain; figures never block here), the colours the
report's ramp (:func:`game.ui.report_images.ramp`, few → many). The count is worked out on a
worker thread, off the frame loop: the window keeps answering while it runs, and the legend
says "working out…" meanwhile. It is worked out again when a door changes or the map reloads
(figures moving do not change it). A board of more than :data:`MAX_SQUARES` squares is
refused in one line (``sightline report`` draws its heat map as a picture instead).
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pygame

from game.core import sight
from game.core.board import Board, Square
from game.core.words import plural_of
from game.designer.coverage import Coverage, Table, coverage, coverage_table, geometry_board
from game.play.wording import heat_legend
from game.ui.odds_chart import PanelFonts
from game.ui.report_images import ramp
from game.ui.text import wrap
from game.ui.view import View

#: the largest board the window works the coverage out for (its table is squares² bytes)
MAX_SQUARES = 90 * 90
ALPHA = 150
LEGEND_BG = (16, 18, 24, 225)
LEGEND_TEXT = (230, 232, 240)


def geometry_key(board: Board) -> tuple[Any, ...]:
    """What the coverage depends on: the board (its serial) and its doors' states."""
    doors = tuple(sorted((str(edge), door.state.value) for edge, door in board.doors.items()))
    squares = tuple(sorted((sq, state.value) for sq, state in board.door_squares.items()))
    return board.serial, doors, squares


def board_table(board: Board) -> Table | None:
    """The visibility table the coverage reads: squares' own (None: the region table of the
    default rule); on another grid the table under the map's rule (its engines have no regions)."""
    if board.grid.kind == "square":
        return None
    return coverage_table(board, sight.rule_or_default(board))


class _Job:
    """The coverage of one board worked out on a daemon thread (quitting never waits for it)."""

    def __init__(self, board: Board) -> None:
        self.done = threading.Event()
        self.value: Coverage | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(board,), name="coverage", daemon=True)
        self.thread.start()

    def _run(self, board: Board) -> None:
        try:
            self.value = coverage(board, board_table(board))
        except BaseException as exc:  # noqa: BLE001 - handed to the window's thread
            self.error = exc
        finally:
            self.done.set()

    def result(self, timeout: float | None = None) -> Coverage:
        """The coverage (waits up to ``timeout`` seconds); re-raises the worker's error."""
        if not self.done.wait(timeout):
            raise TimeoutError("the coverage is still being worked out")
        if self.error is not None:
            raise self.error
        assert self.value is not None
        return self.value


class CoverageOverlay:
    """The heat map's coverage, worked out (or being worked out), and its drawing (whether it is
    shown is the presenter's ``heat_on``, ``H``)."""

    def __init__(self) -> None:
        self._job: tuple[tuple[Any, ...], _Job] | None = None
        self._done: tuple[tuple[Any, ...], Coverage] | None = None
        self._tint: tuple[Any, pygame.Surface] | None = None
        self._font = PanelFonts()
        #: the legend's text as drawn last (tests read it)
        self.legend = ""

    def result(self, board: Board) -> Coverage | None:
        """The coverage of ``board`` as it is now, or None while it is worked out (started on
        the worker thread at the first call for a new board or door state)."""
        key = geometry_key(board)
        if self._done is not None and self._done[0] == key:
            return self._done[1]
        if self._job is not None and self._job[0] == key:
            if not self._job[1].done.is_set():
                return None
            self._done = (key, self._job[1].result())
            self._job = None
            return self._done[1]
        if self._job is not None and not self._job[1].done.is_set():
            return None  # one count at a time: the new doors' count starts when the old one ends
        bare = geometry_board(board)  # a copy: the worker never sees the board change under it
        self._job = (key, _Job(bare))
        return None

    def wait(self, timeout: float | None = None) -> None:
        """Block until the coverage being worked out is ready (tests, screenshots)."""
        if self._job is not None:
            self._job[1].result(timeout)

    def legend_text(self, board: Board, hover: Square | None) -> str:
        """The legend: the range, the hovered square's count, or why there is no heat map (yet)."""
        noun = board.grid.noun
        if board.width * board.height > MAX_SQUARES:
            return (f"Coverage heat map: the board has more than {MAX_SQUARES} {plural_of(noun)}; sightline report MAP "
                    "draws it as a picture")
        found = self.result(board)
        if found is None:
            return f"Coverage heat map: working out how many {plural_of(noun)} see each {noun}…"
        count = None
        if hover is not None and board.in_bounds(hover) and found.standable[hover[1], hover[0]]:
            count = int(found.seen_by[hover[1], hover[0]])
        return heat_legend(found.maximum, hover if count is not None else None, count, noun)

    def legend_height(self, board: Board, hover: Square | None, width: int, scale: float) -> int:
        """How tall the legend is at ``width`` pixels (the window keeps that room under the board)."""
        font = self._font(max(12, round(14 * scale)))
        pad = max(6, round(6 * scale))
        lines = wrap(font, self.legend_text(board, hover), max(40, width - 2 * pad))
        return font.get_linesize() * len(lines) + 2 * pad

    def draw_legend(self, surface: pygame.Surface, view: View, board: Board, hover: Square | None,
                    scale: float, area: pygame.Rect | None = None) -> None:
        """The legend in the bottom left corner of ``area`` (the band the window keeps for it
        under the board; else the board area's)."""
        self._draw_legend(surface, area if area is not None else pygame.Rect(view.viewport), scale,
                          self.legend_text(board, hover))

    def draw(self, surface: pygame.Surface, view: View, board: Board, scale: float) -> None:
        """Tint every standable square by its count (the painter calls it under the figures)."""
        area = pygame.Rect(view.viewport)
        if board.width * board.height > MAX_SQUARES:
            return
        found = self.result(board)
        if found is None:
            return
        top = max(1, found.maximum)
        key = (id(found), top)
        if self._tint is None or self._tint[0] != key:
            t = np.where(found.standable, found.seen_by / top, 0.0)
            rgb = np.zeros((board.width, board.height, 3), dtype=np.uint8)
            for y in range(board.height):
                for x in range(board.width):
                    if found.standable[y, x]:
                        rgb[x, y] = ramp(float(t[y, x]))
            small = pygame.Surface((board.width, board.height), pygame.SRCALPHA)
            pixels = pygame.surfarray.pixels3d(small)
            pixels[:] = rgb
            del pixels
            alpha = pygame.surfarray.pixels_alpha(small)
            alpha[:] = np.where(found.standable.T, ALPHA, 0).astype(np.uint8)
            del alpha
            self._tint = (key, small)
        small = self._tint[1]
        if view.hexes is not None:
            self._draw_hexes(surface, view, found, small, scale)
            return
        # only the squares in view, scaled to the screen (never the whole board at a big zoom)
        x0, y0 = view.to_grid(area.x, area.y)
        x1, y1 = view.to_grid(area.right, area.bottom)
        left, top_row = max(0, int(x0)), max(0, int(y0))
        right, bottom = min(board.width, int(x1) + 1), min(board.height, int(y1) + 1)
        if right > left and bottom > top_row:
            part = small.subsurface(pygame.Rect(left, top_row, right - left, bottom - top_row))
            sx, sy = view.to_screen(left, top_row)
            ex, ey = view.to_screen(right, bottom)
            size = (max(1, round(ex) - round(sx)), max(1, round(ey) - round(sy)))
            old_clip = surface.get_clip()
            surface.set_clip(area)
            surface.blit(pygame.transform.scale(part, size), (round(sx), round(sy)))
            if view.cell >= 28 * scale:
                self._draw_counts(surface, view, found, (left, top_row, right, bottom), scale)
            surface.set_clip(old_clip)

    def _draw_hexes(self, surface: pygame.Surface, view: View, found: Coverage, tint: pygame.Surface,
                    scale: float) -> None:
        """The tint on a hex board: every standable hex in view filled with its colour (the
        colours of the square tint's one-pixel-per-cell picture ``tint``), its count on it when
        the hexes are big enough."""
        area = pygame.Rect(view.viewport)
        x0, y0, x1, y1 = view.visible_cells()
        layer = pygame.Surface(area.size, pygame.SRCALPHA)
        for y in range(max(0, y0), min(found.standable.shape[0], y1)):
            for x in range(max(0, x0), min(found.standable.shape[1], x1)):
                if found.standable[y, x]:
                    outline = [(px - area.x, py - area.y) for px, py in view.cell_polygon((x, y))]
                    pygame.draw.polygon(layer, tint.get_at((x, y)), outline)
        surface.blit(layer, area.topleft)
        if view.cell >= 28 * scale:
            self._draw_counts(surface, view, found, (max(0, x0), max(0, y0), min(found.standable.shape[1], x1),
                                                     min(found.standable.shape[0], y1)), scale)

    def _draw_counts(self, surface: pygame.Surface, view: View, found: Coverage,
                     box: tuple[int, int, int, int], scale: float) -> None:
        font = self._font(max(11, min(round(view.cell * 0.32), round(18 * scale))))
        left, top, right, bottom = box
        for y in range(top, bottom):
            for x in range(left, right):
                if found.standable[y, x]:
                    label = font.render(str(int(found.seen_by[y, x])), True, (255, 255, 255))
                    shadow = font.render(str(int(found.seen_by[y, x])), True, (0, 0, 0))
                    centre = view.square_centre((x, y))
                    rect = label.get_rect(center=centre)
                    surface.blit(shadow, rect.move(1, 1))
                    surface.blit(label, rect)

    def _draw_legend(self, surface: pygame.Surface, area: pygame.Rect, scale: float, words: str) -> None:
        self.legend = words
        font = self._font(max(12, round(14 * scale)))
        pad = max(6, round(6 * scale))
        lines = wrap(font, words, max(40, area.w - 2 * pad))
        pitch = font.get_linesize()
        width = min(area.w, max(font.size(line)[0] for line in lines) + 2 * pad)
        plate = pygame.Surface((width, pitch * len(lines) + 2 * pad), pygame.SRCALPHA)
        plate.fill(LEGEND_BG)
        for n, line in enumerate(lines):
            plate.blit(font.render(line, True, LEGEND_TEXT), (pad, pad + n * pitch))
        surface.blit(plate, (area.x, area.bottom - plate.get_height()))
