"""Property: a Project edited again and again across several files, their local header and the
configuration finds exactly what a fresh Project given the final state finds.

The single-file property (``test_incremental_property.py``) edits function bodies of one file. Here
the world is three or four ``.c`` files whose functions call each other across files, a local
header ``defs.h`` with assigning macros (``SET``, ``CLEAR``, ``FREE``, ``RESET``) and prototypes,
and a configuration. Each step is one of what an editor or a batch run does to a project:

- a function body retyped (sometimes with a syntax error inside it), a function renamed, blank
  lines or comments inserted above a function (its rows shift), a function moved to another file
  (pasted there first, then deleted from where it was: in between it is defined twice);
- a file made unparsable (an unclosed body, a stray ``}}``, a half-typed declaration) and fixed,
  its ``#define DEBUG`` constant toggled, its ``#include "defs.h"`` added or dropped;
- a file removed, added, or renamed (removed, then added under another name);
- the header edited (macros that assign or not, a comment-only change), removed
  (``set_header(path, None)``), opened in the editor (then it is a project file too, as the
  language server does it);
- a new configuration: ``Project`` has no way to change its configuration in place (the
  ``SETTINGS`` input is set once in ``__init__``, and the rules, call table and checker are made
  from the configuration there), so, as the language server's ``Analysis.reconfigure_sync`` does,
  a new Project is made with the old one's knowledge base (its verdicts are in its own database)
  and every file handed in again;
- a sweep (``Database.sweep`` from ``Project.roots``, what ``Project.tidy`` runs between checks):
  memos of old texts forgotten, and nothing a later check needs.

Texts go in by ``update_file`` or by ``set_file`` (each new text is cut again from the file's last
pieces: ``extractors.pieces.recut``). Headers go in as
``server/workspace.load_headers`` does it: whatever ``unread_headers()`` names, after each step.

The project is built with the default memo budget or a small or tiny one (``max_weight``: memos
and content entries evicted and rebuilt). Between edits it is compared, or only its changed files
are checked alone (as while typing, sometimes with partial results), or left alone so that the
next check meets several edits.

The oracle is a fresh Project with the final texts: the same findings (rule, severity, message,
location, function, witness steps with locations, messages, functions, stacks and kinds; and
fingerprints), for the whole project checked interprocedurally and for each file checked alone,
the same unmodelled-function notes, placed models and batch cache keys (``findings_keys``); and,
over the whole sequence, one findings key never stands for two different results (what the
CLI's disk cache relies on).

Found by it (the tests at the end of the file): a function's findings were kept under a key that
left out the scope's macros, so a macro that another file defines or includes left them stale.

``CTLSP_PROPERTY_EXAMPLES=N`` runs N examples of the main property instead of the CI count.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import extractors.checking as checking
from checker import check
from checker.model import RSM
from extractors.api import MAX_WEIGHT, Config, Finding, Project, config_from_text
from extractors.queries import file_macros

EXAMPLES = int(os.environ.get("CTLSP_PROPERTY_EXAMPLES", "0") or 0)

# Whether the property may reach worlds whose files see different function-like macros (one file
# without '#include "defs.h"', a '#define' in one body, the header open as a file while a source
# does not include it); False skips the ops that would make one (for narrowing a failure down).
MIXED_MACROS = True


def examples(ci: int) -> int:
    """The CI count, or the one asked for in ``CTLSP_PROPERTY_EXAMPLES``."""
    return EXAMPLES if EXAMPLES > 0 else ci


# ----- the world: files, header, configuration ------------------------------------------------------

PATHS = ("a.c", "b.c", "c.c", "d.c")
HEADER = "defs.h"  # where '#include "defs.h"' in a file of PATHS is looked for (next to it)
NAMES = ("f0", "f1", "f2", "f3", "f4")
RENAMES = (*NAMES, "h0", "h1")

PROTOTYPES = "".join(f"int {n}(char *p, int n);\n" for n in RENAMES)
HEADERS: tuple[str | None, ...] = (
    # FREE only calls free (no spec: an escape); SET and CLEAR assign their first argument
    "#define SIZE 8\n#define FREE(x) free(x)\n#define SET(a, b) ((a) = (b))\n#define CLEAR(x) ((x) = 0)\n"
    + PROTOTYPES,
    # the same macros after a comment (nothing a function reads changes)
    "/* defs */\n#define SIZE 8\n#define FREE(x) free(x)\n#define SET(a, b) ((a) = (b))\n"
    "#define CLEAR(x) ((x) = 0)\n" + PROTOTYPES,
    # FREE now defines its argument, SET no longer assigns, RESET assigns the caller's n
    "#define SIZE 16\n#define FREE(x) (free(x), (x) = 0)\n#define SET(a, b) keep(a, b)\n"
    "#define RESET() (n = 0)\n" + PROTOTYPES,
    # only prototypes
    PROTOTYPES,
    None,  # removed, or unreadable
)

CONFIGS: tuple[Config, ...] = (
    Config(),
    config_from_text('[rules.double-free]\nenabled = false\n[rules.memory-leak]\nseverity = "error"\n'),
    config_from_text(
        '[extract]\nallocators = ["grab"]\ndeallocators = ["release"]\nnoreturn = ["die"]\nmust_check = ["f2"]\n'
    ),
    config_from_text(
        '[rules.dead-store]\nenabled = false\n[[rules.custom]]\nid = "frees-param"\nformula = "E F free"\n'
        'message = "frees {var}"\nseverity = "info"\n'
    ),
    config_from_text('[preprocessor]\ndefines = ["FAST", "DEBUG=0"]\n'),
)

STMTS = (
    "free(p);",
    "p[0] = 1;",
    "if (!p) return 0;",
    "p = malloc(8);",
    "q = malloc(SIZE);",
    "free(q);",
    "q[0] = 1;",
    "g = p;",
    "free(g);",
    "int t; n = t;",
    "n = n + 1;",
    "FREE(p);",
    "SET(q, p);",
    "CLEAR(p);",
    "RESET();",
    "if (DEBUG) free(p);",
    "if (!DEBUG) return n;",
    "release(p);",
    "q = grab(n);",
    "if (n < 0) die();",
    "if (SIZE > 10) free(p);",
    "p = (;",  # a syntax error inside the body
    "free(p); // ctlsp-ignore[double-free]",
    "p->buf = malloc(8);",  # field paths: boxes into a callee's projection on its parameter's field
    "free(p->buf);",
    "p->buf[0] = 1;",
    "pthread_mutex_lock(&m);",  # a global: callers ask what callees in any file do to it
    "pthread_mutex_unlock(&m);",
    "return malloc(n);",  # the function becomes an inferred allocator, for its callers too
    "#ifdef FAST",  # conditionals, balanced or not: brace pairs they split are read per variant
    "#else",
    "#endif",
    "if (n > 1) {",
    "}",
) + (("#define RESET() (n = 0)",) if MIXED_MACROS else ())  # a file's macro, in a body
CALLS = (
    *(f"{n}(p, n);" for n in RENAMES),
    *(f"{n}(q, n - 1);" for n in NAMES[:3]),
    "f1(g, n);",
    "q = f2(p, n);",  # an allocator if f2 is one; a result that must be checked (CONFIGS[2])
    "p = f3(q, n);",
)
BREAKS = ("unclosed", "stray", "open")


@dataclass(frozen=True)
class Fn:
    name: str
    body: tuple[str, ...]
    pad: int = 0  # lines above it (blank or comments)

    def lines(self, unclosed: bool = False) -> list[str]:
        out = [("/* moved */" if i % 2 else "") for i in range(self.pad)]
        out += [f"int {self.name}(char *p, int n)", "{", "    char *q = 0;"]
        out += [f"    {s}" for s in self.body]
        out += ["    return n;"] + ([] if unclosed else ["}"])
        return out


@dataclass(frozen=True)
class Src:
    fns: tuple[Fn, ...]
    include: bool = True
    debug: int | None = None
    broken: tuple[str, int] | None = None  # (kind, before which function)

    def text(self) -> str:
        out = ["#include <stdlib.h>"]
        if self.include:
            out.append(f'#include "{HEADER}"')
        if self.debug is not None:
            out.append(f"#define DEBUG {self.debug}")
        out.append("char *g;")
        out.append("pthread_mutex_t m;")
        for i, fn in enumerate(self.fns):
            out += self._break_at(i)
            out += fn.lines(unclosed=self.broken == ("unclosed", i))
            out.append("")
        out += self._break_at(len(self.fns))
        return "\n".join(out) + "\n"

    def _break_at(self, i: int) -> list[str]:
        if self.broken is None or self.broken[1] != i:
            return []
        return {"stray": ["}}"], "open": ["int oops(char *p, int"], "unclosed": []}[self.broken[0]]


@dataclass
class World:
    files: dict[str, Src]
    header: str | None = HEADERS[0]
    header_open: bool = False  # open in the editor: a project file too
    config: int = 0

    def texts(self) -> dict[str, str]:
        out = {p: s.text() for p, s in self.files.items()}
        if self.header_open and self.header is not None:
            out[HEADER] = self.header
        return out


# ----- handing texts in ---------------------------------------------------------------------------


@dataclass
class Editor:
    """The incremental side: one Project, fed the world's texts as they change."""

    project: Project
    max_weight: int = MAX_WEIGHT
    texts: dict[str, str] = field(default_factory=dict)
    header: str | None = None
    header_given: bool = False

    def sync(self, world: World, how: Callable[[int], int]) -> list[str]:
        """Hand in what changed since the last sync: removed files, new and changed texts (each by
        ``update_file`` or ``set_file``, as ``how`` picks), the header if it changed, and the
        headers the project says it lacks."""
        p = self.project
        now = world.texts()
        changed: list[str] = []
        for path in sorted(self.texts.keys() - now.keys()):
            p.remove_file(path)
            del self.texts[path]
        for path, text in sorted(now.items()):
            if self.texts.get(path) == text:
                continue
            if how(2) == 0:
                p.update_file(path, text)
            else:
                p.set_file(path, text)
            self.texts[path] = text
            changed.append(path)
        if self.header_given and self.header != world.header:
            p.set_header(HEADER, world.header)  # an edited, opened or deleted header
        self.header = world.header
        for h in p.unread_headers():
            assert h == HEADER, h
            p.set_header(h, world.header)
            self.header_given = True
        return changed

    def reconfigure(self, world: World) -> None:
        """What the language server does on a new configuration: a new Project keeping the
        knowledge base, every file handed in again."""
        self.project = Project(CONFIGS[world.config], kb=self.project.kb, max_weight=self.max_weight)
        self.texts, self.header, self.header_given = {}, None, False


