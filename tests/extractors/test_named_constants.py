"""``#define True true``: an object-like macro whose value is ``true`` or ``false`` is that
constant, as ``#define True 1`` is (a macro naming another constant already was).

Real case: pyppmd's ``lib/ppmd/Arch.h`` defines ``True`` as ``true``, and ``while (True) { r = f();
... break; }`` read as a loop that may not run left ``r`` uninitialised after it and a mutex locked
before it held at the return (4 findings).  The twins keep a loop whose constant is false, where
the body never runs and the read is a real bug.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from extractors.api import Project
from extractors.functions import file_constants, top_level_items
from extractors.parse import parse_c
from server.workspace import load_headers
from tests.extractors.helpers import check_src, line_of, of_rule

LOOP = """\
{defines}
int next(int n);
int f(int n) {{
    int r;
    while ({cond}) {{
        r = next(n);
        if (r <= 0)
            break;
        n -= r;
    }}
    return r;   /*R*/
}}
"""

TRUE = {
    "true": ("#define True true", "True"),
    "TRUE through a chain": ("#define ONE 1\n#define YES ONE", "YES"),
    "parenthesised true": ("#define Forever (true)", "Forever"),
}
FALSE = {
    "false": ("#define Never false", "Never"),
    "false through a chain": ("#define ZERO 0\n#define NO ZERO", "NO"),
}


@pytest.mark.parametrize(("defines", "cond"), TRUE.values(), ids=list(TRUE))
def test_a_loop_on_a_macro_for_true_runs_its_body(defines: str, cond: str) -> None:
    src = "#include <stdbool.h>\n" + LOOP.format(defines=defines, cond=cond)
    assert of_rule(check_src(src), "uninitialised-read") == []


@pytest.mark.parametrize(("defines", "cond"), FALSE.values(), ids=list(FALSE))
def test_a_loop_on_a_macro_for_false_never_runs_its_body(defines: str, cond: str) -> None:
    src = "#include <stdbool.h>\n" + LOOP.format(defines=defines, cond=cond)
    found = of_rule(check_src(src), "uninitialised-read")
    assert [f.location.start_line for f in found] == [line_of(src, "/*R*/")]


def test_file_constants_of_true_and_false() -> None:
    src = "#define T true\n#define F false\n#define P (true)\n#define A 3\n#define U UNKNOWN\n"
    consts = file_constants(top_level_items(parse_c(src).root_node))[0]
    assert consts == {"T": 1, "F": 0, "P": 1, "A": 3}


HEADER = "#ifndef H_H\n#define H_H\n#include <stdbool.h>\n{defines}\n#endif\n"


@pytest.mark.parametrize(
    ("defines", "cond", "found"),
    [("#define True true", "True", False), ("#define False false", "False", True)],
    ids=["true", "false"],
)
def test_a_headers_macro_for_true_or_false(tmp_path: Path, defines: str, cond: str, found: bool) -> None:
    """The header's ``#define`` reaches the file through its ``#include`` (extractors.includes)."""
    src = '#include "h.h"\n' + LOOP.format(defines="", cond=cond)
    (tmp_path / "h.h").write_text(HEADER.format(defines=defines))
    path = str(tmp_path / "a.c")
    project = Project()
    project.update_file(path, src)
    assert load_headers(project) == [str(tmp_path / "h.h")]
    got = of_rule(project.check()[path], "uninitialised-read")
    assert [f.location.start_line for f in got] == ([line_of(src, "/*R*/")] if found else [])
