"""Hex rules: the parameters and presets of hex-los.md §2–§3, read like the square profiles."""

from __future__ import annotations

import pytest

from game.core import sight
from game.core.errors import UsageError
from game.core.hex_rules import (
    DEFAULT_HEX_RULE,
    HEX_INTERP,
    HEX_MEANING,
    HEX_PARAMETERS,
    HEX_PRESETS,
    parse_hex_rule,
)
from game.core.hex_sight import hex_board
from game.core.profiles import split_rules

#: hex-los.md §3, column by column
TABLE = {
    "gloomhaven": dict(from_="corners", to="corners", figures="none", obstacles="clear", touch="blocks",
                       along_wall="blocks", boundary="closed", endpoint_touch="clear"),
    "hexside": dict(from_="centre", to="centre", figures="enemies-at-capacity", obstacles="blocks",
                    touch="both-sides", along_wall="clear", boundary="closed", endpoint_touch="clear"),
    "hex-strict": dict(from_="centre", to="centre", figures="any", obstacles="blocks", touch="blocks",
                       along_wall="blocks", boundary="closed", endpoint_touch="clear"),
}


@pytest.mark.parametrize("name", TABLE)
def test_the_presets_are_the_spec_s_table(name: str) -> None:
    preset = HEX_PRESETS[name]
    assert {k: getattr(preset, k) for k in TABLE[name]} == TABLE[name]
    assert preset.sight == "exists" and preset.spec() == name
    assert parse_hex_rule(name) == preset


def test_the_parameters_and_their_meanings() -> None:
    assert set(HEX_PARAMETERS) == {"from", "to", "sight", "figures", "obstacles", "along_wall", "touch",
                                   "boundary", "endpoint_touch"}
    assert set(HEX_MEANING) == set(HEX_PARAMETERS)
    assert HEX_PARAMETERS["touch"] == ("blocks", "clear", "both-sides")


def test_interpretations_are_marked_where_the_spec_marks_them() -> None:
    assert HEX_PRESETS["gloomhaven"].interp("endpoint_touch")
    assert HEX_PRESETS["hexside"].interp("along_wall")
    assert HEX_PRESETS["hexside"].with_value("along_wall", "blocks").interp("along_wall") is None
    assert all(preset in HEX_PRESETS and p in HEX_PARAMETERS for preset, p in HEX_INTERP)


def test_every_override_round_trips_through_its_spec() -> None:
    for preset in HEX_PRESETS.values():
        for parameter, values in HEX_PARAMETERS.items():
            for value in values:
                rule = preset.with_value(parameter, value)
                assert parse_hex_rule(rule.spec()) == rule
                assert rule.get(parameter) == value
                assert rule.as_json()["parameters"][parameter] == value  # type: ignore[index]


@pytest.mark.parametrize(("text", "words"), [
    ("arcadia", "arcadia is a rule for square boards; a hex map takes gloomhaven, hexside, hex-strict"),
    ("corners", "corners is a rule for square boards"),
    ("chess", "unknown hex line-of-sight rule 'chess' (presets: gloomhaven, hexside, hex-strict)"),
    ("hexside,touch", "rule override 'touch' must be parameter=value"),
    ("hexside,corner_touch=clear", "unknown hex rule parameter 'corner_touch'"),
    ("hexside,touch=maybe", "hex rule parameter touch cannot be 'maybe' (values: blocks, clear, both-sides)"),
])
def test_a_bad_rule_is_one_line_that_says_what_fits(text: str, words: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse_hex_rule(text)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_spaces_case_and_empty_parts_are_forgiven() -> None:
    assert parse_hex_rule(" HexSide , Touch = Blocks ,").spec() == "hexside,touch=blocks"


def test_the_map_property_and_lists() -> None:
    """A hex map's ``los_rule`` is read by the facade (``sight.rule_of``); lists by the one
    ``split_rules`` with the hex parser."""
    assert sight.rule_of(hex_board(2, 2)).name == DEFAULT_HEX_RULE == "hexside"
    assert sight.rule_of(hex_board(2, 2, properties={"los_rule": "gloomhaven"})).name == "gloomhaven"
    with pytest.raises(UsageError, match="map property los_rule: .*arcadia.* is for square boards"):
        sight.rule_of(hex_board(2, 2, properties={"los_rule": "arcadia"}))
    assert [r.spec() for r in split_rules("gloomhaven;hexside,figures=none,hex-strict", parse_hex_rule)] == [
        "gloomhaven", "hexside,figures=none", "hex-strict"]
