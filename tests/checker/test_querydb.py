"""The incremental query database against evaluation from scratch, and each mechanism on its own.

The property test is the oracle: random layered graphs of derived queries with data-dependent reads,
random edits (and moves to another database that adopts the export of the first), and every value
read compared with a plain recursive evaluation of the same graph on the current inputs, under a
huge and under a tiny eviction bound.  The targeted tests each pin one mechanism (memoisation,
backdating, equal sets, eviction keeping verification green, LRU order, cycles, missing inputs,
failures seen by readers, sweeps, cancellation, the explicit verification stack, export and
adoption), mostly through counters, so that each fails when its mechanism is taken out.

``CTLSP_QUERYDB_EXAMPLES`` sets the number of hypothesis examples per property run.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checker.querydb import (
    Cancelled,
    Content,
    Database,
    Derived,
    Input,
    MissingInput,
    QueryCycle,
    derived,
    named,
)

EXAMPLES = int(os.environ.get("CTLSP_QUERYDB_EXAMPLES", "500"))
HANG_GUARD = 60.0  # seconds; only ever reached when the behaviour under test is broken


def read_in_thread(db: Database, query: Any, key: Any) -> tuple[threading.Thread, list[object]]:
    """Start a reader thread; ``outcome`` gets the value read or the :class:`Cancelled` raised."""
    outcome: list[object] = []

    def worker() -> None:
        try:
            outcome.append(db.get(query, key))
        except Cancelled as exc:
            outcome.append(exc)

    thread = threading.Thread(target=worker)
    thread.start()
    return thread, outcome

# -- the random graphs -----------------------------------------------------------------------------
#
# A reference is ("in", k): input k, missing input an error; ("in_or", k): input k or -1;
# ("node", layer, index): a node of a lower layer.  A node is (op, refs, parameter).

Ref = tuple[Any, ...]
Node = tuple[str, tuple[Ref, ...], int]
Spec = list[list[Node]]


def evaluate(node: Node, read: Callable[[Ref], int], missing: type[Exception]) -> int:
    """One node's value, given how to read a reference; shared by the database and the oracle."""
    op, refs, p = node
    if op == "sum":
        return sum(read(r) for r in refs) % p
    if op == "min":
        return min(read(r) for r in refs)
    if op == "cond":  # dynamic dependencies: reads refs[1] or refs[2], never both
        return read(refs[1]) if read(refs[0]) % 2 else read(refs[2])
    if op == "parity":  # few values: backdating
        return read(refs[0]) % 2
    if op == "const":  # one value: backdating, always
        read(refs[0])
        return p
    if op == "try":  # a failed read is still a dependency
        try:
            return read(refs[0]) + 1
        except missing:
            return p
    raise AssertionError(op)


class Absent(Exception):
    pass


def oracle(spec: Spec, inputs: dict[int, int]) -> dict[tuple[int, int], int | None]:
    """Every node's value by plain recursion (None: a missing input made it fail)."""

    def read(ref: Ref) -> int:
        if ref[0] == "in":
            if ref[1] not in inputs:
                raise Absent
            return inputs[ref[1]]
        if ref[0] == "in_or":
            return inputs.get(ref[1], -1)
        return evaluate(spec[ref[1]][ref[2]], read, Absent)

    values: dict[tuple[int, int], int | None] = {}
    for layer, nodes in enumerate(spec):
        for index, node in enumerate(nodes):
            try:
                values[layer, index] = evaluate(node, read, Absent)
            except Absent:
                values[layer, index] = None
    return values


Scenario = tuple[int, Spec, list[tuple[bool, int]], dict[int, int], list[Any]]
"""Number of inputs, the graph, (evictable, weight mode) per layer, initial inputs, steps."""


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    n_inputs = draw(st.integers(1, 4))
    spec: Spec = []
    below: list[Ref] = []
    for layer in range(draw(st.integers(1, 5))):
        inputs = st.tuples(st.sampled_from(["in", "in_or"]), st.integers(0, n_inputs - 1))
        ref = st.one_of(inputs, st.sampled_from(below)) if below else inputs
        nodes: list[Node] = []
        for _ in range(draw(st.integers(1, 3))):
            op = draw(st.sampled_from(["sum", "min", "cond", "parity", "const", "try"]))
            arity = {"sum": draw(st.integers(1, 3)), "min": draw(st.integers(1, 3)), "cond": 3}.get(op, 1)
            refs = tuple(draw(ref) for _ in range(arity))
            nodes.append((op, refs, draw(st.integers(2, 5))))
        spec.append(nodes)
        below += [("node", layer, i) for i in range(len(nodes))]
    # per layer: evictable?, weight mode (0: one per value, else 1 + value % mode)
    layers = [(draw(st.booleans()) or draw(st.booleans()), draw(st.integers(0, 3))) for _ in spec]
    values = st.integers(0, 4)
    initial = draw(st.dictionaries(st.integers(0, n_inputs - 1), values))
    key = st.integers(0, n_inputs - 1)
    node_ids = [(layer, i) for layer, nodes in enumerate(spec) for i in range(len(nodes))]
    edit = st.one_of(
        st.tuples(st.just("set"), key, values),
        st.tuples(st.just("set"), key, values),
        st.tuples(st.just("remove"), key),
        st.tuples(st.just("get_or"), key),
        st.tuples(st.just("sweep"), st.lists(st.sampled_from(node_ids), max_size=3)),
        st.tuples(st.just("invalidate"), st.integers(0, len(spec) - 1)),
        st.tuples(st.just("batch"), st.lists(st.tuples(key, st.none() | values), max_size=3)),
        st.tuples(st.just("adopt"), st.lists(st.integers(0, len(spec) - 1), max_size=2)),
    )
    # after each edit: some nodes in any order, or all of them top down
    reads = st.lists(st.sampled_from(node_ids), max_size=len(node_ids) + 2) | st.just(node_ids[::-1])
    steps = draw(st.lists(st.tuples(edit, reads), min_size=1, max_size=25))
    return n_inputs, spec, layers, initial, steps


