"""The exact-odds bar chart of the attack panel: P(0), P(1), ... of the outcome, kill, expected.

The numbers come straight from :meth:`game.rules.base.Ruleset.odds` (exact fractions); this
module only lays them out. :func:`chart_bars` is the data the chart draws (tests compare it with
the engine's odds), :func:`draw_odds_chart` the picture.

>>> from fractions import Fraction
>>> from game.rules.base import Odds
>>> odds = Odds({0: Fraction(1, 4), 1: Fraction(3, 4)}, Fraction(3, 4), Fraction(3, 4), "wounds")
>>> [(b.label, b.probability) for b in chart_bars(odds)]
[('0', Fraction(1, 4)), ('1', Fraction(3, 4))]
>>> odds_caption(odds)
'kill 75.0% · expected 0.75 wounds'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from importlib import resources

import pygame

from game.rules.base import Odds

#: at most this many bars; the tail beyond is gathered into the last bar ("n+")
MAX_BARS = 12

CHART_BG = (37, 40, 47)
BAR = (96, 150, 230)
BAR_KILL = (220, 70, 60)
AXIS = (120, 124, 134)
TEXT = (225, 226, 232)
MUTED = (150, 152, 160)


@dataclass(frozen=True)
class Bar:
    """One bar: its label under it, the outcomes it gathers, their exact probability."""

    label: str
    outcomes: tuple[int, ...]
    probability: Fraction
    kills: bool = False


def chart_bars(odds: Odds, max_bars: int = MAX_BARS) -> list[Bar]:
    """The bars of the chart: one per outcome from the smallest to the largest (gaps filled
    with zero bars), the tail beyond ``max_bars`` gathered into a last ``n+`` bar.

    A bar is marked ``kills`` when its outcome is the kill bucket (the largest outcome when
    ``odds.kill`` equals its probability, as the rulesets put it).

    >>> from game.rules.base import Odds
    >>> o = Odds({k: Fraction(1, 20) for k in range(20)}, Fraction(19, 2), None, "HP lost")
    >>> bars = chart_bars(o, 5)
    >>> [b.label for b in bars], bars[-1].probability
    (['0', '1', '2', '3', '4+'], Fraction(4, 5))
    """
    if not odds.distribution:
        return []
    low, high = min(odds.distribution), max(odds.distribution)
    values = list(range(low, high + 1))
    kill_value = _kill_value(odds)
    bars = []
    for value in values[: max_bars - 1] if len(values) > max_bars else values:
        p = odds.distribution.get(value, Fraction(0))
        bars.append(Bar(str(value), (value,), p, value == kill_value))
    if len(values) > max_bars:
        rest = tuple(values[max_bars - 1:])
        p = sum((odds.distribution.get(v, Fraction(0)) for v in rest), Fraction(0))
        bars.append(Bar(f"{rest[0]}+", rest, p, kill_value in rest))
    return bars


def _kill_value(odds: Odds) -> int | None:
    """The outcome that kills: the largest one, when the kill chance is exactly its probability."""
    if odds.kill is None or not odds.distribution or odds.kill == 0:
        return None
    top = max(odds.distribution)
    return top if odds.distribution[top] == odds.kill else None


def percent(p: Fraction) -> str:
    """A probability as a short percentage (exact 0 and 1 say so).

    >>> percent(Fraction(0)), percent(Fraction(1)), percent(Fraction(1, 3)), percent(Fraction(1, 100000))
    ('0%', '100%', '33.3%', '<0.1%')
    """
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    value = float(p) * 100
    if value < 0.1:
        return "<0.1%"
    if value > 99.9:
        return ">99.9%"
    return f"{value:.1f}%"


def odds_caption(odds: Odds) -> str:
    """``kill 12.3% · expected 1.42 wounds``: the chances the rules name (``Odds.shown_chances``:
    hit, incapacitated, killed (death); Broken! ..., Slain; knocked out), then the mean."""
    parts = [f"{label} {percent(p)}" for label, p in odds.shown_chances()]
    parts.append(f"expected {float(odds.expected):.2f} {odds.label}")
    return " · ".join(parts)


#: the least height that shows bars; below it the chart is its caption only
BARS_MIN_HEIGHT = 56
COMPARISON_MIN_HEIGHT = 76
#: Noto Sans point size per pixel size of pygame's default font (the same visual height)
NOTO_SCALE = 0.75


def chart_font_path() -> str | None:
    """pygame_gui's bundled Noto Sans (the panel's typeface), or None when it is not there."""
    try:
        path = resources.files("pygame_gui.data") / "NotoSans-Regular.ttf"
    except (ModuleNotFoundError, TypeError):
        return None
    return str(path) if path.is_file() else None


class PanelFonts:
    """The panel's typeface (pygame_gui's Noto Sans) by pixel size, cached by its owner; where Noto
    Sans is missing, pygame's default font 4 px larger (about as tall). Call it with the size."""

    def __init__(self) -> None:
        self._fonts: dict[int, pygame.font.Font] = {}

    def __call__(self, size: int) -> pygame.font.Font:
        """The font at ``size`` pixels (made once)."""
        font = self._fonts.get(size)
        if font is None:
            path = chart_font_path()
            font = pygame.font.Font(path, size) if path is not None else pygame.font.Font(None, size + 4)
            self._fonts[size] = font
        return font


