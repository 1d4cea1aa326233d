"""Document sync: LSP changes (UTF-16 positions) applied to bytes and to the line table.

pygls' own TextDocument is the oracle for the resulting text, a fresh scan for the line table and
the checked bytes; a parse of the checked text must have the LSP lines as its rows.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pygls.workspace import TextDocument

from extractors.api import function_name, top_level_functions
from extractors.parse import parse_c
from server.line_ends import checked_bytes, checked_text, split_lines
from server.lsp.documents import Document, _line_starts
from server.lsp.positions import codepoints_to_utf16

SAMPLE = (Path(__file__).parent / "data" / "sample.c").read_text(encoding="utf-8")
URI = "file:///sample.c"

C_TOKENS = [
    "{", "}", "(", ")", ";", ",", "*", "&", "=", "==", "!", "->", ".", "\n", " ", "/*", "*/", "//", '"', "'",
    "int", "char", "void", "struct", "if", "else", "while", "for", "return", "goto", "switch", "case", ":",
    "malloc(10)", "free(p)", "p", "NULL", "#include <x.h>\n", "0", "42", "é", "𝄞", "\t", "[", "]", "?",
    "\r", "\r\n", "#define Q 1\r",
]  # fmt: skip


LINE_ENDS = ["\n", "\r", "\r\n"]


def change(sl: int, sc: int, el: int, ec: int, text: str) -> types.TextDocumentContentChangePartial:
    return types.TextDocumentContentChangePartial(
        range=types.Range(types.Position(sl, sc), types.Position(el, ec)), text=text
    )


def rows(doc: Document) -> list[int]:
    """The first row of each top-level item of a parse of the text the checks read."""
    return [child.start_point[0] for child in parse_c(doc.checked).root_node.children]


def test_locate_counts_utf16_units_on_non_ascii_lines() -> None:
    doc = Document.from_text(URI, "/sample.c", 1, "a𝄞b\né=1;\n")
    # 𝄞 is two UTF-16 units and four UTF-8 bytes: column 3 (UTF-16) is just before "b".
    assert doc.locate(types.Position(0, 3)) == (5, (0, 5))
    assert doc.locate(types.Position(1, 1)) == (len("a𝄞b\n".encode()) + 2, (1, 2))
    # Past the end of a line clamps to its end; past the last line clamps to the document end.
    assert doc.locate(types.Position(0, 99)) == (6, (0, 6))
    assert doc.locate(types.Position(9, 0))[0] == len(doc.source)


def test_an_edit_inside_one_function_changes_its_text_only() -> None:
    doc = Document.from_text(URI, "/sample.c", 1, SAMPLE)
    line = next(i for i, t in enumerate(SAMPLE.splitlines()) if "n++;" in t)
    doc.apply_changes([change(line, 0, line, 0, "            n += 0;\n")], 2)
    lines = SAMPLE.split("\n")
    lines.insert(line, "            n += 0;")
    assert doc.text == "\n".join(lines)
    assert doc.version == 2
    assert doc.line_text(line) == "            n += 0;"
    functions = {function_name(f) for f in top_level_functions(parse_c(doc.checked).root_node)}
    assert "count_lines" in functions


def test_whole_document_change_replaces_text() -> None:
    doc = Document.from_text(URI, "/sample.c", 1, SAMPLE)
    doc.apply_changes([types.TextDocumentContentChangeWholeDocument(text="int x;\n")], 2)
    assert doc.text == "int x;\n"
    assert doc.line_starts == [0, 7]


@st.composite
def edits(draw: st.DrawFn, text: str) -> types.TextDocumentContentChangePartial:
    lines = split_lines(text)

    def position() -> tuple[int, int]:
        line = draw(st.integers(0, len(lines)))
        line_text = lines[line] if line < len(lines) else ""
        # In-line columns only: past-the-end clamping is tested above, and pygls (the oracle) differs there.
        # Line starts and ends are drawn often: that is where line ends meet (a \n typed after a \r).
        column = draw(st.one_of(st.integers(0, len(line_text)), st.sampled_from([0, len(line_text)])))
        return line, codepoints_to_utf16(line_text, column)

    a, b = sorted([position(), position()])
    if draw(st.booleans()):
        b = a
    inserted = "".join(draw(st.lists(st.sampled_from(C_TOKENS), max_size=6)))
    if draw(st.booleans()):
        inserted = draw(st.sampled_from(LINE_ENDS)) + inserted + draw(st.sampled_from(["", *LINE_ENDS]))
    if draw(st.integers(0, 4)) == 0:
        # No Zl/Zp either: pygls (the oracle) splits lines at U+2028 and U+2029, LSP does not.
        inserted += draw(st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=8))
    return change(a[0], a[1], b[0], b[1], inserted)


CR_ONLY = SAMPLE.replace("\n", "\r")
MIXED = "".join(line + ("\n", "\r", "\r\n")[i % 3] for i, line in enumerate(SAMPLE.split("\n")))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), start=st.sampled_from([SAMPLE, CR_ONLY, MIXED]))
def test_random_edits_match_a_fresh_scan_and_pygls_text(data: st.DataObject, start: str) -> None:
    doc = Document.from_text(URI, "/sample.c", 0, start)
    oracle = TextDocument(URI, start)
    for version in range(1, data.draw(st.integers(1, 6)) + 1):
        batch = []
        for _ in range(data.draw(st.integers(1, 3))):
            batch.append(data.draw(edits(oracle.source)))
            oracle.apply_change(batch[-1])
        doc.apply_changes(batch, version)
        assert doc.text == oracle.source
        assert doc.line_starts == _line_starts(doc.source)
        assert doc.checked == checked_bytes(doc.source) and doc.checked_text == checked_text(doc.text)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_edits_never_break_the_check_pipeline(data: st.DataObject) -> None:
    """Half-typed C goes through the same path as in the server: edits applied to the document, its
    checked text handed to the folder's analysis (as the checker process does), checked."""
    from extractors.api import Config
    from server.lsp.analysis import Analysis

    analysis = Analysis(Config())
    doc = Document.from_text(URI, "/w/sample.c", 0, SAMPLE)
    oracle = TextDocument(URI, SAMPLE)
    for version in range(1, data.draw(st.integers(1, 4)) + 1):
        batch = [data.draw(edits(oracle.source))]
        oracle.apply_change(batch[0])
        doc.apply_changes(batch, version)
        outcome = analysis.check_file_sync(doc.path, doc.checked_text, lambda: True)
        assert outcome is not None
        for finding in outcome.findings[doc.path]:
            assert 0 <= finding.location.start_line < len(doc.line_starts)