def fresh(world: World) -> Project:
    p = Project(CONFIGS[world.config])
    for path, text in sorted(world.texts().items()):
        p.update_file(path, text)
    for h in p.unread_headers():
        p.set_header(h, world.header)
    return p


# ----- what is compared ---------------------------------------------------------------------------


def shown(findings: list[Finding]) -> list[tuple[Finding, str]]:
    return [(f, f.fingerprint) for f in findings]


def observe(project: Project, inter_first: bool = True) -> dict[str, Any]:
    """Everything a user or the batch runner sees of a project: interprocedural findings of every
    file, each file's findings checked alone, unmodelled notes, placed models, cache keys."""
    paths = sorted(project.files)
    out: dict[str, Any] = {}
    order = ("inter", "intra") if inter_first else ("intra", "inter")
    for what in order:
        if what == "inter":
            out["inter"] = {p: shown(fs) for p, fs in project.check(interprocedural=True).items()}
        else:
            out["intra"] = {p: shown(project.check([p], interprocedural=False)[p]) for p in paths}
    out["notes"] = {p: project.unmodelled(p) for p in paths}
    out["models"] = {
        p: {n: (fm.start_row, fm.last_row, fm.key) for n, fm in project.files[p].model.functions.items()}
        for p in paths
    }
    out["keys"] = project.findings_keys(paths)
    return out


