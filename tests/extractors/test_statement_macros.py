"""Statement macros: a function-like macro whose body places a parameter as a statement of its own
(brotli's ``#define BROTLI_REPEAT_5(X) {X; X; X; X; X;}``, ``do { X; } while (0)``) is read
through its expansion where it is written as a statement, each copy of an argument placed at the
argument's own text, and the copies of one statement twins (``Cfg.twins``), so that a dead store
is one of the statement as written: dead at every copy (:mod:`extractors.count_macros`)."""

from __future__ import annotations

from pathlib import Path

from extractors.api import Project
from extractors.calls import BUILTIN
from extractors.cfg import CfgBuilder
from extractors.config import Config
from extractors.count_macros import count_macros, counting, expand_call, sequence_macro, statement_macro
from extractors.parse import parse_c
from server.workspace import load_headers
from tests.extractors.helpers import check_src, line_of, of_rule

REP = "#define REP3(X) {X; X; X;}\n#define ONCE(X) do { X; } while (0)\n"


def _lines(src: str, rule: str) -> list[int]:
    return [f.location.start_line for f in of_rule(check_src(src), rule)]


def test_which_macros_are_statement_macros() -> None:
    found = count_macros(
        "#define REP5(X) {X; X; X; X; X;}\n"
        "#define ONCE(X) do { X; } while (0)\n"
        "#define WHEN(c, X) if (c) X;\n"
        "#define LOCKED(m, X) { lock(&(m)); X; \\\n  unlock(&(m)); }\n"
        "#define TWO(p) free(p); free(p)\n"  # a parameter as an argument, never a statement
        "#define ID(x) x\n"  # an expression
        "#define STR(X) { puts(#X); X; }\n"  # stringising: the expansion makes the literal
        "#define XX(X) XX; X_;\n"  # no block, and no parameter as a statement
    )
    assert {n for n, m in counting(found).items() if statement_macro(m)} == {"REP5", "ONCE", "WHEN", "LOCKED", "STR"}


def test_an_expansion_stringizes_and_pastes() -> None:
    macro = (("h", "sym"), "do { p_ ## sym = dlsym((h), #sym); if (p_##sym == NULL) goto out; } while (0)")
    data = b"V(lib, open);"
    got = expand_call(macro, data, 1)
    assert got is not None
    assert got.text == b'do { p_open = dlsym((lib), "open"); if (p_open == NULL) goto out; } while (0)'
    for start, end, at in got.pieces:  # the literal is no code of the call's: no piece maps into it
        assert got.text[start:end] == data[at : at + end - start]
    assert len(got.pieces) == 3
    quoted = expand_call((("x",), "puts(#x)"), b'P(f("a\\n"));', 1)
    assert quoted is not None and quoted.text == b'puts("f(\\"a\\\\n\\")")'


def test_an_expansion_keeps_where_each_argument_came_from() -> None:
    macro = (("m", "X"), "{ lock(&(m)); X; unlock(&(m)); }")
    data = b"  LOCKED( mu , a = f(\"),\", (b, c)) /* ) */ ) ;\n  next;"
    got = expand_call(macro, data, data.index(b"("))
    assert got is not None
    assert got.text == b'{ lock(&(mu)); a = f("),", (b, c)) /* ) */; unlock(&(mu)); }'
    for start, end, at in got.pieces:
        assert got.text[start:end] == data[at : at + end - start]
    assert data[: got.end].endswith(b") ;")  # the call's own semicolon is the call's
    assert expand_call(macro, b"LOCKED(a)", 6) is None  # one argument of two
    assert expand_call(macro, b"LOCKED(a, {b, c})", 6) is None  # braces do not protect a comma
    assert expand_call(macro, b"LOCKED(a, b", 6) is None  # never closes


BROTLI = """\
#define BROTLI_REPEAT_5(X) {X; X; X; X; X;}
void BrotliBuildCodeLengthsHuffmanTable(int* count, int* offset) {
  int symbol;
  int bits;
  symbol = -1;
  bits = 1;
  BROTLI_REPEAT_5({
    symbol += count[bits];
    offset[bits] = symbol;
    bits++;
  });
  offset[0] = 17;
  symbol = 18;
  bits = 1;
  offset[1] = symbol + bits;
}
"""


def test_a_repeated_block_reads_what_it_stores() -> None:
    """brotli 1.2.1 dec/huffman.c: read as one node, ``symbol += count[bits]`` looked overwritten
    unread; the last copy's ``bits++`` is read by no copy either, but every other copy's is."""
    assert _lines(BROTLI, "dead-store") == []


