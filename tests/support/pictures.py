"""Helpers of test_files_robust.py that other test modules use too (moved here: no test module imports another)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path


def huge_png(path: Path, width: int = 30000, height: int = 30000, *, rgba: bool = False) -> None:
    """A real, valid single-colour PNG of width×height pixels (a few hundred KB compressed);
    grey, or RGBA (four bytes a pixel once decoded, whatever the loader)."""
    row = b"\x00" + b"\x00" * (width * (4 if rgba else 1))  # filter byte + pixels
    comp = zlib.compressobj(9)
    data = b"".join(comp.compress(row) for _ in range(height)) + comp.flush()

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6 if rgba else 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", data) + chunk(b"IEND", b""))
