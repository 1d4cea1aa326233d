"""A function ctlsp cannot model is named, never skipped in silence: a note on stderr, an entry in
the JSON summary and a SARIF notification, while the other functions are still checked."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_fuzz_cli import run_cli

DEEP = "int deep(int x) {\n" + "{" * 3000 + "x = 1;" + "}" * 3000 + "\n    return x;\n}\n"
LEAK = "#include <stdlib.h>\nint leak(void) {\n    char *p = malloc(8);\n    return p != 0;\n}\n"


def _check(tmp_path: Path, *extra: str) -> tuple[int, str, str]:
    return run_cli("check", str(tmp_path), "--no-cache", "--no-progress", "--jobs", "1", *extra)


def test_deep_function_is_named_and_the_rest_is_checked(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text(DEEP + LEAK)
    code, out, err = _check(tmp_path)
    assert code == 1 and "[memory-leak]" in out
    assert f"{tmp_path / 'a.c'}:1:5: note: 'deep' was not checked: its code nests deeper" in err
    assert "1 function could not be checked" in err


def test_only_unmodelled_code_is_clean_but_says_so(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text(DEEP)
    code, out, err = _check(tmp_path)
    assert code == 0 and out == ""
    assert "'deep' was not checked" in err


def test_json_and_sarif_carry_the_functions_not_checked(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text(DEEP + LEAK)
    _, out, _ = _check(tmp_path, "--format", "json")
    summary = json.loads(out)["summary"]
    [entry] = summary["functions_not_checked"]
    assert summary["functions_not_checked_count"] == 1
    assert entry["function"] == "deep" and entry["location"]["start_line"] == 0
    _, out, _ = _check(tmp_path, "--format", "sarif")
    [invocation] = json.loads(out)["runs"][0]["invocations"]
    [note] = invocation["toolExecutionNotifications"]
    assert note["level"] == "note" and note["descriptor"]["id"] == "not-checked"
    assert "'deep' was not checked" in note["message"]["text"]
    driver = json.loads(out)["runs"][0]["tool"]["driver"]
    assert [d["id"] for d in driver["notifications"]] == ["not-checked"]


def test_the_note_is_on_the_function_name(tmp_path: Path) -> None:
    """Not on a type that happens to share the name, and on the name's own line."""
    body = "{\n" + "{" * 3000 + "x = 1;" + "}" * 3000 + "\n    return 0;\n}\n"
    (tmp_path / "a.c").write_text("struct deep;\nstatic struct deep *\ndeep(int x)\n" + body)
    _, _, err = _check(tmp_path)
    assert f"{tmp_path / 'a.c'}:3:1: note: 'deep' was not checked" in err


def test_stats_count_and_name_the_functions_not_checked(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text(DEEP + LEAK)
    _, _, err = _check(tmp_path, "--stats")
    stats = err.strip().splitlines()[-1]
    assert "model checks run" in stats and stats.endswith("; functions not checked 1 (deep)")
    (tmp_path / "a.c").write_text(LEAK)
    _, _, err = _check(tmp_path, "--stats")
    assert err.strip().splitlines()[-1].endswith("; functions not checked 0")
