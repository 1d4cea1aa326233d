"""A realistic C file (vectors, lists under a lock, goto-cleanup file reading, flag-guarded
scratch buffers, allocator wrappers): exactly its two planted bugs are reported."""

from __future__ import annotations

from pathlib import Path

from extractors.api import Project

DATA = Path(__file__).with_name("data") / "realistic.c"


def test_only_the_planted_bugs_are_found() -> None:
    text = DATA.read_text()
    p = Project()
    p.update_file("realistic.c", text)
    found = p.check()["realistic.c"]
    got = [(f.rule_id, f.function, f.location.start_line + 1) for f in found]
    lines = text.splitlines()
    leak_line = next(i for i, s in enumerate(lines, 1) if "BUG: leaked" in s)
    uaf_line = next(i for i, s in enumerate(lines, 1) if "BUG: use after free" in s)
    assert got == [("memory-leak", "bug_leak", leak_line), ("use-after-free", "bug_uaf", uaf_line)]
    uaf = found[1]
    assert [w.kind for w in uaf.witness].count("call") == 1
    inside = [w for w in uaf.witness if w.function == "node_free"]
    assert inside and all(w.stack == ("bug_uaf",) for w in inside)
    assert any("freed" in w.message for w in inside)
    assert p.counters["model_errors"] == 0


def test_same_findings_file_by_file_and_whole_project() -> None:
    text = DATA.read_text()
    p = Project()
    p.update_file("realistic.c", text)
    assert p.check(interprocedural=False) == p.check(interprocedural=True)


def test_every_projected_model_passes_the_rsm_rules() -> None:
    """Production assembles RSMs without re-validating; here every one goes through build_rsm."""
    from extractors.projection import Projector, make_scope

    p = Project()
    p.update_file("realistic.c", DATA.read_text())
    st = p.files["realistic.c"].model
    proj = Projector(make_scope(list(st.functions.values()), p.table, st.globals))
    checked = 0
    for fm in st.functions.values():
        for v in proj.values(fm):
            name = proj.component(fm, v)
            if name is not None:
                proj.rsm(name, validate=True)
                checked += 1
    assert checked > 50
