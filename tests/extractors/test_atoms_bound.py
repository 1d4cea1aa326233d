"""``Projector.atoms_bound``: the atoms a value's projection and its reach can hold, read off the
functions without building a projection. The checker skips a value whose bound no rule applies to,
so the bound must hold every atom the built projection has: checked here against the projections
themselves, on every value the checker looks at in every twin of the detection corpus.
"""

from __future__ import annotations

from typing import Any

import pytest

from extractors.api import Project
from extractors.checking import FunctionChecker
from extractors.facts import root_of
from extractors.lasting import LASTING_LABELS, lasting_of
from extractors.parking import parked_of
from extractors.projection import EXIT_LABEL, RETURN_LABEL, Projector
from tests.corpus_test.scoring import discover
from tests.sampling import fast_sample


def _units() -> list[Any]:
    return [pytest.param(unit, id=f"{case.id}:{unit.name}") for case in discover() for unit in (case.bad, case.fixed)]


def _check(unit: Any) -> None:
    """A fresh project of the twin's files, checked whole."""
    project = Project()
    for path in unit.files:
        if path.suffix == ".h":
            project.set_header(str(path), path.read_text(encoding="utf-8"))
        else:
            project.update_file(str(path), path.read_text(encoding="utf-8"))
    project.check()


@pytest.mark.parametrize("unit", fast_sample(_units()))
def test_every_projection_holds_no_atom_outside_its_bound(unit: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[tuple[str, str, frozenset[str] | None, frozenset[str]]] = []
    check_value = FunctionChecker._check_value

    def spy(
        self: FunctionChecker, proj: Projector, reporter: Any, fm: Any, var: str, rules: Any, held: bool = False
    ) -> Any:
        if rules:
            # a projector that built nothing yet: the bound comes from the functions alone
            fresh = Projector(proj.scope, signature=proj.signature)
            bound = fresh.atoms_bound(fm, var)
            name = proj.component(fm, var)
            checked.append((fm.name, var, bound, proj.atoms(name) if name is not None else frozenset()))
        return check_value(self, proj, reporter, fm, var, rules, held)

    monkeypatch.setattr(FunctionChecker, "_check_value", spy)
    _check(unit)
    assert checked, "no value was checked"
    outside = [(f, v, sorted(atoms - b)) for f, v, b, atoms in checked if b is not None and not atoms <= b]
    assert outside == []


@pytest.mark.parametrize("unit", fast_sample(_units()))
def test_a_node_the_bound_passes_over_says_nothing_of_the_value(unit: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bound reads no labels at nodes that name neither the value nor a path it begins with
    (``Projector._speaking``): each such node must have no labels, boxes, NULL test, take,
    vouched result or call handed the value's address, for every value a bound was made of."""
    said: list[tuple[str, str, int, Any]] = []
    make = Projector._make_own_bound

    def spy(self: Projector, fm: Any, v: str) -> Any:
        cids, is_global = self._relevant(fm, v)
        speaking = set(self._speaking(fm, v, is_global, cids))
        for cid in dict.fromkeys(c for c in cids if c not in speaking):
            got = (
                self.labels_at(fm, cid, v, is_global),
                self.tests_value(fm, cid, v),
                self.taken_at(fm, cid, v),
                self._raised_result(fm, cid, v),
                self.after_call(fm, cid, v),
            )
            if got != ((frozenset(), ()), False, False, False, None):
                said.append((fm.name, v, cid, got))
        return make(self, fm, v)

    monkeypatch.setattr(Projector, "_make_own_bound", spy)
    _check(unit)
    assert said == []


def _every_node_read(proj: Projector, fm: Any, v: str) -> tuple[frozenset[str], frozenset[tuple[str, str]]] | None:
    """:meth:`Projector.own_labels_and_targets` read off every node :meth:`Projector._relevant`
    gives, none skipped (neither the nodes that do not speak for ``v`` nor those after a lasting
    value has every label it can get): what the method must equal."""
    cids, is_global = proj._relevant(fm, v)
    if is_global:
        return None
    labels: set[str] = set()
    targets: set[tuple[str, str]] = set()
    for cid in set(cids):
        lab, bx = proj.labels_at(fm, cid, v, False)
        labels |= lab
        if proj._hands_address(fm, cid, v):
            labels |= {"alloc", "def"}
        if "maynull" not in lab and proj._project_result(fm, cid, v):
            labels.add("maynull")
        targets.update(bx)
        if proj.tests_value(fm, cid, v):
            labels |= {"isnull", "notnull"}
        if fm.cfg.nodes[cid].error_test is not None and proj._project_result(fm, cid, v):
            labels.add("notnull")
    if any(n.kind == "return" for n in fm.cfg.nodes):
        labels |= RETURN_LABEL
    return frozenset(labels | EXIT_LABEL), frozenset(targets)


@pytest.mark.parametrize("unit", fast_sample(_units()))
def test_a_value_s_own_labels_are_those_of_every_node_it_mentions(unit: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a value's projection can hold by itself (which keeps a value quiet after an edit
    without projecting it) skips the nodes that do not speak for it and stops early for a lasting
    value: it must be what reading every node the value mentions gives, for every value of every
    twin (lasting fields, statics and globals included), and the lasting nodes those of their
    definition (a node names the root, calls, dereferences or returns, or is the exit), where
    nothing but a lasting label is said of them (no box, test, take, call result or address)."""
    differ: list[tuple[str, str, Any, Any]] = []
    seen: set[str] = set()
    check_value = FunctionChecker._check_value

    def spy(
        self: FunctionChecker, proj: Projector, reporter: Any, fm: Any, var: str, rules: Any, held: bool = False
    ) -> Any:
        fresh = Projector(proj.scope, signature=proj.signature)
        for v in fresh.values(fm) if fm.ident not in seen else ():
            if parked_of(v) is not None:
                continue
            got, want = fresh.own_labels_and_targets(fm, v), _every_node_read(fresh, fm, v)
            if got != want:
                differ.append((fm.name, v, got, want))
            if (field := lasting_of(v)) is not None:
                root, cfg = root_of(field[1]), fm.cfg
                nodes = [
                    n.id
                    for n in cfg.nodes
                    if n.calls
                    or n.kind == "return"
                    or n.id == cfg.exit
                    or any(a == "use" or root_of(q) == root for q, a in n.events)
                ]
                if list(fresh._relevant(fm, v)[0]) != nodes:
                    differ.append((fm.name, v, "lasting nodes", nodes))
                for cid in nodes:  # what lets both own readings stop once both labels are in
                    said = (
                        fresh.labels_at(fm, cid, v, False)[1],
                        fresh.tests_value(fm, cid, v),
                        fresh.taken_at(fm, cid, v),
                        fresh._raised_result(fm, cid, v),
                        fresh.after_call(fm, cid, v),
                        fresh._hands_address(fm, cid, v),
                        fresh._project_result(fm, cid, v),
                    )
                    if not fresh.labels_at(fm, cid, v, False)[0] <= LASTING_LABELS or said != (
                        (), False, False, False, None, False, False
                    ):
                        differ.append((fm.name, v, cid, said))
        seen.add(fm.ident)
        return check_value(self, proj, reporter, fm, var, rules, held)

    monkeypatch.setattr(FunctionChecker, "_check_value", spy)
    _check(unit)
    assert differ == []


def test_an_edit_of_a_callee_remakes_only_the_own_bounds_its_answers_change(monkeypatch: pytest.MonkeyPatch) -> None:
    """A value's own bound reads of its callees only their answers (does it free its parameter,
    may it return NULL, ...): an edit of a helper that every function reaches wakes their values
    (what the helper does to ``p`` changed) but remakes no caller's own bound while those answers
    stay, and remakes them when one changes, as a fresh project then finds."""

    def text(helper: str) -> str:
        callers = "".join(
            f"void f{i}(char *p) {{ h(p); free(p); }}\nvoid g{i}(char *p) {{ f{i}(p); }}\n"
            for i in range(30)
        )
        return f"#include <stdlib.h>\nvoid h(char *p) {{ {helper} }}\n{callers}"

    made: list[str] = []
    real = Projector._make_own_bound

    def counting(self: Projector, fm: Any, v: str) -> Any:
        made.append(fm.name)
        return real(self, fm, v)

    monkeypatch.setattr(Projector, "_make_own_bound", counting)
    project = Project()
    project.update_file("t.c", text("p[2] = 1;"))
    first = project.check()["t.c"]
    assert any(name != "h" for name in made)

    made.clear()
    project.update_file("t.c", text("p[3] = 1;"))  # nothing any caller asks of h changes
    assert [(f.rule_id, f.location) for f in project.check()["t.c"]] == [(f.rule_id, f.location) for f in first]
    assert all(name == "h" for name in made), sorted(set(made))

    made.clear()
    project.update_file("t.c", text("free(p);"))  # h now releases its parameter
    second = project.check()["t.c"]
    assert any(name != "h" for name in made)
    fresh = Project()
    fresh.update_file("t.c", text("free(p);"))
    assert [(f.rule_id, f.location) for f in second] == [(f.rule_id, f.location) for f in fresh.check()["t.c"]]
    assert {f.rule_id for f in second} - {f.rule_id for f in first}


def test_a_value_whose_own_projection_cannot_hold_a_trigger_is_not_projected(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule with ``own_trigger`` (a known NULL dereference needs the checked function's own NULL
    or NULL test) may apply by a value's bound only through its callees (``g`` tests and
    dereferences what ``f`` hands it): the check drops it after the build, so the bound's test
    drops it first and ``f``'s projection on ``p`` is not built.  Its twin with the test in ``f``
    (which dereferences the NULL it tested) is built and reported."""
    built: list[tuple[str, str]] = []
    real = Projector._build

    def recording(self: Projector, fm: Any, v: str, key: str) -> Any:
        built.append((fm.name, v))
        return real(self, fm, v, key)

    monkeypatch.setattr(Projector, "_build", recording)
    callee = "void g(int *q) { if (q == 0) return; *q = 1; }\n"
    project = Project()
    project.update_file("t.c", callee + "void f(int *p) { g(p); }\n")
    assert project.check()["t.c"] == []
    assert ("f", "p") not in built and ("g", "q") in built

    built.clear()
    project = Project()
    project.update_file("t.c", callee + "void f(int *p) { if (p == 0) *p = 2; g(p); }\n")
    assert [f.rule_id for f in project.check()["t.c"]] == ["known-null-dereference"]
    assert ("f", "p") in built
