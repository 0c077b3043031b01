"""Line-of-sight rule profiles: the parameters of one exact engine and the presets that set them.

Pure: no pygame, no files. A :class:`Profile` is a frozen set of parameter values (see
docs/line-of-sight.md, "Rule profiles"); :func:`parse_rule` reads the text of the map property
``los_rule`` and of the command line's rule option (``corners``, ``corners,figures=none``). Rules
are decided through the facade :mod:`game.core.sight`, which picks the engine by
:attr:`Profile.family`.

>>> parse_rule("corners,figures=none").spec()
'corners,figures=none'
>>> parse_rule("dnd5e").cover
'dnd5e'
>>> parse_rule("arcadia").family, parse_rule("dnd5e").family, parse_rule("any-point").family
('centre', 'corners', 'any')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace

from game.core.errors import UsageError

__all__ = [
    "DEFAULT_RULE",
    "INTERP",
    "PARAMETERS",
    "PRESETS",
    "Profile",
    "parse_rule",
    "split_rules",
]

#: parameter -> its values, in the order the window cycles them
PARAMETERS: dict[str, tuple[str, ...]] = {
    "from": ("centre", "corners", "any"),
    "to": ("centre", "corners", "any"),
    "sight": ("exists",),
    "figures": ("enemies-at-capacity", "any", "none"),
    "corner_touch": ("both-sides", "clear", "blocks"),
    "along_wall": ("blocks", "clear"),
    "along_square": ("blocks", "clear"),
    "boundary": ("closed", "open"),
    "cover": ("none", "dnd5e", "pf1e", "pf2e"),
}

#: what each parameter means, one line (the window's panel and the help use it)
MEANING: dict[str, str] = {
    "from": "points of the viewer's square a line may start at",
    "to": "points of the target's square a line may end at",
    "sight": "in sight when some permitted line is clear",
    "figures": "which figures make their square block",
    "corner_touch": "a line touching blocking squares or wall ends only at a grid point",
    "along_wall": "a line running along a wall edge",
    "along_square": "a line running along an edge of a blocking square",
    "boundary": "the board's outer edge and void squares' edges are walls (closed) or not (open)",
    "cover": "also grade the target's cover",
}

DEFAULT_RULE = "arcadia"


@dataclass(frozen=True)
class Profile:
    """One line-of-sight rule: a value for every parameter, and the preset it started from.

    ``name`` is the preset; :meth:`spec` writes the preset plus the parameters that differ from it.
    """

    name: str
    from_: str
    to: str
    sight: str
    figures: str
    corner_touch: str
    along_wall: str
    along_square: str
    boundary: str
    cover: str

    def get(self, parameter: str) -> str:
        """The value of a parameter by its rule name (``from``, ``corner_touch``, ...)."""
        return str(getattr(self, "from_" if parameter == "from" else parameter))

    def with_value(self, parameter: str, value: str) -> Profile:
        """A copy with one parameter set (UsageError for an unknown parameter or value)."""
        check_value(parameter, value)
        return replace(self, **{"from_" if parameter == "from" else parameter: value})

    def values(self) -> dict[str, str]:
        """Every parameter and its value, in the order of :data:`PARAMETERS`."""
        return {p: self.get(p) for p in PARAMETERS}

    def overrides(self) -> dict[str, str]:
        """The parameters whose value differs from the preset ``name``."""
        base = PRESETS[self.name]
        return {p: v for p, v in self.values().items() if base.get(p) != v}

    def spec(self) -> str:
        """The rule as the command line takes it: ``corners`` or ``corners,figures=none``."""
        return ",".join([self.name, *(f"{p}={v}" for p, v in self.overrides().items())])

    @property
    def family(self) -> str:
        """Which engine decides this rule (:data:`game.core.sight.ENGINES`):

        * ``"centre"`` — centre to centre, Arcadia's corner rule (both sides) and figure rule: the
          one centre line decides, every crossing listed (the ``arcadia`` preset; ``along_*``
          and ``boundary`` never matter to a line between two centres, ``cover`` is graded apart);
        * ``"corners"`` — corners to corners (a shadow-cast field);
        * ``"any"`` — any point to any point with every obstacle closed (a weak-visibility field);
        * ``"lines"`` — every other rule: its candidate lines one by one.
        """
        if (self.from_, self.to, self.corner_touch, self.figures) == ("centre", "centre", "both-sides", "enemies-at-capacity"):
            return "centre"
        if self.from_ == "corners" and self.to == "corners":
            return "corners"
        if (self.from_, self.to, self.corner_touch, self.along_wall, self.along_square) == ("any", "any", "blocks", "blocks", "blocks"):
            return "any"
        return "lines"

    def interp(self, parameter: str) -> str | None:
        """Why the value of ``parameter`` is our interpretation, or None when the source says it."""
        if self.get(parameter) != PRESETS[self.name].get(parameter):
            return None
        return INTERP.get((self.name, parameter))

    def as_json(self) -> dict[str, object]:
        """``{"name", "spec", "parameters"}``."""
        return {"name": self.name, "spec": self.spec(), "parameters": self.values()}


def _profile(name: str, **values: str) -> Profile:
    data = {"from_": values.pop("from_"), **values}
    return Profile(name=name, **data)


PRESETS: dict[str, Profile] = {
    "arcadia": _profile(
        "arcadia", from_="centre", to="centre", sight="exists", figures="enemies-at-capacity",
        corner_touch="both-sides", along_wall="blocks", along_square="blocks", boundary="closed",
        cover="none",
    ),
    "corners": _profile(
        "corners", from_="corners", to="corners", sight="exists", figures="any", corner_touch="clear",
        along_wall="blocks", along_square="blocks", boundary="closed", cover="none",
    ),
    "dnd5e": _profile(
        "dnd5e", from_="corners", to="corners", sight="exists", figures="none", corner_touch="clear",
        along_wall="clear", along_square="clear", boundary="closed", cover="dnd5e",
    ),
    "pf2e": _profile(
        "pf2e", from_="corners", to="corners", sight="exists", figures="none", corner_touch="clear",
        along_wall="clear", along_square="clear", boundary="closed", cover="pf2e",
    ),
    "any-point": _profile(
        "any-point", from_="any", to="any", sight="exists", figures="none", corner_touch="blocks",
        along_wall="blocks", along_square="blocks", boundary="closed", cover="none",
    ),
}

#: (preset, parameter) -> why the value is an interpretation ([INTERP] in the window and docs)
INTERP: dict[tuple[str, str], str] = {
    ("dnd5e", "along_wall"): "the DMG is silent on lines running along a wall",
    ("dnd5e", "along_square"): "the DMG is silent on lines running along an occupied space's edge",
    ("pf2e", "from"): "line of effect: any corner to any corner",
    ("pf2e", "to"): "line of effect: any corner to any corner",
    ("pf2e", "corner_touch"): "the rules are silent on touching a corner",
    ("pf2e", "along_wall"): "the rules are silent on lines along a wall",
    ("pf2e", "along_square"): "the rules are silent on lines along a space's edge",
    ("corners", "from"): "peeking round the free end of a wall from a shared corner (P8)",
}


def check_value(
    parameter: str, value: str, table: Mapping[str, tuple[str, ...]] | None = None, what: str = "rule"
) -> None:
    """Refuse a parameter the rule book lacks or a value it does not allow, in one line naming
    what is allowed (``table``: a grid's parameters, the square ones by default).

    >>> check_value("from", "corners")
    >>> check_value("from", "edges")
    Traceback (most recent call last):
    ...
    game.core.errors.UsageError: rule parameter from cannot be 'edges' (values: centre, corners, any)
    """
    table = PARAMETERS if table is None else table
    if parameter not in table:
        known = ", ".join(table)
        raise UsageError(f"unknown {what} parameter {parameter!r} (parameters: {known})")
    if value not in table[parameter]:
        allowed = ", ".join(table[parameter])
        raise UsageError(f"{what} parameter {parameter} cannot be {value!r} (values: {allowed})")


def parse_rule(text: str) -> Profile:
    """Read a rule: a preset name, optionally followed by ``,parameter=value`` overrides.

    >>> parse_rule(" Corners , along_wall=clear ").along_wall
    'clear'
    >>> parse_rule("chess")
    Traceback (most recent call last):
    ...
    game.core.errors.UsageError: unknown line-of-sight rule 'chess' (presets: arcadia, corners, dnd5e, pf2e, any-point)
    """
    parts = [p.strip() for p in str(text).split(",")]
    name = parts[0].casefold()
    if name not in PRESETS:
        known = ", ".join(PRESETS)
        raise UsageError(f"unknown line-of-sight rule {parts[0]!r} (presets: {known})")
    profile = PRESETS[name]
    for part in parts[1:]:
        if not part:
            continue
        if "=" not in part:
            raise UsageError(f"rule override {part!r} must be parameter=value, e.g. figures=none")
        key, _, value = (s.strip() for s in part.partition("="))
        profile = profile.with_value(key.casefold(), value.casefold())
    return profile


assert {f.name for f in fields(Profile)} == {"name", *("from_" if p == "from" else p for p in PARAMETERS)}


def split_rules(text: str, parse: Callable[[str], Profile] | None = None) -> list[Profile]:
    """Read a list of rules, ``arcadia,corners`` or ``corners,figures=none,dnd5e``: a word without
    ``=`` starts a new rule, ``parameter=value`` overrides the rule before it (``;`` also separates);
    each rule read by ``parse`` (the square rules' :func:`parse_rule` by default, a grid's own
    parser otherwise, e.g. :func:`game.core.hex_rules.parse_hex_rule`).

    >>> [p.spec() for p in split_rules("arcadia,corners,figures=none")]
    ['arcadia', 'corners,figures=none']
    """
    groups: list[list[str]] = []
    for chunk in str(text).split(";"):
        for part in chunk.split(","):
            part = part.strip()
            if not part:
                continue
            if "=" in part and groups:
                groups[-1].append(part)
            else:
                groups.append([part])
    read = parse_rule if parse is None else parse
    return [read(",".join(group)) for group in groups]
