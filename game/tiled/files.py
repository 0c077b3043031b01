"""Reading a file a person named, safely: the one place Sightline opens such a file for reading.

Maps, tilesets, templates, a Tiled project, ``sightline.toml``, a ruleset file and the autosaved
play state are all read through :func:`read_regular_file`: only a regular file (links followed)
of at most ``limit`` bytes is read. A named pipe would block the read forever and a device
(``/dev/zero``) never ends, so neither is opened at all; the kind is checked again on the open
file (opened non-blocking), so nothing swapped in between is read either. Every refusal is a
:class:`FileRefused` whose text is the reason in our words (never the system's ``[Errno 21] Is
a directory: '/abs/path'``), to follow the file's name and "is unusable because".

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> _ = (folder / "a.txt").write_bytes(b"hello")
>>> read_regular_file(folder / "a.txt", limit=10)
b'hello'
>>> read_regular_file(folder / "a.txt", limit=3)
Traceback (most recent call last):
...
game.tiled.files.FileRefused: it is 5 bytes, over the 3 bytes allowed
>>> read_regular_file(folder, limit=10)
Traceback (most recent call last):
...
game.tiled.files.FileRefused: it is a folder, not a file
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

__all__ = ["FileRefused", "kind_of_mode", "read_regular_file", "size_words", "system_words"]


class FileRefused(Exception):
    """A file that is there but is not read; ``str()`` is the reason, e.g. ``it is a named pipe,
    not a file``. ``kind`` is what the path is when it is not a regular file (``a folder``, ``a
    named pipe``, ``a device``, ``a socket``), else ``""``; ``size`` the file's size (or what was
    read of it) when it is larger than the limit, else None."""

    def __init__(self, reason: str, kind: str = "", size: int | None = None) -> None:
        super().__init__(reason)
        self.kind = kind
        self.size = size


def read_regular_file(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at ``path`` (links followed), at most ``limit`` of them.

    ``FileNotFoundError`` when nothing is there (a dangling link included); :class:`FileRefused`
    for anything else that cannot be read: not a regular file (never opened), larger than
    ``limit`` (never read past it, even when it grows while read), or refused by the system."""
    try:
        _check_kind(os.stat(path).st_mode)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise FileRefused(system_words(exc)) from None
    try:
        info = os.fstat(fd)
        _check_kind(info.st_mode)
        if info.st_size > limit:
            raise FileRefused(f"it is {size_words(info.st_size)}, over the {size_words(limit)} allowed",
                              size=info.st_size)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise FileRefused(f"it grew past the {size_words(limit)} allowed while it was read", size=size)
        return b"".join(chunks)
    except OSError as exc:
        raise FileRefused(system_words(exc)) from None
    finally:
        os.close(fd)


def kind_of_mode(mode: int) -> str:
    """What a file of this ``st_mode`` is, for a message: ``a folder``, ``a named pipe`` ...;
    ``""`` for a regular file."""
    if stat.S_ISREG(mode):
        return ""
    return ("a folder" if stat.S_ISDIR(mode) else "a named pipe" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")


def _check_kind(mode: int) -> None:
    """Refuse anything but a regular file, naming what it is."""
    kind = kind_of_mode(mode)
    if kind:
        raise FileRefused(f"it is {kind}, not a file" if kind.startswith("a ") else f"it is {kind}", kind)


def system_words(exc: OSError) -> str:
    """Why the system would not let us read (or move) a file, in our words."""
    if isinstance(exc, PermissionError):
        return "permission denied (check the file's owner and permissions)"
    if exc.errno == errno.ELOOP:
        return "it is a link that leads round in a circle"
    if exc.errno == errno.ENAMETOOLONG:
        return "its name is too long for the system"
    if exc.errno == errno.EISDIR:
        return "it is a folder, not a file"
    reason = (exc.strerror or "the system refused").rstrip(".").lower()
    return f"the system says: {reason}"


def size_words(size: int) -> str:
    """A file size for a message.

    >>> size_words(12), size_words(3 * 1024 * 1024 // 2), size_words(200 * 1024 * 1024)
    ('12 bytes', '1.5 MiB', '200 MiB')
    """
    if size < 1024 * 1024:
        return f"{size:,} bytes"
    return f"{size / (1024 * 1024):.1f} MiB" if size < 100 * 1024 * 1024 else f"{size // (1024 * 1024):,} MiB"