def assert_same(incremental: Project, world: World, inter_first: bool = True) -> dict[str, Any]:
    got = observe(incremental, inter_first)
    want = observe(fresh(world))
    for part in ("inter", "intra", "notes", "models", "keys"):
        assert got[part] == want[part], part
    return want


Cached = dict[tuple[int, str, str], list[tuple[Finding, str]]]


def assert_keys_name_findings(seen: Cached, world: World, found: dict[str, Any]) -> None:
    """``findings_keys``' promise, which the batch runner's disk cache relies on (salted with the
    configuration): within one configuration, equal keys, equal findings, whatever the edits in
    between."""
    for path, key in found["keys"].items():
        then = seen.setdefault((world.config, path, key), found["inter"][path])
        assert then == found["inter"][path], f"{path}: one findings key, other findings"


# ----- the steps ----------------------------------------------------------------------------------

body = st.lists(
    st.tuples(st.sampled_from(STMTS + CALLS), st.booleans()).map(
        lambda sb: f"if (n > 2) {{ {sb[0]} }}" if sb[1] else sb[0]
    ),
    max_size=5,
)


def initial_world(draw: Callable[[Any], Any]) -> World:
    files: dict[str, list[Fn]] = {p: [] for p in PATHS[:3]}
    for i, name in enumerate(NAMES):
        files[PATHS[i % 3]].append(Fn(name, tuple(draw(body))))
    return World({p: Src(tuple(fns), debug=draw(st.sampled_from((None, 0, 1)))) for p, fns in files.items()})


