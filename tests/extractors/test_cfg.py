"""CFG construction per statement kind: edges between statement and condition nodes."""

from __future__ import annotations

from tests.extractors.helpers import cfg_of, node_id, succ_texts


def test_if_else_both_branches_join() -> None:
    cfg = cfg_of("void f(int c) { if (c) a(); else b(); d(); }")
    assert succ_texts(cfg, "c") == {("a();", True), ("b();", False)}
    assert succ_texts(cfg, "a();") == {("d();", None)}
    assert succ_texts(cfg, "b();") == {("d();", None)}


def test_if_without_else_falls_through() -> None:
    cfg = cfg_of("void f(int c) { if (c) a(); d(); }")
    assert succ_texts(cfg, "c") == {("a();", True), ("d();", False)}


def test_short_circuit_and_or_not() -> None:
    cfg = cfg_of("void f(int *p, int q) { if (p && !q) a(); else b(); }")
    assert succ_texts(cfg, "p") == {("q", True), ("b();", False)}
    assert succ_texts(cfg, "q") == {("a();", False), ("b();", True)}
    cfg = cfg_of("void f(int x, int y) { if (x || y) a(); }")
    assert succ_texts(cfg, "x") == {("a();", True), ("y", False)}
    assert succ_texts(cfg, "y") == {("a();", True), ("<exit>", False)}


def test_conditional_expression_in_condition() -> None:
    cfg = cfg_of("void f(int c, int x, int y) { if (c ? x : y) a(); }")
    assert succ_texts(cfg, "c") == {("x", True), ("y", False)}
    assert ("a();", True) in succ_texts(cfg, "x")


def test_while_loop_back_edge_and_exit() -> None:
    cfg = cfg_of("void f(int n) { while (n) { n--; } done(); }")
    assert succ_texts(cfg, "n") == {("n--;", True), ("done();", False)}
    assert succ_texts(cfg, "n--;") == {("n", None)}


def test_do_while_body_runs_first() -> None:
    cfg = cfg_of("void f(int n) { do { n--; } while (n > 0); done(); }")
    assert succ_texts(cfg, "n > 0") == {("n--;", True), ("done();", False)}
    entry = cfg.entry
    first = [cfg.nodes[t].text for t in cfg.successors(cfg.successors(entry)[0])]
    assert first == ["n--;"]


def test_for_loop_with_continue_and_break() -> None:
    cfg = cfg_of(
        "void f(int n) { for (int i = 0; i < n; i++) {"
        " if (i == 2) continue; if (i == 5) break; w(); } done(); }"
    )
    assert succ_texts(cfg, "int i = 0;") == {("i < n", None)}
    assert succ_texts(cfg, "i == 2") == {("i++", True), ("i == 5", False)}
    assert succ_texts(cfg, "i == 5") == {("done();", True), ("w();", False)}
    assert succ_texts(cfg, "i++") == {("i < n", None)}
    assert succ_texts(cfg, "i < n", "cond") == {("i == 2", True), ("done();", False)}


def test_infinite_for_has_no_exit_edge() -> None:
    cfg = cfg_of("void f(void) { for (;;) { w(); } }")
    assert succ_texts(cfg, "w();") == {("w();", None)}


def test_switch_fall_through_and_default() -> None:
    src = "void f(int c) { switch (c) { case 1: a(); case 2: b(); break; default: d(); } e(); }"
    cfg = cfg_of(src)
    assert succ_texts(cfg, "(c)", "switch") == {("a();", None), ("b();", None), ("d();", None)}
    assert succ_texts(cfg, "a();") == {("b();", None)}
    assert succ_texts(cfg, "b();") == {("e();", None)}
    assert succ_texts(cfg, "d();") == {("e();", None)}


def test_switch_without_default_can_skip() -> None:
    cfg = cfg_of("void f(int c) { switch (c) { case 1: a(); break; } e(); }")
    assert succ_texts(cfg, "(c)", "switch") == {("a();", None), ("e();", None)}


def test_goto_and_labels() -> None:
    cfg = cfg_of("int f(int c) { if (c) goto out; a(); out: return 0; }")
    assert succ_texts(cfg, "c") == {("return 0;", True), ("a();", False)}
    assert succ_texts(cfg, "a();") == {("return 0;", None)}


def test_return_goes_to_exit_and_cuts_flow() -> None:
    cfg = cfg_of("int f(int c) { if (c) return 1; a(); return 0; }")
    assert succ_texts(cfg, "return 1;") == {("<exit>", None)}
    assert succ_texts(cfg, "c") == {("return 1;", True), ("a();", False)}


def test_noreturn_calls_are_sinks() -> None:
    cfg = cfg_of("void f(int c) { if (c) exit(1); a(); abort(); }")
    assert succ_texts(cfg, "exit(1);") == {("exit(1);", None)}
    assert succ_texts(cfg, "abort();") == {("abort();", None)}


def test_assert_false_branch_is_a_sink() -> None:
    cfg = cfg_of("void f(int *p) { assert(p); a(); }")
    assert succ_texts(cfg, "p") == {("a();", True), ("assert(p);", False)}


def test_nodes_keep_source_ranges_in_characters() -> None:
    src = "void f(void) {\n  /* é */ a();\n}\n"
    cfg = cfg_of(src)
    n = cfg.nodes[node_id(cfg, "a();")]
    assert (n.row, n.col, n.end_row, n.end_col) == (1, 10, 1, 14)


def test_null_test_recognition() -> None:
    cfg = cfg_of(
        "void f(int *p, int *q, int fd) { if (p == NULL) a(); if (NULL != q) b(); if (fd < 0) c(); }"
    )
    assert cfg.nodes[node_id(cfg, "p == NULL")].null_test == ("p", True)
    assert cfg.nodes[node_id(cfg, "NULL != q")].null_test == ("q", False)
    assert cfg.nodes[node_id(cfg, "fd < 0")].null_test == ("fd", True)


def test_malformed_code_never_raises() -> None:
    for src in [
        "void f( { if (",
        "int f(int x) { x = ; while }",
        "void g(void) { goto; case 3: break; }",
        "int h() { switch (x) { default: } return",
        "void k(void) { for (;;",
    ]:
        cfg_of_any(src)


def cfg_of_any(src: str) -> None:
    from extractors.api import Project

    p = Project()
    p.update_file("bad.c", src)
    p.check()
