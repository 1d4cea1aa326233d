"""Contraction of blank nodes (``checker.contraction``) against checks of the whole model.

Random RSMs (recursive ones included) and two kinds of formulas: the rule shapes of the C front end
over random atoms, and random formulas that the syntactic test accepts. Every contractible formula
must have the same verdict on the contracted model; the oracle on the unfolded model is the judge
where the model is non-recursive.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from checker import check
from checker.contraction import contract, contractible
from checker.ctl import AU, AX, EF, EU, EX, And, Atom, Formula, Not, Or, atoms, parse
from checker.model import RSM, Component, Node, build_rsm
from tests.checker.gen import ATOMS, formulas, rsms
from tests.checker.oracle import Labeller, build_graph

atom = st.sampled_from([Atom(a) for a in ATOMS])


@st.composite
def rule_shapes(draw: st.DrawFn) -> Formula:
    """``E F (x & E X E (~y U z))``, its ``A X A`` variant, and ``E (~x U (y & ~x))``."""
    x, y, z = draw(atom), draw(atom), draw(atom)
    shape = draw(st.integers(0, 2))
    if shape == 0:
        return EF(And(x, EX(EU(Not(Or(y, x)), z))))
    if shape == 1:
        return EF(And(x, AX(AU(Not(y), Or(And(x, Not(y)), z)))))
    return EU(Not(x), And(y, Not(x)))


def _keep(draw: st.DrawFn, f: Formula) -> frozenset[str]:
    return atoms(f) | frozenset(draw(st.sets(st.sampled_from(ATOMS))))


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(rsms(recursive=False), st.one_of(rule_shapes(), formulas()), st.data())
def test_contracted_check_matches_the_oracle(model: RSM, f: Formula, data: st.DataObject) -> None:
    assume(contractible(f))
    small = contract(model, _keep(data.draw, f))
    expected = Labeller(build_graph(model)).value(f)
    assert check(small, f, "exhaustive").holds is expected, f"{f} on {model.to_json()}"
    assert check(small, f, "lazy").holds is expected


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(rsms(recursive=True), rule_shapes(), st.data())
def test_contracted_and_full_checks_agree_on_recursive_models(model: RSM, f: Formula, data: st.DataObject) -> None:
    small = contract(model, _keep(data.draw, f))
    assert check(small, f, "exhaustive").holds is check(model, f, "exhaustive").holds, f"{f} on {model.to_json()}"


def chain(labels: list[set[str]]) -> RSM:
    nodes = [Node("s", frozenset(), True, False)]
    nodes += [Node(f"m{i}", frozenset(lab)) for i, lab in enumerate(labels)]
    nodes.append(Node("t", frozenset(), False, True))
    names = [n.name for n in nodes]
    return build_rsm([Component("C", tuple(nodes), (), tuple(zip(names, names[1:], strict=False)))], "C", "s")


def test_blank_nodes_go_and_visible_ones_stay() -> None:
    model = chain([{"a"}, set(), {"c"}, {"b"}, set()])
    small = contract(model, frozenset({"a", "b"}))
    assert [n.name for n in small.component("C").nodes] == ["s", "m0", "m3", "t"]
    assert set(small.component("C").edges) == {("s", "m0"), ("m0", "m3"), ("m3", "t")}
    assert contract(model, frozenset({"a", "b"})) is small  # cached per model and atoms


def test_formulas_that_count_steps_are_not_contracted() -> None:
    """``E X b`` asks the very next node: a blank one in between makes it false, so no contraction."""
    assert not contractible(parse("E X b"))
    assert not contractible(parse("E (a U b)"))  # a blank node (no a) blocks the until
    assert contractible(parse("E F (a & E X E (~b U c))"))
    model = chain([{"a"}, set(), {"b"}])
    assert check(model, parse("E F (a & E X b)")).holds is False


def test_blank_cycles_stay() -> None:
    """A loop of blank nodes is an infinite run the formula can see (E G ~a)."""
    nodes = (
        Node("s", frozenset(), True),
        Node("x", frozenset()),
        Node("y", frozenset()),
        Node("t", frozenset({"a"}), False, True),
    )
    model = build_rsm([Component("C", nodes, (), (("s", "x"), ("x", "y"), ("y", "x"), ("x", "t")))], "C", "s")
    small = contract(model, frozenset({"a"}))
    assert {n.name for n in small.component("C").nodes} == {"s", "x", "y", "t"}
    f = parse("E G ~a")
    assert contractible(f) and check(small, f).holds is check(model, f).holds is True


def test_rule_formulas_of_the_front_end_are_contractible() -> None:
    from extractors.api import Config
    from extractors.rules import catalogue

    assert all(contractible(r.parsed) for r in catalogue(Config()))


def test_a_blank_nodes_own_constant_is_no_neutral_for_its_successors() -> None:
    """``E X (~a & E F a)`` holds at ``s`` through the blank ``m`` (not ``a``, and ``a`` ahead);
    at ``m`` the subformula is ``E F a`` only because ``~a`` holds there, which it does not at the
    node after ``m``. Contracting ``m`` made ``s`` look straight at ``a``, where the subformula is
    false (a case hypothesis found); the formula is not contractible, the other shapes still are."""
    m = Node("m", frozenset())
    goal = Node("g", frozenset({"a"}))
    model = build_rsm(
        [
            Component(
                "C",
                (Node("s", frozenset(), True, False), m, goal, Node("t", frozenset(), False, True)),
                (),
                (("s", "g"), ("s", "m"), ("m", "g"), ("g", "g")),
            )
        ],
        "C",
        "s",
    )
    f = EX(And(Not(Atom("a")), EF(Atom("a"))))
    assert check(model, f, "exhaustive").holds
    assert not contractible(f)
    assert not contractible(EX(Or(Atom("a"), EX(Atom("b")))))  # or with a blank constant likewise
    assert contractible(And(Not(Atom("a")), EF(Atom("a"))))  # read by no temporal operator: fine
    assert contractible(EF(And(Atom("x"), EX(EU(Not(Atom("y")), Atom("z"))))))