class OddsChart:
    """Draws :class:`Odds` as a bar chart on a surface of a given size (fonts cached)."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._fonts: dict[int, pygame.font.Font] = {}

    def font(self, size: int) -> pygame.font.Font:
        """The panel's font (pygame_gui's Noto Sans) as tall as pygame's default font at ``size``
        (cached); pygame's default font where Noto Sans is missing.

        pygame's default font spaces small bold text unevenly ("at tack"); the chart reads as
        part of the panel in the panel's own typeface.
        """
        font = self._fonts.get(size)
        if font is None:
            path = chart_font_path()
            if path is None:
                font = pygame.font.Font(None, size)
            else:
                font = pygame.font.Font(path, max(6, round(size * NOTO_SCALE)))
            self._fonts[size] = font
        return font

    def draw(self, odds: Odds | None, size: tuple[int, int], message: str = "") -> pygame.Surface:
        """The chart as a new surface; with no odds, ``message`` centred instead.

        Below :data:`BARS_MIN_HEIGHT` (a short window) only the caption is drawn.
        """
        width, height = max(40, size[0]), max(16, size[1])
        surface = pygame.Surface((width, height))
        surface.fill(CHART_BG)
        if odds is None:
            self._centred(surface, message or "no odds", MUTED)
            return surface
        if height < BARS_MIN_HEIGHT:
            self._centred(surface, odds_caption(odds), TEXT)
            return surface
        bars = chart_bars(odds)
        surface.blit(self._caption(odds, width - 12), (6, 4))
        top, bottom = 24, height - 18
        plot_h = max(10, bottom - top - 14)
        n = max(1, len(bars))
        slot = (width - 12) / n
        peak = max((b.probability for b in bars), default=Fraction(1)) or Fraction(1)
        pygame.draw.line(surface, AXIS, (6, bottom), (width - 6, bottom))
        small = self.font(14)
        for i, bar in enumerate(bars):
            x = 6 + i * slot
            bar_h = round(plot_h * float(bar.probability / peak))
            colour = BAR_KILL if bar.kills else BAR
            rect = pygame.Rect(round(x + slot * 0.15), bottom - bar_h, max(2, round(slot * 0.7)), bar_h)
            if bar_h:
                pygame.draw.rect(surface, colour, rect)
            label = small.render(bar.label, True, MUTED)
            surface.blit(label, label.get_rect(midtop=(round(x + slot / 2), bottom + 2)))
            if bar.probability and slot >= 22:
                text = small.render(percent(bar.probability).replace("%", ""), True, TEXT)
                surface.blit(text, text.get_rect(midbottom=(rect.centerx, rect.top - 1)))
        return surface

    def _caption(self, odds: Odds, room: int) -> pygame.Surface:
        """The caption in the largest size that fits ``room`` pixels; the expected value goes
        first when even the smallest size is too wide (the chances are what players ask for)."""
        text = odds_caption(odds)
        for size in (17, 15, 13):
            if self.font(size).size(text)[0] <= room:
                return self.font(size).render(text, True, TEXT)
        short = " · ".join(f"{label} {percent(p)}" for label, p in odds.shown_chances()) or text
        return self.font(13).render(short, True, TEXT)

    def draw_comparison(
        self, value: int, needed: int, caption: str, size: tuple[int, int]
    ) -> pygame.Surface:
        """Deterministic rules: the total against what it must reach, as two bars and a caption
        (Mage Knight's effective attack after halving against the summed armour)."""
        width, height = max(40, size[0]), max(16, size[1])
        surface = pygame.Surface((width, height))
        surface.fill(CHART_BG)
        enough = value >= needed
        colour = (80, 200, 110) if enough else BAR_KILL
        if height < COMPARISON_MIN_HEIGHT:  # a short window: the caption says it all
            self._centred(surface, caption, TEXT if enough else (255, 170, 160))
            return surface
        scale = (width - 70) / max(1, value, needed)
        font = self.font(18)
        for row, (label, number, fill) in enumerate(((caption.split()[0], value, colour), ("need", needed, AXIS))):
            y = 8 + row * 26
            surface.blit(font.render(f"{label} {number}", True, TEXT), (6, y + 3))
            pygame.draw.rect(surface, fill, pygame.Rect(66, y, max(2, round(number * scale)), 18))
        self._wrapped(surface, caption, TEXT if enough else (255, 170, 160), 62)
        return surface

    def _wrapped(self, surface: pygame.Surface, text: str, colour: tuple[int, int, int], top: int) -> None:
        font = self.font(16)
        line, y = "", top
        for word in text.split():
            trial = f"{line} {word}".strip()
            if font.size(trial)[0] > surface.get_width() - 12 and line:
                surface.blit(font.render(line, True, colour), (6, y))
                y += 15
                line = word
            else:
                line = trial
        if line:
            surface.blit(font.render(line, True, colour), (6, y))

    def _centred(self, surface: pygame.Surface, text: str, colour: tuple[int, int, int]) -> None:
        font = self.font(16)
        words, lines, line = text.split(), [], ""
        for word in words:
            trial = f"{line} {word}".strip()
            if font.size(trial)[0] > surface.get_width() - 12 and line:
                lines.append(line)
                line = word
            else:
                line = trial
        if line:
            lines.append(line)
        y = (surface.get_height() - 16 * len(lines)) // 2
        for text_line in lines:
            label = font.render(text_line, True, colour)
            surface.blit(label, label.get_rect(midtop=(surface.get_width() // 2, y)))
            y += 16
