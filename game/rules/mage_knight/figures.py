"""Mage Knight figures → combat values: enemy tokens, the Hero's Armor and hand limit, Units.

Reads the figure properties documented in ``docs/mage-knight.md``; pure.
"""

from __future__ import annotations

from dataclasses import replace

from game.core.board import Board, Figure
from game.core.errors import UsageError
from game.rules.figure_stats import short_repr, stat_bool, stat_int, stat_list
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
        raise UsageError(f"{fig.label}: property 'attack' must be a number or N+M, not {short_repr(raw)}")
    values = [int(p) for p in parts]
    return values[0], tuple(values[1:])


def abilities_of(fig: Figure) -> frozenset[str]:
    """The figure's ``abilities``, lower case without spaces (``arcaneimmunity``)."""
    return frozenset(norm_name(a).replace(" ", "") for a in stat_list(fig, "abilities"))


def enemy_from(board: Board, fig: Figure) -> mk.Enemy:
    """An :class:`~game.rules.mage_knight.combat.Enemy` from a figure's properties, with its
    city's bonus (:func:`city_of`) and the Armor Vampiric gave it this combat."""
    abilities = abilities_of(fig)
    resist = frozenset(parse_element(r) for r in stat_list(fig, "resistances"))
    attack, more = attack_values(fig)
    element = parse_element(str(fig.stats.get("element", "physical")) or "physical")
    if "site_fortified" in fig.stats:
        site = stat_bool(fig, "site_fortified")
    else:
        value = board.properties.get("site_fortified", False)
        site = value is True or str(value).strip().lower() in ("true", "yes", "1")
    elusive = stat_int(fig, "elusive_armor") if "elusive_armor" in fig.stats else None
    enemy = mk.Enemy(
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
        stat_int(fig, "vampiric_armor"),
    )
    return with_city(enemy, city_of(board, fig))


def city_of(board: Board, fig: Figure) -> str:
    """The colour of the city the enemy defends: its ``city``, else the map's (``""``: none;
    ``none`` on the figure opts out of the map's)."""
    text = str(fig.stats.get("city", board.properties.get("city", "")) or "").strip().lower()
    return "" if text in ("", "none") else text


def parse_city(text: str) -> str:
    """A city colour (white, blue, red, green), or ``""`` for none; UsageError otherwise.

    >>> parse_city(" Blue "), parse_city("none")
    ('blue', '')
    """
    key = text.strip().lower()
    if key in ("", "none"):
        return ""
    if key not in mk.CITY_COLOURS:
        raise UsageError(f"unknown city {short_repr(text)} (white, blue, red, green or none)")
    return key


def with_city(enemy: mk.Enemy, city: str) -> mk.Enemy:
    """The enemy with its city's bonus (MK-RB "City bonuses"): white +1 Armor; blue +2 to a
    Fire or Ice attack, +1 to a Cold Fire one; red gives a physical attacker Brutal, green Poison.

    >>> with_city(mk.Enemy("Guards", 5, 3), "red").has("brutal"), with_city(mk.Enemy("G", 5, 3), "white").armor_in("attack")
    (True, 6)
    >>> with_city(mk.Enemy("Mages", 5, 6, "fire"), "blue").attacks
    (8,)
    """
    if not city:
        return enemy
    if city == "white":
        return replace(enemy, armor_bonus=enemy.armor_bonus + 1)
    if city == "blue":
        plus = {"fire": 2, "ice": 2, "coldfire": 1}.get(enemy.element, 0)
        return replace(enemy, attack=enemy.attack + plus,
                       more_attacks=tuple(a + plus for a in enemy.more_attacks))
    if enemy.element == "physical":
        gained = "brutal" if city == "red" else "poison"
        return replace(enemy, abilities=enemy.abilities | {gained})
    return enemy


def city_words(enemy: mk.Enemy, city: str) -> str:
    """What the city gives this enemy, in words ("" when nothing)."""
    if city == "white":
        return f"{enemy.name} defends a white city: +1 Armor"
    if city == "blue" and enemy.element in ("fire", "ice", "coldfire"):
        plus = 1 if enemy.element == "coldfire" else 2
        return f"{enemy.name} defends a blue city: +{plus} to its {enemy.element} attack"
    if city in ("red", "green") and enemy.element == "physical":
        return f"{enemy.name} defends a {city} city: its physical attack gains {'Brutal' if city == 'red' else 'Poison'}"
    return ""


def parse_token(text: str, owner: str) -> mk.Enemy:
    """A brown token to summon: ``NAME:ATTACK[:ELEMENT[:ABILITY+ABILITY...]]``.

    >>> t = parse_token("Medusa:6::paralyze", "map")
    >>> t.name, t.attack, t.element, sorted(t.abilities)
    ('Medusa', 6, 'physical', ['paralyze'])
    """
    fields = [f.strip() for f in text.split(":")]
    if len(fields) < 2 or not fields[0] or not fields[1].isdigit() or len(fields[1]) > 7 or len(fields) > 4:
        raise UsageError(f"{owner}: summoned token {short_repr(text.strip())} is not NAME:ATTACK[:ELEMENT[:ABILITY+...]] "
                         "(e.g. \"Medusa:6::paralyze\")")
    element = parse_element(fields[2]) if len(fields) > 2 and fields[2] else "physical"
    abilities = frozenset(norm_name(a).replace(" ", "") for a in fields[3].split("+") if a.strip()) \
        if len(fields) > 3 else frozenset()
    unknown = sorted(abilities - TOKEN_ABILITIES)
    if unknown:
        raise UsageError(f"{owner}: summoned token {short_repr(text.strip())}: ability {short_repr(unknown[0])} is not one a "
                         f"summoned token's attack uses ({', '.join(sorted(TOKEN_ABILITIES))})")
    return mk.Enemy(fields[0], 0, int(fields[1]), element, 0, abilities)


#: the abilities a summoned token's attack may have (what the block and assign phases read)
TOKEN_ABILITIES = frozenset({"swift", "brutal", "poison", "paralyze", "assassination", "cumbersome"})


def summon_pile(board: Board) -> list[str]:
    """The map's ``summon_pile``: brown tokens, ``;``-separated, the top of the pile first."""
    text = str(board.properties.get("summon_pile", "") or "")
    return [t.strip() for t in text.split(";") if t.strip()]


def summoned_token(board: Board, fig: Figure) -> str | None:
    """The brown token a summoner's attack comes from: its ``summoned`` (drawn already), else the
    next token of the map's pile (one per summoner that drew before it); None when neither
    names one."""
    drawn = str(fig.stats.get("summoned", "") or "").strip()
    if drawn:
        return drawn
    pile = summon_pile(board)
    taken = sum(1 for f in board.figures.values() if str(f.stats.get("summoned", "") or "").strip())
    return pile[taken] if taken < len(pile) else None


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
