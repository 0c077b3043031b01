"""Write files atomically: a temporary file beside the target, fsync, then ``os.replace``.

Every file Sightline saves (PNG renders, reports, screenshots, the play state) goes through
:func:`atomic_file` or :func:`write_atomic`, so a reader never sees half a file and a failure
leaves the old file untouched. Written files get the usual permissions (``0o666`` minus the
umask, like ``open()``), not the ``0o600`` of :func:`tempfile.mkstemp`. Any ``OSError`` becomes
one :class:`OutputError` line: ``cannot write PATH: reason (check the folder exists and is
writable)``.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_atomic(folder / "a.txt", "hello\\n").read_text()
'hello\\n'
>>> with atomic_file(folder / "b.bin") as handle:
...     _ = handle.write(b"\\x00\\x01")
>>> (folder / "b.bin").read_bytes()
b'\\x00\\x01'
>>> sorted(p.name for p in folder.iterdir())
['a.txt', 'b.bin']
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from game.core.errors import SightlineError

__all__ = ["OutputError", "atomic_file", "write_atomic", "cannot_write", "clean_leftovers"]

#: a temporary file of ours: ``.NAME.<8 hex digits>.tmp`` beside NAME (see :func:`_open_temp`)
_TEMP_RE = re.compile(r"^\.(?P<name>.+)\.[0-9a-f]{8}\.tmp$")
#: a leftover younger than this may belong to a writer still at work: it is left alone
STALE_AFTER_S = 60.0

_HINT = "check the folder exists and is writable"


class OutputError(SightlineError, OSError):
    """A file could not be written; the message is one line naming the path and the reason.

    It is an ``OSError`` too (``errno``, ``strerror`` = the bare reason, ``filename``), so code
    that catches ``OSError`` around a save keeps working.

    >>> exc = OutputError("cannot write x.png: Permission denied", reason="Permission denied")
    >>> str(exc), exc.strerror
    ('cannot write x.png: Permission denied', 'Permission denied')
    """

    def __init__(
        self,
        message: str,
        *,
        reason: str | None = None,
        errno: int | None = None,
        filename: str | None = None,
    ) -> None:
        super().__init__(message)
        self.errno = errno
        self.strerror = reason or message
        self.filename = filename

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def cannot_write(path: str | os.PathLike[str], exc: BaseException | str) -> OutputError:
    """The :class:`OutputError` for failing to write ``path`` because of ``exc``.

    >>> str(cannot_write("/nowhere/x.png", FileNotFoundError(2, "No such file or directory")))
    'cannot write /nowhere/x.png: folder /nowhere does not exist'
    >>> str(cannot_write("out.png", PermissionError(13, "Permission denied")))
    'cannot write out.png: Permission denied (check the folder exists and is writable)'
    """
    target = Path(path)
    folder = target.parent
    errno = exc.errno if isinstance(exc, OSError) else None
    if isinstance(exc, FileNotFoundError) and not folder.is_dir():
        reason = f"folder {folder} does not exist"
        return OutputError(f"cannot write {target}: {reason}", reason=reason, errno=errno,
                           filename=str(target))
    if isinstance(exc, OSError):
        reason = exc.strerror or str(exc) or type(exc).__name__
    else:
        reason = str(exc) or type(exc).__name__
    return OutputError(f"cannot write {target}: {reason} ({_HINT})", reason=reason, errno=errno,
                       filename=str(target))


def _open_temp(target: Path) -> tuple[int, Path]:
    """Create a fresh temporary file beside ``target`` (mode ``0o666`` minus the umask)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {target}")