def _pick_fn(draw: Callable[[Any], Any], world: World) -> tuple[str, int] | None:
    spots = [(p, i) for p, s in sorted(world.files.items()) for i in range(len(s.fns))]
    return draw(st.sampled_from(spots)) if spots else None


def _set_fn(world: World, path: str, i: int, fn: Fn) -> None:
    src = world.files[path]
    world.files[path] = replace(src, fns=src.fns[:i] + (fn,) + src.fns[i + 1 :])


OPS = (
    "edit",
    "edit",
    "edit",
    "rename",
    "pad",
    "move",
    "break",
    "fix",
    "debug",
    "include",
    "header",
    "open_header",
    "remove_file",
    "add_file",
    "rename_file",
    "config",
)


def apply(draw: Callable[[Any], Any], world: World, op: str) -> list[World] | None:
    """Changes ``world`` by ``op``; returns the intermediate worlds an editor would pass through
    (a move: pasted in the target first), or None when the op does not apply."""
    files = world.files
    if op in ("edit", "rename", "pad", "move"):
        spot = _pick_fn(draw, world)
        if spot is None:
            return None
        path, i = spot
        fn = files[path].fns[i]
        if op == "edit":
            _set_fn(world, path, i, replace(fn, body=tuple(draw(body))))
        elif op == "rename":
            _set_fn(world, path, i, replace(fn, name=draw(st.sampled_from(RENAMES))))
        elif op == "pad":
            _set_fn(world, path, i, replace(fn, pad=draw(st.integers(0, 3))))
        else:
            target = draw(st.sampled_from(sorted(files)))
            at = draw(st.integers(0, len(files[target].fns)))
            tsrc = files[target]
            files[target] = replace(tsrc, fns=tsrc.fns[:at] + (fn,) + tsrc.fns[at:])
            between = World(dict(files), world.header, world.header_open, world.config)
            src = files[path]
            j = i + 1 if target == path and at <= i else i
            files[path] = replace(src, fns=src.fns[:j] + src.fns[j + 1 :])
            return [between]
        return []
    if op in ("break", "fix", "debug", "include", "remove_file", "rename_file"):
        if not files:
            return None
        path = draw(st.sampled_from(sorted(files)))
        src = files[path]
        if op == "break":
            files[path] = replace(src, broken=(draw(st.sampled_from(BREAKS)), draw(st.integers(0, len(src.fns)))))
            if draw(st.booleans()):  # typed on until it parses again
                between = World(dict(files), world.header, world.header_open, world.config)
                files[path] = replace(src, broken=None)
                return [between]
        elif op == "fix":
            if src.broken is None:
                return None
            files[path] = replace(src, broken=None)
        elif op == "debug":
            files[path] = replace(src, debug=draw(st.sampled_from((None, 0, 1))))
        elif op == "include" and not MIXED_MACROS:  # every file, so that all see the same macros
            for q, other in files.items():
                files[q] = replace(other, include=not src.include)
        elif op == "include":
            files[path] = replace(src, include=not src.include)
        elif op == "remove_file":
            del files[path]
        else:
            free = [p for p in PATHS if p not in files]
            if not free:
                return None
            files[draw(st.sampled_from(free))] = files.pop(path)
        return []
    if op == "add_file":
        free = [p for p in PATHS if p not in files]
        if not free:
            return None
        names = draw(st.lists(st.sampled_from(RENAMES), min_size=1, max_size=2))
        include = MIXED_MACROS or all(f.include for f in files.values())
        files[draw(st.sampled_from(free))] = Src(tuple(Fn(n, tuple(draw(body))) for n in names), include=include)
        return []
    if op == "header":
        world.header = draw(st.sampled_from(HEADERS))
        if world.header is None:
            world.header_open = False  # a deleted file is closed
        return []
    if op == "open_header":
        if world.header is None:
            return None
        world.header_open = not world.header_open
        return []
    if op == "config":
        world.config = draw(st.integers(0, len(CONFIGS) - 1))
        return []
    raise AssertionError(op)


