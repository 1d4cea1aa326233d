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


def test_a_local_scalar_is_read_wherever_it_is_dereferenced_or_handed_to_a_call() -> None:
    """What lets uninitialised-read see only ``read`` and be checked without the callees: at every
    node of these files where a local whose address is never taken is dereferenced (``use``) or
    handed to a project function (a box), the node also reads it. A local whose address is handed
    (a box to ``*param``) is in scope only when the callee's summary shows it never reads it."""
    from extractors.checking import _in_scope
    from extractors.projection import Projector, make_scope
    from extractors.rules import catalogue

    rule = next(r for r in catalogue() if r.id == "uninitialised-read")
    root = Path(__file__).parents[2]
    calls = (
        "struct s { int *q; };\nint g(int *p) { return *p; }\nint h(struct s v, int n) { return n; }\n"
        "int f(int c) {\n    int *p; struct s v; int n;\n    if (c) return g(p);\n"
        "    n = c ? g(p) + h(v, n) : h(v, g(p));\n    while (g(p)) { n += h(v, *p); }\n"
        "    return (p = 0, g(p) ? n : g(v.q));\n}\n"
    )
    files = [DATA, *sorted((root / "examples").glob("*.c")), root / "tests/server/data/sample.c"]
    seen = {"use": 0, "box": 0}
    for path, text in [(f, f.read_text()) for f in files] + [(Path("calls.c"), calls)]:
        p = Project()
        p.update_file(str(path), text)
        st = p.files[str(path)].model
        proj = Projector(make_scope(list(st.functions.values()), p.table, st.globals))
        for fm in st.functions.values():
            for v in proj.values(fm):
                if not _in_scope(rule, fm, v, proj):
                    continue
                for node in fm.cfg.nodes:
                    labels, boxes = proj.node_labels(fm, node.id, v, False)
                    if boxes and all(q.startswith("*") for _, q in boxes):
                        assert proj.addresses_summarised(fm, v)
                        boxes = ()
                    for kind, there in (("use", "use" in labels), ("box", bool(boxes))):
                        if there:
                            seen[kind] += 1
                            assert "read" in labels, (path.name, fm.name, v, node.text, kind)
    assert seen["use"] > 10 and seen["box"] > 5, seen
