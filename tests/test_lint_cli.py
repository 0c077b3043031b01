"""``sightline check``: exit codes, text / JSON / GitHub output, folders, --strict, unreadable maps."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from game.cli import main

LINT = Path(__file__).resolve().parent / "data" / "lint"


def check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["check", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_clean_map_exits_0_with_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = check(capsys, str(LINT / "clean.tmx"))
    assert code == 0
    assert out.strip() == "checked 1 map: clean"


def test_errors_exit_1_in_file_object_square_form(capsys: pytest.CaptureFixture[str]) -> None:
    path = LINT / "figures.tmx"
    code, out, _ = check(capsys, str(path))
    assert code == 1
    lines = out.strip().splitlines()
    assert f"{path}:object 3 (0,0): error: figure Lost stands on (0,0)" in lines[0]
    assert lines[0].endswith("(move it onto a painted square, or paint a tile under it)")
    assert lines[-1] == "checked 1 map: 3 errors"


def test_warnings_only_exit_0_unless_strict(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(LINT / "sight.tmx")
    code, out, _ = check(capsys, path)
    assert code == 0 and "warning: figure Scout" in out
    code, out, _ = check(capsys, "--strict", path)
    assert code == 1 and "error: figure Scout" in out


def test_json_is_the_design_document(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = check(capsys, "--json", str(LINT / "doors.tmx"), str(LINT / "clean.tmx"))
    assert code == 1
    doc = json.loads(out)
    assert [Path(m["path"]).name for m in doc["maps"]] == ["doors.tmx", "clean.tmx"]
    doors, clean = doc["maps"]
    assert set(doors) >= {"path", "errors", "warnings", "stats"}
    assert [(f["code"], f["object_id"], f["square"]) for f in doors["errors"]] == [
        ("door-duplicate", 5, [4, 1])
    ]
    for finding in doors["errors"] + doors["warnings"]:
        assert set(finding) >= {"code", "message", "object_id", "square", "hint"}
    assert {f["code"] for f in doors["warnings"]} == {"door-not-in-wall", "door-on-border"}
    assert clean["errors"] == [] and clean["warnings"] == []
    assert clean["stats"]["width"] == 6 and clean["stats"]["height"] == 4


def test_format_json_equals_json_flag(capsys: pytest.CaptureFixture[str]) -> None:
    _, a, _ = check(capsys, "--json", str(LINT / "walls.tmx"))
    _, b, _ = check(capsys, "--format", "json", str(LINT / "walls.tmx"))
    assert json.loads(a) == json.loads(b)


def test_github_annotations_carry_file_line_and_code(capsys: pytest.CaptureFixture[str]) -> None:
    path = LINT / "doors.tmx"
    code, out, _ = check(capsys, "--format", "github", str(path))
    assert code == 1
    lines = out.strip().splitlines()
    assert lines[0].startswith(f"::error file={path},line=")
    assert ",title=door-duplicate::object 5 (4,1): objects 4 and 5" in lines[0]
    # the line is the one of <object id="5" in the file
    number = int(lines[0].split("line=")[1].split(",")[0])
    assert 'id="5"' in path.read_text().splitlines()[number - 1]
    assert any(line.startswith("::warning ") and "title=door-on-border" in line for line in lines)
    assert lines[-1].startswith("checked 1 map:")


def test_unreadable_map_exits_2_and_the_others_are_still_reported(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = check(capsys, str(LINT / "truncated.tmx"), str(LINT / "figures.tmx"))
    assert code == 2
    assert "truncated.tmx" in err and len(err.strip().splitlines()) == 1
    assert "figure-in-void" not in out  # text form shows messages, not codes
    assert "figures.tmx:object 3 (0,0): error:" in out
    assert out.strip().splitlines()[-1] == "checked 2 maps: 3 errors, 1 unreadable"


def test_unreadable_map_in_json_has_an_error_entry(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "nope.tmx"
    code, out, _ = check(capsys, "--json", str(missing), str(LINT / "clean.tmx"))
    assert code == 2
    doc = json.loads(out)
    broken, clean = doc["maps"]
    assert broken["path"] == str(missing) and broken["error"]
    assert broken["errors"] == [] and broken["warnings"] == []
    assert "error" not in clean


def test_folders_recurse_sorted(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "deep").mkdir(parents=True)
    shutil.copy(LINT / "clean.tmx", tmp_path / "b" / "one.tmx")
    shutil.copy(LINT / "sight.tmx", tmp_path / "a" / "deep" / "two.tmx")
    (tmp_path / "a" / "notes.txt").write_text("not a map")
    code, out, _ = check(capsys, "--json", str(tmp_path))
    assert code == 0
    names = [Path(m["path"]).relative_to(tmp_path).as_posix() for m in json.loads(out)["maps"]]
    assert names == ["a/deep/two.tmx", "b/one.tmx"]


def test_empty_folder_is_unreadable(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = check(capsys, str(tmp_path))
    assert code == 2 and "no .tmx maps" in err


def test_json_and_another_format_contradict(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = check(capsys, "--json", "--format", "github", str(LINT / "clean.tmx"))
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_classes_flag_maps_foreign_class_names(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    text = (LINT / "regions.tmx").read_text().replace('class="wall"', 'class="collision-line"')
    path = tmp_path / "foreign.tmx"
    path.write_text(text)
    code, out, _ = check(capsys, "--json", str(path))
    plain = json.loads(out)["maps"][0]
    assert "region-unreachable" not in {f["code"] for f in plain["errors"]}
    code, out, _ = check(capsys, "--json", "--classes", "wall=collision-line", str(path))
    mapped = json.loads(out)["maps"][0]
    assert code == 0  # an unreachable region where no figure stands is a warning (issue #22)
    assert "region-unreachable" in [f["code"] for f in mapped["warnings"]]


def test_progress_bar_only_on_a_terminal() -> None:
    import io

    from game.commands.check import Progress

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    quiet = io.StringIO()
    Progress(5, quiet).show(2, "x.tmx")
    assert quiet.getvalue() == ""
    tty = Tty()
    bar = Progress(5, tty)
    bar.show(2, "x.tmx")
    bar.close()
    assert "2/5 x.tmx" in tty.getvalue() and tty.getvalue().endswith("\r")


def test_a_class_given_two_roles_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", str(LINT / "clean.tmx"), "--classes", "void=Location,wall=location"])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err.splitlines() == [
        "sightline check: --classes maps class 'Location' to two roles: void and wall "
        "(give each class one role)"
    ]


def test_summary_counts_without_parenthesised_plurals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(LINT / "clean.tmx")]) == 0
    out = capsys.readouterr().out
    assert "(s)" not in out and out.strip().splitlines()[-1] == "checked 1 map: clean"