ECHO = Content[tuple[int, int, int], int]("echo", weight=lambda v: 1 + v % 2)


def build(spec: Spec, layers: list[tuple[bool, int]], x: Input[int, int]) -> list[Derived[int, int]]:
    """The graph's queries over the inputs ``x``, whose even keys are read from a durable twin (the
    same values, set through :func:`put_input`), so that durable and mixed memos are exercised."""
    queries: list[Derived[int, int]] = []

    def make(layer: int) -> Callable[[Database, int], int]:
        def fn(db: Database, index: int) -> int:
            def read(ref: Ref) -> int:
                if ref[0] == "in":
                    return db.get(input_of(x, ref[1]), ref[1])
                if ref[0] == "in_or":
                    return db.get_or(input_of(x, ref[1]), ref[1], -1)
                way = (layer + index + ref[2]) % 3  # a third of the reads each way
                if way == 1:
                    return db.get_all(queries[ref[1]], [ref[2]])[0]
                if way == 2:  # depending on what the memo read, not on the memo
                    return db.get_inlined(queries[ref[1]], ref[2])
                return db.get(queries[ref[1]], ref[2])

            value = evaluate(spec[layer][index], read, MissingInput)
            # through a content table too: its entries share the bound and the LRU order with the
            # memos, and must come back only under their own key
            memos = db.content(ECHO)
            got = memos.get((layer, index, value))
            if got is None:
                got = memos[(layer, index, value)] = value
            return got

        return fn

    for layer, (evict, mode) in enumerate(layers):
        weight = (lambda v, m=mode: 1 + v % m) if mode else None
        queries.append(Derived(f"layer{layer}", make(layer), weight=weight, evict=evict))
    return queries


_DURABLE: dict[str, Input[int, int]] = {}


def input_of(x: Input[int, int], key: int) -> Input[int, int]:
    """Where key ``key`` of ``x`` lives: even keys in ``x``'s durable twin."""
    if key % 2:
        return x
    twin = _DURABLE.get(x.name)
    if twin is None:
        twin = _DURABLE[x.name] = Input[int, int](f"{x.name}_durable", durable=True)
    return twin


def executed(db: Database) -> dict[str, int]:
    return {name: c.executed for name, c in db.counters().items() if c.executed}


def read_node(db: Database, queries: list[Derived[int, int]], node: tuple[int, int]) -> int | None:
    try:
        return db.get(queries[node[0]], node[1])
    except MissingInput:
        return None


def run_scenario(scenario: Scenario, bound: int) -> None:
    _, spec, layers, initial, steps = scenario
    x = Input[int, int]("x")
    queries = build(spec, layers, x)
    db = Database(max_weight=bound)
    inputs = dict(initial)
    with db.write():
        for k, v in initial.items():
            db.set(input_of(x, k), k, v)

    def put(k: int, v: int | None) -> None:
        if v is None:
            db.remove(input_of(x, k), k)
            inputs.pop(k, None)
        else:
            db.set(input_of(x, k), k, v)
            inputs[k] = v

    for (op, *args), reads in steps:
        if op == "set":
            put(args[0], args[1])
        elif op == "remove":
            put(args[0], None)
        elif op == "batch":
            with db.write():
                for k, v in args[0]:
                    put(k, v)
        elif op == "get_or":
            assert db.get_or(input_of(x, args[0]), args[0], -1) == inputs.get(args[0], -1)
        elif op == "sweep":
            db.sweep([(queries[layer], index) for layer, index in args[0]])
        elif op == "invalidate":
            db.invalidate(queries[args[0]])
        elif op == "adopt":  # another database goes on from this one's export, some layers left out
            other = Database(max_weight=bound)
            other.adopt(db.export(leave_out=[queries[layer] for layer in args[0]]))
            db = other
        expected = oracle(spec, inputs)
        for node in reads:
            assert read_node(db, queries, node) == expected[node], (op, node)
        assert db.weight <= bound
    expected = oracle(spec, inputs)
    order = sorted(expected, reverse=True)  # top down: verification walks whole paths
    assert [read_node(db, queries, n) for n in order] == [expected[n] for n in order]
    if bound >= 10**9:  # nothing evicted: what succeeded is memoised (failures run again, by design)
        before = executed(db)
        succeeded = [n for n in order if expected[n] is not None]
        assert [read_node(db, queries, n) for n in succeeded] == [expected[n] for n in succeeded]
        assert executed(db) == before


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None)
@given(scenarios())
def test_random_graphs_match_evaluation_from_scratch(scenario: Scenario) -> None:
    run_scenario(scenario, 10**9)


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None)
@given(scenarios(), st.integers(0, 3))
def test_random_graphs_match_evaluation_from_scratch_under_a_tiny_bound(scenario: Scenario, bound: int) -> None:
    run_scenario(scenario, bound)


# -- targeted tests --------------------------------------------------------------------------------


