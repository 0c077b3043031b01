"""Pictures of the balance report: zones, heat maps, first strikes, safe squares (PNG, headless).

Drawn over the board as the coverage report draws it (:class:`game.ui.report_images.BoardPictures`:
the window's painter, the same heat colour ramp and legend); this module adds the pictures
that are not heat maps: zones coloured by side, first-strike paths, safe squares. Every PNG is
written atomically.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pygame

from game.core.board import Board, Square
from game.ui import theme
from game.ui.render import save_png
from game.ui.report_images import LEGEND_BG, TEXT, BoardPictures

if TYPE_CHECKING:
    from game.designer.balance import RuleNumbers
    from game.designer.zones import Zone
    from game.tiled import MapArt

Colour = tuple[int, int, int]

#: a zone square some square of the other zone sees / none does
SEEN: Colour = (235, 120, 20)
UNSEEN: Colour = (60, 170, 90)


class BalancePictures:
    """The balance report's pictures of one board at one cell size (the board drawn once)."""

    def __init__(self, board: Board, art: MapArt | None, cell: int, zones: Sequence[Zone]) -> None:
        self.board, self.cell, self.zones = board, cell, list(zones)
        self.pictures = BoardPictures(board, art, cell)
        #: what a cell is called in the legends
        self.cells = "squares"
        sides = sorted({*board.sides(), *(z.side for z in self.zones)})
        #: each side's colour: its tokens' colour in the window (:func:`game.ui.theme.side_colour`)
        self.colours = {z.side: theme.side_colour(z.side, sides) for z in self.zones}

    def heat_png(self, values: np.ndarray, mask: np.ndarray, out: Path, caption: str) -> Path:
        """A heat map over the masked squares (the coverage report's)."""
        return self.pictures.heatmap_png(values, mask, out, caption=caption)

    def base(self) -> pygame.Surface:
        """A fresh copy of the drawn board."""
        return self.pictures.base()

    def centre(self, sq: Square) -> tuple[int, int]:
        """The pixel at the centre of a cell."""
        c = self.cell
        return sq[0] * c + c // 2, sq[1] * c + c // 2

    def _tint(self, img: pygame.Surface, masks: Sequence[tuple[np.ndarray, Colour, int]]) -> None:
        """Tint every square of each mask in its colour and alpha, all at once per mask."""
        h, w = self.board.height, self.board.width
        for mask, colour, alpha in masks:
            rgba = np.zeros((h, w, 4), dtype=np.uint8)
            rgba[mask] = (*colour, alpha)
            small = pygame.image.frombuffer(rgba.tobytes(), (w, h), "RGBA")
            img.blit(pygame.transform.scale(small, (w * self.cell, h * self.cell)), (0, 0))

    def _outline(self, img: pygame.Surface, squares: set[Square] | frozenset[Square], colour: Colour, width: int) -> None:
        """Outline the border of a set of squares (edges to squares outside it)."""
        c = self.cell
        for x, y in squares:
            for (dx, dy), line in (((0, -1), ((0, 0), (1, 0))), ((0, 1), ((0, 1), (1, 1))),
                                   ((-1, 0), ((0, 0), (0, 1))), ((1, 0), ((1, 0), (1, 1)))):
                if (x + dx, y + dy) not in squares:
                    (ax, ay), (bx, by) = line
                    pygame.draw.line(img, colour, ((x + ax) * c, (y + ay) * c), ((x + bx) * c, (y + by) * c), width)

    def _finish(self, img: pygame.Surface, items: Sequence[tuple[Colour, str]], out: Path, note: str = "") -> Path:
        """Add a legend of colour swatches (and a note) under the picture and save it."""
        w, h = img.get_size()
        width = max(w, 420)
        font = pygame.font.Font(None, max(20, width // 36))
        line = font.get_height() + 6
        swatch = font.get_height() - 4
        placed: list[tuple[int, int, Colour, pygame.Surface]] = []
        x, y = 10, 8
        for colour, text in items:
            label = font.render(text, True, TEXT)
            if x > 10 and x + swatch + 6 + label.get_width() > width - 10:
                x, y = 10, y + line
            placed.append((x, y, colour, label))
            x += swatch + 6 + label.get_width() + 18
        height = y + line + (line if note else 0) + 4
        sheet = pygame.Surface((width, h + height))
        sheet.fill(LEGEND_BG)
        sheet.blit(img, (0, 0))
        for x, y, colour, label in placed:
            pygame.draw.rect(sheet, colour, (x, h + y + 2, swatch, swatch))
            sheet.blit(label, (x + swatch + 6, h + y))
        if note:
            sheet.blit(font.render(note, True, TEXT), (10, h + y + line))
        return save_png(sheet, out)

    def zones_png(self, out: Path) -> Path:
        """The board with each side's zone tinted and outlined in the side's colour."""
        img = self.base()
        self._tint(img, [(z.mask(self.board), self.colours[z.side], 110) for z in self.zones])
        for zone in self.zones:
            self._outline(img, zone.squares, self.colours[zone.side], 3)
        return self._finish(img, [(self.colours[z.side], f"{z.side} deploys here ({len(z.squares)} {self.cells})")
                                  for z in self.zones], out)

    def exposure_png(self, watched: np.ndarray, zones: np.ndarray, out: Path, note: str) -> Path:
        """The zone squares some square of the other zone sees (orange, with how many) and those
        none sees (green)."""
        img = self.base()
        seen = zones & (watched > 0)
        self._tint(img, [(seen, SEEN, 170), (zones & ~seen, UNSEEN, 120)])
        for zone in self.zones:
            self._outline(img, zone.squares, self.colours[zone.side], 3)
        if self.cell >= 20:
            font = pygame.font.Font(None, max(12, int(self.cell * 0.5)))
            for y, x in zip(*np.nonzero(seen), strict=True):
                label = font.render(str(int(watched[y, x])), True, (255, 255, 255))
                img.blit(label, label.get_rect(center=self.centre((int(x), int(y)))))
        items = [(SEEN, f"seen from the other zone (number: by how many of its {self.cells})"),
                 (UNSEEN, "unseen")]
        return self._finish(img, items, out, note)

    def safe_png(self, numbers: RuleNumbers, side: str, out: Path, turns: int) -> Path:
        """The side's safe squares: no square of the other zone sees them (light), and still
        unseen and unreached after the other side moves ``turns`` turns (dark)."""
        found = next(s for s in numbers.sides if s.side == side and s.other == self._opponent(side))
        colour = self.colours[side]
        img = self.base()
        lasting = found.safe_turns if found.safe_turns is not None else np.zeros_like(found.safe)
        self._tint(img, [(found.safe & ~lasting, colour, 60), (lasting, colour, 200)])
        for zone in self.zones:
            self._outline(img, zone.squares, self.colours[zone.side], 2)
        plural = "s" if turns != 1 else ""
        light: Colour = (colour[0] + (255 - colour[0]) // 2, colour[1] + (255 - colour[1]) // 2,
                         colour[2] + (255 - colour[2]) // 2)
        items = [(light, f"{side}: {int(found.safe.sum())} {self.cells} {found.other}'s zone cannot see"),
                 (colour, f"{int(lasting.sum())} still hidden after {found.other} moves {turns} turn{plural}")]
        return self._finish(img, items, out, f"rule {numbers.rule.spec()}")

    def _opponent(self, side: str) -> str:
        """The side shown against ``side``: the second zone's for the first, else the first's."""
        return self.zones[1].side if side == self.zones[0].side else self.zones[0].side

    def strikes_png(self, numbers: RuleNumbers, out: Path) -> Path:
        """Each side's first strike: its path from the zone (a line), the square it attacks from
        (a ring) and the square it attacks (a cross), in the side's colour."""
        img = self.base()
        self._tint(img, [(z.mask(self.board), self.colours[z.side], 60) for z in self.zones])
        c, centre = self.cell, self.centre
        items = []
        for s in numbers.sides:
            if s.other != self._opponent(s.side):
                continue
            colour = self.colours[s.side]
            strike = s.first_strike
            items.append((colour, f"{s.side}: {strike.words()}"))
            if strike.square is None or strike.target is None:
                continue
            width = max(2, c // 10)
            if len(strike.path) > 1:
                pygame.draw.lines(img, colour, False, [centre(sq) for sq in strike.path], max(2, c // 8))
            pygame.draw.line(img, colour, centre(strike.square), centre(strike.target), width)
            pygame.draw.circle(img, colour, centre(strike.square), max(4, c // 3), width)
            tx, ty = centre(strike.target)
            r = max(4, c // 3)
            pygame.draw.line(img, colour, (tx - r, ty - r), (tx + r, ty + r), width + 1)
            pygame.draw.line(img, colour, (tx - r, ty + r), (tx + r, ty - r), width + 1)
        return self._finish(img, items, out, f"rule {numbers.rule.spec()}")
