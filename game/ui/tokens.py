"""Figures' tokens and the board's text, drawn once per look and kept (the square painter's and
the hex painter's: a figure looks the same on every grid).

A token is a disc in its side's colour with the figure's name (or its initials when the name
would not be readable), a health bar under it (``left/life`` written on it when big enough to
read), crossed out when the ruleset says the figure is down; :meth:`TokenArt.dim` darkens one
standing where the field of view does not reach.
"""

from __future__ import annotations

from typing import Any

import pygame

from game.core.board import Figure
from game.core.errors import SightlineError
from game.rules.registry import get_ruleset
from game.ui import theme

__all__ = ["TokenArt", "health", "initials", "name_min", "remember"]


#: the finding code over an outlined square or hex, in pixels of pygame's default face (its
#: capitals stand about half as tall: 22 px gives 11-px capitals, as tall as the panel's 14-px text)
MARKER_LABEL_PX = 22


class TokenArt:
    """Token sprites, dimmed tokens, fonts and text labels, each cached."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._sprites: dict[tuple[Any, ...], pygame.Surface] = {}
        self._dimmed: dict[tuple[Any, ...], tuple[pygame.Surface, pygame.Surface]] = {}
        self._text: dict[tuple[Any, ...], pygame.Surface] = {}
        self._fonts: dict[int, pygame.font.Font] = {}
        self._plates: dict[tuple[int, int], pygame.Surface] = {}

    def token(
        self, figure: Figure, sides: list[str], radius: int, cell: float, alone: bool, ruleset: str
    ) -> pygame.Surface:
        """The sprite of ``figure``'s token of ``radius`` pixels (``cell``: the board's cell size;
        ``alone``: the only figure on its cell, so its whole name may be written)."""
        life, wounds, down = health(figure, ruleset)
        colour = theme.KILLED if down else theme.side_colour(figure.side, sides)
        # the whole name only when it fits at a readable size (the hover card has it anyway)
        show_name = alone and cell >= theme.NAME_ZOOM and (
            self.font(name_min(radius)).size(figure.label)[0] <= 2 * radius - 8)
        text = figure.label if show_name else initials(figure)
        key = ("token", text, colour, radius, life, wounds, down)
        sprite = self._sprites.get(key)
        if sprite is not None:
            return sprite
        pad = 3
        size = 2 * radius + 2 * pad
        sprite = pygame.Surface((size, size), pygame.SRCALPHA)
        centre = (size // 2, size // 2)
        pygame.draw.circle(sprite, theme.TOKEN_SHADOW, (centre[0] + 1, centre[1] + 2), radius)
        pygame.draw.aacircle(sprite, colour, centre, radius)
        outline = max(1, radius // 12)
        pygame.draw.aacircle(sprite, theme.TOKEN_OUTLINE, centre, radius, outline)
        font_px = max(8 if show_name else 11, round(radius * (0.8 if show_name else 1.15)))  # codes: big
        smallest = name_min(radius) if show_name else 11
        while font_px > smallest and self.font(font_px).size(text)[0] > 2 * radius - (8 if show_name else 6):
            font_px -= 1  # a long name or code: smaller letters (never below readable) before any are cut
        label = self.label(text, font_px, theme.readable_text(colour), max_width=2 * radius - 4)
        label_y = centre[1] - (radius * 0.12 if life else 0)
        sprite.blit(label, label.get_rect(center=(centre[0], round(label_y))))
        if life and radius >= 8:
            self._draw_pips(sprite, centre, radius, life, wounds)
        if down:
            arm = round(radius * 0.62)
            for sign in (-1, 1):
                pygame.draw.line(
                    sprite, theme.KILLED_MARK,
                    (centre[0] - arm, centre[1] - sign * arm), (centre[0] + arm, centre[1] + sign * arm),
                    max(2, radius // 6),
                )
        remember(self._sprites, key, sprite)
        return sprite

    def _draw_pips(
        self, sprite: pygame.Surface, centre: tuple[int, int], radius: int, life: int, wounds: int
    ) -> None:
        """Health as a bar under the label (white: life left, red: lost), with ``left/life``
        written on it when the token is big enough to read it (never a row of tiny dots)."""
        left = max(0, life - wounds)
        width = round(radius * 1.3)
        height = max(4, round(radius * 0.36))
        bar = pygame.Rect(0, 0, width, height)
        bar.center = (centre[0], centre[1] + round(radius * 0.55))
        pygame.draw.rect(sprite, theme.PIP_WOUND, bar, border_radius=2)
        if left:
            filled = pygame.Rect(bar.x, bar.y, max(2, round(width * left / life)), height)
            pygame.draw.rect(sprite, theme.PIP_LIFE, filled, border_radius=2)
        pygame.draw.rect(sprite, theme.TOKEN_OUTLINE, bar, 1, border_radius=2)
        if height >= 11:  # below, the shrunk digits run into the slash ("4/4" read as "44")
            text = self.label(f"{left}/{life}", height + 4, theme.TOKEN_OUTLINE, max_width=width)
            sprite.blit(text, text.get_rect(center=bar.center))

    def dim(self, sprite: pygame.Surface) -> pygame.Surface:
        """A token standing where the field of view does not reach: darker, half see-through."""
        key = ("dim", id(sprite))
        dimmed = self._dimmed.get(key)
        if dimmed is None or dimmed[0] is not sprite:
            out = sprite.copy()
            out.fill(theme.FOV_TOKEN_DIM, special_flags=pygame.BLEND_RGBA_MULT)
            dimmed = (sprite, out)
            remember(self._dimmed, key, dimmed)
        return dimmed[1]

    def font(self, size: int) -> pygame.font.Font:
        """The board font at a pixel size (cached)."""
        font = self._fonts.get(size)
        if font is None:
            font = self._fonts[size] = pygame.font.Font(theme.FONT_NAME, size)
        return font

    def plate_label(self, surface: pygame.Surface, text: str, colour: tuple[int, ...], above: pygame.Rect,
                    max_width: int) -> None:
        """``text`` in ``colour`` on a dark see-through plate just above ``above`` (a map check
        finding's label on its square or hex; the plate and the text cached)."""
        label = self.label(text, MARKER_LABEL_PX, colour, max_width=max_width)
        plate = label.get_rect(topleft=(above.left, above.top - label.get_height() - 2)).inflate(6, 2)
        patch = self._plates.get(plate.size)
        if patch is None:
            patch = pygame.Surface(plate.size, pygame.SRCALPHA)
            patch.fill((16, 18, 24, 210))
            remember(self._plates, plate.size, patch)
        surface.blit(patch, plate)
        surface.blit(label, (plate.x + 3, plate.y + 1))

    def label(
        self, text: str, size: int, colour: tuple[int, ...], *, max_width: int | None = None
    ) -> pygame.Surface:
        key = (text, size, colour, max_width)
        label = self._text.get(key)
        if label is None:
            font = self.font(size)
            shown = text
            if max_width is not None:
                while len(shown) > 1 and font.size(shown)[0] > max_width:
                    shown = shown[:-1]
            label = font.render(shown, True, colour)
            remember(self._text, key, label)
        return label


def remember(cache: dict[Any, Any], key: Any, value: Any, limit: int = 1000) -> None:
    """Store in a cache that is simply emptied when it grows past ``limit`` (zooming makes sizes)."""
    if len(cache) >= limit:
        cache.clear()
    cache[key] = value


def name_min(radius: int) -> int:
    """The smallest type a token writes a whole name in: readable, about half the token's radius
    (below it the token shows the name's initials; the hover card shows the whole name)."""
    return max(13, round(radius * 0.5))


def initials(figure: Figure) -> str:
    """One or two letters for a token: the initials of the name's words, or ``#id``; a number
    ending the name stays (``orc_warrior_1`` → ``OW1``), so numbered twins differ.

    >>> initials(Figure(1, "Dusty blade", "red", (0, 0))), initials(Figure(2, "goblin", "m", (0, 0)))
    ('DB', 'Go')
    >>> initials(Figure(7, "", "m", (0, 0))), initials(Figure(8, "orc_warrior_12", "m", (0, 0)))
    ('#7', 'OW12')
    >>> initials(Figure(9, "Goblin 2", "m", (0, 0)))
    'G2'
    """
    words = [w for w in figure.name.replace("_", " ").replace("-", " ").split() if w]
    if not words:
        return f"#{figure.id}"
    number = words.pop() if len(words) > 1 and words[-1].isdigit() else ""
    if len(words) == 1:
        word = words[0]
        return (word[:1].upper() + ("" if number else word[1:2].lower())) + number
    return (words[0][0] + words[1][0]).upper() + number


def health(figure: Figure, ruleset: str) -> tuple[int, int, bool]:
    """``(life, wounds, down)`` as the board's ruleset judges the figure (the UI decides no rule)."""
    try:
        condition = get_ruleset(ruleset).condition(figure)
    except SightlineError:  # an unknown ruleset: the map check reports it; draw plain tokens
        return 0, 0, False
    return condition.life, condition.wounds, condition.down