def test_a_durable_memo_is_verified_without_walking_its_deps() -> None:
    """A memo that reads only durable inputs (the configuration), directly or through durable
    memos, stays verified through edits of the other inputs without its deps being walked; a change
    of a durable input makes it red as usual, and a memo that reads both kinds is walked."""
    config = Input[tuple[()], int]("config", durable=True)
    text = Input[str, int]("text")
    inner = Derived("inner", lambda db, k: db.get(config, ()) + k)
    outer = Derived("outer", lambda db, k: db.get(inner, k) * 2)
    mixed = Derived("mixed", lambda db, k: db.get(inner, k) + db.get(text, "a"))
    db = Database()
    db.set(config, (), 1)
    db.set(text, "a", 10)
    assert db.get(outer, 1) == 4 and db.get(mixed, 1) == 12
    db.reset_counters()
    db.set(text, "a", 20)  # an edit: nothing durable changed
    assert db.get(outer, 1) == 4
    counts = db.counters()
    assert counts["outer"].verified == 1 and counts["inner"].verified == 0  # inner's memo not visited
    assert db.get(mixed, 1) == 22
    assert db.counters()["mixed"].executed == 1 and db.counters()["inner"].executed == 0
    db.reset_counters()
    db.set(config, (), 5)  # the configuration changed: every durable memo is red
    assert db.get(outer, 1) == 12 and db.get(mixed, 1) == 26
    assert db.counters()["inner"].executed == 1 and db.counters()["outer"].executed == 1


def test_a_memo_that_starts_reading_a_volatile_input_is_not_backdated_under_a_durable_reader() -> None:
    """``choice`` reads the durable flag, and the volatile text only while the flag is off.  When
    the flag goes off, ``choice`` comes out equal (1 either way) but is no longer durable: were it
    backdated, ``top`` would stay verified and durable, and the next edit of the text would never
    reach it (hypothesis found this; salsa backdates only a value no less durable)."""
    flag = Input[tuple[()], int]("flag", durable=True)
    text = Input[tuple[()], int]("text")
    choice = Derived("choice", lambda db, _k: db.get(flag, ()) or db.get(text, ()))
    top = Derived("top", lambda db, k: db.get(choice, k) + 0)
    db = Database()
    with db.write():
        db.set(flag, (), 1)
        db.set(text, (), 0)
    assert db.get(top, ()) == 1
    with db.write():
        db.set(flag, (), 0)
        db.set(text, (), 1)
    assert db.get(top, ()) == 1
    db.set(text, (), 0)
    assert db.get(top, ()) == 0


def test_invalidating_a_durable_memos_dep_makes_it_run_again() -> None:
    config = Input[tuple[()], int]("config", durable=True)
    text = Input[str, int]("text")
    seen: list[int] = []

    def leaf(db: Database, k: int) -> int:
        seen.append(k)
        return db.get(config, ()) + k

    inner = Derived("leaf", leaf)
    outer = Derived("top", lambda db, k: db.get(inner, k) + 1)
    db = Database()
    db.set(config, (), 1)
    db.set(text, "a", 1)
    assert db.get(outer, 2) == 4 and seen == [2]
    db.invalidate(inner)
    db.set(text, "a", 2)
    assert db.get(outer, 2) == 4 and seen == [2, 2]  # the forgotten memo ran again, through its reader


def test_a_read_at_an_unchanged_revision_runs_nothing_and_an_unrelated_edit_verifies() -> None:
    x = Input[str, int]("x")

    @derived("double")
    def double(db: Database, key: str) -> int:
        return 2 * db.get(x, key)

    @derived("total")
    def total(db: Database, keys: tuple[str, ...]) -> int:
        return sum(db.get(double, k) for k in keys)

    db = Database()
    db.set(x, "a", 1)
    db.set(x, "b", 2)
    db.set(x, "c", 100)
    assert db.get(total, ("a", "b")) == 6
    assert executed(db) == {"double": 2, "total": 1}
    db.reset_counters()
    assert db.get(total, ("a", "b")) == 6
    counters = db.counters()
    assert executed(db) == {} and counters["total"].hits == 1 and counters["total"].verified == 0
    db.set(x, "c", 101)  # read by nobody: everything verifies green, nothing runs
    assert db.get(total, ("a", "b")) == 6
    counters = db.counters()
    assert executed(db) == {} and counters["total"].verified == 1 and counters["double"].verified == 2


def test_backdating_stops_propagation() -> None:
    x = Input[int, int]("x")

    @derived("parity")
    def parity(db: Database, key: int) -> int:
        return db.get(x, key) % 2

    @derived("label")
    def label(db: Database, key: int) -> str:
        return "odd" if db.get(parity, key) else "even"

    db = Database()
    db.set(x, 0, 2)
    assert db.get(label, 0) == "even"
    db.reset_counters()
    db.set(x, 0, 4)
    assert db.get(label, 0) == "even"
    counters = db.counters()
    assert counters["parity"].executed == 1 and counters["parity"].backdated == 1
    assert counters["label"].executed == 0 and counters["label"].verified == 1
    db.set(x, 0, 5)
    assert db.get(label, 0) == "odd"
    assert db.counters()["label"].executed == 1


def test_custom_eq_decides_backdating() -> None:
    x = Input[int, int]("x")

    def same_tens(a: int, b: int) -> bool:
        return a // 10 == b // 10

    @derived("rounded", eq=same_tens)
    def rounded(db: Database, key: int) -> int:
        return db.get(x, key)

    @derived("tens")
    def tens(db: Database, key: int) -> int:
        return db.get(rounded, key) // 10

    db = Database()
    db.set(x, 0, 11)
    assert db.get(tens, 0) == 1
    db.reset_counters()
    db.set(x, 0, 12)
    # eq said 11 and 12 are interchangeable: the old value stays, so a reader verified green and a
    # reader executed now see one value
    assert db.get(tens, 0) == 1 and db.get(rounded, 0) == 11
    assert executed(db) == {"rounded": 1}


