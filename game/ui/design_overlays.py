"""The designer's views over the board in the window: the threat view (badges, rings, the danger
map: :mod:`game.ui.threat_overlay`) and the balance report (``Shift+B``:
:mod:`game.ui.balance_overlay`), drawn from the frame's ``threats`` and ``balance``."""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from game.core.board import Board
from game.play.frame import Frame
from game.ui.balance_overlay import BalanceOverlay
from game.ui.threat_overlay import ThreatOverlay
from game.ui.view import View

__all__ = ["DesignOverlays"]


@dataclass
class DesignOverlays:
    """Both views, in the painter's layers: under the figures, over them, and their legends."""

    threats: ThreatOverlay = field(default_factory=ThreatOverlay)
    balance: BalanceOverlay = field(default_factory=BalanceOverlay)

    @staticmethod
    def shades(frame: Frame) -> bool:
        """Whether ``frame`` shades squares under the figures (a danger map or the balance zones)."""
        return (frame.threats is not None and frame.threats.danger is not None) or frame.balance is not None

    def draw_under(self, surface: pygame.Surface, view: View, board: Board, frame: Frame) -> None:
        """The danger map and the balance zones, under the figures."""
        self.threats.draw_under(surface, view, board, frame.threats)
        self.balance.draw_under(surface, view, frame.balance)

    def draw_over(self, surface: pygame.Surface, view: View, board: Board, frame: Frame, scale: float) -> None:
        """Badges, rings and first strikes, over the figures."""
        self.threats.draw_over(surface, view, board, frame.threats, scale)
        self.balance.draw_over(surface, view, frame.balance, scale)

    def draw_legends(self, surface: pygame.Surface, view: View, frame: Frame, hovered: str, scale: float) -> None:
        """The legends at the foot of the board, the balance's over the threats'."""
        self.threats.draw_legend(surface, view, frame.threats, hovered, scale, above=0)
        self.balance.draw_legend(surface, view, frame.balance, scale, above=self.threats.legend_height)
