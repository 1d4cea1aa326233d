"""Atoms as data (issue #13): ``[[atoms]]`` tree-sitter queries label CFG nodes, and custom rules
over them run through extraction, projection, check and findings like the built-in atoms.

The README's two worked examples are read from the README itself, so the documented TOML is the
TOML these tests run."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from extractors.api import Project
from extractors.calls import BUILTIN
from extractors.config import Config, ConfigError, config_from_text
from extractors.functions import build_function, function_name, top_level_items
from extractors.parse import parse_c
from tests.extractors.helpers import check_src, line_of, of_rule

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_toml(marker: str) -> str:
    """The README's indented block that contains ``marker``, dedented."""
    blocks = re.findall(r"(?:^(?: {4}.*)?\n)+", README.read_text(encoding="utf-8"), flags=re.M)
    hits = [b for b in blocks if marker in b]
    assert len(hits) == 1, f"{marker!r} in {len(hits)} README blocks"
    return textwrap.dedent(hits[0])


TX = readme_toml('id = "tx-not-ended"')
STRCPY = readme_toml('id = "strcpy-unmeasured"')

TX_BAD = """
int debit(struct db *db, int amount);
int transfer(struct db *db, int amount)
{
    begin_tx(db);                       /*BEGIN*/
    if (debit(db, amount) < 0)
        return -1;                      /* the transaction stays open */
    commit_tx(db);
    return 0;
}
"""
TX_FIXED = TX_BAD.replace("        return -1;", "    {\n        abort_tx(db);\n        return -1;\n    }")


def test_readme_transaction_example_finds_the_open_transaction_at_begin() -> None:
    found = of_rule(check_src(TX_BAD, config_from_text(TX)), "tx-not-ended")
    assert [(f.location.start_line, f.message) for f in found] == [
        (line_of(TX_BAD, "/*BEGIN*/"), "transaction on 'db' is neither committed nor aborted on some path")
    ]
    assert of_rule(check_src(TX_FIXED, config_from_text(TX)), "tx-not-ended") == []


def test_a_project_function_that_commits_its_parameter_ends_the_transaction() -> None:
    """The atom is a label like the built-in ones: a call hands ``db`` into the callee's component,
    whose ``tx_end`` counts on the caller's path (and the callee itself begins nothing)."""
    helper = "void finish(struct db *d, int ok)\n{\n    if (ok)\n        commit_tx(d);\n"
    helper += "    else\n        abort_tx(d);\n}\n"
    fixed = helper + TX_BAD.replace("    commit_tx(db);", "    finish(db, 1);").replace(
        "        return -1;", "    {\n        finish(db, 0);\n        return -1;\n    }"
    )
    assert of_rule(check_src(fixed, config_from_text(TX)), "tx-not-ended") == []
    bad = helper + TX_BAD.replace("    commit_tx(db);", "    finish(db, 1);")
    found = of_rule(check_src(bad, config_from_text(TX)), "tx-not-ended")
    assert [f.location.start_line for f in found] == [line_of(bad, "/*BEGIN*/")]


STRCPY_BAD = """
#include <string.h>
void set_name(char *dst, const char *name)
{
    strcpy(dst, name);                  /*COPY*/
}
"""
STRCPY_FIXED = """
#include <string.h>
int set_name(char *dst, const char *name)
{
    if (strlen(name) >= 32)
        return -1;
    strcpy(dst, name);
    return 0;
}
"""
STRCPY_SIZED = """
#include <stdlib.h>
#include <string.h>
char *copy(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    if (d)
        strcpy(d, s);
    return d;
}
"""
STRCPY_ONE_BRANCH = """
#include <string.h>
void set_name(char *dst, const char *name, int trusted)
{
    if (!trusted && strlen(name) >= 32)
        return;
    strcpy(dst, name);                  /*COPY*/
}
"""


def test_readme_strcpy_example_finds_the_unmeasured_copy_at_strcpy() -> None:
    config = config_from_text(STRCPY)
    for bad in (STRCPY_BAD, STRCPY_ONE_BRANCH):  # the second measures only when !trusted
        found = of_rule(check_src(bad, config), "strcpy-unmeasured")
        assert [(f.location.start_line, f.message) for f in found] == [
            (line_of(bad, "/*COPY*/"), "'name' is copied with strcpy before its length is checked")
        ], bad
    for fixed in (STRCPY_FIXED, STRCPY_SIZED):
        assert of_rule(check_src(fixed, config), "strcpy-unmeasured") == [], fixed


