"""The guarded JSON reader and its typed fields (game/core/safe_json.py, issue #27 items 7, 8, 13).

Properties checked with hypothesis: every JSON value within the limits reads back as written;
any text at all (and any mutation of a valid document) gives a value or one JsonError, never
another exception and never the text of Python's json module; nesting, container count and digit
runs are refused exactly past their limits; every typed reader returns its type or names the
field's place, what it expected and what it found.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.core import safe_json
from game.core.safe_json import MISSING, Field, JsonError, describe, loads

#: what Python's json, int() and float() say; none of it may reach a person
PYTHON_WORDS = re.compile(
    r"Expecting|delimiter|Unterminated string|Extra data|Invalid control character|Invalid \\escape|"
    r"Invalid \\uXXXX|JSONDecodeError|Exceeds the limit|integer string conversion|RecursionError|"
    r"maximum recursion|invalid literal|could not convert|codec can't decode|Traceback|Error\b"
)

scalars = (st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**63)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20))
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=30,
)


def _refusal(text: str | bytes, **limits: int) -> str | None:
    """None when the text reads, else the one-line refusal (any other exception fails the test)."""
    try:
        loads(text, **limits)
    except JsonError as exc:
        message = str(exc)
        assert "\n" not in message and message
        assert not PYTHON_WORDS.search(message), message
        return message
    return None


# --- loads ---------------------------------------------------------------------------------------


@given(json_values)
def test_every_value_within_the_limits_reads_back_as_written(value: Any) -> None:
    assert loads(json.dumps(value)) == value
    assert loads(json.dumps(value, indent=1, ensure_ascii=False).encode("utf-8")) == value


@given(st.text(alphabet='[]{}",:0123456789.eE+-tfnrulasNIiy \n\\', max_size=60) | st.text(max_size=60))
def test_any_text_reads_or_is_one_refusal_in_our_words(text: str) -> None:
    _refusal(text)


@given(json_values, st.data())
def test_a_mutated_document_reads_or_is_one_refusal_in_our_words(value: Any, data: st.DataObject) -> None:
    text = json.dumps(value)
    at = data.draw(st.integers(0, len(text)))
    how = data.draw(st.sampled_from(["delete", "insert", "replace"]))
    piece = data.draw(st.sampled_from(['"', "[", "]", "{", "}", ",", ":", "\\", "9" * 50, "NaN", "1e999",
                                       "\\ud800", "\x00", "-", "."]))
    if how == "delete":
        text = text[:at] + text[at + 1:]
    elif how == "insert":
        text = text[:at] + piece + text[at:]
    else:
        text = text[:at] + piece + text[at + len(piece):]
    _refusal(text)


@given(st.binary(max_size=40))
def test_any_bytes_read_or_are_one_refusal(data: bytes) -> None:
    _refusal(data)


@given(st.integers(1, 30), st.integers(1, 30), st.sampled_from("[{"))
def test_nesting_is_refused_exactly_past_the_limit(depth: int, limit: int, opener: str) -> None:
    inner = "[" * (depth - 1) + "]" * (depth - 1) if opener == "[" else '{"a":' * (depth - 1) + "1" + "}" * (depth - 1)
    text = ("[" + inner + "]") if opener == "[" else ('{"a":' + inner + "}" if depth > 1 else "{}")
    refusal = _refusal(text, max_depth=limit)
    assert (refusal is None) == (depth <= limit), (text, refusal)
    if refusal is not None:
        assert f"nested more than {limit} deep" in refusal and refusal.startswith("line 1, column ")


def test_deep_nesting_past_pythons_own_limit_is_one_refusal() -> None:
    for depth in (1_000, 5_000, 100_000):
        assert _refusal("[" * depth + "]" * depth) == "line 1, column 101: lists and objects are nested more than 100 deep"
    # brackets inside strings neither count nor hide real nesting
    assert loads('["' + "[" * 500 + '"]') == ["[" * 500]
    assert "nested more than 100 deep" in str(_refusal('["]",' * 150 + "1" + "]" * 150))


@given(st.integers(1, 80))
def test_a_number_is_refused_exactly_past_the_digit_limit(digits: int) -> None:
    text = '{"n": ' + "7" * digits + "}"
    refusal = _refusal(text)
    assert (refusal is None) == (digits <= safe_json.MAX_DIGITS)
    if refusal is not None:
        assert refusal == f"line 1, column 7: a number has {digits} digits (at most {safe_json.MAX_DIGITS})"
    assert loads(json.dumps({"t": "7" * digits})) == {"t": "7" * digits}  # text may hold digits


def test_pythons_4300_digit_limit_never_surfaces() -> None:
    for digits in (4_300, 4_301, 100_000):
        assert "a number has" in str(_refusal("[" + "1" * digits + "]"))
        assert "a number has" in str(_refusal("[0." + "1" * digits + "]"))


@pytest.mark.parametrize(("text", "words"), [
    ("[NaN]", "line 1, column 2: NaN is not a number JSON has (write a number)"),
    ('{"x":\n -Infinity}', "line 2, column 2: -Infinity is not a number JSON has (write a number)"),
    ("[1e999]", "line 1, column 2: the number 1e999 is too large (at most about 1.8e308)"),
    ("[-2e308]", "line 1, column 2: the number -2e308 is too large (at most about 1.8e308)"),
    ('["\\ud800"]', "line 1: a text holds half of a UTF-16 surrogate pair (\\ud800 to \\udfff must come in pairs)"),
    ('["\\udc00x"]', "line 1: a text holds half of a UTF-16 surrogate pair (\\ud800 to \\udfff must come in pairs)"),
    ("", "the file is empty"),
    ("  \n ", "the file is empty"),
    ("{not json", "line 1, column 2: a comma stands before a closing bracket, or a name in double quotes is missing"),
    ("[1 2]", "line 1, column 4: a comma is missing between two items"),
    ('{"a" 1}', "line 1, column 6: a colon is missing after a name"),
    ('"abc', "line 1, column 1: a text in double quotes never ends"),
    ("[1] x", "line 1, column 5: there is more text after the end of the document"),
    ('["\\q"]', "line 1, column 3: a backslash in a text starts no known escape (write \\\\ for one)"),
])
def test_refusals_say_where_and_what_in_our_words(text: str, words: str) -> None:
    assert _refusal(text) == words


def test_paired_surrogates_and_escaped_backslashes_are_text() -> None:
    assert loads('["\\ud83d\\ude00"]') == ["\U0001f600"]
    assert loads('["\\\\ud800"]') == ["\\ud800"]


def test_bytes_are_utf8_with_or_without_a_byte_order_mark() -> None:
    assert loads('{"a": "é"}'.encode()) == {"a": "é"}
    assert loads(b"\xef\xbb\xbf[1]") == [1]
    assert _refusal(b'{"a": "\xe9"}') == "the file is not UTF-8 text (byte 8 is not UTF-8); save it again as UTF-8"


def test_size_and_container_limits() -> None:
    assert _refusal("[1, 2, 3]", max_chars=5) == "the text is 9 characters long (at most 5)"
    assert _refusal("[[], [], []]", max_containers=3) == "the document has 4 lists and objects (at most 3)"
    assert loads('["[[[[[[", {}]', max_containers=2) == ["[[[[[[", {}]  # brackets in text do not count


# --- fields --------------------------------------------------------------------------------------

READERS = {
    "text": lambda f: f.text(),
    "whole": lambda f: f.whole(low=0, high=100),
    "number": lambda f: f.number(low=-10, high=10.5),
    "flag": lambda f: f.flag(),
    "items": lambda f: f.items(),
    "entries": lambda f: f.entries(),
    "object": lambda f: f.object(),
    "numbers": lambda f: f.numbers(length=2, whole=True),
    "choice": lambda f: f.choice(("closed", "open", "locked")),
}


@given(json_values, st.sampled_from(sorted(READERS)))
def test_every_reader_returns_its_type_or_names_the_place(value: Any, reader: str) -> None:
    field = Field({"layers": [{"polyline": value}]}).key("layers").items()[0].key("polyline")
    try:
        got = READERS[reader](field)
    except JsonError as exc:
        message = str(exc)
        found = re.fullmatch(r"expected .+ at layers\[0\]\.polyline(?:\[(\d+)\])?, found (.+)", message)
        assert found is not None and not PYTHON_WORDS.search(message), message
        at = value if found.group(1) is None else value[int(found.group(1))]  # an item of the list is named
        assert found.group(2) == describe(at), message
        return
    expected_type = {"text": str, "whole": int, "number": int | float, "flag": bool, "items": list,
                     "entries": list, "object": dict, "numbers": list, "choice": str}[reader]
    assert isinstance(got, expected_type)
    if reader == "whole":
        assert not isinstance(got, bool) and 0 <= got <= 100 and got == value
    if reader == "number":
        assert not isinstance(got, bool) and math.isfinite(got) and -10 <= got <= 10.5
    if reader == "numbers":
        assert len(got) == 2 and all(type(n) is int for n in got)


def test_missing_and_null_fields_give_the_default_or_say_nothing_was_found() -> None:
    doc = Field({"a": None})
    assert doc.key("a").text(default="x") == "x" and doc.key("b").whole(default=3) == 3
    assert doc.key("b").items(default=()) == [] and doc.key("b").key("c").present is False
    with pytest.raises(JsonError, match=r"^expected text at b, found nothing$"):
        doc.key("b").text()
    with pytest.raises(JsonError, match=r"^expected a whole number at a, found null$"):
        doc.key("a").whole()


def test_whole_numbers_are_whole() -> None:
    assert Field(3.0).whole() == 3 and type(Field(3.0).whole()) is int
    with pytest.raises(JsonError, match=r"^expected a whole number at the top level, found 3.7$"):
        Field(3.7).whole()
    with pytest.raises(JsonError, match=r"^expected a whole number at the top level, found true$"):
        Field(True).whole()
    with pytest.raises(JsonError, match=r"^expected a number from -1000000 to 1000000 at hp, found 1e\+308$"):
        Field(1e308, "hp").number(low=-10**6, high=10**6)


def test_places_name_odd_keys_readably() -> None:
    field = Field({"a b": {"15": [0, {"x.y": 1}]}}).key("a b").key("15").items()[1].key("x.y")
    assert field.where == '["a b"].15[1]["x.y"]'
    with pytest.raises(JsonError, match=r"^expected at most 2 items at list, found 3$"):
        Field([1, 2, 3], "list").items(limit=2)


def test_describe_never_prints_a_huge_number() -> None:
    assert describe(10**5000) == "a number of 41+ digits"
    assert describe("x" * 100).endswith('…"') and describe([]) == "an empty list"
    assert describe(MISSING) == "nothing"


@given(st.integers(1, 6), st.sampled_from(["", "+", "-"]))
def test_an_exponent_is_refused_exactly_past_three_digits(digits: int, sign: str) -> None:
    exponent = "1" + "0" * (digits - 1)
    refusal = _refusal(f"[2.5e{sign}{exponent}]")
    if digits <= safe_json.MAX_EXPONENT_DIGITS:
        assert refusal is None or "too large" in refusal  # 1e+100 reads; 2.5e999 is past a float
    else:
        assert refusal == f"line 1, column 5: a number's exponent {sign}{exponent} is too large (at most 3 digits)"
    assert loads(f'["2.5e{sign}{exponent}"]') == [f"2.5e{sign}{exponent}"]  # text may hold it


def test_an_exact_number_reader_reads_every_number_exactly_within_the_limits() -> None:
    from decimal import Decimal
    from fractions import Fraction

    assert loads('[0.1, 1e-3, 7, -2.50]', parse_float=Fraction) == [Fraction(1, 10), Fraction(1, 1000), 7, Fraction(-5, 2)]
    assert loads("[1e999]", parse_float=Decimal) == [Decimal("1e999")]
    assert "exponent" in str(_refusal("[1e99999999]"))
    assert _refusal("[NaN]") == "line 1, column 2: NaN is not a number JSON has (write a number)"
