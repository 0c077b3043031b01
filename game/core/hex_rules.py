"""Line-of-sight rules on hex boards: the parameters of one exact engine and the presets that set
them (docs/hex.md, "Parameters" and "Presets").

Pure: no pygame, no files. A :class:`HexProfile` is a frozen set of parameter values;
:func:`parse_hex_rule` reads a rule the way :func:`game.core.profiles.parse_rule` reads square
rules: a preset name, optionally followed by ``,parameter=value`` overrides. The deciding engine
is :mod:`game.core.hex_los`.

>>> parse_hex_rule("gloomhaven,touch=both-sides").spec()
'gloomhaven,touch=both-sides'
>>> parse_hex_rule("hexside").from_, parse_hex_rule("hexside").interp("along_wall")
('centre', 'a wall on the hexside the line runs along does not block by itself')
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from game.core.errors import UsageError
from game.core.profiles import PRESETS, Profile, check_value

__all__ = [
    "DEFAULT_HEX_RULE",
    "HEX_INTERP",
    "HEX_MEANING",
    "HEX_PARAMETERS",
    "HEX_PRESETS",
    "SQUARE_PRESET_NAMES",
    "HexProfile",
    "parse_hex_rule",
]

#: parameter -> its values, in the order the window cycles them
HEX_PARAMETERS: dict[str, tuple[str, ...]] = {
    "from": ("centre", "corners"),
    "to": ("centre", "corners"),
    "sight": ("exists",),
    "figures": ("none", "any", "enemies-at-capacity"),
    "obstacles": ("blocks", "clear"),
    "along_wall": ("blocks", "clear"),
    "touch": ("blocks", "clear", "both-sides"),
    "boundary": ("closed", "open"),
    "endpoint_touch": ("blocks", "clear"),
}

#: what each parameter means, one line (the window's panel and the help use it)
HEX_MEANING: dict[str, str] = {
    "from": "points of the viewer's hex a line may start at",
    "to": "points of the target's hex a line may end at",
    "sight": "in sight when some permitted line is clear",
    "figures": "which figures make their hex block",
    "obstacles": "whether blocked-terrain hexes block (void always does)",
    "along_wall": "a line running along a wall edge",
    "touch": "a line meeting a wall or a blocking hex only at a corner or along an edge",
    "boundary": "edges of void and off-map hexes are walls (closed) or not (open)",
    "endpoint_touch": "a line starting or ending at a corner that lies on a wall",
}

DEFAULT_HEX_RULE = "hexside"
#: the rule families the hex presets and overrides fall in (the facade's engine table keys)
HEX_FAMILIES = ("centre", "corners", "lines")

#: the square presets (game/core/profiles.py), named when one is asked for on a hex map
SQUARE_PRESET_NAMES = tuple(PRESETS)


@dataclass(frozen=True)
class HexProfile(Profile):
    """One hex line-of-sight rule: a value for every hex parameter, and the preset it started from.

    A :class:`~game.core.profiles.Profile` to the sight facade (``name``, ``family``, ``cover``,
    and the inherited ``get()``, ``spec()``, ``as_json()`` over the hex parameters), so a hex rule travels every path a square rule does; the square
    parameters a hex rule has not (``corner_touch``, ``along_square``) are ``""`` and ``cover``
    is ``"none"`` (cover grades are for squares only)."""

    obstacles: str
    touch: str
    endpoint_touch: str

    def with_value(self, parameter: str, value: str) -> HexProfile:
        """A copy with one parameter set (UsageError for an unknown parameter or value)."""
        check_value(parameter, value, HEX_PARAMETERS, "hex rule")
        return replace(self, **{"from_" if parameter == "from" else parameter: value})

    def values(self) -> dict[str, str]:
        """Every parameter and its value, in the order of :data:`HEX_PARAMETERS`."""
        return {p: self.get(p) for p in HEX_PARAMETERS}

    def overrides(self) -> dict[str, str]:
        """The parameters whose value differs from the preset ``name``."""
        base = HEX_PRESETS[self.name]
        return {p: v for p, v in self.values().items() if base.get(p) != v}

    def interp(self, parameter: str) -> str | None:
        """Why the value of ``parameter`` is our interpretation, or None when the source says it."""
        if self.get(parameter) != HEX_PRESETS[self.name].get(parameter):
            return None
        return HEX_INTERP.get((self.name, parameter))

    @property
    def family(self) -> str:
        """Which hex engine answers (``ENGINES[("hex", family)]`` of :mod:`game.core.sight`):
        ``"centre"`` centre to centre, ``"corners"`` corners to corners, ``"lines"`` the others."""
        if self.from_ == self.to:
            return "centre" if self.from_ == "centre" else "corners"
        return "lines"


def _preset(name: str, **values: str) -> HexProfile:
    return HexProfile(name=name, sight="exists", corner_touch="", along_square="", cover="none", **values)


HEX_PRESETS: dict[str, HexProfile] = {
    "gloomhaven": _preset(
        "gloomhaven", from_="corners", to="corners", figures="none", obstacles="clear", touch="blocks",
        along_wall="blocks", boundary="closed", endpoint_touch="clear",
    ),
    "hexside": _preset(
        "hexside", from_="centre", to="centre", figures="enemies-at-capacity", obstacles="blocks",
        touch="both-sides", along_wall="clear", boundary="closed", endpoint_touch="clear",
    ),
    "hex-strict": _preset(
        "hex-strict", from_="centre", to="centre", figures="any", obstacles="blocks", touch="blocks",
        along_wall="blocks", boundary="closed", endpoint_touch="clear",
    ),
}

#: (preset, parameter) -> why the value is an interpretation ([INTERP] in the window and docs)
HEX_INTERP: dict[tuple[str, str], str] = {
    ("gloomhaven", "endpoint_touch"): (
        "a corner on a wall may still start a line, judged as coming from inside the hex (only the "
        "sector rule applies there); otherwise a figure in a one-hex corridor could never see"
    ),
    ("hexside", "along_wall"): "a wall on the hexside the line runs along does not block by itself",
    ("hexside", "obstacles"): "blocking hexes are blocked terrain, void, and figures as `figures` says",
}


def parse_hex_rule(text: str) -> HexProfile:
    """Read a hex rule: a preset name, optionally followed by ``,parameter=value`` overrides.

    >>> parse_hex_rule(" Hex-Strict , figures=none ").figures
    'none'
    >>> parse_hex_rule("arcadia")
    Traceback (most recent call last):
    ...
    game.core.errors.UsageError: arcadia is a rule for square boards; a hex map takes gloomhaven, hexside, hex-strict
    >>> parse_hex_rule("chess")
    Traceback (most recent call last):
    ...
    game.core.errors.UsageError: unknown hex line-of-sight rule 'chess' (presets: gloomhaven, hexside, hex-strict)
    """
    parts = [p.strip() for p in str(text).split(",")]
    name = parts[0].casefold()
    if name not in HEX_PRESETS:
        known = ", ".join(HEX_PRESETS)
        if name in SQUARE_PRESET_NAMES:
            raise UsageError(f"{name} is a rule for square boards; a hex map takes {known}")
        raise UsageError(f"unknown hex line-of-sight rule {parts[0]!r} (presets: {known})")
    profile = HEX_PRESETS[name]
    for part in parts[1:]:
        if not part:
            continue
        if "=" not in part:
            raise UsageError(f"rule override {part!r} must be parameter=value, e.g. touch=blocks")
        key, _, value = (s.strip() for s in part.partition("="))
        profile = profile.with_value(key.casefold(), value.casefold())
    return profile


assert {f.name for f in fields(HexProfile)} == {
    "name", "corner_touch", "along_square", "cover", *("from_" if p == "from" else p for p in HEX_PARAMETERS)
}
