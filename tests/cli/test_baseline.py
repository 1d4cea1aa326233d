"""Baseline files: written from findings, read back, and hiding exactly what they record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from server.baseline import BaselineError, apply_baseline, read_baseline, write_baseline
from tests.cli.helpers import finding


def test_write_then_apply_hides_exactly_the_recorded_findings(tmp_path: Path) -> None:
    old = [finding(fingerprint="a"), finding(rule="double-free", fingerprint="b")]
    base = tmp_path / "ci" / "baseline.json"
    assert write_baseline(base, old) == 2
    new = finding(rule="use-after-free", fingerprint="c")
    kept, hidden = apply_baseline([*old, new], read_baseline(base), base.parent)
    assert kept == [new] and hidden == 2


def test_lines_may_move_but_a_second_identical_bug_is_new(tmp_path: Path) -> None:
    base = tmp_path / "b.json"
    write_baseline(base, [finding(line=5, fingerprint="same")])
    moved = finding(line=50, fingerprint="same")
    twin = finding(line=60, fingerprint="same")
    kept, hidden = apply_baseline([moved, twin], read_baseline(base), tmp_path)
    assert hidden == 1 and kept == [twin]


def test_paths_are_relative_to_the_baseline_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    base = tmp_path / "sub" / "b.json"
    write_baseline(base, [finding(path="src/a.c")])
    entry = json.loads(base.read_text())["findings"][0]
    assert entry["path"] == "../src/a.c"
    other = finding(path="src/other.c")
    kept, hidden = apply_baseline([finding(path="src/a.c"), other], read_baseline(base), base.parent)
    assert kept == [other] and hidden == 1


def test_rule_id_is_part_of_the_match(tmp_path: Path) -> None:
    base = tmp_path / "b.json"
    write_baseline(base, [finding(rule="memory-leak", fingerprint="x")])
    f = finding(rule="resource-leak", fingerprint="x")
    assert apply_baseline([f], read_baseline(base), tmp_path) == ([f], 0)


def test_findings_without_fingerprint_still_match(tmp_path: Path) -> None:
    base = tmp_path / "b.json"
    write_baseline(base, [finding(fingerprint="", line=3)])
    assert apply_baseline([finding(fingerprint="", line=30)], read_baseline(base), tmp_path)[1] == 1


@pytest.mark.parametrize(
    ("content", "expect"),
    [
        ("{not json", "invalid JSON"),
        ('{"findings": []}', "not a ctlsp baseline"),
        ('{"format": "ctlsp-baseline", "version": 99, "findings": []}', "unsupported baseline version"),
        ('{"format": "ctlsp-baseline", "version": 1, "findings": [{"rule_id": 1}]}', "entry 0"),
    ],
)
def test_bad_baselines_are_reported_with_the_file_name(tmp_path: Path, content: str, expect: str) -> None:
    base = tmp_path / "b.json"
    base.write_text(content)
    with pytest.raises(BaselineError, match=expect) as e:
        read_baseline(base)
    assert str(base) in str(e.value)


def test_missing_baseline_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(BaselineError, match="cannot read"):
        read_baseline(tmp_path / "none.json")