def macros_agree(world: World) -> bool:
    """Whether every file of the world sees the same function-like macros."""
    p = fresh(world)
    return len({p.db.get(file_macros, path) for path in p.files}) <= 1


def typing_check(project: Project, paths: list[str], draw: Callable[[Any], Any]) -> None:
    """What the language server does between edits: the changed files checked alone, sometimes
    with partial results asked for, the results not compared (the next comparison sees them)."""
    for path in paths:
        if path in project.files:
            if draw(st.booleans()):
                project.check([path], interprocedural=False, partial=lambda _p, _f: None, partial_every=0.0)
            else:
                project.check([path], interprocedural=False)


def note(found: dict[str, Any]) -> None:
    """Statistics (``--hypothesis-show-statistics``): that the examples do find bugs, across files."""
    inter = [f for fs in found["inter"].values() for f, _ in fs]
    event(f"findings: {'some' if inter else 'none'}")
    if any(w.location.path != f.location.path for f in inter for w in f.witness):
        event("a witness step in another file")


@pytest.mark.slow
@settings(max_examples=examples(100), deadline=None)
@given(st.data())
def test_edited_multi_file_project_matches_fresh_project(data: st.DataObject) -> None:
    draw = data.draw
    world = initial_world(draw)
    weight = draw(st.sampled_from((MAX_WEIGHT, 30_000, 100)))  # small: memos are evicted and rebuilt
    editor = Editor(Project(CONFIGS[world.config], max_weight=weight), weight)
    editor.sync(world, lambda n: draw(st.integers(0, n - 1)))
    seen: Cached = {}
    assert_keys_name_findings(seen, world, assert_same(editor.project, world))
    every_step = draw(st.booleans())  # else some checks see several changes at once
    for _ in range(draw(st.integers(1, 8))):
        op = draw(st.sampled_from(OPS))
        config = world.config
        before = replace(world, files=dict(world.files))
        steps = apply(draw, world, op)
        if steps is None:
            continue
        if not MIXED_MACROS and not all(macros_agree(w) for w in [*steps, world]):
            world = before
            event("skipped: files would see different macros")
            continue
        event(f"op: {op}")
        if world.config != config:
            editor.reconfigure(world)
        for w in [*steps, world]:
            changed = editor.sync(w, lambda n: draw(st.integers(0, n - 1)))
            if draw(st.booleans()):
                editor.project.db.sweep(editor.project.roots())
            after = "compare" if every_step else draw(st.sampled_from(("compare", "typing", "nothing")))
            if after == "compare":
                assert_keys_name_findings(seen, w, assert_same(editor.project, w, inter_first=draw(st.booleans())))
            elif after == "typing":
                typing_check(editor.project, changed, draw)
    found = assert_same(editor.project, world)
    assert_keys_name_findings(seen, world, found)
    note(found)


# ----- typing in one body of a large file ---------------------------------------------------------


def _big(functions: int, prefix: str, leaky_every: int) -> str:
    """Independent functions (no calls: nothing reaches another), every ``leaky_every``-th leaking."""
    out = ["#include <stdlib.h>"]
    for i in range(functions):
        free = "" if i % leaky_every == 0 else "    free(p);\n"
        out.append(
            f"int {prefix}{i}(int x)\n{{\n    char *p = malloc(x);\n    if (!p) return 0;\n    p[0] = 1;\n"
            f"{free}    return x + {i};\n}}"
        )
    return "\n".join(out) + "\n"


