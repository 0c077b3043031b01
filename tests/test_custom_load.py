"""Reading ruleset files: every mistake is one line naming the file, the line and the fix.

Unknown keys, wrong types, a symbol no die has, a stat no figure can have, broken TOML, unsafe
expressions; and random damage to a valid file never raises anything but that one line.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.errors import UsageError
from game.play.ruleset_file import read_ruleset_file
from game.rules.custom import RulesetFileError, load_ruleset
from game.rules.custom.expr import ExprError, parse
from game.rules.custom.lines import KeyLines

VALID = '''name = "skirmish"
title = "Skirmish"

[stats]
life = { default = 3, min = 1, max = 20 }
armour = 0
wounds = 0

[dice]
attack = ["sword", "sword", "sword+crit", "blank"]
block = { shield = 2, blank = 4 }

[attacks.Sword]
kind = "melee"
dice = 3

[[resolution.steps]]
step = "count"
die = "attack"
dice = "attack.dice"
symbols = ["sword"]
explode = ["crit"]
into = "hits"

[[resolution.steps]]
step = "count"
die = "block"
dice = "target.armour"
symbols = ["shield"]
into = "saves"

[[resolution.steps]]
step = "cancel"
value = "hits"
by = "saves"
into = "damage"

[resolution.outcome]
value = "damage"
label = "wounds"
down = "target.wounds + damage >= target.life"
'''


def line_of(text: str, fragment: str) -> int:
    """The 1-based line of the first line containing ``fragment``."""
    for number, line in enumerate(text.splitlines(), 1):
        if fragment in line:
            return number
    raise AssertionError(fragment)


def error_of(text: str) -> RulesetFileError:
    with pytest.raises(RulesetFileError) as info:
        load_ruleset(text, "skirmish.toml")
    message = str(info.value)
    assert "\n" not in message and "Traceback" not in message
    assert re.match(r"^skirmish\.toml:\d+: ", message), message
    return info.value


def test_the_valid_file_loads() -> None:
    rules = load_ruleset(VALID, "skirmish.toml")
    assert rules.name == "skirmish" and rules.pools == ("attack", "block")
    assert rules.face_names == {"sword", "sword+crit", "blank", "shield"}
    assert isinstance(RulesetFileError("x", source="a", line=1), UsageError)


@pytest.mark.parametrize(
    ("old", "new", "at", "says"),
    [
        ('explode = ["crit"]', 'explod = ["crit"]', "explod =", "unknown key 'explod' in step 1 (count) (did you mean 'explode'?)"),
        ('symbols = ["sword"]', 'symbols = ["swrod"]', "swrod", "no face of the attack die shows 'swrod' (did you mean 'sword'?)"),
        ('dice = "target.armour"', 'dice = "target.armor"', "target.armor", "dice in step 2 (count): no stat 'armor' (did you mean 'armour'?)"),
        ('dice = "target.armour"', 'dice = "target.strength"', "target.strength", "no stat 'strength' (declare it under [stats]"),
        ("dice = 3", "dice = [3]", "dice = [3]", "is not an expression"),
        ('kind = "melee"', 'kind = "mele"', 'kind = "mele"', "kind = 'mele' in attack 'Sword' is not one of 'melee', 'ranged' (did you mean 'melee'?)"),
        ('step = "cancel"', 'step = "substract"', 'step = "substract"', "unknown kind 'substract'"),
        ('die = "block"', 'die = "shield"', 'die = "shield"', "rolls the die 'shield', which [dice] does not define"),
        ('by = "saves"', 'by = "save"', 'by = "save"', "no value 'save' written by an earlier step (did you mean 'saves'?)"),
        ('armour = 0', 'armour = "zero"', 'armour = "zero"', "stat 'armour' needs a default"),
        ('title = "Skirmish"', 'titel = "Skirmish"', "titel", "unknown key 'titel' in the file (did you mean 'title'?)"),
        ('attack = ["sword"', 'attack = [1, "sword"', "attack = [1", "mixes numbers and symbols"),
        ('explode = ["crit"]', 'explode = ["sword", "crit", "blank"]', "explode = [\"sword\"", "it never stops rolling"),
        ('name = "skirmish"', 'name = "My Game"', "name =", "name 'My Game' must be lower-case"),
        ('value = "damage"', 'value = "__import__(\'os\')"', "__import__", "is not allowed"),
        ('value = "damage"', 'value = "damage.real"', "damage.real", "is not a name this file knows"),
        ('min = 1, max = 20', 'min = 30, max = 20', "min = 30", "max 20 is below min 30"),
    ],
)
def test_each_mistake_names_its_line_and_fix(old: str, new: str, at: str, says: str) -> None:
    text = VALID.replace(old, new, 1)
    assert text != VALID
    error = error_of(text)
    assert says in str(error), str(error)
    assert error.line == line_of(text, at), str(error)


def test_broken_toml_names_the_line_of_the_syntax_error() -> None:
    text = VALID.replace('into = "saves"', 'into = "saves', 1)
    error = error_of(text)
    assert error.line == line_of(text, 'into = "saves')
    assert "not valid TOML" in error.problem and "fix the syntax" in error.fix


def test_structural_mistakes() -> None:
    no_outcome = VALID[: VALID.index("[resolution.outcome]")]
    assert "has no outcome" in str(error_of(no_outcome))
    two_dice = VALID.replace('die = "block"\ndice = "target.armour"', 'die = "attack"\npool = "block"\ndice = "target.armour"')
    assert "rolls the attack die in one step and the block die" in str(error_of(VALID.replace(
        'die = "block"', 'die = "block"\npool = "attack"')))
    assert two_dice != VALID
    assert "pools does not list the 'block' pool" in str(error_of('pools = ["attack"]\n' + VALID))
    block_alone = VALID.replace('step = "cancel"\nvalue = "hits"\nby = "saves"\ninto = "damage"',
                                'step = "block"\ndie = "attack"\ndice = 1\nhits = "hits"\ninto = "damage"')
    assert "numbers" in str(error_of(block_alone))
    ranged_melee = VALID.replace("dice = 3", "dice = 3\nrange = 4")
    assert "range is for ranged attacks" in str(error_of(ranged_melee))
    wrong_resolution = VALID.replace("dice = 3", 'dice = 3\nresolution = "shooting"')
    assert "resolution 'shooting', which the file does not define" in str(error_of(wrong_resolution))


def test_key_lines_follow_tables_arrays_and_inline_tables() -> None:
    where = KeyLines(VALID)
    assert where.line_of(("resolution", "steps", 2, "by")) == line_of(VALID, 'by = "saves"')
    assert where.line_of(("stats", "life", "max")) == line_of(VALID, "life = {")
    assert where.line_of(("attacks", "Sword", "dice")) == line_of(VALID, "dice = 3")
    assert where.line_of(("resolution", "outcome", "nothing")) == line_of(VALID, "[resolution.outcome]")


@pytest.mark.parametrize("text", ["open('x')", "hits.__class__", "[1, 2]", "hits ** 2", "x if y", "{}"])
def test_expressions_run_no_code(text: str) -> None:
    with pytest.raises(ExprError):
        parse(text)


def test_expressions_evaluate_with_stats_and_values() -> None:
    e = parse("max(0, hits - target.armour) if attack.kind == 'melee' else 0")
    assert e.evaluate({"target.armour": 1, "attack.kind": "melee"}, {"hits": 3}) == 2
    assert e.evaluate({"target.armour": 1, "attack.kind": "ranged"}, {"hits": 3}) == 0
    assert parse("true and not false").constant is None or parse("true").constant is True


def test_reading_a_file_from_disk(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "skirmish.toml"
    path.write_text(VALID.replace('explode = ["crit"]', 'explod = ["crit"]'), encoding="utf-8")
    with pytest.raises(UsageError, match=r"skirmish\.toml:\d+: unknown key 'explod'"):
        read_ruleset_file(path)
    with pytest.raises(UsageError, match="no such ruleset file"):
        read_ruleset_file(tmp_path / "missing.toml")
    (tmp_path / "bad.toml").write_bytes(b"\xff\xfe\x00name")
    with pytest.raises(UsageError, match="not a text file"):
        read_ruleset_file(tmp_path / "bad.toml")
    with pytest.raises(UsageError, match="is a folder"):
        read_ruleset_file(tmp_path)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_damaged_files_fail_in_one_line_or_load(data: st.DataObject) -> None:
    lines = VALID.splitlines()
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(lines) - 1))
        action = data.draw(st.sampled_from(["drop", "dup", "garble", "retype"]))
        if action == "drop":
            lines.pop(i)
        elif action == "dup":
            lines.insert(i, lines[i])
        elif action == "garble":
            cut = data.draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:cut] + data.draw(st.text(max_size=6)) + lines[i][cut:]
        elif "=" in lines[i]:
            key = lines[i].split("=", 1)[0]
            value = data.draw(st.sampled_from(['"x"', "1", "true", "[1, 2]", "{ a = 1 }", '"hits +"', "-5"]))
            lines[i] = f"{key}= {value}"
        if not lines:
            lines = [""]
    try:
        load_ruleset("\n".join(lines), "skirmish.toml")
    except RulesetFileError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("skirmish.toml:")
