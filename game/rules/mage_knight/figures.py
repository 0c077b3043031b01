"""Mage Knight figures → combat values: enemy tokens, the Hero's Armor and hand limit, Units.

Reads the figure properties documented in ``docs/mage-knight.md``; pure.
"""

from __future__ import annotations

from game.core.board import Board, Figure
from game.core.errors import UsageError
from game.rules.base import stat_bool, stat_int, stat_list
from game.rules.mage_knight import combat as mk
from game.rules.mage_knight.plays import norm_name, parse_element

#: hero level → (Armor, hand limit), MK-DATA levels (docs/mage-knight.md)
LEVELS: dict[int, tuple[int, int]] = {
    1: (2, 5),
    2: (2, 5),
    3: (3, 5),
    4: (3, 5),
    5: (3, 6),
    6: (3, 6),
    7: (4, 6),
    8: (4, 6),
    9: (4, 7),
    10: (4, 7),
}


def attack_values(fig: Figure) -> tuple[int, tuple[int, ...]]:
    """The ``attack`` property: ``4`` or ``5+3`` (several attacks) → (first, the others)."""
    raw = str(fig.stats.get("attack", 0)).strip() or "0"
    parts = [p.strip() for p in raw.split("+")]
    if not all(p.isdigit() and len(p) <= 7 for p in parts):
        raise UsageError(f"{fig.label}: property 'attack' must be a number or N+M, not {raw!r}")
    values = [int(p) for p in parts]
    return values[0], tuple(values[1:])


def enemy_from(board: Board, fig: Figure) -> mk.Enemy:
    """An :class:`~game.rules.mage_knight.combat.Enemy` from a figure's properties."""
    abilities = frozenset(norm_name(a).replace(" ", "") for a in stat_list(fig, "abilities"))
    resist = frozenset(parse_element(r) for r in stat_list(fig, "resistances"))
    attack, more = attack_values(fig)
    element = parse_element(str(fig.stats.get("element", "physical")) or "physical")
    if "site_fortified" in fig.stats:
        site = stat_bool(fig, "site_fortified")
    else:
        value = board.properties.get("site_fortified", False)
        site = value is True or str(value).strip().lower() in ("true", "yes", "1")
    elusive = stat_int(fig, "elusive_armor") if "elusive_armor" in fig.stats else None
    return mk.Enemy(
        fig.label,
        stat_int(fig, "armor"),
        attack,
        element,
        stat_int(fig, "fame"),
        abilities,
        resist,
        elusive,
        site,
        more,
        fig.id,
        stat_bool(fig, "blocked"),
    )


def is_enemy_token(fig: Figure) -> bool:
    """An enemy token has an ``attack`` and neither ``hand_limit`` nor ``level`` (a Hero's).

    >>> is_enemy_token(Figure(1, "Prowlers", "enemies", (0, 0), {"attack": 4, "armor": 3}))
    True
    """
    return "attack" in fig.stats and "hand_limit" not in fig.stats and "level" not in fig.stats


def hero_numbers(fig: Figure) -> tuple[int, int]:
    """The Hero's Armor and hand limit: properties, else the level table (``level``, default 1)."""
    level = min(max(stat_int(fig, "level", 1), 1), 10)
    armor, hand = LEVELS[level]
    return stat_int(fig, "armor", armor), stat_int(fig, "hand_limit", hand)


def units_of(board: Board, hero: Figure) -> list[tuple[Figure, mk.Unit]]:
    """The Hero's Units still in play: figures of its side with ``unit`` = true, not destroyed."""
    out = []
    for fig in board.figures.values():
        if fig.id != hero.id and fig.side == hero.side and stat_bool(fig, "unit"):
            if stat_bool(fig, "destroyed"):
                continue
            resist = frozenset(parse_element(r) for r in stat_list(fig, "resistances"))
            out.append(
                (
                    fig,
                    mk.Unit(
                        fig.label,
                        stat_int(fig, "armor"),
                        resist,
                        stat_bool(fig, "wounded"),
                        stat_bool(fig, "absorbed"),
                        fig.id,
                    ),
                )
            )
    return out