def clean_leftovers(path: str | os.PathLike[str], *, older_than: float = STALE_AFTER_S) -> int:
    """Remove our stale temporary files beside ``path`` (``.NAME.<8 hex>.tmp``, left by a
    process killed mid-write), older than ``older_than`` seconds; returns how many went.

    Only files of exactly our naming for this very target are touched; errors are ignored.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> for name in (".a.json.0123abcd.tmp", ".a.json.zz.tmp", ".b.json.0123abcd.tmp", "a.json"):
    ...     _ = (folder / name).write_text("x")
    >>> clean_leftovers(folder / "a.json", older_than=0), sorted(p.name for p in folder.iterdir())
    (1, ['.a.json.zz.tmp', '.b.json.0123abcd.tmp', 'a.json'])
    """
    target = Path(path)
    removed = 0
    now = time.time()
    try:
        entries = list(target.parent.iterdir())
    except OSError:
        return 0
    for entry in entries:
        match = _TEMP_RE.match(entry.name)
        if match is None or match.group("name") != target.name:
            continue
        with contextlib.suppress(OSError):
            if entry.is_file() and not entry.is_symlink() and now - entry.stat().st_mtime >= older_than:
                entry.unlink()
                removed += 1
    return removed


def _sync_folder(folder: Path) -> None:
    """Best effort: flush the folder entry of the renamed file (POSIX only)."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@contextlib.contextmanager
def atomic_file(
    path: str | os.PathLike[str],
    mode: str = "wb",
    *,
    encoding: str | None = None,
    parents: bool = False,
) -> Iterator[IO[Any]]:
    """Yield a file object whose content replaces ``path`` only when the block ends normally.

    ``mode`` is ``"wb"`` (default) or ``"w"`` (text; ``encoding`` defaults to UTF-8).
    With ``parents`` missing folders are created; otherwise a missing folder is an
    :class:`OutputError`. If the block raises, the temporary file is removed, ``path`` is left
    as it was, and the exception propagates (an ``OSError`` as :class:`OutputError`).

    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "keep.txt"
    >>> _ = target.write_text("old")
    >>> try:
    ...     with atomic_file(target, "w") as handle:
    ...         _ = handle.write("new")
    ...         raise ValueError("stop")
    ... except ValueError:
    ...     pass
    >>> target.read_text(), len(list(target.parent.iterdir()))
    ('old', 1)
    """
    if mode not in ("wb", "w"):
        raise ValueError(f"atomic_file mode must be 'wb' or 'w', not {mode!r}")
    target = Path(path)
    folder = target.parent
    try:
        if parents:
            folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = _open_temp(target)
    except OSError as exc:
        raise cannot_write(target, exc) from exc
    try:
        handle = os.fdopen(fd, "wb")
    except BaseException:
        os.close(fd)
        tmp.unlink(missing_ok=True)
        raise
    # the caller writes into memory: a writer that retries on every failed write (pygame's
    # image.save prints each failed write) meets one failure at most, in the one real write below
    buffer: io.StringIO | io.BytesIO = io.StringIO(newline="") if mode == "w" else io.BytesIO()
    try:
        with handle:
            yield buffer
            data = buffer.getvalue()
            handle.write(data.encode(encoding or "utf-8") if isinstance(data, str) else data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(exc, OSError) and not isinstance(exc, SightlineError):
            raise cannot_write(target, exc) from exc
        raise
    _sync_folder(folder)


def write_atomic(
    path: str | os.PathLike[str],
    data: bytes | str,
    *,
    encoding: str = "utf-8",
    parents: bool = False,
) -> Path:
    """Write ``data`` (bytes, or text encoded with ``encoding``) to ``path`` atomically.

    Returns the path written. Raises :class:`OutputError` when it cannot be written.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> write_atomic(folder / "x.txt", "v1").name
    'x.txt'
    >>> try:
    ...     write_atomic(folder / "missing" / "x.txt", "v1")
    ... except OutputError as exc:
    ...     print(str(exc).endswith("missing does not exist"))
    True
    """
    raw = data.encode(encoding) if isinstance(data, str) else bytes(data)
    with atomic_file(path, "wb", parents=parents) as handle:
        handle.write(raw)
    return Path(path)