def test_typing_in_one_body_of_200_functions_rechecks_that_function_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check side of ``test_file_queries.py``'s test of the same name (which shows that only the
    edited function's model is rebuilt): after an edit inside one body of a 200-function file, in
    a project with a second file, the edited function is the only one whose findings are made
    again and the only one the model checker sees, whether the edit keeps every row or moves the
    149 functions below it one row down; the others' findings are reused, placed on their new rows."""
    big, other = _big(200, "f", 20), _big(50, "g", 10)
    p = Project()
    p.update_file("big.c", big)
    p.update_file("other.c", other)
    p.check()
    p.check(["big.c"], interprocedural=False)
    checked: list[str] = []

    def spy(rsm: RSM, *args: Any, **kwargs: Any) -> Any:
        checked.append(rsm.initial_component)
        return check(rsm, *args, **kwargs)

    monkeypatch.setattr(checking, "check", spy)
    same_rows = big.replace("return x + 50;", "return x + 5000;")  # f50: one more value, no new row
    one_more_row = same_rows.replace("    free(p);\n    return x + 50", "    free(p);\n    free(p);\n    return x + 50")
    lines: list[list[int]] = []
    for text in (same_rows, one_more_row):
        p.db.reset_counters()
        checked.clear()
        log = (p.db.built, p.db.failed, p.db.reused)
        counts = dict(p.counters)
        p.update_file("big.c", text)
        whole = p.check()
        alone = p.check(["big.c"], interprocedural=False)
        ran = {name: c.executed for name, c in p.db.counters().items()}
        assert (p.db.built - log[0], p.db.failed - log[1]) == (1, 0)  # the model of f50 only
        # read current: all but f50 by the whole project's scope, all 200 by big.c's alone (after)
        assert p.db.reused - log[2] == 199 + 50 + 200
        assert ran["function_model"] == 1
        # each scope's content and projector once; the findings of both files in the whole
        # project and of big.c alone (other.c's query reruns, as its scope changed)
        assert (ran["scope_content"], ran["projector"], ran["file_findings"]) == (2, 2, 3)
        reused = p.counters["functions_check_reused"] - counts["functions_check_reused"]
        # every function but f50 in the whole project's check; in big.c's alone all 200, f50's
        # findings too (it calls nothing: its key is the same in either scope)
        assert reused == 199 + 50 + 200
        # the model checker sees f50 only (and nothing after the first edit, whose views were checked)
        assert all(c.startswith("big.c:f50@") for c in checked), sorted(set(checked))
        assert bool(checked) == (text is one_more_row)
        fresh_p = Project()
        fresh_p.update_file("big.c", text)
        fresh_p.update_file("other.c", other)
        assert whole == fresh_p.check()
        assert alone == fresh_p.check(["big.c"], interprocedural=False)
        lines.append([f.location.start_line for f in whole["big.c"] if f.function == "f60"])
    assert lines[0] and lines[1] == [n + 1 for n in lines[0]]  # f60, below f50, moved one row down


# ----- found by the property: findings were reused under another scope's macros -------------------
# (then the projector's one call table held every file's macros, so a file was also read with
# macros it neither defines nor includes; now a macro counts only where it is seen)

MACRO = "#define CLEAR(x) ((x) = 0)\n"  # assigns its argument: 'CLEAR(p)' defines p
FREES_TWICE = "void g(char *p)\n{\n    free(p);\n    CLEAR(p);\n    free(p);\n}\n"  # b.c: CLEAR unknown here
INCLUDES = '#include "defs.h"\n'


def _rules(project: Project, path: str, interprocedural: bool = True) -> list[tuple[str, int]]:
    found = project.check([path], interprocedural=interprocedural)[path]
    return [(f.rule_id, f.location.start_line) for f in found]


def _project(files: dict[str, str], headers: dict[str, str | None]) -> Project:
    """A project of ``files``, its headers handed in as the edges do (whatever it asks for)."""
    p = Project()
    for path, text in files.items():
        p.update_file(path, text)
    _hand_in(p, headers)
    return p


def _hand_in(p: Project, headers: dict[str, str | None]) -> None:
    for _ in range(4):  # one round per include level
        unread = p.unread_headers()
        if not unread:
            return
        for h in unread:
            p.set_header(h, headers.get(h))