def test_setting_an_equal_input_makes_no_revision() -> None:
    x = Input[str, str]("x")

    @derived("length")
    def length(db: Database, key: str) -> int:
        return len(db.get(x, key))

    db = Database()
    db.set(x, "f", "text")
    assert db.get(length, "f") == 4
    revision = db.revision
    db.reset_counters()
    db.set(x, "f", "te" + "xt")
    assert db.revision == revision
    assert db.get(length, "f") == 4
    assert db.counters()["length"].hits == 1
    db.set(x, "f", "longer")
    assert db.revision == revision + 1


def test_one_revision_per_write_batch() -> None:
    x = Input[int, int]("x")
    db = Database()
    revision = db.revision
    with db.write():
        db.set(x, 1, 1)
        db.set(x, 2, 2)
        db.remove(x, 1)
    assert db.revision == revision + 1
    assert db.get_or(x, 1, None) is None and db.get(x, 2) == 2


def test_eviction_keeps_dependencies_verifiable() -> None:
    x = Input[str, int]("x")

    @derived("dep")
    def dep(db: Database, key: str) -> int:
        return db.get(x, key) + 1

    @derived("top", evict=False)
    def top(db: Database, key: str) -> int:
        return db.get(dep, key) * 10

    db = Database(max_weight=0)  # every evictable value goes as soon as it is stored
    db.set(x, "a", 1)
    db.set(x, "unrelated", 0)
    assert db.get(top, "a") == 20
    assert db.counters()["dep"].evicted == 1
    db.reset_counters()
    db.set(x, "unrelated", 1)
    assert db.get(top, "a") == 20
    counters = db.counters()
    assert executed(db) == {} and counters["dep"].verified == 1 and counters["top"].verified == 1
    # Reading the evicted value runs it again but keeps its changed_at: its dependents stay green.
    db.set(x, "unrelated", 2)
    assert db.get(dep, "a") == 2
    assert db.get(top, "a") == 20
    assert executed(db) == {"dep": 1}
    db.set(x, "a", 5)
    assert db.get(top, "a") == 60


def test_evict_false_opts_out_and_weights_count() -> None:
    x = Input[int, int]("x")

    @derived("hot", evict=False)
    def hot(db: Database, key: int) -> int:
        return db.get(x, key)

    @derived("heavy", weight=lambda v: v)
    def heavy(db: Database, key: int) -> int:
        return db.get(x, key)

    db = Database(max_weight=3)
    db.set(x, 1, 1)
    db.set(x, 4, 4)
    for _ in range(2):
        assert db.get(hot, 1) == 1 and db.get(heavy, 1) == 1 and db.get(heavy, 4) == 4
    assert executed(db) == {"hot": 1, "heavy": 3}  # heavy(4) weighs more than the bound
    assert db.weight == 1


def test_eviction_is_least_recently_used_first() -> None:
    x = Input[int, int]("x")

    @derived("item")
    def item(db: Database, key: int) -> int:
        return db.get(x, key)

    db = Database(max_weight=2)
    for k in range(3):
        db.set(x, k, k)
    db.get(item, 0)
    db.get(item, 1)
    db.get(item, 0)  # 0 is now the most recent
    db.get(item, 2)  # evicts 1, not 0
    db.reset_counters()
    db.get(item, 0)
    assert executed(db) == {}
    db.get(item, 1)
    assert executed(db) == {"item": 1}


def test_cycle_names_the_chain_and_leaves_the_database_usable() -> None:
    x = Input[int, int]("x")

    @derived("ping")
    def ping(db: Database, key: int) -> int:
        return db.get(pong, key) if db.get(x, key) else 0

    @derived("pong")
    def pong(db: Database, key: int) -> int:
        return db.get(ping, key) + 1

    db = Database()
    db.set(x, 7, 1)
    with pytest.raises(QueryCycle, match=r"^query cycle: pong\(7\) -> ping\(7\) -> pong\(7\)$") as info:
        db.get(pong, 7)
    assert info.value.chain[0] == ("pong", 7) and info.value.chain[-1] == ("pong", 7)
    db.set(x, 7, 0)
    assert db.get(pong, 7) == 1


def test_missing_input_is_an_error_and_get_or_depends_on_the_absence() -> None:
    text = Input[str, str]("text")

    @derived("strict")
    def strict(db: Database, path: str) -> int:
        return len(db.get(text, path))

    @derived("lenient")
    def lenient(db: Database, path: str) -> int:
        return len(db.get_or(text, path, ""))

    db = Database()
    with pytest.raises(MissingInput) as info:
        db.get(strict, "a.c")
    assert isinstance(info.value, KeyError)
    assert str(info.value) == "input text('a.c') is not set"
    assert db.get(lenient, "a.c") == 0
    db.set(text, "a.c", "abc")
    assert db.get(lenient, "a.c") == 3 and db.get(strict, "a.c") == 3
    db.remove(text, "a.c")
    assert db.get(lenient, "a.c") == 0
    with pytest.raises(MissingInput):
        db.get(strict, "a.c")


