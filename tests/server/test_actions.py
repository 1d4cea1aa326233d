"""Quick-fix edits: suppression comment above the line, ctlsp.toml created or edited to disable a rule."""

from __future__ import annotations

import tomllib
from pathlib import Path

from lsprotocol import types

from server.lsp.actions import disable_edit, disable_rule_action, rule_of, suppress_action


def apply(text: str, rng: types.Range, new: str) -> str:
    lines = text.split("\n")

    def offset(p: types.Position) -> int:
        return sum(len(x) + 1 for x in lines[: p.line]) + p.character

    return text[: offset(rng.start)] + new + text[offset(rng.end) :]


def diag(line: int) -> types.Diagnostic:
    return types.Diagnostic(
        range=types.Range(types.Position(line, 4), types.Position(line, 10)),
        message="leak",
        source="ctlsp",
        code="memory-leak",
        data={"rule": "memory-leak", "fingerprint": "abc"},
    )


def test_suppress_inserts_an_indented_comment_above() -> None:
    action = suppress_action("file:///a.c", diag(3), "    p = malloc(1);", "memory-leak")
    assert action.edit and action.edit.changes
    (edit,) = action.edit.changes["file:///a.c"]
    assert edit.range.start == types.Position(3, 0) == edit.range.end
    assert edit.new_text == "    // ctlsp-ignore[memory-leak]\n"
    assert action.is_preferred  # the narrowest fix; disabling the rule everywhere is not preferred
    assert not disable_rule_action(Path("/w/ctlsp.toml"), "memory-leak", None, diag(3)).is_preferred
    assert rule_of(diag(0)) == "memory-leak"
    assert rule_of(types.Diagnostic(range=diag(0).range, message="x", source="gcc")) is None


def test_disable_creates_a_new_config_file(tmp_path: Path) -> None:
    action = disable_rule_action(tmp_path / "ctlsp.toml", "memory-leak", None, diag(1))
    assert action.edit and action.edit.document_changes
    create, edit = action.edit.document_changes
    assert isinstance(create, types.CreateFile) and create.uri.endswith("/ctlsp.toml")
    assert isinstance(edit, types.TextDocumentEdit)
    assert isinstance(edit.edits[0], types.TextEdit)
    assert tomllib.loads(edit.edits[0].new_text) == {"rules": {"memory-leak": {"enabled": False}}}


def test_disable_edits_existing_tables_and_appends_new_ones() -> None:
    for existing in (
        '[extract]\nallocators = ["x"]\n',
        '[extract]\nallocators = ["x"]',
        '[rules.memory-leak]\nseverity = "error"\n\n[extract]\nuses = []\n',
        '[rules.memory-leak]\nenabled = true\nseverity = "info"\n',
        "",
    ):
        rng, text = disable_edit(existing, "memory-leak")
        data = tomllib.loads(apply(existing, rng, text))
        assert data["rules"]["memory-leak"]["enabled"] is False
    rng, text = disable_edit("", "odd.rule")
    assert tomllib.loads(text) == {"rules": {"odd.rule": {"enabled": False}}}


def test_disable_in_pyproject_edits_the_tool_ctlsp_tables() -> None:
    for existing in (
        '[project]\nname = "x"\n\n[tool.ctlsp.extract]\nallocators = ["x"]\n',
        '[tool.ctlsp.rules.memory-leak]\nenabled = true\n\n[project]\nname = "x"\n',
        '[tool . ctlsp . rules . memory-leak]\nseverity = "info"\n',
    ):
        rng, text = disable_edit(existing, "memory-leak", "tool.ctlsp.")
        data = tomllib.loads(apply(existing, rng, text))
        assert data["tool"]["ctlsp"]["rules"]["memory-leak"]["enabled"] is False
        assert "rules" not in data
