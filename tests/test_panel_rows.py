"""The findings list's rows: :class:`game.ui.text.RowWrapper` wraps exactly as the plain
``game.ui.text.wrap`` (one real measurement per word) does, with the real pygame_gui font of a
real list row under the dummy SDL driver, on the findings of a real map and on random text."""

from __future__ import annotations

import random

import pygame
import pygame_gui
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.findings import Finding, Severity
from game.ui.panel import FindingsSection, PanelInfo, SidePanel
from game.ui.text import RowWrapper, wrap

WORDS = ("region", "of", "17", "squares", "(103,44):", "cannot", "reach", "any", "other;",
         "open", "a", "door", "WWWWWWWW", "iiii", "wall-diagonal", "segment", "(9,0)-(10,2)", "…")


@pytest.fixture(scope="module")
def face() -> object:
    """The font of a findings row as pygame_gui draws it."""
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((400, 300))
    manager = pygame_gui.UIManager((400, 300))
    listing = pygame_gui.elements.UISelectionList(pygame.Rect(0, 0, 300, 200), ["1. note: x"], manager)
    return listing.item_list[0]["button_element"].font


def sentences(seed: int, count: int) -> list[str]:
    """Finding-like rows of random words."""
    rng = random.Random(seed)
    return [f"{n}. warning ({rng.randrange(150)},{rng.randrange(150)}): "
            + " ".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 30))) for n in range(1, count + 1)]


def test_rows_are_the_plain_wrap_at_every_width(face: object) -> None:
    wrapper = RowWrapper(face)
    texts = sentences(28, 400)
    for width in (40, 90, 150, 211, 260, 287, 300, 1000):
        for text in texts:
            assert wrapper.wrap(text, width) == wrap(face, text, width, indent=RowWrapper.INDENT), (text, width)


@settings(max_examples=200, deadline=None)
@given(words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=40), width=st.integers(1, 400))
def test_rows_are_the_plain_wrap_for_any_words(face: object, words: list[str], width: int) -> None:
    text = " ".join(words)
    assert RowWrapper(face).wrap(text, width) == wrap(face, text, width, indent=RowWrapper.INDENT)


def test_text_the_advances_cannot_read_falls_back_to_the_plain_wrap(face: object) -> None:
    for text in ("two  spaces here and there", "a line\nand another", " leading space", ""):
        assert RowWrapper(face).wrap(text, 60) == wrap(face, text, 60, indent=RowWrapper.INDENT)


def test_rows_own_their_finding_and_are_unique(face: object) -> None:
    rows, owners = RowWrapper(face).rows(["a b", "a b", "c"], 1000)
    assert rows == ["a b", "a b ", "c"] and owners == [0, 1, 2]


def test_many_findings_reach_the_list_wrapped_in_one_hand_over(face: object) -> None:
    manager = pygame_gui.UIManager((400, 600))
    findings = FindingsSection()
    SidePanel(manager, pygame.Rect(0, 0, 320, 600), [findings])
    calls: list[int] = []
    assert findings.list is not None
    original = findings.list.set_item_list

    def counted(items: list[str]) -> None:
        calls.append(len(items))
        original(items)

    findings.list.set_item_list = counted  # type: ignore[method-assign]
    texts = sentences(5, 300)
    many = [Finding("x", Severity.WARNING, text.split(": ", 1)[1], None, (1, 1)) for text in texts]
    findings.refresh(PanelInfo(findings=many))
    rows = [item["text"] for item in findings.list.item_list]
    button = next(item["button_element"] for item in findings.list.item_list if item["button_element"])
    room = button.rect.w - 2 * button.text_horiz_alignment_padding - 8
    expected = [line for n, f in enumerate(many, 1)
                for line in wrap(button.font, FindingsSection.item_text(n, f), room, indent=RowWrapper.INDENT)]
    assert [row.rstrip() for row in rows] == [line.rstrip() for line in expected]
    assert calls[-1] == len(rows) and len(calls) <= 2  # a one-row probe, then the rows once