def test_a_caught_missing_input_is_still_a_dependency() -> None:
    text = Input[str, str]("text")

    @derived("guarded")
    def guarded(db: Database, path: str) -> str:
        try:
            return db.get(text, path)
        except MissingInput:
            return "<none>"

    db = Database()
    assert db.get(guarded, "f") == "<none>"
    db.set(text, "f", "body")
    assert db.get(guarded, "f") == "body"


def test_a_failure_seen_by_a_reader_counts_as_a_change() -> None:
    """Failures are not memoised, but a reader may have caught one: a later value equal to the one
    before the failure must not be backdated over it."""
    x = Input[int, int]("x")

    @derived("parity")
    def parity(db: Database, key: int) -> int:
        return db.get(x, key) % 2

    @derived("guarded")
    def guarded(db: Database, key: int) -> int:
        try:
            return db.get(parity, key)
        except MissingInput:
            return -1

    db = Database()
    db.set(x, 0, 2)
    assert db.get(parity, 0) == 0
    db.remove(x, 0)
    assert db.get(guarded, 0) == -1
    db.set(x, 0, 4)
    assert db.get(guarded, 0) == 0


def test_dependencies_are_those_of_the_last_run() -> None:
    x = Input[str, int]("x")

    @derived("pick")
    def pick(db: Database, key: str) -> int:
        return db.get(x, "b") if db.get(x, "a") % 2 else 0

    db = Database()
    db.set(x, "a", 1)
    db.set(x, "b", 5)
    assert db.get(pick, "") == 5
    db.set(x, "a", 2)
    assert db.get(pick, "") == 0
    db.reset_counters()
    db.set(x, "b", 6)  # no longer read
    assert db.get(pick, "") == 0
    assert executed(db) == {} and db.counters()["pick"].verified == 1


def test_sweep_forgets_what_no_root_reaches() -> None:
    x = Input[int, int]("x")
    cubes = Content[int, int]("cubes")

    @derived("square")
    def square(db: Database, key: int) -> int:
        value = db.get(x, key)
        memos = db.content(cubes)
        if memos.get(value) is None:
            memos[value] = value**3
        return value**2

    @derived("total")
    def total(db: Database, count: int) -> int:
        return sum(db.get(square, k) for k in range(count))

    db = Database()
    for k in range(10):
        db.set(x, k, k)
    assert db.get(total, 10) == 285
    with db.write():
        for k in range(5, 10):
            db.remove(x, k)
    assert db.get(total, 5) == 30
    # gone: total(10), five squares, five removals, the cubes only those squares used
    assert db.sweep([(total, 5)]) == 16
    assert db.memo_count(square) == 5 and db.memo_count(x) == 5 and len(db.content(cubes)) == 5
    db.reset_counters()
    assert db.get(total, 5) == 30 and [db.get(square, k) for k in range(5)] == [k * k for k in range(5)]
    assert executed(db) == {}
    assert db.get_or(x, 7, None) is None
    assert db.sweep([(total, 5)]) == 0  # what stayed is what the root reaches


def test_a_sweep_gives_way_to_a_write_and_a_later_sweep_finishes() -> None:
    """``sweep_or_give_way`` stops when another thread comes to write (an edit), having dropped
    only dead memos; the write then goes through at once, and a later sweep drops the rest."""
    x = Input[int, int]("x")

    @derived("double")
    def double(db: Database, key: int) -> int:
        return 2 * db.get(x, key)

    @derived("total")
    def total(db: Database, count: int) -> int:
        return sum(db.get(double, k) for k in range(count))

    db = Database()
    for k in range(10):
        db.set(x, k, k)
    assert db.get(total, 10) == 90
    assert db.get(total, 5) == 20  # total(10) is dead for a sweep from total(5)
    writer = threading.Thread(target=db.set, args=(x, 0, 100))

    def roots() -> Any:  # read by the sweep while it holds the database: the writer comes then
        writer.start()
        deadline = time.monotonic() + 30
        while db._pending < 2 and time.monotonic() < deadline:  # the writer waits for the sweep
            time.sleep(0.001)
        yield (total, 5)

    assert db.sweep_or_give_way(roots()) is None
    writer.join(30)
    assert not writer.is_alive() and db.get(x, 0) == 100
    assert db.get(total, 10) == 290 and db.get(total, 5) == 220
    assert db.sweep_or_give_way([(total, 5)]) == 6  # nobody writes: total(10), x(5..9)'s doubles
    assert db.memo_count(double) == 5 and db.get(total, 5) == 220


def test_a_sweep_keeps_the_content_a_live_memo_used_at_any_revision() -> None:
    x = Input[int, int]("x")
    other = Input[int, int]("other")
    blobs = Content[int, int]("blobs")

    @derived("stored")
    def stored(db: Database, key: int) -> int:
        memos = db.content(blobs)
        memos[key] = db.get(x, key) + 1
        return 0

    db = Database()
    db.set(x, 0, 1)
    db.set(x, 1, 2)
    db.get(stored, 0)
    db.get(stored, 1)
    db.set(other, 0, 0)  # a later revision: the entries were used before it
    assert db.sweep([(stored, 0)]) == 2  # stored(1) and its entry
    assert db.content(blobs).get(0) == 2 and db.content(blobs).get(1) is None


