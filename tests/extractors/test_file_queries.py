"""The front end's queries (``extractors.queries``): what an edit recomputes, read from the
database's own counters, and the parts that replace text scans of the whole file."""

from __future__ import annotations

import builtins
import os
import threading
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from extractors.api import Cancelled, Finding, Project
from extractors.functions import macro_specs
from extractors.items import file_segments, segment_items
from extractors.macro_calls import renames, resolved
from extractors.preprocessor import directives
from extractors.queries import file_items, file_macros, file_models, function_model

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _file(functions: int) -> str:
    return "".join(
        f"int f{i}(int x)\n{{\n    char *p = malloc(x);\n    if (!p) return 0;\n    free(p);\n    return x + {i};\n}}\n"
        for i in range(functions)
    )


def _executed(p: Project, query: object) -> int:
    return p.db.counters()[query.name].executed  # type: ignore[attr-defined]


def test_a_scope_reads_models_by_segment_and_builds_no_second_definition() -> None:
    """A scope verifies one memo per segment of a file after an edit, not one per function; a
    name defined again (in a later segment, or in the same one) keeps its first definition, as
    the file's items do, and the second is never built."""
    src = _file(200)
    second = "int f3(int x)\n{\n    return x;\n}\n"  # f3 again, twice: the file's items keep the first
    text = src.replace("int f150(", second + second + "int f150(")
    p = Project()
    p.update_file("big.c", text)
    p.check(["big.c"], interprocedural=False)
    assert p.counters["functions_extracted"] == 200  # neither f3 again
    segments = p.db.counters()["segment_models"].executed
    assert 10 < segments < 200  # the file's 202 definitions are read in segments of several
    with p.db.snapshot():
        read = [(name, body) for name, body, _ in file_models(p.db, "big.c")]
        assert read == [(n, item.text) for n, item in p.db.get(file_items, "big.c").functions.items()]
    p.db.reset_counters()
    p.update_file("big.c", text.replace("return x + 100;", "return x + 1000;"))
    p.check(["big.c"], interprocedural=False)
    counters = p.db.counters()
    assert counters["segment_models"].executed == 1 and counters["segment_models"].verified == segments - 1
    assert counters["function_model"].executed == 1  # f100
    with p.db.snapshot():  # and the others of its segment, verified: no other model is looked at
        runs = [[n for n, _, _ in p.db.get(segment_items, run).functions] for run in p.db.get(file_segments, "big.c")]
    edited = next(names for names in runs if "f100" in names)
    assert "f3" in edited  # defined again there: skipped, not verified
    assert counters["function_model"].verified == len(set(edited) - {"f3", "f100"}) < 200


def test_typing_in_one_body_of_200_functions_rebuilds_that_one_model_only() -> None:
    src = _file(200)
    p = Project()
    p.update_file("big.c", src)
    p.check(["big.c"], interprocedural=False)
    assert p.counters["functions_extracted"] == 200
    p.db.reset_counters()

    same_rows = src.replace("return x + 100;", "return x + 1000;")  # inside f100, no new line
    p.update_file("big.c", same_rows)
    p.check(["big.c"], interprocedural=False)
    assert _executed(p, function_model) == 1
    assert _executed(p, file_items) == 1  # the file's items are read again, once
    assert p.counters["functions_reused"] == 199

    p.db.reset_counters()
    one_more_row = same_rows.replace("return x + 1000;", "x++;\n    return x + 1000;")
    before = dict(p.files["big.c"].model.functions)
    p.update_file("big.c", one_more_row)
    after = p.files["big.c"].model.functions
    assert _executed(p, function_model) == 1
    assert all(after[f"f{i}"].start_row == before[f"f{i}"].start_row for i in range(100))
    assert all(after[f"f{i}"].start_row == before[f"f{i}"].start_row + 1 for i in range(101, 200))
    assert all(after[f"f{i}"].key == before[f"f{i}"].key for i in range(101, 200))


