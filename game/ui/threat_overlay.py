"""The threat view drawn over the board: badges, rings, the danger map and its legend.

It draws a :class:`~game.play.threat_view.ThreatFrame` (the presenter's; it decides nothing):
a badge over each enemy the selected figure can attack now (hit · take-out chance), a ring on
each enemy that threatens it (solid red: now; dashed orange: next turn), and with ``Shift+H`` the
danger map tinted under the figures in the heat ramp (blue: safe, red: dangerous), the numbers
written on squares big enough to carry them, and a legend at the bottom of the board area. On a
hex board the same marks sit on the hexes (rings round a hex's token, badges over its top, the
tint filling each hex's outline at Tiled's pixel layout).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pygame

from game.core.board import Board, Square
from game.play.threat_view import ThreatFrame
from game.ui import classroom
from game.ui.report_images import RAMP
from game.ui.text import wrap
from game.ui.view import View

RING_NOW = (235, 45, 45)
RING_NEXT = (255, 160, 30)
BADGE_BG = (16, 18, 24, 225)
BADGE_HIT = (240, 242, 248)
BADGE_TAKE_OUT = (255, 120, 110)
LEGEND_BG = (16, 18, 24, 225)
LEGEND_TEXT = (230, 232, 240)
TINT_ALPHA = 150


def ramp_colours(t: np.ndarray) -> np.ndarray:
    """The heat ramp (the report's, :data:`game.ui.report_images.RAMP`) at every ``t`` in 0..1:
    uint8 RGB, one more axis."""
    stops = np.array(RAMP, dtype=np.float64)
    pos = np.clip(t, 0.0, 1.0) * (len(RAMP) - 1)
    i = np.minimum(pos.astype(np.int64), len(RAMP) - 2)
    f = (pos - i)[..., None]
    return np.rint(stops[i] + (stops[i + 1] - stops[i]) * f).astype(np.uint8)


def draw_plate(surface: pygame.Surface, view: View, lines: list[str], scale: float, above: int = 0) -> int:
    """``lines`` wrapped to the board area's width on a dark plate at its bottom left, ``above``
    pixels up (another legend below it); returns the plate's height (the threat view's and the
    balance report's legends)."""
    area = pygame.Rect(view.viewport)
    plate = _plate(tuple(lines), area.w, max(12, round(14 * scale)), max(6, round(6 * scale)))
    surface.blit(plate, (area.x, area.bottom - above - plate.get_height()))
    return plate.get_height()


#: the last plates drawn, by (lines, board-area width, font size, padding): a legend is the same
#: frame after frame, and wrapping and rendering it every frame cost a quarter of a millisecond
_PLATES: dict[tuple[tuple[str, ...], int, int, int], pygame.Surface] = {}


def _plate(lines: tuple[str, ...], area_width: int, size: int, pad: int) -> pygame.Surface:
    """The legend plate of ``lines`` wrapped to ``area_width`` (made once per look, then kept)."""
    key = (lines, area_width, size, pad)
    plate = _PLATES.get(key)
    if plate is not None:
        return plate
    face = classroom.font(size)
    wrapped = [part for line in lines for part in wrap(face, line, max(40, area_width - 2 * pad))]
    pitch = face.get_linesize()
    width = min(area_width, max(face.size(line)[0] for line in wrapped) + 2 * pad)
    plate = pygame.Surface((width, pitch * len(wrapped) + 2 * pad), pygame.SRCALPHA)
    plate.fill(LEGEND_BG)
    for n, line in enumerate(wrapped):
        plate.blit(face.render(line, True, LEGEND_TEXT), (pad, pad + n * pitch))
    if len(_PLATES) >= 8:
        _PLATES.pop(next(iter(_PLATES)))
    _PLATES[key] = plate
    return plate


class ThreatOverlay:
    """Draws threat frames (keeps the danger tint between frames)."""

    def __init__(self) -> None:
        self._tint: tuple[Any, pygame.Surface] | None = None
        #: the legend as drawn last, and its plate's height (tests read them)
        self.legend = ""
        self.legend_height = 0

    def draw_under(self, surface: pygame.Surface, view: View, board: Board, shown: ThreatFrame | None) -> None:
        """The danger map's tint, under the figures (the painter calls it)."""
        if shown is None or shown.danger is None:
            return
        if view.hexes is not None:
            self._draw_hex_tint(surface, view, shown)
            return
        danger = shown.danger
        values = danger.values()
        mask = danger.map.standable
        key = (id(danger.map), danger.mode)
        if self._tint is None or self._tint[0] != key:
            top = float(values[mask].max()) if mask.any() else 0.0
            rgb = ramp_colours(values / top if top > 0 else np.zeros_like(values))
            small = pygame.Surface((board.width, board.height), pygame.SRCALPHA)
            pixels = pygame.surfarray.pixels3d(small)
            pixels[:] = rgb.transpose(1, 0, 2)
            del pixels
            alpha = pygame.surfarray.pixels_alpha(small)
            alpha[:] = np.where(mask.T, TINT_ALPHA, 0).astype(np.uint8)
            del alpha
            self._tint = (key, small)
        area = pygame.Rect(view.viewport)
        x0, y0 = view.to_grid(area.x, area.y)
        x1, y1 = view.to_grid(area.right, area.bottom)
        left, top_row = max(0, int(x0)), max(0, int(y0))
        right, bottom = min(board.width, int(x1) + 1), min(board.height, int(y1) + 1)
        if right <= left or bottom <= top_row:
            return
        part = self._tint[1].subsurface(pygame.Rect(left, top_row, right - left, bottom - top_row))
        sx, sy = view.to_screen(left, top_row)
        ex, ey = view.to_screen(right, bottom)
        old_clip = surface.get_clip()
        surface.set_clip(area)
        surface.blit(pygame.transform.scale(part, (max(1, round(ex) - round(sx)), max(1, round(ey) - round(sy)))),
                     (round(sx), round(sy)))
        if view.cell >= 30:
            self._numbers(surface, view, shown, (left, top_row, right, bottom))
        surface.set_clip(old_clip)

    def _draw_hex_tint(self, surface: pygame.Surface, view: View, shown: ThreatFrame) -> None:
        """The danger map on a hex board: each hex the figure can stand on filled in the heat
        ramp, its numbers on it when hexes are big enough. Drawn once per danger map, mode, zoom,
        pan and board area into a layer the size of the board area (a hover frame blits it)."""
        assert shown.danger is not None
        danger = shown.danger
        area = pygame.Rect(view.viewport)
        key = (id(danger.map), danger.mode, view.layout(), tuple(area))
        if self._tint is None or self._tint[0] != key:
            self._tint = (key, self._hex_layer(view, shown, area))
        old_clip = surface.get_clip()
        surface.set_clip(area)
        surface.blit(self._tint[1], area.topleft)
        surface.set_clip(old_clip)

    def _hex_layer(self, view: View, shown: ThreatFrame, area: pygame.Rect) -> pygame.Surface:
        """The hex danger tint (and numbers) of the visible hexes, in board-area pixels."""
        assert shown.danger is not None
        found = shown.danger.map
        values, mask = shown.danger.values(), found.standable
        top = float(values[mask].max()) if mask.any() else 0.0
        rgb = ramp_colours(values / top if top > 0 else np.zeros_like(values))
        layer = pygame.Surface(area.size, pygame.SRCALPHA)
        x0, y0, x1, y1 = view.visible_cells()
        height, width = mask.shape
        cells = [(x, y) for y in range(max(0, y0), min(height, y1)) for x in range(max(0, x0), min(width, x1))
                 if mask[y, x]]
        for x, y in cells:
            outline = [(px - area.x, py - area.y) for px, py in view.cell_polygon((x, y))]
            pygame.draw.polygon(layer, (*(int(c) for c in rgb[y, x]), TINT_ALPHA), outline)
        if view.cell >= 30:
            face = classroom.font(max(10, min(16, round(view.cell * 0.24))))
            for x, y in cells:
                text = self._number(shown, (x, y))
                _, ry, _, rh = view.square_rect((x, y))
                cx, _ = view.square_centre((x, y))
                spot = face.size(text)
                at = (cx - spot[0] // 2 - area.x, ry + round(rh * 0.86) - spot[1] - area.y)
                layer.blit(face.render(text, True, (0, 0, 0)), (at[0] + 1, at[1] + 1))
                layer.blit(face.render(text, True, (255, 255, 255)), at)
        return layer

    @staticmethod
    def _number(shown: ThreatFrame, cell: Square) -> str:
        """``now/next`` (attackers) or the expected damage of one cell of the danger map."""
        assert shown.danger is not None
        found = shown.danger.map
        x, y = cell
        if shown.danger.mode == "attackers":
            return f"{int(found.now[y, x])}/{int(found.next_turn[y, x])}"
        return f"{float(found.damage[y, x]):.1f}"

    def _numbers(self, surface: pygame.Surface, view: View, shown: ThreatFrame, box: tuple[int, int, int, int]) -> None:
        """``now/next`` (or the expected damage) on each square of the danger map."""
        assert shown.danger is not None
        found = shown.danger.map
        face = classroom.font(max(10, min(16, round(view.cell * 0.26))))
        left, top, right, bottom = box
        for y in range(top, bottom):
            for x in range(left, right):
                if not found.standable[y, x]:
                    continue
                text = self._number(shown, (x, y))
                rx, ry, rw, rh = view.square_rect((x, y))
                label = face.render(text, True, (255, 255, 255))
                shadow = face.render(text, True, (0, 0, 0))
                spot = label.get_rect(bottomright=(rx + rw - 2, ry + rh - 1))
                surface.blit(shadow, spot.move(1, 1))
                surface.blit(label, spot)

    def draw_over(self, surface: pygame.Surface, view: View, board: Board, shown: ThreatFrame | None,
                  scale: float) -> None:
        """Rings and badges over the figures, clipped to the board area."""
        if shown is None:
            return
        old_clip = surface.get_clip()
        surface.set_clip(pygame.Rect(view.viewport))
        for ring in shown.rings:
            if ring.figure in board.figures:
                self._ring(surface, view, board.figure(ring.figure).square, ring.when == "now", scale)
        stacked: dict[Square, int] = {}
        face = classroom.font(max(11, min(round(15 * scale), round(view.cell * 0.3))))
        for badge in shown.badges:
            if badge.figure not in board.figures:
                continue
            square = board.figure(badge.figure).square
            slot = stacked.get(square, 0)
            stacked[square] = slot + 1
            self._badge(surface, view, square, badge.text(), face, slot)
        surface.set_clip(old_clip)

    @staticmethod
    def _ring(surface: pygame.Surface, view: View, square: Square, now: bool, scale: float) -> None:
        cx, cy = view.square_centre(square)
        radius = max(6, round(view.cell * 0.5))
        width = max(2, round(3 * scale))
        if now:
            pygame.draw.circle(surface, RING_NOW, (cx, cy), radius, width)
            return
        dashes = 12
        rect = pygame.Rect(cx - radius, cy - radius, 2 * radius, 2 * radius)
        for n in range(dashes):
            start = 2 * math.pi * n / dashes
            pygame.draw.arc(surface, RING_NEXT, rect, start, start + math.pi / dashes, width)

    @staticmethod
    def _badge(surface: pygame.Surface, view: View, square: Square, text: str, face: pygame.font.Font, slot: int) -> None:
        hit, _, rest = text.partition(" · ")
        parts = [face.render(hit, True, BADGE_HIT)]
        if rest:
            parts.append(face.render(" · " + rest, True, BADGE_TAKE_OUT))
        width = sum(p.get_width() for p in parts) + 6
        height = face.get_linesize() + 2
        rx, ry, rw, _ = view.square_rect(square)
        plate = pygame.Surface((width, height), pygame.SRCALPHA)
        plate.fill(BADGE_BG)
        x = 3
        for part in parts:
            plate.blit(part, (x, 1))
            x += part.get_width()
        top = ry - height // 2 - slot * (height + 1)
        surface.blit(plate, (rx + rw // 2 - width // 2, top))

    def draw_legend(self, surface: pygame.Surface, view: View, shown: ThreatFrame | None, hovered: str,
                    scale: float, above: int = 0) -> None:
        """The legend at the bottom left of the board area, ``above`` pixels up (another legend
        below it); the danger map's line first when it is on."""
        self.legend, self.legend_height = "", 0
        if shown is None:
            return
        lines = []
        if shown.danger is not None:
            lines.append(shown.danger.legend + (f" · {hovered}" if hovered else ""))
        lines.append(shown.legend)
        self.legend_height = draw_plate(surface, view, lines, scale, above)
        self.legend = " ".join(lines)