def test_a_lone_cr_ends_a_line_and_the_checked_text_counts_it() -> None:
    doc = Document.from_text(URI, "/x.c", 1, "int a;\rint b;\r\nint c;\nint d;")
    assert doc.line_starts == [0, 7, 15, 22]
    assert [doc.line_text(i) for i in range(4)] == ["int a;", "int b;", "int c;", "int d;"]
    assert doc.locate(types.Position(1, 4)) == (11, (1, 4))
    assert doc.checked_text == "int a;\nint b;\r\nint c;\nint d;"  # same length, \r\n kept
    assert rows(doc) == [0, 1, 2, 3]


def test_a_newline_typed_after_a_lone_cr_joins_it_into_one_line_end() -> None:
    text = "int a;\rint b;\rint c;\r"
    doc = Document.from_text(URI, "/x.c", 1, text)
    doc.apply_changes([change(1, 0, 1, 0, "\n")], 2)  # right after the first \r: now \r\n, still 4 lines
    assert doc.text == "int a;\r\nint b;\rint c;\r"
    assert doc.line_starts == _line_starts(doc.source) == [0, 8, 15, 22]
    assert doc.checked == b"int a;\r\nint b;\nint c;\n"
    assert rows(doc) == [0, 1, 2]
    doc.apply_changes([change(0, 6, 1, 0, "")], 3)  # the \r\n goes: one line
    assert doc.text == "int a;int b;\rint c;\r" and doc.line_starts == [0, 13, 20]
    doc.apply_changes([change(0, 6, 0, 6, "\r")], 4)  # a \r typed before "int b": a line end again
    doc.apply_changes([change(1, 6, 1, 6, "\r")], 5)  # a \r before a \r: two line ends
    assert doc.text == "int a;\rint b;\r\rint c;\r"
    assert doc.line_starts == _line_starts(doc.source) and len(doc.line_starts) == 5
    assert doc.checked == checked_bytes(doc.source) and rows(doc) == [0, 1, 3]


def test_a_cr_typed_before_a_newline_makes_one_line_end() -> None:
    doc = Document.from_text(URI, "/x.c", 1, "int a;\nint b;\n")
    doc.apply_changes([change(0, 6, 0, 6, "\r")], 2)
    assert doc.text == "int a;\r\nint b;\n"
    assert doc.line_starts == [0, 8, 15] and doc.checked is doc.source
    assert rows(doc) == [0, 1]