def test_a_new_constant_rebuilds_the_file_and_a_comment_rebuilds_nothing() -> None:
    src = _file(5)
    p = Project()
    p.update_file("a.c", src)
    assert len(p.files["a.c"].model.functions) == 5
    p.db.reset_counters()
    p.update_file("a.c", "/* a comment */\n" + src)
    assert len(p.files["a.c"].model.functions) == 5 and _executed(p, function_model) == 0
    p.update_file("a.c", "enum { LIMIT = 4 };\n" + src)
    assert len(p.files["a.c"].model.functions) == 5 and _executed(p, function_model) == 5


def test_the_front_end_reads_no_file_and_headers_count_once_handed_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    header = tmp_path / "get.h"
    header.write_text("#define fetch(t, slot) (slot = lookup(t))\n")
    src = '#include "get.h"\nint lookup(int t);\nint f(int t) { int slot; fetch(t, slot); return slot; }\n'

    def no_io(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"file I/O in the front end: {args}")

    p = Project()
    with monkeypatch.context() as m:
        for target, name in ((builtins, "open"), (os, "stat"), (os, "open"), (Path, "read_bytes")):
            m.setattr(target, name, no_io)
        p.update_file(str(tmp_path / "f.c"), src)
        unread = p.unread_headers()
        assert unread == [str(header)]
        assert [f.rule_id for f in p.check()[str(tmp_path / "f.c")]] == ["uninitialised-read"]
        p.set_header(unread[0], "#define fetch(t, slot) (slot = lookup(t))\n")  # what an edge read
        assert p.check()[str(tmp_path / "f.c")] == []
        assert p.unread_headers() == []
        p.db.reset_counters()
        p.set_header(unread[0], "/* the same macros */\n#define fetch(t, slot) (slot = lookup(t))\n")
        assert p.check()[str(tmp_path / "f.c")] == [] and _executed(p, function_model) == 0


LINES = [
    "#define SET(k, n) ((k) = (n))",
    "#define ADD(k, n) \\",
    "    ((k) += (n))",
    "  # define PUT(a) a = 1 /* a comment",
    "   that goes on */ b = 2",
    "/* #define GONE(x) x = 0 */",
    "#define XF free",
    "#define AL(n) \\",
    "    ((char *)malloc(n)) /* a rename */",
    "int f(int x) { x = 1; return x; }",
    "int g(int x) {\n#define IN(a) a = 0\n    return x;\n}",
    "    y = SET(a, 2); // #define NOT(x) x = 1",
    "#define TWO(p, q) p = q; \\\r",
    "    q = p",
    "",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LINES), min_size=1, max_size=8))
# a continuation line that starts with "#define": the splice comes first, so SET is AL's body (the
# parse ends AL there and reads SET as a definition of its own, which the queries took twice)
@example(
    lines=[
        "#define ADD(k, n) \\",
        "int g(int x) {\n#define IN(a) a = 0\n    return x;\n}",
        "    ((k) += (n))",
        "#define AL(n) \\",
        "#define SET(k, n) ((k) = (n))",
    ]
)
def test_macros_from_the_defines_the_parse_finds_are_those_of_the_whole_text(lines: list[str]) -> None:
    """Tree-sitter ends some definitions early or swallows the next ones; the defines the queries
    keep (so that an edit elsewhere leaves the macros alone) must still give what a scan of the
    whole text gives, for each macro defined once (one defined twice is the build's: see
    tests/extractors/test_build_macros.py)."""
    text = "\n".join(lines) + "\n"
    p = Project()
    p.update_file("a.c", text)
    once = {n for n, k in Counter(_defined_names(text)).items() if k == 1}
    got = {n: spec for n, spec in p.db.get(file_macros, "a.c") if n in once}
    assert got == {n: spec for n, spec in resolved(renames(text), p.table, macro_specs(text)).items() if n in once}


def _defined_names(text: str) -> list[str]:
    return [rest.split("(")[0].split()[0] for kind, rest in directives(text.encode()) if kind == "define" and rest]


def test_macros_of_real_files_are_those_of_the_whole_text() -> None:
    files = sorted(EXAMPLES.glob("*.c")) + sorted((Path(__file__).parent / "data").rglob("*.c"))
    assert files
    p = Project()
    for f in files:
        text = f.read_text(errors="replace")
        p.update_file(str(f), text)
        want = resolved(renames(text), p.table, macro_specs(text))
        got = p.db.get(file_macros, str(f))
        assert dict(got) == want, f


