"""game.play.atomic: every saved file is whole or absent, with normal permissions, and one-line errors."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.core.errors import SightlineError
from game.play.atomic import OutputError, atomic_file, write_atomic


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_written_files_get_0644_under_umask_022(tmp_path: Path, umask_022: None) -> None:
    write_atomic(tmp_path / "a.txt", "text")
    with atomic_file(tmp_path / "b.bin") as handle:
        handle.write(b"\x00")
    assert mode(tmp_path / "a.txt") == 0o644 and mode(tmp_path / "b.bin") == 0o644


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_the_umask_is_respected(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        write_atomic(tmp_path / "private.txt", "x")
    finally:
        os.umask(old)
    assert mode(tmp_path / "private.txt") == 0o600


def test_text_and_bytes_round_trip_and_replace(tmp_path: Path) -> None:
    target = tmp_path / "t.txt"
    write_atomic(target, "première\n")
    assert target.read_text(encoding="utf-8") == "première\n"
    with atomic_file(target, "w") as handle:
        handle.write("second\r\n")
    assert target.read_bytes() == b"second\r\n"  # no newline translation
    assert [p.name for p in tmp_path.iterdir()] == ["t.txt"]


def test_a_failure_inside_the_block_keeps_the_old_file_and_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "keep.png"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_file(target) as handle:
        handle.write(b"half")
        raise RuntimeError("drawing failed")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.png"]


@pytest.mark.parametrize(
    ("where", "words"),
    [
        ("missing/x.png", "folder {tmp}/missing does not exist"),
        ("file.txt/x.png", "(check the folder exists and is writable)"),
        ("folder.png", "(check the folder exists and is writable)"),
    ],
)
def test_unwritable_paths_become_one_line_output_errors(tmp_path: Path, where: str, words: str) -> None:
    (tmp_path / "file.txt").write_text("x")
    (tmp_path / "folder.png").mkdir()
    target = tmp_path / where
    with pytest.raises(OutputError) as info:
        write_atomic(target, b"data")
    message = str(info.value)
    assert isinstance(info.value, SightlineError) and isinstance(info.value, OSError)
    assert message.startswith(f"cannot write {target}: ") and "\n" not in message
    assert words.format(tmp=tmp_path) in message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt", "folder.png"]
    assert list((tmp_path / "folder.png").iterdir()) == []


def test_parents_creates_missing_folders(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "c.txt"
    write_atomic(target, "x", parents=True)
    assert target.read_text() == "x"


def test_only_binary_and_text_write_modes(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="mode"), atomic_file(tmp_path / "x", "a"):
        pass