def test_a_sweep_during_a_read_cancels_it_and_its_reader_sees_the_removal() -> None:
    """A reader cancelled halfway through its verification has been read, its deps not: a sweep
    then forgets the reader and the removal it has not seen yet, and the next read still sees it."""
    x = Input[str, int]("x")
    other = Input[int, int]("other")
    entered = threading.Event()
    block = [False]

    @derived("gate")
    def gate(db: Database, key: int) -> int:
        if block[0]:
            entered.set()
            db.wait_for_cancellation(HANG_GUARD)
        return 0 * db.get(other, key)

    @derived("seen")
    def seen(db: Database, key: str) -> int:
        return db.get(gate, 0) + db.get_or(x, key, -1)

    db = Database()
    db.set(x, "a", 1)
    db.set(other, 0, 0)
    assert db.get(seen, "a") == 1
    db.remove(x, "a")
    db.set(other, 0, 1)  # gate must run again, and the removal is now a revision old
    block[0] = True
    thread, outcome = read_in_thread(db, seen, "a")
    assert entered.wait(HANG_GUARD)
    block[0] = False
    assert db.sweep([(gate, 0)]) == 2  # seen and the removal
    thread.join(HANG_GUARD)
    assert not thread.is_alive() and isinstance(outcome[0], Cancelled)
    assert db.get(seen, "a") == -1


def test_invalidate_reruns_a_query_and_its_readers() -> None:
    x = Input[int, int]("x")
    config = {"scale": 2}

    @derived("scaled")
    def scaled(db: Database, key: int) -> int:
        return db.get(x, key) * config["scale"]

    @derived("shown")
    def shown(db: Database, key: int) -> str:
        return str(db.get(scaled, key))

    db = Database()
    db.set(x, 0, 21)
    assert db.get(shown, 0) == "42"
    config["scale"] = 3
    db.invalidate(scaled)
    assert db.get(shown, 0) == "63"


def test_evict_drops_values_without_a_revision_and_readers_stay_green() -> None:
    x = Input[int, int]("x")
    runs = {"made": 0}

    @derived("made", weight=lambda _v: 7)
    def made(db: Database, key: int) -> list[int]:
        runs["made"] += 1
        return [db.get(x, key)] * 3

    @derived("size")
    def size(db: Database, key: int) -> int:
        return len(db.get(made, key))

    db = Database()
    db.set(x, 0, 1)
    db.set(x, 1, 2)
    first = db.get(made, 0)
    assert db.get(size, 0) == 3 and db.get(made, 1) == [2, 2, 2]
    revision, weight = db.revision, db.weight
    assert db.evict(made) == 2
    assert (db.revision, db.weight) == (revision, weight - 14)  # nothing changed, the values went
    db.reset_counters()
    assert db.get(size, 0) == 3  # current at this revision: its evicted input is not read again
    assert executed(db) == {}
    again = db.get(made, 0)
    assert again == first and again is not first and runs["made"] == 3
    db.set(x, 0, 5)
    assert db.get(size, 0) == 3 and db.get(made, 0) == [5, 5, 5]


def test_long_chain_verifies_without_recursion() -> None:
    base = Input[int, int]("base")
    other = Input[int, int]("other")
    n = 5_000

    @derived("chain")
    def chain(db: Database, k: int) -> int:
        return db.get(base, 0) if k == 0 else db.get(chain, k - 1) + 1

    db = Database()
    db.set(base, 0, 0)
    for k in range(n):  # bottom up: each first computation reads a memo that is already there
        db.get(chain, k)
    db.set(other, 0, 1)
    db.reset_counters()
    assert db.get(chain, n - 1) == n - 1
    assert db.counters()["chain"].verified == n and executed(db) == {}
    db.set(base, 0, 10)
    assert db.get(chain, n - 1) == n + 9
    assert db.counters()["chain"].executed == n


def test_a_write_cancels_the_computation_in_flight() -> None:
    x = Input[int, int]("x")
    y = Input[int, int]("y")
    entered = threading.Event()
    block = [True]

    @derived("low")
    def low(db: Database, key: int) -> int:
        return db.get(x, key) + 1

    @derived("slow")
    def slow(db: Database, key: int) -> int:
        value = db.get(low, key)
        if block[0]:
            entered.set()
            db.wait_for_cancellation(HANG_GUARD)  # until the main thread's write is pending
        return value + db.get(y, key)  # the read that must raise Cancelled

    db = Database()
    db.set(x, 0, 1)
    db.set(y, 0, 10)
    thread, outcome = read_in_thread(db, slow, 0)
    assert entered.wait(HANG_GUARD)
    block[0] = False
    revision = db.revision
    db.set(y, 0, 20)  # returns once the worker has unwound
    thread.join(HANG_GUARD)
    assert not thread.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], Cancelled)
    assert db.revision == revision + 1
    db.reset_counters()
    assert db.get(slow, 0) == 22
    assert executed(db) == {"slow": 1}  # low was complete before the cancellation: still valid


def test_a_snapshot_holds_its_revision_until_it_ends() -> None:
    x = Input[int, int]("x")
    db = Database()
    db.set(x, 0, 1)
    writer = threading.Thread(target=db.set, args=(x, 0, 2))
    with pytest.raises(Cancelled), db.snapshot() as snap:
        assert db.get(x, 0) == 1
        writer.start()
        assert db.wait_for_cancellation(HANG_GUARD)
        assert db.revision == snap.revision  # the write waits for the snapshot
        db.get(x, 0)
    writer.join(HANG_GUARD)
    assert not writer.is_alive()
    assert db.revision == snap.revision + 1 and db.get(x, 0) == 2


