"""Cutting a file into pieces (``extractors.pieces``) and reading its items piece by piece
(``extractors.items``): what the cuts are, that cutting an edited text again is exactly cutting it
from scratch, and that an edit re-reads the piece it touches and nothing else."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from extractors.api import Project
from extractors.items import file_items, piece_items, segment_items
from extractors.parse import parse_c
from extractors.pieces import Piece, cut, readable, recut
from extractors.queries import function_model


def _executed(p: Project, query: object) -> int:
    return p.db.counters()[query.name].executed  # type: ignore[attr-defined]


def _functions(n: int, body: str = "    return x + {i};\n") -> str:
    return "".join(f"int f{i}(int x)\n{{\n" + body.format(i=i) + "}\n\n" for i in range(n))


def test_a_piece_ends_after_each_top_level_closing_brace() -> None:
    src = "struct s {\n  int a;\n};\n" + _functions(3) + "int tail;\n"
    pieces = cut(src.encode())
    assert b"".join(p.text for p in pieces) == src.encode()
    assert [p.text.splitlines()[-1] for p in pieces[:-1]] == [b"};", b"}", b"}", b"}"]
    assert pieces[-1].text == b"\nint tail;\n"


def test_no_cut_inside_braces_comments_strings_directives_or_a_later_branch() -> None:
    src = (
        "int a(void) {\n  if (x) {\n}\n  return 0;\n}\n"  # a column-0 brace inside a body
        "/* a comment\n}\n*/\n"
        'const char *s = "\\\n}\\\n";\n'
        "#define OPEN {\n"
        "#if A\nint b(void) {\n#else\nint b(int y) {\n#endif\n  return 1;\n}\n"  # one pair either way
        "#if B\nint c(void) { return 2; }\n#else\nint c(void) { return 3;\n}\n#endif\n"
        "int d(void) { return 4; }\n"
    )
    pieces = cut(src.encode())
    ends = [p.text.rsplit(b"\n", 2)[-2] for p in pieces[:-1]]
    assert ends == [b"}", b"}", b"int c(void) { return 2; }"]  # a, the first b, c in the first branch
    assert [p.opened for p in pieces] == [(), (), (), (b"#if B",)]


def test_a_piece_inside_conditionals_is_read_with_them_opened_and_closed() -> None:
    src = "#ifndef GUARD\n#define GUARD\n" + _functions(2) + "#else\nint f0(void) { return 9; }\n#endif\n"
    pieces = cut(src.encode())
    assert len(pieces) == 3 and pieces[1].opened == (b"#ifndef GUARD",)
    text, rows = readable(pieces[1].text, pieces[1].opened)
    assert rows == 1 and text.startswith(b"#ifndef GUARD\n") and not parse_c(text).root_node.has_error
    last, rows = readable(pieces[2].text, pieces[2].opened)  # its #else and #endif close the one opened
    assert rows == 1 and not last.endswith(b"#endif\n#endif\n")
    p = Project()
    p.update_file("g.c", src)
    items = p.db.get(file_items, "g.c")
    assert list(items.functions) == ["f0", "f1"] and items.functions["f1"].row == 7


def test_an_error_stays_in_its_item() -> None:
    """A declaration tree-sitter cannot read (a conditional between a declarator and its
    initialiser, sqlite3.c's ``nullMem``) swallowed every definition after it in a parse of the
    whole file; read piece by piece, the next function is found."""
    broken = (
        "static const Mem *nullValue(void){\n  static const Mem nullMem\n#if defined(DEBUG)\n"
        "    __attribute__((aligned(8)))\n#endif\n    = { 0 };\n  return &nullMem;\n}\n\n"
    )
    src = "#ifndef AMALGAMATION\n" + broken + _functions(3) + "#endif\n"
    p = Project()
    p.update_file("m.c", src)
    assert {"f0", "f1", "f2"} <= set(p.db.get(file_items, "m.c").functions)
    # the broken one is not skipped in silence: it is named where it starts
    notes = [(u.function, u.location.start_line, u.location.start_col) for u in p.unmodelled("m.c")]
    assert notes == [("nullValue", 1, 18)]


def test_typing_in_one_function_reads_one_piece_again() -> None:
    src = _functions(200)
    p = Project()
    p.update_file("big.c", src)
    p.db.reset_counters()
    p.update_file("big.c", src.replace("return x + 100;", "return x + 1000;"))
    assert _executed(p, piece_items) == 1
    assert _executed(p, segment_items) == 1
    p.db.reset_counters()
    p.update_file("big.c", src.replace("return x + 100;", "x++;\n    return x + 1000;"))  # a new line
    assert _executed(p, piece_items) == 1 and _executed(p, segment_items) == 1
    assert p.db.get(file_items, "big.c").functions["f150"].row == 150 * 5 + 1


def test_a_brace_left_open_spoils_one_piece() -> None:
    """Typing a new function (or a block in one) leaves a brace open until its ``}`` is typed: the
    next definition's header at column 0 still starts a piece, so the rest of the file is read
    as it was, and re-cutting each state of the typing is cutting it afresh."""
    before, after = _functions(300), _functions(3).replace("int f", "static int g")
    p = Project()
    p.update_file("t.c", before + after)
    pieces = cut((before + after).encode())
    old = (before + after).encode()
    header = "static int zz(void) {\n"
    for typed in (header, header + "  return 0;\n", header + "  if (x) {\n"):
        # (zz itself is read as well as its piece allows: two braces left open, not at all)
        new = (before + typed + after).encode()
        again = recut(new, old, pieces)
        assert again == cut(new)
        assert again[-3:] == pieces[-3:]  # the g functions' pieces as they were
        p.db.reset_counters()
        p.update_file("t.c", new.decode())
        assert _executed(p, piece_items) <= 2
        functions = p.db.get(file_items, "t.c").functions
        assert {"g0", "g1", "g2"} <= set(functions) and functions["g2"].text.endswith(b"return x + 2;\n}")
        old, pieces = new, again
    gnu = (before + "static int zz(void) {\nstatic int\ng9(int x)\n{\n  return x;\n}\n").encode()
    assert cut(gnu)[-1].text == b"static int\ng9(int x)\n{\n  return x;\n}\n"  # with its specifiers' line
    assert recut(gnu.replace(b"g9(int x)", b"g9(int y)"), gnu, cut(gnu)) == cut(gnu.replace(b"g9(int x)", b"g9(int y)"))
    # what decides a cut lies after it: an edit past a long parameter list can undo the cut
    params = ", ".join(f"int a{i}" for i in range(300))
    long = (before + f"static int zz(void) {{\nstatic int g9({params})\n{{\n  return 0;\n}}\n").encode()
    declared = long.replace(b")\n{\n  return 0;", b");\n{\n  return 0;")
    assert len(cut(declared)) < len(cut(long))
    assert recut(declared, long, cut(long)) == cut(declared)


def test_definitions_inside_extern_c_are_no_brace_left_open() -> None:
    src = '#ifdef __cplusplus\nextern "C" {\n#endif\n' + _functions(3) + "#ifdef __cplusplus\n}\n#endif\n"
    assert b"int f2" in cut(src.encode())[0].text  # read whole, as tree-sitter reads the linkage block


_ATOMS = [
    "int f(void) {\n  return 0;\n}\n",
    "struct s { int a; };\n",
    "int g = 1;\n",
    "#if A\n",
    "#ifdef B\n",
    "#else\n",
    "#elif C\n",
    "#endif\n",
    "#define M(x) { x }\n",
    "/* } */\n",
    "// }\n",
    '"}"\n',
    "'}'\n",
    "{\n",
    "}\n",
    "};\n",
    "} x;\n",
    "extern \"C\" {\n",
    "x = 1; \\\n",
    "\n",
    "static int h(int a)\n",  # a definition's header (a brace left open before it cuts before it)
    "int\n",  # a line of specifiers, GNU style
    "g(void) {\n",
]


@st.composite
def _texts(draw: st.DrawFn) -> bytes:
    return "".join(draw(st.lists(st.sampled_from(_ATOMS), max_size=40))).encode()


@settings(max_examples=400, deadline=None)
@given(old=_texts(), at=st.integers(0, 10_000), drop=st.integers(0, 40), new=_texts())
@example(old=b"#if A\nint f(void) {\n}\n#else\n}\n", at=8, drop=0, new=b"}\n")
def test_cutting_an_edited_text_again_is_cutting_it_afresh(old: bytes, at: int, drop: int, new: bytes) -> None:
    at = min(at, len(old))
    edited = old[:at] + new + old[at + drop :]
    pieces = cut(old)
    assert b"".join(p.text for p in pieces) == old
    assert recut(edited, old, pieces) == cut(edited)


def test_cut_keeps_every_byte_of_an_empty_or_uncut_text() -> None:
    assert cut(b"") == (Piece((), b""),)
    assert cut(b"int x;\n") == (Piece((), b"int x;\n"),)


def test_a_brace_left_open_keeps_the_defines_in_its_body() -> None:
    """A block being typed in a function whose body opens a block in each branch of a conditional
    (sqlite3.c's sqlite3_str_vappendf): the piece is read in its least broken form, which blanks
    the ``#define`` lines before the function with the code around them, but the preprocessor
    defines them all the same: the file's constants stay, and so does every other function's
    context (no model of another function is built again)."""
    defines = (
        "#ifdef PLIMIT\n# if PLIMIT<100\n#   define LIMIT PLIMIT\n# else\n#   define LIMIT 100\n# endif\n"
        "#else\n# define LIMIT 100\n#endif\n\n"
    )
    g = (
        "int g(int c)\n{\n  int idx;\n  for(idx=0; idx<LIMIT; idx++){\n#if defined(WIDE)\n    if( c==idx ){\n"
        "#else\n    if( c==idx+1 ){\n#endif\n      c++;\n    }\n  }\n  return c;\n}\n\n"
    )
    src = _functions(20) + defines + g + _functions(3).replace("int f", "int h")
    p = Project()
    p.update_file("d.c", src)
    before = p.db.get(file_items, "d.c")
    assert dict(before.scope.consts)["LIMIT"] == 100
    p.call_graph()  # every model built
    p.db.reset_counters()
    p.update_file("d.c", src.replace("  int idx;\n", "  int idx;\n  if (bench) {\n"))
    after = p.db.get(file_items, "d.c")
    assert after.scope.consts == before.scope.consts
    p.call_graph()
    assert _executed(p, function_model) <= 1  # g's own, if it is read at all
