"""Document sync: LSP changes (UTF-16 positions) applied to bytes + incremental tree-sitter re-parse.

pygls' own TextDocument is the oracle for the resulting text, and a fresh parse is the oracle for the tree.
"""

from __future__ import annotations

from pathlib import Path

import tree_sitter
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pygls.workspace import TextDocument

from server.line_ends import checked_bytes, checked_text, split_lines
from server.lsp.documents import Document, _line_starts, new_parser
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


def same_tree(a: tree_sitter.Node, b: tree_sitter.Node) -> bool:
    """Structural equality of two syntax trees (types, byte ranges and points, missing/error flags),
    iteratively. Points matter: the rows of findings are read off them."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if (
            x.type != y.type
            or x.start_byte != y.start_byte
            or x.end_byte != y.end_byte
            or x.start_point != y.start_point
            or x.end_point != y.end_point
            or x.is_missing != y.is_missing
            or x.child_count != y.child_count
        ):
            return False
        stack.extend(zip(x.children, y.children, strict=True))
    return True


def change(sl: int, sc: int, el: int, ec: int, text: str) -> types.TextDocumentContentChangePartial:
    return types.TextDocumentContentChangePartial(
        range=types.Range(types.Position(sl, sc), types.Position(el, ec)), text=text
    )


def fresh_tree_matches(doc: Document) -> bool:
    return same_tree(doc.tree.root_node, new_parser().parse(checked_bytes(doc.source)).root_node)


def incremental_tree_agrees(doc: Document) -> bool:
    """The incremental tree equals a fresh parse wherever tree-sitter promises it: on text without
    syntax errors. On broken text its error recovery may differ after an incremental parse (a
    MISSING ``)`` where a fresh parse makes an ERROR node, found by the test below at 1,500
    examples), so there both trees must only agree that the text is broken."""
    fresh = new_parser().parse(checked_bytes(doc.source)).root_node
    if fresh.has_error or doc.tree.root_node.has_error:
        return fresh.has_error and doc.tree.root_node.has_error
    return same_tree(doc.tree.root_node, fresh)


def test_locate_counts_utf16_units_on_non_ascii_lines() -> None:
    doc = Document.from_text(URI, "/sample.c", 1, "a𝄞b\né=1;\n")
    # 𝄞 is two UTF-16 units and four UTF-8 bytes: column 3 (UTF-16) is just before "b".
    assert doc.locate(types.Position(0, 3)) == (5, (0, 5))
    assert doc.locate(types.Position(1, 1)) == (len("a𝄞b\n".encode()) + 2, (1, 2))
    # Past the end of a line clamps to its end; past the last line clamps to the document end.
    assert doc.locate(types.Position(0, 99)) == (6, (0, 6))
    assert doc.locate(types.Position(9, 0))[0] == len(doc.source)


def test_edit_inside_one_function_reports_only_that_function() -> None:
    doc = Document.from_text(URI, "/sample.c", 1, SAMPLE)
    line = next(i for i, t in enumerate(SAMPLE.splitlines()) if "n++;" in t)
    ranges = doc.apply_changes([change(line, 0, line, 0, "            n += 0;\n")], 2)
    assert doc.functions_in(ranges) == {"count_lines"}
    assert "n += 0;" in doc.text
    assert doc.version == 2
    assert fresh_tree_matches(doc)


def test_half_typed_code_keeps_a_tree_and_recovers() -> None:
    doc = Document.from_text(URI, "/sample.c", 1, SAMPLE)
    line = next(i for i, t in enumerate(SAMPLE.splitlines()) if "fclose(f);" in t)
    doc.apply_changes([change(line, 4, line, 4, "if (f ")], 2)
    assert doc.tree.root_node.has_error
    assert fresh_tree_matches(doc)
    doc.apply_changes([change(line, 4, line, 10, "")], 3)
    assert doc.text == SAMPLE
    assert not doc.tree.root_node.has_error


def test_whole_document_change_replaces_text() -> None:
    doc = Document.from_text(URI, "/sample.c", 1, SAMPLE)
    doc.apply_changes([types.TextDocumentContentChangeWholeDocument(text="int x;\n")], 2)
    assert doc.text == "int x;\n"
    assert fresh_tree_matches(doc)


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
def test_random_edits_match_a_fresh_parse_and_pygls_text(data: st.DataObject, start: str) -> None:
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
        assert incremental_tree_agrees(doc)


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


def test_a_lone_cr_ends_a_line_and_the_tree_counts_it() -> None:
    doc = Document.from_text(URI, "/x.c", 1, "int a;\rint b;\r\nint c;\nint d;")
    assert doc.line_starts == [0, 7, 15, 22]
    assert [doc.line_text(i) for i in range(4)] == ["int a;", "int b;", "int c;", "int d;"]
    assert doc.locate(types.Position(1, 4)) == (11, (1, 4))
    assert doc.checked_text == "int a;\nint b;\r\nint c;\nint d;"  # same length, \r\n kept
    rows = [child.start_point[0] for child in doc.tree.root_node.children]
    assert rows == [0, 1, 2, 3]


def test_a_newline_typed_after_a_lone_cr_joins_it_into_one_line_end() -> None:
    text = "int a;\rint b;\rint c;\r"
    doc = Document.from_text(URI, "/x.c", 1, text)
    doc.apply_changes([change(1, 0, 1, 0, "\n")], 2)  # right after the first \r: now \r\n, still 4 lines
    assert doc.text == "int a;\r\nint b;\rint c;\r"
    assert doc.line_starts == _line_starts(doc.source) == [0, 8, 15, 22]
    assert doc.checked == b"int a;\r\nint b;\nint c;\n"
    assert [c.start_point[0] for c in doc.tree.root_node.children] == [0, 1, 2]
    assert fresh_tree_matches(doc)
    doc.apply_changes([change(0, 6, 1, 0, "")], 3)  # the \r\n goes: one line
    assert doc.text == "int a;int b;\rint c;\r" and doc.line_starts == [0, 13, 20]
    doc.apply_changes([change(0, 6, 0, 6, "\r")], 4)  # a \r typed before "int b": a line end again
    doc.apply_changes([change(1, 6, 1, 6, "\r")], 5)  # a \r before a \r: two line ends
    assert doc.text == "int a;\rint b;\r\rint c;\r"
    assert doc.line_starts == _line_starts(doc.source) and len(doc.line_starts) == 5
    assert doc.checked == checked_bytes(doc.source) and fresh_tree_matches(doc)


def test_a_cr_typed_before_a_newline_makes_one_line_end() -> None:
    doc = Document.from_text(URI, "/x.c", 1, "int a;\nint b;\n")
    doc.apply_changes([change(0, 6, 0, 6, "\r")], 2)
    assert doc.text == "int a;\r\nint b;\n"
    assert doc.line_starts == [0, 8, 15] and doc.checked is doc.source
    assert fresh_tree_matches(doc)