# ----- a built-in atom written as an [[atoms]] entry -----------------------------------------------
RELEASE = """
[[atoms]]
name = "release"
query = '(call_expression function: (identifier) @f (#eq? @f "free") arguments: (argument_list . (_) @value))'
[[rules.custom]]
id = "double-release"
formula = "E F (release & E X E (~def U release))"
message = "'{var}' released twice"
"""
FREES = """
#include <stdlib.h>
void drop(char *b)
{
    free(b);
}
void twice(char *p, int n)
{
    drop(p);
    if (n)
        free(p);
}
void once(char *q)
{
    free(q);
    q = malloc(4);
    free(q);
}
void loop(char **v, int n)
{
    char *p = v[0];
    for (int i = 0; i < n; i++)
        free(p);                        /*LOOP*/
}
"""


def test_the_built_in_free_atom_as_a_query_gives_the_same_findings() -> None:
    """``free`` is a row of library.toml; the same calls matched by a query label the same nodes,
    so the double-free formula over the query's atom finds what the built-in rule finds, along
    the same witness path (double-free reports at the path's last step, a custom rule at its
    trigger, the first free)."""
    found = check_src(FREES, config_from_text(RELEASE))

    def paths(rule: str) -> list[tuple[str, list[tuple[object, ...]]]]:
        return [
            (f.function, [(s.location, s.function, s.stack, s.kind) for s in f.witness]) for f in of_rule(found, rule)
        ]

    assert paths("double-free") == paths("double-release")
    assert [f.function for f in of_rule(found, "double-release")] == ["twice", "loop"]
    first = [f.location.start_line for f in of_rule(found, "double-release")]
    assert first == [line_of(FREES, "drop(p);"), line_of(FREES, "/*LOOP*/")]


# ----- where a match's atom holds --------------------------------------------------------------------
def _events(src: str, atoms: tuple[tuple[str, str], ...]) -> list[tuple[str, str, str]]:
    fn = next(n for n in top_level_items(parse_c(src).root_node) if n.type == "function_definition")
    model = build_function(fn, "t.c", src.encode().split(b"\n"), BUILTIN, {}, "k", atoms=atoms)
    assert model is not None and function_name(fn)
    names = {a for a, _ in atoms}
    return [(n.kind, n.text, p) for n in model.cfg.nodes for p, a in n.events if a in names]


def test_the_atom_holds_at_the_innermost_node_with_the_captured_value() -> None:
    src = "void f(struct s *s, struct ctx ctx)\n{\n    if (ready(s->conn) && go(&ctx))\n        run(s->conn);\n}\n"
    call = '(call_expression function: (identifier) @f (#eq? @f "{}") arguments: (argument_list (_) @value))'
    conn, addr = ("conn", call.format("ready")), ("addr", call.format("go"))
    assert _events(src, (conn, addr)) == [("cond", "ready(s->conn)", "s->conn"), ("cond", "go(&ctx)", "ctx")]
    # a capture that names no access path labels nothing
    index = ("index", "(call_expression arguments: (argument_list (subscript_expression) @value))")
    assert _events("void f(int *a)\n{\n    use(a[1]);\n}\n", (index,)) == []


def test_a_value_only_the_query_names_becomes_a_tracked_value() -> None:
    """``sizeof big`` reads nothing of ``big`` (no built-in fact names it), so without the atom
    ``big`` is no value of ``f``; the atom's event makes it one, checked by a rule over it."""
    src = "char big[64];\nunsigned f(void)\n{\n    unsigned n = sizeof big;\n    return n;\n}\n"
    sized = (
        "[[atoms]]\nname = \"sized\"\nquery = '(sizeof_expression value: (identifier) @value)'\n"
        '[[rules.custom]]\nid = "sized"\nformula = "E F sized"\nmessage = "size of {var} taken"\n'
    )
    assert _events(src, ()) == []
    assert _events(src, config_from_text(sized).atoms) == [("decl", "unsigned n = sizeof big;", "big")]
    found = of_rule(check_src(src, config_from_text(sized)), "sized")
    assert [(f.message, f.location.start_line) for f in found] == [("size of big taken", 3)]


