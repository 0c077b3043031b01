"""Writes the tiny TMX maps of tests/data/rules/ (one per ruleset, figures for every vector).

Run ``python tests/data/rules/make_maps.py`` after changing it; the maps are checked in.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
Stats = dict[str, object]


def _prop(key: str, value: object, indent: str) -> str:
    if isinstance(value, bool):
        return f'{indent}<property name="{key}" type="bool" value="{str(value).lower()}"/>'
    if isinstance(value, int):
        return f'{indent}<property name="{key}" type="int" value="{value}"/>'
    return f'{indent}<property name="{key}" value="{value}"/>'


def tmx(
    ruleset: str,
    figures: list[tuple[str, str, tuple[int, int], Stats]],
    *,
    size: tuple[int, int],
    walls: tuple[tuple[int, int, int, int], ...] = (),
    properties: Stats | None = None,
) -> str:
    """A map with no tile layers (every cell on-board), wall polylines and point figures."""
    width, height = size
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" '
        f'width="{width}" height="{height}" tilewidth="32" tileheight="32" infinite="0" '
        f'nextlayerid="3" nextobjectid="200">',
        " <properties>",
        _prop("ruleset", ruleset, "  "),
        *(_prop(k, v, "  ") for k, v in (properties or {}).items()),
        " </properties>",
        ' <objectgroup id="1" name="walls">',
    ]
    for oid, (x1, y1, x2, y2) in enumerate(walls, start=100):
        out += [
            f'  <object id="{oid}" type="wall" x="{x1 * 32}" y="{y1 * 32}">',
            f'   <polyline points="0,0 {(x2 - x1) * 32},{(y2 - y1) * 32}"/>',
            "  </object>",
        ]
    out += [" </objectgroup>", ' <objectgroup id="2" name="figures">']
    for oid, (name, side, (x, y), stats) in enumerate(figures, start=1):
        out += [
            f'  <object id="{oid}" name="{name}" type="figure" x="{x * 32 + 16}" y="{y * 32 + 16}">',
            "   <properties>",
            _prop("side", side, "    "),
            *(_prop(k, v, "    ") for k, v in stats.items()),
            "   </properties>",
            "   <point/>",
            "  </object>",
        ]
    out += [" </objectgroup>", "</map>"]
    return "\n".join(out) + "\n"


def mage_knight() -> str:
    """Heroes, Units, and the sample tokens of docs/mage-knight.md (MK-DATA stats)."""
    heroes: list[tuple[str, Stats]] = [
        ("Tovak", {"armor": 2, "hand_limit": 5, "fame": 0}),
        ("Arythea", {"armor": 3, "hand_limit": 5}),
        ("Norowas", {"level": 1, "wounds": 1}),
        ("Peasants", {"unit": True, "armor": 3}),
        ("Guardian", {"unit": True, "armor": 4, "resistances": "fire"}),
    ]
    tokens: list[tuple[str, Stats]] = [
        ("Prowlers", {"attack": 4, "armor": 3, "fame": 2}),
        ("Diggers", {"attack": 3, "armor": 3, "fame": 2, "abilities": "fortified"}),
        (
            "Guardsmen",
            {"attack": 3, "armor": 7, "fame": 3, "abilities": "fortified", "site_fortified": True},
        ),
        ("Wolf Riders", {"attack": 3, "armor": 4, "fame": 3, "abilities": "swift"}),
        (
            "Ironclads",
            {"attack": 4, "armor": 3, "fame": 4, "abilities": "brutal", "resistances": "physical"},
        ),
        ("Cursed Hags", {"attack": 3, "armor": 5, "fame": 3, "abilities": "poison"}),
        (
            "Fire Mages",
            {"attack": 6, "element": "fire", "armor": 5, "fame": 5, "resistances": "fire"},
        ),
        ("Ice Mages", {"attack": 5, "element": "ice", "armor": 6, "fame": 5, "resistances": "ice"}),
        ("Skeletal Warriors", {"attack": 3, "armor": 4, "fame": 1, "resistances": "fire"}),
        (
            "Fire Golems",
            {
                "attack": 3,
                "element": "fire",
                "armor": 4,
                "fame": 5,
                "abilities": "brutal",
                "resistances": "fire,physical",
            },
        ),
        (
            "Freezers",
            {
                "attack": 3,
                "element": "ice",
                "armor": 7,
                "fame": 7,
                "abilities": "swift,paralyze",
                "resistances": "fire",
            },
        ),
        (
            "Delphana Masters",
            {
                "attack": 5,
                "element": "coldfire",
                "armor": 8,
                "fame": 9,
                "abilities": "assassination,paralyze",
                "resistances": "fire,ice",
            },
        ),
        (
            "High Dragon",
            {
                "attack": 6,
                "element": "coldfire",
                "armor": 9,
                "fame": 9,
                "abilities": "brutal",
                "resistances": "fire,ice",
            },
        ),
        ("Medusa", {"attack": 6, "armor": 4, "fame": 5, "abilities": "paralyze"}),
        (
            "Shocktroops",
            {
                "attack": 5,
                "armor": 3,
                "elusive_armor": 6,
                "fame": 3,
                "abilities": "unfortified,elusive",
            },
        ),
        (
            "Blocked Shocktroops",
            {
                "attack": 5,
                "armor": 3,
                "elusive_armor": 6,
                "fame": 3,
                "abilities": "unfortified,elusive",
                "blocked": True,
            },
        ),
        ("Ember Imp", {"attack": 3, "element": "fire", "armor": 2, "fame": 1}),  # test-only token
    ]
    figures = [(n, "hero", (i, 0), s) for i, (n, s) in enumerate(heroes)]
    figures += [(n, "enemies", (i % 8, 2 + i // 8), s) for i, (n, s) in enumerate(tokens)]
    return tmx("mage_knight", figures, size=(8, 6), properties={"site_fortified": False})


def conquest() -> str:
    """One Close pair per vector FB-1 … FB-9 (rows 0-7), and a Volley lane with a wall."""
    base = {"wound_limit": 3, "resolve": 3}
    pairs: list[tuple[str, Stats, Stats]] = [
        ("A", {"attacks": 4, "clash": 2}, {"defence": 3, "evasion": 2}),  # FB-1
        (
            "B",
            {"attacks": 3, "clash": 2, "rules": "Relentless Blows"},
            {"defence": 3, "evasion": 2, "rules": "Parry"},
        ),  # FB-2
        ("C", {"attacks": 3, "clash": 3}, {"defence": 1, "evasion": 0}),  # FB-3
        ("D", {"attacks": 2, "clash": 2}, {"defence": 2, "evasion": 0}),  # FB-4, FB-5
        ("E", {"attacks": 5, "clash": 3}, {"defence": 4, "evasion": 0}),  # FB-6
        ("F", {"attacks": 3, "clash": 3}, {"defence": 0, "wounds": 1, "wound_limit": 2}),  # FB-7
        (
            "G",
            {"attacks": 3, "clash": 3},
            {"defence": 0, "wounds": 1, "wound_limit": 2, "resolve": 2},
        ),  # FB-8
        ("H", {"attacks": 1, "clash": 1}, {"defence": 0, "wounds": 1, "wound_limit": 2}),  # FB-9
    ]
    figures: list[tuple[str, str, tuple[int, int], Stats]] = []
    for row, (tag, knight, drone) in enumerate(pairs):
        figures.append((f"Knight {tag}", "Hundred Kingdoms", (0, row), {**base, **knight}))
        figures.append((f"Drone {tag}", "Spires", (1, row), {**base, **drone}))
    figures += [
        (
            "Archer",
            "Hundred Kingdoms",
            (4, 6),
            {"attacks": 1, "clash": 1, "barrage": 3, "volley": 2, "range": 4, **base},
        ),
        (
            "Marksman",
            "Spires",
            (8, 6),
            {"defence": 1, "evasion": 2, "wound_limit": 2, "resolve": 2},
        ),
        ("Lurker", "Spires", (8, 4), {"defence": 2, "wound_limit": 2, "resolve": 2}),
    ]
    return tmx("conquest", figures, size=(10, 8), walls=((7, 4, 7, 6),))


def folklore() -> str:
    """Two attackers and one target per vector situation; a wall hides one target."""
    party: list[tuple[str, tuple[int, int], Stats]] = [
        (
            "Aya",
            (0, 0),
            {
                "valour": 4,
                "wits": 2,
                "senses": 3,
                "hp": 20,
                "max_hp": 20,
                "armour": 1,
                "weapons": "Bolt:valour:0:ranged; Fist:valour:0:melee; "
                "Curse:wits:4:ranged:maxhp:+Cursed",
            },
        ),
        (
            "Tomoe",
            (0, 1),
            {
                "valour": 4,
                "wits": 1,
                "senses": 2,
                "hp": 20,
                "armour": 0,
                "hit_dice": 3,
                "weapons": "Bolt:valour:0:ranged",
            },
        ),
    ]
    foes: list[tuple[str, tuple[int, int], Stats]] = [
        ("Oni", (2, 3), {"valour": 5, "senses": 3, "hp": 20, "max_hp": 20, "armour": 3}),
        ("Imp", (3, 3), {"valour": 3, "senses": 0, "hp": 1, "armour": 0}),
        ("Ghost", (4, 3), {"valour": 9, "senses": 0, "hp": 1, "armour": 0}),
        ("Turtle", (5, 3), {"valour": 2, "senses": 0, "hp": 9, "armour": 6}),
        (
            "Kappa",
            (2, 4),
            {"valour": 3, "senses": 0, "hp": 4, "max_hp": 16, "armour": 0, "statuses": "Soaked"},
        ),
        (
            "Fallen",
            (3, 4),
            {"valour": 3, "senses": 5, "hp": -1, "max_hp": 12, "armour": 9, "incapacitated": True},
        ),
        ("Giant", (4, 4), {"valour": 4, "senses": 0, "hp": 25, "max_hp": 30, "armour": 0}),
        ("Young Giant", (5, 4), {"valour": 4, "senses": 0, "hp": 12, "max_hp": 30, "armour": 0}),
        ("Wisp", (2, 5), {"valour": 1, "senses": 0, "hp": 8, "max_hp": 8, "armour": 0}),
        ("Hidden", (7, 0), {"valour": 1, "senses": 0, "hp": 8, "armour": 0}),
    ]
    figures = [(n, "party", sq, s) for n, sq, s in party]
    figures += [
        (n, "foes", sq, {"wits": 1, "weapons": "Claw:valour:1:melee", **s}) for n, sq, s in foes
    ]
    return tmx("folklore", figures, size=(8, 6), walls=((6, 0, 6, 2),))


if __name__ == "__main__":
    for name, text in (
        ("mage_knight", mage_knight()),
        ("conquest", conquest()),
        ("folklore", folklore()),
    ):
        (HERE / f"{name}.tmx").write_text(text, encoding="utf-8")
        print(f"wrote {HERE / name}.tmx")
