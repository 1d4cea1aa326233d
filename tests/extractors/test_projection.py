"""Projected RSMs: valid models, shared callee components, recursion as recursive boxes."""

from __future__ import annotations

from checker import check
from checker.model import build_rsm
from extractors.api import Project
from extractors.calls import BUILTIN
from extractors.projection import Projector, make_scope
from tests.extractors.helpers import check_src, line_of, of_rule


def projector(src: str) -> Projector:
    p = Project()
    p.update_file("t.c", src)
    st = p.files["t.c"].model
    return Projector(make_scope(list(st.functions.values()), BUILTIN, st.globals))


SRC = """
void release(char *q) { if (q) free(q); }
void a(int n) { char *p = malloc(n); release(p); }
void b(int n) { char *x = malloc(n); x[0] = 1; release(x); }
int len(char *s) { if (!s) return 0; return 1 + len(s); }
void c(char *t) { log_it(1); free(t); }
void log_it(int level) { level++; }
"""


def test_projected_models_are_valid_rsms_with_end_label() -> None:
    pj = projector(SRC)
    name = pj.component("a", "p")
    assert name == "t.c:a@p"
    rsm = pj.rsm(name)
    root = rsm.component(rsm.initial_component)
    assert [n.labels for n in root.nodes if n.is_exit] == [frozenset({"end"})]
    comp = rsm.component("t.c:a@p")
    assert {lab for n in comp.nodes for lab in n.labels} >= {"alloc", "def"}
    assert [b.component for b in comp.boxes] == ["t.c:release@0"]
    assert check(rsm, "E F free").holds  # free happens inside the callee
    assert not check(rsm, "E F (alloc & E X E (~(free | isnull) U end))").holds
    assert check(rsm, "E F (alloc & E X E (~free U end))").holds  # the q == NULL branch of release()
    build_rsm(rsm.components, rsm.initial_component, rsm.initial_node)


def test_callee_projection_is_identical_for_every_caller() -> None:
    pj = projector(SRC)
    ra, rb = pj.rsm(pj.component("a", "p") or ""), pj.rsm(pj.component("b", "x") or "")
    ca, cb = ra.component("t.c:release@0"), rb.component("t.c:release@0")
    assert ca.digest == cb.digest
    assert ra.deep_digests["t.c:release@0"] == rb.deep_digests["t.c:release@0"]
    labels = {n.name: n.labels for n in ca.nodes}
    assert any("isnull" in lab for lab in labels.values()) and any("free" in lab for lab in labels.values())


def test_calls_that_cannot_touch_the_value_are_plain_nodes() -> None:
    pj = projector(SRC)
    rsm = pj.rsm(pj.component("c", "t") or "")
    assert rsm.component("t.c:c@0").boxes == ()
    assert pj.component("log_it", "level") is not None


def test_recursion_is_a_recursive_box() -> None:
    pj = projector(SRC)
    rsm = pj.rsm(pj.component("len", "s") or "")
    comp = rsm.component("t.c:len@0")
    assert "t.c:len@0" in {b.component for b in comp.boxes}


def test_recursive_free_and_double_free_through_recursion() -> None:
    src = """
struct node { struct node *next; };
void free_list(struct node *n) { if (!n) return; free_list(n->next); free(n); }
void bad(struct node *h) { free_list(h); free(h); }    /*B*/
void fine(struct node *h) { free_list(h); h = 0; }
"""
    found = check_src(src)
    df = of_rule(found, "double-free")
    assert [(f.function, f.location.start_line) for f in df] == [("bad", line_of(src, "/*B*/"))]


def test_field_paths_follow_the_struct_into_callees() -> None:
    src = """
struct buf { char *data; };
void drop(struct buf *b) { free(b->data); }
void f(struct buf *s) { drop(s); free(s->data); }   /*F*/
"""
    (f,) = of_rule(check_src(src), "double-free")
    assert f.function == "f" and "s->data" in f.message and f.location.start_line == line_of(src, "/*F*/")


def test_intraprocedural_mode_only_boxes_into_the_same_file() -> None:
    p = Project()
    p.update_file("lib.c", "void release(char *q) { free(q); }\n")
    p.update_file("main.c", "void f(int n) { char *p = malloc(n); if (!p) return; release(p); free(p); }\n")
    inter = p.check(["main.c"], interprocedural=True)["main.c"]
    intra = p.check(["main.c"], interprocedural=False)["main.c"]
    assert [f.rule_id for f in inter] == ["double-free"]
    assert [f.rule_id for f in intra] == []  # release() is unknown there: the pointer escapes


def test_static_helpers_with_the_same_name_resolve_to_their_own_file() -> None:
    p = Project()
    p.update_file(
        "a.c",
        "static void cleanup(char *q) { free(q); }\nvoid fa(int n) { char *p = malloc(n); cleanup(p); }\n",
    )
    p.update_file(
        "b.c",
        "static void cleanup(char *q) { q[0] = 0; }\n"
        "void fb(int n) { char *p = malloc(n); if (p) cleanup(p); }\n",
    )
    found = p.check()
    assert [f.rule_id for f in found["a.c"]] == []
    assert [(f.rule_id, f.function) for f in found["b.c"]] == [("memory-leak", "fb")]