# ----- configuration errors --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        # tree-sitter's own message, at the line of the entry's query key (the second entry's)
        (
            '[[atoms]]\nname = "a"\nquery = "(identifier) @value"\n\n[[atoms]]\nname = "b"\n'
            'query = "(call_expression fun: (identifier) @value)"\n',
            7,
            "atom 'b': invalid tree-sitter query: Invalid field name at row 0, column 17: fun",
        ),
        ('[[atoms]]\nname = "a"\nquery = "(call_expression"\n', 3, "invalid tree-sitter query: Unexpected EOF"),
        ('[[atoms]]\nname = "a"\nquery = "(no_such_node) @value"\n', 3, "Invalid node type"),
        ('[[atoms]]\nname = "a"\nquery = "(identifier) @v"\n', 3, "captures no @value"),
        ('[[atoms]]\nname = "a"\nquery = "(identifier) @value (#lua-match? @value x)"\n', 3, "#lua-match?"),
        ('[[atoms]]\nname = "free"\nquery = "(identifier) @value"\n', 2, "clashes with a built-in atom"),
        ('[[atoms]]\nname = "E"\nquery = "(identifier) @value"\n', 2, "not a CTL keyword"),
        ('[[atoms]]\nname = "a b"\nquery = "(identifier) @value"\n', 2, "must be an identifier"),
        ('[[atoms]]\nname = "a"\n', 1, "needs a non-empty string 'query'"),
        ('[[atoms]]\nquery = "(identifier) @value"\n', 1, "needs a non-empty string 'name'"),
        ('[[atoms]]\nname = "a"\nquery = "(identifier) @value"\nwhere = 1\n', 4, "unknown key 'where'"),
        (
            '[[atoms]]\nname = "a"\nquery = "(identifier) @value"\n' * 2,
            5,
            "duplicate atom 'a'",
        ),
        ('atoms = "x"\n', 1, "array of tables"),
        (
            '[[atoms]]\nname = "tx_begin"\nquery = "(identifier) @value"\n'
            '[[rules.custom]]\nid = "r"\nformula = "E F (tx_begin & E F tx_edn)"\nmessage = "m"\n',
            6,
            "unknown atom 'tx_edn'",
        ),
    ],
)
def test_bad_atoms_are_errors_naming_the_file_and_line(text: str, line: int, words: str) -> None:
    with pytest.raises(ConfigError) as err:
        config_from_text(text, "proj/ctlsp.toml")
    assert err.value.path == "proj/ctlsp.toml" and err.value.line == line, str(err.value)
    assert words in err.value.message and str(err.value).startswith(f"proj/ctlsp.toml:{line}: ")


def test_atoms_under_tool_ctlsp_in_pyproject_name_their_line() -> None:
    from extractors.config import config_from_data, load_toml

    text = '[tool.ctlsp]\n\n[[tool.ctlsp.atoms]]\nname = "a"\nquery = "(identifier @value"\n'
    with pytest.raises(ConfigError) as err:
        config_from_data(load_toml(text, "pyproject.toml")["tool"]["ctlsp"], text, "pyproject.toml", "tool.ctlsp.")
    assert err.value.line == 5 and "invalid tree-sitter query" in err.value.message


# ----- the incremental layer ---------------------------------------------------------------------------
def test_atoms_change_the_extraction_digest_and_a_project_takes_them_anew() -> None:
    """Atoms change the models, so a configuration that changes them is not one the project can
    take in place (``reconfigure`` refuses it; the server then builds a new project); one that
    changes only a rule over the same atoms is."""
    other = TX.replace('"begin_tx"', '"start_tx"')
    assert config_from_text(TX).extraction_digest() != config_from_text(other).extraction_digest()
    assert config_from_text(TX).extraction_digest() != Config().extraction_digest()
    project = Project(Config())
    project.update_file("t.c", TX_BAD)
    assert of_rule(project.check()["t.c"], "tx-not-ended") == []
    assert not project.reconfigure(config_from_text(TX))
    project = Project(config_from_text(TX))
    project.update_file("t.c", TX_BAD)
    assert len(of_rule(project.check()["t.c"], "tx-not-ended")) == 1
    reworded = config_from_text(TX.replace("on some path", "somewhere"))
    assert project.reconfigure(reworded)
    assert [f.message for f in of_rule(project.check()["t.c"], "tx-not-ended")] == [
        "transaction on 'db' is neither committed nor aborted somewhere"
    ]
    project.update_file("t.c", TX_FIXED)
    assert of_rule(project.check()["t.c"], "tx-not-ended") == []


def test_edits_that_add_or_remove_a_custom_atom_are_seen_by_the_incremental_project() -> None:
    """The edited function's model carries the new events, and a caller whose callee no longer
    commits is checked again (the quiet-value and verdict caches see user atoms as labels): after
    each edit the project finds what a fresh one finds."""
    helper = "void finish(struct db *d)\n{\n    commit_tx(d);\n}\n"
    caller = TX_BAD.replace("    commit_tx(db);", "    finish(db);").replace("        return -1;", "        {}")
    texts = [
        helper + caller,
        helper.replace("commit_tx(d);", "log_tx(d);") + caller,  # the callee no longer commits
        helper + caller,
        helper + caller.replace("    finish(db);", "    finish(db);\n    begin_tx(db);"),  # a second begin
        helper + caller.replace("    begin_tx(db);", "    start_tx(db);"),  # no begin at all
    ]
    config = config_from_text(TX)
    project = Project(config)
    counts = []
    for text in texts:
        project.update_file("t.c", text)
        found = of_rule(project.check()["t.c"], "tx-not-ended")
        assert found == of_rule(check_src(text, config), "tx-not-ended")
        counts.append(len(found))
    assert counts == [0, 1, 0, 1, 0]