def test_a_macro_counts_only_in_the_files_that_define_or_include_it() -> None:
    """b.c neither defines CLEAR nor includes a header that does: its 'CLEAR(p)' is a call of an
    unknown function, and the double free stays, in the whole project's check as in b.c's alone,
    whether the macro is a.c's own or comes from a header a.c includes.  Where b.c reads the macro,
    from its header or through a header that header includes, 'CLEAR(p)' defines p (no finding)."""
    double = [("double-free", 4)]
    a_defines = _project({"a.c": MACRO, "b.c": FREES_TWICE}, {})
    a_includes = _project({"a.c": INCLUDES, "b.c": FREES_TWICE}, {"defs.h": MACRO})
    for p in (a_defines, a_includes):
        assert (_rules(p, "b.c"), _rules(p, "b.c", interprocedural=False)) == (double, double)
    b_includes = _project({"a.c": MACRO, "b.c": INCLUDES + FREES_TWICE}, {"defs.h": MACRO})
    transitively = _project(
        {"a.c": "/* none */\n", "b.c": '#include "outer.h"\n' + FREES_TWICE},
        {"outer.h": INCLUDES, "defs.h": MACRO},
    )
    for p in (b_includes, transitively):
        assert (_rules(p, "b.c"), _rules(p, "b.c", interprocedural=False)) == ([], [])


def test_two_files_read_one_macro_name_each_with_its_own_definition() -> None:
    """a.c's CLEAR assigns its argument, b.c's only reads it: each file's 'CLEAR(p)' means its own
    definition in the one scope of the whole project (first file first used to decide both)."""
    reads = "#define CLEAR(x) keep(x)\n"
    a = MACRO + FREES_TWICE.replace("void g", "void h")
    b = reads + FREES_TWICE
    p = _project({"a.c": a, "b.c": b}, {})
    assert (_rules(p, "a.c"), _rules(p, "b.c")) == ([], [("double-free", 5)])
    swapped = _project({"b.c": b, "a.c": a}, {})  # the order files were handed in does not matter
    assert (_rules(swapped, "a.c"), _rules(swapped, "b.c")) == ([], [("double-free", 5)])


def test_removing_a_macro_from_a_header_rechecks_the_functions_that_saw_it() -> None:
    """b.c includes defs.h, which defines CLEAR: 'CLEAR(p)' defines p and there is no double free.
    Once the header no longer defines it (edited, then unreadable), the edited project finds the
    double free as a fresh one does; and a.c's own CLEAR, which b.c does not see, never counts."""
    files = {"a.c": MACRO, "b.c": INCLUDES + FREES_TWICE}
    p = _project(files, {"defs.h": MACRO})
    assert _rules(p, "b.c") == []
    for header in ("/* no macro */\n", None):
        p.set_header("defs.h", header)
        fresh_p = _project(files, {"defs.h": header})
        assert _rules(fresh_p, "b.c") == [("double-free", 5)]
        assert _rules(p, "b.c") == [("double-free", 5)]
        assert _rules(p, "b.c", interprocedural=False) == [("double-free", 5)]


def test_a_files_findings_do_not_depend_on_which_check_ran_first() -> None:
    """No edit at all: checking b.c alone and then the whole project, or the other order, gives
    each check what a fresh project's gives (they used to differ: the whole project's table held
    a.c's CLEAR, and one check's findings were reused for the other's scope)."""

    def project() -> Project:
        return _project({"a.c": MACRO, "b.c": FREES_TWICE}, {})

    whole, alone = _rules(project(), "b.c"), _rules(project(), "b.c", interprocedural=False)
    assert whole == alone == [("double-free", 4)]  # a.c's macro is not b.c's
    first_alone = project()
    _rules(first_alone, "b.c", interprocedural=False)
    first_whole = project()
    _rules(first_whole, "b.c")
    assert (_rules(first_alone, "b.c"), _rules(first_whole, "b.c", interprocedural=False)) == (whole, alone)


def test_findings_keys_change_when_a_macro_the_file_reads_goes() -> None:
    """``findings_keys`` promises equal keys, equal findings (the CLI's disk cache is keyed by
    them): when the macro of the header b.c includes, which decides b.c's findings, goes, b.c's key
    changes with its findings; when a.c's own macro goes, b.c's findings stay as they were."""

    def key_and_rules(a: str, header: str | None) -> tuple[str, list[tuple[str, int]]]:
        p = _project({"a.c": a, "b.c": INCLUDES + FREES_TWICE}, {"defs.h": header})
        return p.findings_keys(["b.c"])["b.c"], _rules(p, "b.c")

    (key_before, before), (key_after, after) = key_and_rules(MACRO, MACRO), key_and_rules(MACRO, None)
    assert (before, after) == ([], [("double-free", 5)])
    assert key_before != key_after
    assert key_and_rules("/* no macro */\n", MACRO)[1] == before