def test_copies_are_placed_at_the_arguments_text() -> None:
    src = BROTLI
    tree = parse_c(src)
    fn = tree.root_node.named_children[-1]
    macros = counting(count_macros(src))
    cfg = CfgBuilder(src.encode().split(b"\n"), BUILTIN, {}, 0, counts=macros).build(fn)
    copies = [n for n in cfg.nodes if n.text == "bits++;"]
    assert [(n.kind, n.row, n.col, n.end_row, n.end_col) for n in copies] == [("stmt", 9, 4, 9, 11)] * 5
    first = copies[0].id
    assert [cfg.twins.get(n.id) for n in copies] == [None] + [first] * 4
    assert cfg.successors(copies[0].id) == [first - 2 + 3]  # the next copy's ``symbol += ...``
    # a statement of the body's own text is placed at the whole call, its ';' too
    once = "#define TRACE(X) { log_start(); X; }\nvoid f(int *p) { TRACE(*p = 1); }\n"
    fn = parse_c(once).root_node.named_children[-1]
    cfg = CfgBuilder(once.encode().split(b"\n"), BUILTIN, {}, 0, counts=counting(count_macros(once))).build(fn)
    placed = {n.text: (n.row, n.col, n.end_col) for n in cfg.nodes if n.kind == "stmt"}
    assert placed == {"log_start();": (1, 17, 31), "*p = 1;": (1, 23, 29)}
    assert cfg.twins == {}


def test_twins() -> None:
    src = (
        REP
        + """\
int good1(int c) {
  int s = 0, o = 0;
  REP3(s += c; o = s;);
  return o;
}
int good2(int c) {
  int s = 0;
  ONCE(s += c);
  return s;
}
int bad1(int c) {
  int t, u = 0;
  REP3({ t = c; t = 2; u += t; }); /*D*/
  return u;
}
int bad2(int c) {
  int x;
  ONCE(if (c) x = 1);
  return x; /*U*/
}
int bad3(int c) {
  int y;
  REP3(c += y; y = 1;); /*R*/
  return c;
}
"""
    )
    found = check_src(src)
    dead = of_rule(found, "dead-store")
    assert [(f.function, f.location.start_line, f.location.start_col) for f in dead] == [
        ("bad1", line_of(src, "/*D*/"), 9)  # t = c, inside the argument
    ]
    unset = of_rule(found, "uninitialised-read")
    assert sorted((f.function, f.location.start_line) for f in unset) == [
        ("bad2", line_of(src, "/*U*/")),
        ("bad3", line_of(src, "/*R*/")),
    ]


def test_nested_macros_an_if_without_braces_and_jumps() -> None:
    src = (
        REP
        + """\
int nested(int c) {
  int s;
  REP3(ONCE(s = c));
  return s;
}
int branch(int c) {
  int s = 0, k;
  if (c) REP3(k = s++);
  return s;
}
int breaks(int c) {
  int i, s = 0, last;
  for (i = 0; i < c; i++) {
    REP3(if (s > 10) break; last = s; s += i;);
  }
  return s + last; /*B*/
}
"""
    )
    assert _lines(src, "uninitialised-read") == [line_of(src, "/*B*/")]
    assert [f.function for f in of_rule(check_src(src), "dead-store")] == ["branch"]  # k is never read


def test_a_statement_macro_of_a_header(tmp_path: Path) -> None:
    (tmp_path / "platform.h").write_text("#define REPEAT_3(X) \\\n  {X; X; X;}\n")
    src = '#include "platform.h"\n' + BROTLI.split("\n", 1)[1].replace("BROTLI_REPEAT_5", "REPEAT_3")
    path = str(tmp_path / "huffman.c")
    project = Project(Config())
    project.update_file(path, src)
    assert of_rule(project.check()[path], "dead-store") != []  # the header unread: one node
    load_headers(project)
    assert of_rule(project.check()[path], "dead-store") == []