def test_a_swallowed_cancellation_still_discards_the_execution() -> None:
    x = Input[int, int]("x")
    entered = threading.Event()
    block = [True]

    @derived("stubborn")
    def stubborn(db: Database, key: int) -> int:
        if block[0]:
            entered.set()
            db.wait_for_cancellation(HANG_GUARD)
        try:
            return db.get(x, key)
        except Cancelled:
            return -1  # a wrong value that must never be memoised nor returned

    db = Database()
    db.set(x, 0, 1)
    thread, outcome = read_in_thread(db, stubborn, 0)
    assert entered.wait(HANG_GUARD)
    block[0] = False
    db.set(x, 1, 0)  # an unrelated key: a stored memo of stubborn would verify green
    thread.join(HANG_GUARD)
    assert not thread.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], Cancelled)
    assert db.get(stubborn, 0) == 1


def test_reading_and_writing_from_the_wrong_place_is_refused() -> None:
    x = Input[int, int]("x")

    @derived("writes")
    def writes(db: Database, key: int) -> int:
        db.set(x, key, 1)
        return 0

    db = Database()
    with pytest.raises(RuntimeError, match="while it reads"):
        db.get(writes, 0)
    with pytest.raises(RuntimeError, match="inside its own write"), db.write():
        db.get_or(x, 0, 0)
    db.set(x, 0, 0)
    with pytest.raises(ValueError, match="two different queries"):
        db.get_or(Input[int, int]("x"), 0, 0)


def test_content_entries_share_the_bound_and_the_order_with_derived_memos() -> None:
    x = Input[int, int]("x")
    blobs = Content[str, int]("blobs", weight=lambda v: v)

    @derived("item")
    def item(db: Database, key: int) -> int:
        return db.get(x, key)

    db = Database(max_weight=4)
    db.set(x, 0, 0)
    db.set(x, 1, 1)
    memos = db.content(blobs)
    db.get(item, 0)
    memos["a"] = 1
    memos["b"] = 1
    db.get(item, 1)
    assert db.weight == 4 and len(memos) == 2
    assert memos.get("a") == 1  # a hit: "a" is now the most recent
    memos["c"] = 2  # evicts item(0) and "b", the least recently used
    assert "b" not in memos and memos.get("b") is None and len(memos) == 2
    assert db.weight == 4
    db.reset_counters()
    db.get(item, 1)
    assert executed(db) == {}
    db.get(item, 0)
    assert executed(db) == {"item": 1}
    kept = len(memos)
    memos["huge"] = 5  # heavier than the bound: not kept, and nothing else goes for it
    assert "huge" not in memos and len(memos) == kept and db.weight == 4


def test_content_used_outside_queries_stays_while_used_since_the_revision_asked() -> None:
    blobs = Content[str, int]("blobs")
    db = Database()
    db.content(blobs)["k"] = 1
    with pytest.raises(TypeError):
        db.get(blobs, "k")  # type: ignore[arg-type]
    assert db.sweep([]) == 0  # used at this revision
    assert db.content(blobs).get("k") == 1
    used = db.revision
    db.set(Input[int, int]("x"), 0, 0)
    assert db.sweep([], used_since=used) == 0  # kept: used since the revision asked for
    assert db.sweep([]) == 1
    assert db.content(blobs).get("k") is None


def test_pinned_values_stay_out_of_the_bound_until_recomputed() -> None:
    x = Input[int, int]("x")
    runs: list[int] = []

    def square(db: Database, k: int) -> int:
        runs.append(k)
        return db.get(x, k) ** 2

    sq = Derived("square", square)
    db = Database(max_weight=2)
    for k in range(2):
        db.set(x, k, k + 2)
        assert db.get(sq, k) == (k + 2) ** 2
    assert db.pin() == 2 and db.weight == 0
    for k in range(2, 6):  # each new value evicts the one before it, never a pinned one
        db.set(x, k, k)
        db.get(sq, k)
    runs.clear()
    assert [db.get(sq, k) for k in range(2)] == [4, 9] and runs == []
    db.set(x, 0, 5)  # a pinned memo recomputed joins the order again
    assert db.get(sq, 0) == 25 and runs == [0] and db.weight <= 2


EXPORTED_TEXT = Input[str, str]("exported_text")
EXPORTED_KEYS = Input[tuple[()], tuple[str, ...]]("exported_keys", durable=True)


@derived("exported_length")
def exported_length(db: Database, key: str) -> int:
    return len(db.get(EXPORTED_TEXT, key))


@derived("exported_total")
def exported_total(db: Database, key: tuple[()]) -> int:
    return sum(db.get(exported_length, k) for k in db.get(EXPORTED_KEYS, ()))


def test_an_adopted_export_is_read_without_running_and_edited_as_the_original() -> None:
    """A database that adopts another's export (pickled, as it goes to a worker process) returns
    every memo without running it, runs what was left out again (and only that), and takes an edit
    as the original would: the edited text's memos run, the rest stays green."""
    import pickle

    db = Database()
    with db.write():
        db.set(EXPORTED_KEYS, (), ("a", "b", "c"))
        for k, text in zip("abc", ("x", "yy", "zzz"), strict=True):
            db.set(EXPORTED_TEXT, k, text)
    assert db.get(exported_total, ()) == 6
    other = Database()
    other.adopt(pickle.loads(pickle.dumps(db.export(leave_out=[exported_length]))))
    assert other.keys(EXPORTED_TEXT) == ["a", "b", "c"] and other.revision == db.revision
    assert other.get(exported_total, ()) == 6 and executed(other) == {}
    assert other.get(exported_length, "b") == 2 and executed(other) == {"exported_length": 1}
    other.reset_counters()
    other.set(EXPORTED_TEXT, "a", "wwww")
    assert other.get(exported_total, ()) == 9
    assert executed(other) == {"exported_length": 2, "exported_total": 1}  # "a"'s, and "c"'s left out
    assert db.get(exported_total, ()) == 6  # the original is its own


