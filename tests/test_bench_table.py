"""The benchmark harness's verdicts and the README table that ``benchmarks/run.py --markdown``
prints from a saved run (the speed table must say what the run said, misses included)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from harness import Result  # noqa: E402
from run import main, markdown  # noqa: E402


def _result(median: float, ratio: float | None, target_ms: float | None, target_ratio: float | None) -> Result:
    return Result("row", median, median * 1.5, None if ratio is None else median * ratio, ratio, target_ms,
                  "median", "a fresh process; 3 runs", None, target_ratio)


@pytest.mark.parametrize(("median", "ratio", "target_ms", "target_ratio", "met"), [
    (4.0, None, 5.0, None, True),
    (6.0, None, 5.0, None, False),
    (4.0, 0.4, None, 0.5, False),  # a peer-ratio target alone (the hex field: square / hex >= 0.5)
    (4.0, 0.6, None, 0.5, True),
    (4.0, 0.6, 3.0, 0.5, False),  # both must hold
    (4.0, None, None, None, None),
])
def test_meets_target_reads_time_and_ratio_targets(
    median: float, ratio: float | None, target_ms: float | None, target_ratio: float | None, met: bool | None
) -> None:
    assert _result(median, ratio, target_ms, target_ratio).meets_target is met


def test_the_table_marks_misses_and_ratio_targets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [_result(4.53, 0.35, None, 0.5).as_json(), _result(1200.0, 10.5, 1000.0, None).as_json()]
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps({"benchmarks": rows, "started": "2026-12-06 10:00 UTC",
                                 "load_average_start": [0.5, 0.4, 0.3], "load_average": [0.7, 0.5, 0.4]}))
    assert main(["--markdown", str(saved)]) == 0
    table = capsys.readouterr().out
    assert "load average 0.50 at the start, 0.70 at the end" in table
    assert "| `row` | ratio ≥ 0.5 | **4.53 ms, missed** |" in table
    assert "| `row` | ≤ 1.00 s | **1.20 s, missed** | 12.60 s | ×10 | a fresh process |" in table
    assert table == markdown(json.loads(saved.read_text())) + "\n"