def test_an_if_statement_macro_without_its_semicolon_keeps_the_next_statement() -> None:
    # Pillow's FliDecode: ERR_IF_DATA_OOB(2) on its own line, then packets = I16(data);
    macro = (
        "#define NEED(n)                 \\\n    if ((data + (n)) > end) {    \\\n"
        "        return -1;               \\\n    }\n"
    )
    body = (
        "int decode(unsigned char *data, unsigned char *end)\n{\n    int packets;\n"
        "    NEED(2)\n    packets = data[0];\n    data += 2;\n    return packets;\n}\n"
    )
    assert _lines(macro + body, "uninitialised-read") == []
    missing = body.replace("    packets = data[0];\n", "")
    assert _lines(macro + missing, "uninitialised-read") != []  # no store at all: still found
    found = count_macros(macro)
    assert statement_macro(counting(found)["NEED"])


# xxhash's PROCESS1: the body's ``p++`` of the last call is read by no one, but the statement (the
# macro's text) is read after every other call: no dead store of the text
STEPPING = """\
#define STEP s += (*p++) * 5;
#define STEP_CALL() do { s += (*p++) * 5; } while (0)
int sum(const void *ptr, int n)
{
    const unsigned char *p = ptr;
    int s = 0;
    switch (n & 3) {
    case 3: STEP;
    case 2: STEP;
    case 1: STEP;
    case 0: return s;
    }
    return s;
}
"""
# the macro's store is dead at its only call
STORED_ONCE = """\
#define CLEAR last = c;
int count(const int *v, int n)
{
    int last = 0, c = 0;
    for (int i = 0; i < n; i++) {
        if (v[i] == last)
            c++;
        last = v[i];
    }
    CLEAR; /*D*/
    return c;
}
"""


def test_a_store_in_a_macro_body_live_at_another_call_is_no_dead_store() -> None:
    assert of_rule(check_src(STEPPING), "dead-store") == []
    called = STEPPING.replace("STEP;", "STEP_CALL();")
    assert of_rule(check_src(called), "dead-store") == []
    once = STEPPING.replace("    case 3: STEP;\n    case 2: STEP;\n", "")
    assert len(of_rule(check_src(once), "dead-store")) == 1
    assert [f.location.start_line for f in of_rule(check_src(STORED_ONCE), "dead-store")] == [
        line_of(STORED_ONCE, "/*D*/")
    ]


# sqlite's parser template: ``sqlite3ParserCTX_STORE`` is a statement with its own ``;``, written on
# a line of its own, which tree-sitter reads with the next line as one declaration of that "type"
STORE = """\
typedef struct Parser { void *ctx; int depth; int *top; int stack[4]; } Parser;
#define PARSER_CTX_PDECL ,void *ctx
#define parserCTX_STORE p->ctx=ctx;
void parser_init(void *raw PARSER_CTX_PDECL)
{
    Parser *p = (Parser *)raw;
    parserCTX_STORE
    p->top = p->stack;   /*U*/
}
"""


def test_an_object_like_statement_macro_read_with_the_next_line_as_a_declaration() -> None:
    assert check_src(STORE) == []
    # the build that stores nothing (sqlite's fts5 parser: ``#define sqlite3Fts5ParserCTX_STORE``)
    assert check_src(STORE.replace("#define parserCTX_STORE p->ctx=ctx;", "#define parserCTX_STORE")) == []
    # a type's name before a declaration is not a statement: the declaration stays one
    typed = "#define COUNT_T int\nint f(int a)\n{\n    COUNT_T x;\n    return x + a;   /*R*/\n}\n"
    assert _lines(typed, "uninitialised-read") == [line_of(typed, "/*R*/")]


def test_a_sequence_macro_is_expanded_in_a_block_only() -> None:
    """``#define TWO(p) free(p); free(p)`` runs both statements where its call is a statement of a
    block; as the whole body of an ``if`` only the first would be the ``if``'s, so it stays a call."""
    assert sequence_macro((("p",), "free(p); free(p)")) and not statement_macro((("p",), "free(p); free(p)"))
    assert not sequence_macro((("p",), "free(p);")) and not sequence_macro((("x",), "f((a; b))"))
    src = "#include <stdlib.h>\n#define TWO(p) free(p); free(p)\nvoid f(int c) {\n    char *x = malloc(4);\n{call}}\n"
    in_block = src.replace("{call}", "    TWO(x); /*D*/\n")
    assert [(f.rule_id, f.location.start_line) for f in check_src(in_block)] == [
        ("double-free", line_of(in_block, "/*D*/"))
    ]
    guarded = src.replace("{call}", "    if (c)\n        TWO(x);\n    else\n        free(x);\n")
    assert [f.rule_id for f in check_src(guarded) if f.rule_id == "double-free"] == []