def test_a_query_is_found_by_its_name_unless_two_share_it() -> None:
    import pickle

    assert pickle.loads(pickle.dumps(exported_total)) is exported_total
    Input[int, int]("shared_name")
    Input[int, int]("shared_name")
    with pytest.raises(LookupError, match="two queries are named 'shared_name'"):
        named("shared_name")
    with pytest.raises(LookupError, match="no query is named"):
        named("never_made")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forks")
def test_a_forked_child_reads_while_another_thread_held_the_lock() -> None:
    """A child forked while another thread holds the database's lock (a writer handing over)
    has only the forking thread, so the lock would never be released there: the child gets a
    new one and reads (what ``server.parallel_extraction``'s children do)."""
    text = Input[str, int]("fork_text")
    doubled = Derived("fork_doubled", lambda db, k: db.get(text, k) * 2)
    db = Database()
    db.set(text, "a", 21)
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with db._cond:
            held.set()
            release.wait(HANG_GUARD)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(HANG_GUARD)
    pid = os.fork()
    if pid == 0:  # the child: exits 0 when it read the value
        code = 1
        try:
            code = 0 if db.get(doubled, "a") == 42 else 1
        finally:
            os._exit(code)
    release.set()
    holder.join()
    deadline = time.monotonic() + HANG_GUARD
    while (done := os.waitpid(pid, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    if done[0] == 0:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        pytest.fail("the forked child hung on the lock another thread held")
    assert os.waitstatus_to_exitcode(done[1]) == 0
    assert db.get(doubled, "a") == 42  # the parent's database is as it was


def test_a_batch_read_is_one_dependency_per_key_and_verifies_each_without_running_it() -> None:
    x = Input[int, int]("x")
    inner = Derived("inner", lambda db, k: db.get(x, k) * 10)
    outer = Derived("outer", lambda db, _k: sum(db.get_all(inner, range(50))))
    db = Database()
    with db.write():
        for k in range(50):
            db.set(x, k, k)
    assert db.get(outer, ()) == 10 * sum(range(50))
    assert db.get_all(inner, [3, 4]) == [30, 40]  # outside any query too
    db.reset_counters()
    db.set(x, 7, 100)
    assert db.get(outer, ()) == 10 * (sum(range(50)) - 7 + 100)
    counters = db.counters()
    assert counters["inner"].executed == 1 and counters["inner"].verified == 49
    assert counters["outer"].executed == 1
    db.reset_counters()
    db.set(x, 7, 100)  # the same value: nothing runs
    assert db.get(outer, ()) == 10 * (sum(range(50)) - 7 + 100)
    assert db.counters()["outer"].executed == 0


def test_a_reader_of_inlined_memos_depends_on_their_deps_and_keeps_them() -> None:
    """``get_inlined``: the reader is verified by the deps the memos read (one shared input here),
    not memo by memo; an edit of one memo's own input runs the reader, which verifies the other
    memos and runs that one only; a sweep from the reader keeps the memos it read."""
    shared = Input[str, int]("shared")
    own = Input[int, int]("own")

    @derived("scaled")
    def scaled(db: Database, key: int) -> int:
        return db.get(shared, "k") * db.get(own, key)

    @derived("all_scaled")
    def all_scaled(db: Database, count: int) -> tuple[int, ...]:
        return tuple(db.get_inlined(scaled, k) for k in range(count))

    @derived("other")
    def other(db: Database, key: str) -> int:
        return db.get(shared, key)

    db = Database()
    db.set(shared, "k", 2)
    db.set(shared, "unread", 0)
    for k in range(50):
        db.set(own, k, k)
    assert db.get(all_scaled, 50) == tuple(2 * k for k in range(50))
    assert db.get(other, "unread") == 0
    db.reset_counters()
    db.set(shared, "unread", 1)  # a new revision: the reader verifies without its 50 memos
    assert db.get(all_scaled, 50) == tuple(2 * k for k in range(50))
    counters = db.counters()
    assert executed(db) == {} and counters["all_scaled"].verified == 1
    assert "scaled" not in counters or counters["scaled"].verified == 0
    db.reset_counters()
    db.set(own, 7, 100)  # one memo's own input: that memo runs again, the others verify
    assert db.get(all_scaled, 50)[7] == 200
    counters = db.counters()
    assert executed(db) == {"all_scaled": 1, "scaled": 1} and counters["scaled"].verified == 49
    db.reset_counters()
    db.set(shared, "k", 3)  # read by every memo, and so by the reader
    assert db.get(all_scaled, 50)[1] == 3
    assert executed(db) == {"all_scaled": 1, "scaled": 50}
    assert db.sweep([(all_scaled, 50)]) == 1  # other("unread") goes; the 50 memos stay
    assert db.memo_count(scaled) == 50
    db.reset_counters()
    assert db.get(all_scaled, 50)[1] == 3 and executed(db) == {}


def test_a_failed_inlined_read_makes_its_reader_run_again() -> None:
    x = Input[int, int]("x")

    @derived("needs")
    def needs(db: Database, key: int) -> int:
        return db.get(x, key)

    @derived("guarded")
    def guarded(db: Database, key: int) -> int:
        try:
            return db.get_inlined(needs, key)
        except MissingInput:
            return -1

    db = Database()
    assert db.get(guarded, 3) == -1
    db.set(x, 3, 9)
    assert db.get(guarded, 3) == 9