def test_a_new_text_cancels_a_running_check_which_returns_nothing() -> None:
    """The server's contract: a write from another thread stops the check in flight at its next
    function; the check hands back nothing of the old revision, and the next check is a fresh
    run's."""
    src = _file(300).replace("    free(p);\n    return x + 150;", "    return x + 150;")  # f150 leaks
    p = Project()
    p.update_file("big.c", src)
    started = threading.Event()
    outcome: list[object] = []

    def run() -> None:
        def heard(path: str, found: list[Finding]) -> None:
            started.set()  # never waits for the writer: the writer waits for this thread

        try:
            outcome.append(p.check(["big.c"], interprocedural=False, partial=heard, partial_every=0))
        except Cancelled as e:
            outcome.append(e)

    worker = threading.Thread(target=run)
    worker.start()
    assert started.wait(60)
    fixed = src.replace("    return x + 150;", "    free(p);\n    return x + 150;", 1)
    p.set_file("big.c", fixed)  # returns once the check has unwound
    worker.join(60)
    assert len(outcome) == 1 and isinstance(outcome[0], Cancelled)
    fresh = Project()
    fresh.update_file("big.c", fixed)
    assert p.check(["big.c"], interprocedural=False) == fresh.check(["big.c"], interprocedural=False) == {"big.c": []}


_ODD_PLACES = """\
int g; int after_a_global(char *p) { free(p); return *p; }
/* é */ int after_a_wide_char(char *p) { free(p); return *p; }
#ifdef X
int in_a_conditional(int n)
{
    char *q = malloc(n);
    if (n) { return 0; }
    free(q);
    return n;
}
#endif
int broken(int n) { if (n { return 1; } return 0; }
\tint tabbed(char *s)\r
{\r
    free(s);\r
    free(s);\r
    return 0;\r
}\r
"""


@pytest.mark.parametrize(
    "source",
    [*sorted(EXAMPLES.glob("*.c")), Path(__file__).parent / "data" / "realistic.c", "odd places"],
    ids=str,
)
def test_a_model_built_from_the_file_parse_is_the_model_of_its_text_alone(source: Path | str) -> None:
    """``function_model`` builds from the definition in the file's parse when it may (no syntax
    error, one byte per character before it on its line): that must be exactly the model parsing
    the function's text alone gives, or a memo computed one way would differ from one computed
    the other."""
    text = _ODD_PLACES if source == "odd places" else Path(source).read_text()
    from_file, alone = Project(), Project()
    for p in (from_file, alone):
        p.update_file("t.c", text)
    items = from_file.db.get(file_items, "t.c").functions
    alone.db.get(file_items, "t.c")
    alone.db.parsed.clear()  # nothing to take: each function is parsed from its text
    reused = 0
    for name, item in items.items():
        reused += (name, item.text) in from_file.db.parsed["t.c"]
        a = from_file.db.get(function_model, ("t.c", name, item.text))
        b = alone.db.get(function_model, ("t.c", name, item.text))
        assert a == b, name
    assert reused >= len(items) - (3 if source == "odd places" else 0)
    assert not from_file.db.parsed["t.c"]  # each taken once, and let go


def test_a_dropped_project_frees_its_models_without_a_garbage_collection() -> None:
    """Memos point back at their tables; the project releases them when it goes, so that the next
    full collection does not have to find a whole database of cyclic garbage."""
    import gc
    import weakref

    from extractors.functions import FunctionModel

    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        p = Project()
        p.update_file("/a.c", "#include <stdlib.h>\nvoid f(void) { char *q = malloc(1); }\nvoid g(void) { f(); }\n")
        assert p.check(["/a.c"])
        models = [weakref.ref(o) for o in gc.get_objects() if isinstance(o, FunctionModel)]
        assert len(models) >= 2
        del p
        assert [r() for r in models if r() is not None] == []
    finally:
        if was_enabled:
            gc.enable()
