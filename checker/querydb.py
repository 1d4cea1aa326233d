"""An incremental query database in the manner of rust-analyzer's salsa: the one place where derived
results are memoised and invalidated.

Model.  A query is declared once, at module level: an :class:`Input` holds values the program sets
(``FILE_TEXT = Input[str, str]("file_text")``); a :class:`Derived` query is a function of the
database and one hashable key (``@derived("items") def items(db: Database, path: str) -> Items``)
that reads other queries only through :meth:`Database.get` and :meth:`Database.get_or`.  Keys are
content values (a tuple for several arguments), never object identities; a query's name is its
identity inside a database, so two query objects with one name are refused.

Revisions.  Every effective write bumps the global revision.  Each memo holds its value, the
revision at which that value last changed (``changed_at``), the revision at which it was last known
to be current (``verified_at``) and the ``(query, key)`` pairs its last execution read, in first-read
order.  Invariants: ``changed_at <= verified_at <= revision``; a memo verified at the current
revision is what its function would return now; deps are exactly what the last completed execution
read, so they change with the data (read B only if A is odd).

Reading (red-green).  A memo verified at the current revision is returned as is.  Otherwise its deps
are checked in order, each brought up to date first; the first dep whose ``changed_at`` is later than
the memo's ``verified_at`` makes the memo red and it is executed again; if none is, the memo is
marked verified without running.  In-order checking matters: a later dep may not be read any more
once an earlier one changed.  An execution whose value equals the old one (the query's ``eq``,
``==`` by default) keeps the old ``changed_at`` and the old value object (backdating), so its
dependents stay green and readers keep the object they had (with whatever it memoises): that is
the early cutoff.  The verification walk keeps its own stack, so a chain of any length is checked
without Python recursion; only a query function reading another query recurses, as it must.  A query
that needs itself while it computes raises :class:`QueryCycle`.  Exceptions are never memoised: a
query that raised runs again on the next read, and its memo is forgotten, because a reader that
caught the exception saw a change that no later equal value may be backdated over.

Durability (salsa's).  An input may be declared ``durable``: it changes seldom (the
configuration), where the others change at every keystroke (file texts).  A memo whose deps are all
durable, directly or through durable memos, is durable too, and stays valid while no durable input
changed since it was verified: it is marked verified without walking its deps.  Without this, an
edit made every memo read afterwards walk all its deps again, even those of a file's thousands of
pieces, which only read the configuration.  ``_durable_since`` is the last revision at which a
durable input changed or a memo was forgotten (``invalidate``, a failed execution),
which a durable memo's validity cannot see through.  A recomputed value equal to the old one is
backdated only when it is no less durable than before: a memo that now reads a volatile input
counts as changed, so that its durable readers run again and become volatile too (salsa's rule).

Eviction.  One bound for the whole database: the total ``weight`` of memoised derived values (one
per value unless a query says otherwise), least recently used first.  Eviction drops the value but
keeps ``changed_at``, ``verified_at`` and deps, so dependents still verify green through it, and a
later read whose deps are unchanged recomputes the value with its old ``changed_at`` (queries are
deterministic).  Queries declared ``evict=False`` neither count nor get evicted; inputs never are.
:meth:`Database.sweep` forgets what the owner's roots no longer reach (the memos of keys that no
longer exist, such as a function's old text, and all they alone used), and :meth:`Database.invalidate`
forgets all memos of one query whose meaning changed outside the database.  The bound caps what is
held; the sweep stops the memos of dead keys from piling up under it over thousands of edits.

Threading contract.  One thread reads at a time: a ``get`` from outside any computation, or a
``snapshot()`` block, holds the database for reading, and other reading threads wait for it.  A write
(``set``, ``remove``, ``invalidate``, ``sweep``, or a ``with db.write():`` batch of them) first
announces itself, which cancels the read in flight: that read's next ``get``, ``get_or`` or
``check_cancelled`` raises :class:`Cancelled`.  The write then waits until the read has unwound,
applies its changes under one new revision and lets readers in again; reads that start while a write
is pending wait for it.  Memos completed before the cancellation stay valid (they are stamped with the
revision they were computed at); executions cut short are discarded, even when a query function
swallows the exception.  Setting a value equal to the current one changes nothing and cancels
nothing.  A computation that runs long without reading the database should call
``check_cancelled()`` now and then, or a writer waits for it; a query function must never wait for
the writing thread, which may be waiting for it.  A thread may not write while it reads, nor read
inside its own write batch: both raise ``RuntimeError`` instead of waiting for themselves.  A
``snapshot()`` tells a reader the revision its results belong to; the revision cannot change before
the block ends.

Content tables (:class:`Content`) hold memos whose key is their content (a digest), kept by
computations for themselves: no revision and no deps, since such a value cannot go stale, but the
same eviction order and bound as derived values, and a sweep forgets those that nothing live used
(see :meth:`Database.sweep`).  They replace dicts with size limits of their own.

Values are shared, never copied: whatever a query returns or an input holds must be treated as
immutable by everyone who reads it.
"""

from __future__ import annotations

import builtins
import operator
import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Generic, NamedTuple, NoReturn, TypeVar, cast, overload

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
D = TypeVar("D")

Slot = tuple[str, Hashable]
"""A memo's identity: query name and key."""


class MissingInput(KeyError):
    """An input read with :meth:`Database.get` has no value for this key."""

    def __init__(self, query: str, key: Hashable) -> None:
        super().__init__(query, key)
        self.query = query
        self.key = key

    def __str__(self) -> str:
        return f"input {self.query}({self.key!r}) is not set"


class QueryCycle(RuntimeError):
    """A query needed its own value while computing it; ``chain`` runs from it back to itself."""

    def __init__(self, chain: tuple[Slot, ...]) -> None:
        super().__init__(chain)
        self.chain = chain

    def __str__(self) -> str:
        return "query cycle: " + " -> ".join(f"{name}({key!r})" for name, key in self.chain)


class Cancelled(Exception):
    """A write is waiting for this read: unwind and read again later, at the new revision."""


_NAMED: dict[str, Query[Any, Any] | None] = {}
"""Every query made in this process by name; None for a name two queries were made with."""


def named(name: str) -> Query[Any, Any]:
    """The query made in this process under ``name``: how a pickled query is found again (a
    :class:`DbState` unpickled in another process that imported the same modules)."""
    query = _NAMED.get(name)
    if query is None:
        why = "two queries are" if name in _NAMED else "no query is"
        raise LookupError(f"{why} named {name!r} in this process")
    return query


class Query(Generic[K, V]):
    """What inputs and derived queries share: a name unique within a database, and value equality.
    A query pickles as its name (:func:`named`), so that what names it (a :class:`DbState`) can
    go to another process of the same program."""

    __slots__ = ("name", "eq")

    def __init__(self, name: str, eq: Callable[[V, V], bool] | None = None) -> None:
        if not name:
            raise ValueError("a query needs a name")
        self.name = name
        self.eq: Callable[[V, V], bool] = eq if eq is not None else operator.eq
        _NAMED[name] = self if _NAMED.get(name, self) is self else None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    def __reduce__(self) -> tuple[Callable[[str], Query[Any, Any]], tuple[str]]:
        return named, (self.name,)


class Input(Query[K, V]):
    """Values set from outside (file texts, settings); an equal value set again changes nothing.
    ``durable``: it changes seldom (see Durability in the module's note)."""

    __slots__ = ("durable",)

    def __init__(self, name: str, eq: Callable[[V, V], bool] | None = None, *, durable: bool = False) -> None:
        super().__init__(name, eq)
        self.durable = durable


class Derived(Query[K, V]):
    """A memoised deterministic function of the database and a key.

    ``weight(value)`` is what the value counts against the database's bound; ``evict=False`` keeps
    the values of small, hot queries out of eviction altogether; ``portable=False``: its values do
    not pickle (they hold functions), so :meth:`Database.export` leaves them out.
    """

    __slots__ = ("fn", "weight", "evict", "portable")

    def __init__(
        self,
        name: str,
        fn: Callable[[Database, K], V],
        *,
        eq: Callable[[V, V], bool] | None = None,
        weight: Callable[[V], int] | None = None,
        evict: bool = True,
        portable: bool = True,
    ) -> None:
        super().__init__(name, eq)
        self.fn = fn
        self.weight: Callable[[V], int] = weight if weight is not None else _unit
        self.evict = evict
        self.portable = portable


def _unit(value: object) -> int:
    return 1


def _durable(table: _Table, key: Hashable) -> bool:
    """Whether a dep (read just now) is durable: a durable input's key, or a durable memo."""
    if table.derived is None:
        return cast(Input[Any, Any], table.query).durable
    memo = table.memos.get(key)
    return memo is not None and memo.durable


class Content(Query[K, V]):
    """A table of values that are a pure function of their key, where the key is the content itself
    (a digest, a text key): such a value never goes stale, so it has no revision and no deps, only a
    place in the database's one eviction order (``weight`` as for :class:`Derived`).  For memos a
    computation keeps by content while it runs inside a query (projections, compiled models,
    findings by the content they were found in); read and write them through
    :meth:`Database.content`, from the thread that holds the database."""

    __slots__ = ("weight",)

    def __init__(self, name: str, weight: Callable[[V], int] | None = None) -> None:
        super().__init__(name)
        self.weight: Callable[[V], int] = weight if weight is not None else _unit


class ContentMemos(MutableMapping[K, V]):
    """The entries of one :class:`Content` table, as a mapping: a hit moves the entry last in the
    eviction order; an eviction removes it.  ``get`` is the way to compute an entry: a miss there
    starts its making, and what is read until the entry is stored is what it is made of (see
    :meth:`Database.sweep`); ``[]`` reads without starting anything, for a lookup that is not
    followed by a store of the same key."""

    __slots__ = ("_db", "_table", "_weight")

    def __init__(self, db: Database, table: _Table) -> None:
        self._db = db
        self._table = table
        self._weight = cast(Content[K, V], table.query).weight

    @overload
    def get(self, key: K) -> V | None: ...

    @overload
    def get(self, key: K, default: V | D) -> V | D: ...

    def get(self, key: K, default: object = None) -> object:
        memo = self._table.memos.get(key)
        if memo is None:
            self._db._missed(self._table, key)
            return default
        return self._hit(memo)

    def __getitem__(self, key: K) -> V:
        memo = self._table.memos.get(key)
        if memo is None:
            raise KeyError(key)
        return self._hit(memo)

    def _hit(self, memo: _Memo) -> V:
        self._table.counters.hits += 1
        self._db._use(memo)
        return cast(V, memo.value)

    def __setitem__(self, key: K, value: V) -> None:
        table = self._table
        memo = table.memos.get(key)
        if memo is None:
            memo = table.memos[key] = _Memo(table, key, 0)
        memo.value = value
        memo.has_value = True
        table.counters.executed += 1
        self._db._made(memo)
        self._db._list(memo, self._weight(value))

    def __delitem__(self, key: K) -> None:
        memo = self._table.memos.pop(key)
        self._db._unlist(memo)

    def __iter__(self) -> Iterator[K]:
        return iter(cast("list[K]", list(self._table.memos)))

    def __contains__(self, key: object) -> bool:
        return key in self._table.memos

    def __len__(self) -> int:
        return len(self._table.memos)


@overload
def derived(
    name: str, *, evict: bool = True, portable: bool = True
) -> Callable[[Callable[[Database, K], V]], Derived[K, V]]: ...


@overload
def derived(
    name: str,
    *,
    eq: Callable[[V, V], bool] | None = None,
    weight: Callable[[V], int] | None = None,
    evict: bool = True,
    portable: bool = True,
) -> Callable[[Callable[[Database, K], V]], Derived[K, V]]: ...


def derived(
    name: str,
    *,
    eq: Callable[[V, V], bool] | None = None,
    weight: Callable[[V], int] | None = None,
    evict: bool = True,
    portable: bool = True,
) -> Callable[[Callable[[Database, K], V]], Derived[K, V]]:
    """Declare a derived query from a function ``(db, key) -> value``.

    (Two overloads: without ``eq`` or ``weight`` nothing fixes the value type before the function
    is seen, and a single signature would make it ``Never``.)
    """

    def declare(fn: Callable[[Database, K], V]) -> Derived[K, V]:
        return Derived(name, fn, eq=eq, weight=weight, evict=evict, portable=portable)

    return declare


@dataclass(slots=True)
class QueryCounters:
    """What one query's memos did: ran (runs that raised or were cancelled included), verified green
    without running, ran to an equal value (backdated), were returned current as they stood (hits;
    for inputs, every read), lost their value to eviction."""

    executed: int = 0
    verified: int = 0
    backdated: int = 0
    hits: int = 0
    evicted: int = 0


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The revision every result read inside a ``snapshot()`` block belongs to."""

    revision: int


class _MemoState(NamedTuple):
    """One memo in a :class:`DbState` (see :class:`_Memo`); ``value`` is None without one, and
    ``weight`` 0 when the value is not in the eviction order."""

    query: Query[Any, Any]
    key: Hashable
    has_value: bool
    value: Any
    changed_at: int
    verified_at: int
    read_at: int
    deps: tuple[tuple[Query[Any, Any], Hashable], ...]
    durable: bool
    weight: int


@dataclass(frozen=True, slots=True)
class DbState:
    """A database's inputs and derived memos as plain values (:meth:`Database.export`), for
    :meth:`Database.adopt` here or in another process of the same program: it pickles, queries by
    name.  ``memos`` has the values in the eviction order last, in that order."""

    revision: int
    absent_since: int
    durable_since: int
    memos: tuple[_MemoState, ...]


class _Table:
    """The memos of one query, keyed by key, and its counters."""

    __slots__ = ("query", "derived", "content", "memos", "counters")

    def __init__(self, query: Query[Any, Any]) -> None:
        self.query = query
        self.derived: Derived[Any, Any] | None = query if isinstance(query, Derived) else None
        self.content = isinstance(query, Content)
        self.memos: dict[Hashable, _Memo] = {}
        self.counters = QueryCounters()


class _Memo:
    """One (query, key).  For an input, ``has_value`` False is a removal (a tombstone) and
    ``verified_at`` is unused.  For a derived query, ``has_value`` False means evicted, and an
    evictable memo has a value exactly when it is in the database's LRU order, with ``weight``."""

    __slots__ = ("table", "key", "slot", "value", "has_value", "changed_at", "verified_at", "read_at", "deps",
                 "uses", "weight", "verifying", "durable")

    def __init__(self, table: _Table, key: Hashable, revision: int) -> None:
        self.table = table
        self.key = key
        self.slot: Slot = (table.query.name, key)
        self.value: Any = None
        self.has_value = False
        self.changed_at = revision
        self.verified_at = revision
        self.read_at = revision
        self.deps: tuple[tuple[_Table, Hashable], ...] = ()
        # the content entries the last execution read or stored (for a content entry: those read
        # between its miss and its store, what it is made of): not deps, as content never goes
        # stale, but what keeps them alive through a sweep while this memo is
        self.uses: tuple[Slot, ...] = ()  # the entries' own slots: no tuple made per use
        self.weight = 0
        self.verifying = False
        self.durable = False  # a derived memo every dep of which is durable


_MAX_MAKING = 256
_GIVE_WAY_EVERY = 4096  # memos a sweep that gives way (sweep_or_give_way) walks between looks


class _Making:
    """A content entry missed at an execution depth, and what has been used since: what the entry
    is made of once it is stored."""

    __slots__ = ("table", "key", "depth", "uses")

    def __init__(self, table: _Table, key: Hashable, depth: int) -> None:
        self.table = table
        self.key = key
        self.depth = depth
        self.uses: set[Slot] = set()


class _Frame:
    """An execution in progress: which memo, and what it has read so far (first reads, in order)."""

    __slots__ = ("slot", "deps", "seen", "uses")

    def __init__(self, slot: Slot) -> None:
        self.slot = slot
        self.deps: list[tuple[_Table, Hashable]] = []
        self.seen: set[Slot] = set()
        self.uses: set[Slot] = set()


class Database:
    """Memos of derived queries over inputs, brought up to date on demand; see the module docstring.

    ``max_weight`` bounds the total weight of evictable memoised values; it is read at every store.
    """

    def __init__(self, max_weight: int = 100_000) -> None:
        self.max_weight = max_weight
        self._tables: dict[str, _Table] = {}
        self._revision = 1
        # Changed-at of every input key without a memo: raised when a removal's tombstone is collected,
        # so whatever read the key before that removal is red.
        self._absent_since = 0
        self._durable_since = 0  # see Durability in the module's note
        self._lru: OrderedDict[Slot, _Memo] = OrderedDict()
        self._weight = 0
        self._frames: list[_Frame] = []
        self._making: list[_Making] = []  # content entries missed and not stored yet (see _made)
        # whether executions record the content they use, which only a sweep reads: an owner that
        # never sweeps (a one-shot run) turns it off and saves its cost
        self.records_uses = True
        self._active: set[Slot] = set()
        # _cond guards the hand-over between readers and writers (_reader, _writer, _pending) and the
        # creation of tables; the memos themselves belong to whichever thread holds the database.
        self._cond = threading.Condition()
        self._reader: int | None = None
        self._read_depth = 0
        self._writer: int | None = None
        self._pending = 0
        self._bumped = False
        self._unwinding = False
        _LIVE.add(self)

    def _forked(self) -> None:
        """In a forked child, where only the thread that forked lives on: a lock another thread
        held at the fork would never be released, and a reader, writer or waiting writer that was
        another thread is gone. What that thread held is the forking thread's to read (it held the
        database for reading over the fork; see ``server.parallel_extraction``)."""
        me = threading.get_ident()
        self._cond = threading.Condition()
        self._pending = 0
        if self._writer != me:
            self._writer = None
        if self._reader != me:
            self._reader, self._read_depth = None, 0

    # -- reading ---------------------------------------------------------------------------------

    @property
    def revision(self) -> int:
        return self._revision

    @property
    def weight(self) -> int:
        """Total weight of the memoised values that count against ``max_weight``."""
        return self._weight

    def get(self, query: Query[K, V], key: K) -> V:
        """The current value of ``query`` at ``key``; inside a query function, also a dependency."""
        return cast(V, self._read_held(query, key, False, None))

    def get_all(self, query: Query[K, V], keys: Iterable[K]) -> list[V]:
        """``[get(query, k) for k in keys]`` with what a read costs besides its memo paid once: a
        scope reads the models of thousands of functions after every edit."""
        me = threading.get_ident()
        if self._reader != me:
            self._begin_read(me)
            try:
                return self.get_all(query, keys)
            finally:
                self._end_read()
        table = self._table(query)
        if table.derived is None or table.content:
            return [cast(V, self._read(query, key, False, None)) for key in keys]
        frame = self._frames[-1] if self._frames else None
        name = query.name
        values: list[V] = []
        for key in keys:
            if self._pending:
                self._cancel()
            if frame is not None:
                slot = (name, key)
                if slot not in frame.seen:
                    frame.seen.add(slot)
                    frame.deps.append((table, key))
            values.append(self._fetch(table, key))
        return values

    def get_inlined(self, query: Derived[K, V], key: K) -> V:
        """``get(query, key)`` read as if the query's function ran in the reading execution: the
        reader depends on what the memo read (its deps), not on the memo, and keeps it alive
        through a sweep (a use). Sound because a memo's value is a function of its key and of its
        deps' values: while those stay green, so would the memo. For a reader of the memos of
        many keys that read a few memos in common (the models of a file's segment: its context,
        view and stops), verifying the reader after an edit is a look at those few, not one
        verification per key; the memo itself is verified (or run) only when the reader runs."""
        with self.snapshot():  # held for reading, as get's reads are
            if self._pending:
                self._cancel()
            table = self._table(query)
            if table.derived is None or table.content:
                raise TypeError(f"get_inlined reads derived queries only, not {query!r}")
            try:
                value = self._fetch(table, key)
            except Exception:
                if self._frames:  # the failed memo is forgotten: depending on it makes the reader red
                    failed = self._frames[-1]
                    if (query.name, key) not in failed.seen:
                        failed.seen.add((query.name, key))
                        failed.deps.append((table, key))
                raise
            if self._frames:
                frame = self._frames[-1]
                memo = table.memos[key]
                for dep in memo.deps:
                    read: Slot = (dep[0].query.name, dep[1])
                    if read not in frame.seen:
                        frame.seen.add(read)
                        frame.deps.append(dep)
                frame.uses.add(memo.slot)
            return cast(V, value)

    def content(self, query: Content[K, V]) -> ContentMemos[K, V]:
        """The entries of a content table (made on first use), which share the database's bound."""
        return ContentMemos(self, self._table(query))

    def get_or(self, query: Input[K, V], key: K, default: D) -> V | D:
        """Like ``get``, with ``default`` for a key that is not set; the absence is a dependency too,
        so setting the key later makes the reader red."""
        return cast("V | D", self._read_held(query, key, True, default))

    @contextmanager
    def snapshot(self) -> Iterator[Snapshot]:
        """Hold the database for reading: no write applies until the block ends (a pending one
        cancels the reads inside it instead)."""
        me = threading.get_ident()
        if self._reader == me:
            self._read_depth += 1
        else:
            self._begin_read(me)
        try:
            yield Snapshot(self._revision)
        finally:
            self._end_read()

    def check_cancelled(self) -> None:
        """Raise :class:`Cancelled` if this thread is reading and a write waits for it."""
        if self._pending and self._reader == threading.get_ident():
            self._cancel()

    def wait_for_cancellation(self, timeout: float | None = None) -> bool:
        """Block until some write is pending (True) or ``timeout`` seconds pass (False)."""
        with self._cond:
            return self._cond.wait_for(lambda: self._pending > 0, timeout)

    def counters(self) -> dict[str, QueryCounters]:
        """A copy of every query's counters, by query name."""
        with self._cond:
            return {name: replace(table.counters) for name, table in self._tables.items()}

    def reset_counters(self) -> None:
        with self._cond:
            for table in self._tables.values():
                table.counters = QueryCounters()

    def memo_count(self, query: Query[Any, Any] | None = None) -> int:
        """Memos held for ``query`` (or all queries), evicted ones and input removals included."""
        with self._cond:
            if query is not None:
                table = self._tables.get(query.name)
                return len(table.memos) if table is not None else 0
            return sum(len(table.memos) for table in self._tables.values())

    # -- writing ---------------------------------------------------------------------------------

    @contextmanager
    def write(self) -> Iterator[None]:
        """Apply the writes inside the block together, under one new revision (none if nothing
        changes), after cancelling and waiting out the read in flight."""
        me = threading.get_ident()
        if self._writer == me:
            yield
            return
        if self._reader == me:
            raise RuntimeError("a thread cannot write to the query database while it reads from it")
        with self._cond:
            self._pending += 1
            self._cond.notify_all()
            try:
                self._cond.wait_for(lambda: self._reader is None and self._writer is None)
            except BaseException:
                self._pending -= 1
                self._cond.notify_all()
                raise
            self._writer = me
            self._bumped = False
        try:
            yield
        finally:
            with self._cond:
                self._writer = None
                self._pending -= 1
                self._cond.notify_all()

    def set(self, query: Input[K, V], key: K, value: V) -> None:
        if self._reader == threading.get_ident():
            raise RuntimeError("a thread cannot write to the query database while it reads from it")
        if self._holds(query, key, value):
            return
        with self.write():
            if self._holds(query, key, value):
                return
            table = self._table(query)
            revision = self._bump()
            memo = table.memos.get(key)
            if memo is None:
                memo = table.memos[key] = _Memo(table, key, revision)
            memo.value = value
            memo.has_value = True
            memo.changed_at = memo.read_at = revision
            if query.durable:
                self._durable_since = revision

    def remove(self, query: Input[K, Any], key: K) -> None:
        """Unset an input key; removing an unset key changes nothing."""
        with self.write():
            memo = self._table(query).memos.get(key)
            if memo is None or not memo.has_value:
                return
            memo.value = None
            memo.has_value = False
            memo.changed_at = memo.read_at = self._bump()
            if cast(Input[K, Any], query).durable:
                self._durable_since = memo.changed_at

    def invalidate(self, query: Derived[Any, Any]) -> None:
        """Forget every memo of ``query`` and start a new revision, so that all its readers run again:
        for a query whose function reads something the database does not see (a configuration)."""
        with self.write():
            table = self._table(query)
            for memo in table.memos.values():
                self._unlist(memo)
            table.memos.clear()
            self._durable_since = self._bump()

    def pin(self) -> int:
        """Keep every value memoised now until it is recomputed: out of the eviction order and the
        bound; returns the weight they had.  For an owner that knows they will be read to the end
        and that nothing they read will change (a batch worker's extracted project): evicting a
        value the others still hold (a model its scope keeps) frees nothing and costs a rebuild."""
        with self.write():
            pinned = self._weight
            for memo in self._lru.values():
                memo.weight = 0
            self._lru.clear()
            self._weight = 0
        return pinned

    def evict(self, query: Derived[Any, Any]) -> int:
        """Drop the values of ``query``'s memos as the bound's eviction would; returns how many.

        Nothing changed, so there is no new revision: a reader that needs one runs it again.  For an
        owner that knows a value holds much and will not be read again soon, which the least
        recently used order cannot know (a batch worker between two work units).
        """
        dropped = 0
        with self.write():
            table = self._table(query)
            for memo in list(table.memos.values()):
                if memo.has_value:
                    self._unlist(memo)
                    self._drop_value(memo)
                    dropped += 1
        return dropped

    def sweep(self, roots: Iterable[tuple[Query[Any, Any], Hashable]], used_since: int | None = None) -> int:
        """Forget what no root needs; returns how many memos went.

        Live are the memos of ``roots`` (the ``(query, key)`` pairs the owner will read again: its
        files' findings, say), everything their deps reach, the content entries that a live
        memo's last execution read or stored, and what those are made of: the entries read
        between a miss of an entry and its store (a function's findings are made of its
        projections, which a later check of it reuses even when the checks in between only hit
        the findings).  Content used at or after revision ``used_since`` (default: this one) stays
        too: what is read outside any query, and what a computation used before it knew which
        entry it was making (the content keys of a function's findings are computed from its
        projections) are in nobody's uses.  Forgotten are the other derived memos, input removals
        and content entries: the memos of keys that no longer exist (a function's old text) and
        everything only they used.  Inputs that hold a value always stay.

        Always safe: no live memo reads a forgotten one, so none changes colour, and a reader that
        comes back to a forgotten key computes it again.  This is a write (it cancels the read in
        flight and waits for it, and a write that comes meanwhile waits for it), and it makes no
        new revision.
        """
        dropped = self._sweep(roots, used_since, give_way=False)
        assert dropped is not None
        return dropped

    def sweep_or_give_way(
        self, roots: Iterable[tuple[Query[Any, Any], Hashable]], used_since: int | None = None
    ) -> int | None:
        """:meth:`sweep`, unless another thread comes to write meanwhile (an editor's keystroke):
        then the sweep stops where it is and returns None, so that the write waits for a moment
        instead of for the whole sweep (a second on sqlite3.c).  What it dropped by then was
        dead, so stopping anywhere is as safe as finishing; the owner sweeps again later."""
        return self._sweep(roots, used_since, give_way=True)

    def _sweep(
        self, roots: Iterable[tuple[Query[Any, Any], Hashable]], used_since: int | None, give_way: bool
    ) -> int | None:
        dropped = 0
        with self.write():
            # another writer waits when more than this one is pending (read unlocked: a hint)
            waited = (lambda: self._pending > 1) if give_way else None
            live = self._live(roots, waited)
            if live is None:
                return None
            since = self._revision if used_since is None else used_since
            for table in self._tables.values():
                is_input = table.derived is None and not table.content
                for i, (key, memo) in enumerate(list(table.memos.items())):
                    if waited is not None and i % _GIVE_WAY_EVERY == 0 and waited():
                        return None
                    if memo in live or (is_input and memo.has_value) or (table.content and memo.read_at >= since):
                        continue
                    del table.memos[key]
                    if is_input:
                        self._absent_since = max(self._absent_since, memo.changed_at)
                    else:
                        self._unlist(memo)
                    dropped += 1
        return dropped

    def _live(
        self, roots: Iterable[tuple[Query[Any, Any], Hashable]], stop: Callable[[], bool] | None = None
    ) -> builtins.set[_Memo] | None:
        """The memos of ``roots`` and every memo their deps and uses reach (see :meth:`sweep`);
        None when ``stop`` says so before the walk is done."""
        live: builtins.set[_Memo] = builtins.set()
        stack: list[_Memo] = []
        for query, key in roots:
            table = self._tables.get(query.name)
            memo = table.memos.get(key) if table is not None else None
            if memo is not None and memo not in live:
                live.add(memo)
                stack.append(memo)
        walked = 0
        while stack:
            if stop is not None and walked % _GIVE_WAY_EVERY == 0 and stop():
                return None
            walked += 1
            memo = stack.pop()
            for table, key in memo.deps:
                dep = table.memos.get(key)
                if dep is not None and dep not in live:
                    live.add(dep)
                    if dep.deps or dep.uses:
                        stack.append(dep)
            for name, key in memo.uses:
                used = self._tables[name].memos.get(key)
                if used is not None and used not in live:
                    live.add(used)
                    if used.deps or used.uses:  # a derived memo read inlined (get_inlined)
                        stack.append(used)
        return live

    # -- internals: locking ----------------------------------------------------------------------

    def _read_held(self, query: Query[Any, Any], key: Hashable, has_default: bool, default: object) -> Any:
        """``_read`` with the database held for reading by this thread: already, or for this read."""
        me = threading.get_ident()
        if self._reader == me:
            return self._read(query, key, has_default, default)
        self._begin_read(me)
        try:
            return self._read(query, key, has_default, default)
        finally:
            self._end_read()

    def _begin_read(self, me: int) -> None:
        with self._cond:
            if self._writer == me:
                raise RuntimeError("a thread cannot read the query database inside its own write batch")
            self._cond.wait_for(lambda: self._pending == 0 and self._reader is None)
            self._reader = me
            self._read_depth = 1

    def _end_read(self) -> None:
        self._read_depth -= 1
        if self._read_depth == 0:
            with self._cond:
                self._reader = None
                self._unwinding = False
                self._cond.notify_all()

    def _cancel(self) -> NoReturn:
        # Every execution still on the stack is now suspect, even if its function swallows this.
        self._unwinding = True
        raise self._cancelled()

    def _cancelled(self) -> Cancelled:
        return Cancelled(f"a write is pending: the computation at revision {self._revision} is cancelled")

    def _bump(self) -> int:
        if not self._bumped:
            self._revision += 1
            self._bumped = True
        return self._revision

    def _holds(self, query: Input[Any, Any], key: Hashable, value: object) -> bool:
        table = self._tables.get(query.name)
        memo = table.memos.get(key) if table is not None and table.query is query else None
        return memo is not None and memo.has_value and bool(query.eq(memo.value, value))

    def _table(self, query: Query[Any, Any]) -> _Table:
        table = self._tables.get(query.name)
        if table is None:
            if not isinstance(query, Input | Derived | Content):
                raise TypeError(f"{query!r} is neither an Input, a Derived nor a Content query")
            with self._cond:
                table = self._tables.setdefault(query.name, _Table(query))
        if table.query is not query:
            raise ValueError(f"two different queries are named {query.name!r}")
        return table

    # -- internals: fetching ---------------------------------------------------------------------

    def _read(self, query: Query[Any, Any], key: Hashable, has_default: bool, default: object) -> Any:
        if self._pending:
            self._cancel()
        table = self._table(query)
        if table.content:
            raise TypeError(f"{query!r} is a content table: read it through Database.content")
        if has_default and table.derived is not None:
            raise TypeError(f"get_or reads inputs only, not {query!r}")
        if self._frames:
            frame = self._frames[-1]
            slot = (query.name, key)
            if slot not in frame.seen:
                frame.seen.add(slot)
                frame.deps.append((table, key))
        if table.derived is not None:
            return self._fetch(table, key)
        memo = table.memos.get(key)
        table.counters.hits += 1
        if memo is not None:
            memo.read_at = self._revision
            if memo.has_value:
                return memo.value
        if has_default:
            return default
        raise MissingInput(query.name, key)

    def _fetch(self, table: _Table, key: Hashable) -> Any:
        memo = table.memos.get(key)
        if memo is None:
            return self._execute(table, key, None, False)
        memo.read_at = self._revision
        if memo.verified_at == self._revision:
            if not memo.has_value:
                return self._execute(table, key, memo, True)
            table.counters.hits += 1
        elif memo.durable and memo.verified_at >= self._durable_since:
            memo.verified_at = self._revision  # nothing it can read has changed since
            table.counters.verified += 1
            if not memo.has_value:
                return self._execute(table, key, memo, True)
        elif not (self._shallow_green(memo) or self._verify(memo)):
            return self._execute(table, key, memo, False)
        elif not memo.has_value:
            return self._execute(table, key, memo, True)
        if cast(Derived[Any, Any], table.derived).evict:
            self._touch(memo)
        return memo.value

    def _shallow_green(self, memo: _Memo) -> bool:
        """True, and ``memo`` verified, when each of its deps is an input or a memo verified at this
        revision, and none changed since ``memo`` was verified: what :meth:`_verify` concludes
        without its stack. After an edit most memos read only a few memos of their file that were
        verified or recomputed first (a function's model: its file's context, view and stops), so
        this is the common case, taken thousands of times per edit on a big file."""
        revision = self._revision
        since = memo.verified_at
        for dep_table, dep_key in memo.deps:
            dep = dep_table.memos.get(dep_key)
            if dep is None or dep.changed_at > since:
                return False
            if dep_table.derived is not None and dep.verified_at != revision:
                return False
        for dep_table, dep_key in memo.deps:
            dep_table.memos[dep_key].read_at = revision
        memo.verified_at = revision
        memo.table.counters.verified += 1
        return True

    def _verify(self, root: _Memo) -> bool:
        """Bring ``root``'s deps up to date, in order, without recursing per level.

        True: no dep changed since ``root`` was verified, and it is now verified (green).  False:
        ``root`` must run again.  Red memos met on the way are run here, so that their dependents can
        compare ``changed_at``; a memo already on a verification stack counts as changed, which is
        conservative and ends every walk even over dependencies no execution would produce.
        """
        revision = self._revision
        memos = [root]
        positions = [0]
        root.verifying = True
        try:
            while memos:
                if self._pending:
                    self._cancel()
                memo = memos[-1]
                i = positions[-1]
                if i == len(memo.deps):
                    memo.verified_at = revision
                    memo.verifying = False
                    memo.table.counters.verified += 1
                    memos.pop()
                    positions.pop()
                    continue
                dep_table, dep_key = memo.deps[i]
                dep = dep_table.memos.get(dep_key)
                if dep is None:
                    changed = self._absent_since if dep_table.derived is None else revision
                elif dep_table.derived is None or dep.verified_at == revision:
                    dep.read_at = revision
                    changed = dep.changed_at
                elif dep.durable and dep.verified_at >= self._durable_since:
                    dep.read_at = dep.verified_at = revision  # nothing it can read has changed since
                    dep.table.counters.verified += 1
                    changed = dep.changed_at
                elif dep.verifying:
                    changed = revision
                else:
                    dep.read_at = revision
                    dep.verifying = True
                    memos.append(dep)
                    positions.append(0)
                    continue
                if changed <= memo.verified_at:
                    positions[-1] = i + 1
                    continue
                # ``memo`` is red.  Run it unless it is the root, so that its parent, next on the
                # stack, compares its new changed_at; a run that fails leaves the parent red too.
                while True:
                    memo.verifying = False
                    memos.pop()
                    positions.pop()
                    if not memos:
                        return False
                    if self._try_execute(memo):
                        break
                    memo = memos[-1]
            return True
        finally:
            for memo in memos:
                memo.verifying = False

    def _try_execute(self, memo: _Memo) -> bool:
        try:
            self._execute(memo.table, memo.key, memo, False)
        except Cancelled:
            raise
        except Exception:
            # Its reader runs again and meets the same failure where it can see (or catch) it.
            if self._unwinding:
                raise
            return False
        return True

    def _execute(self, table: _Table, key: Hashable, old: _Memo | None, unchanged: bool) -> Any:
        """Run the function and store the memo; ``unchanged``: the deps verified green (the old value
        was evicted), so the value is the same and keeps its ``changed_at``."""
        query = cast(Derived[Any, Any], table.derived)
        slot = (query.name, key)
        if slot in self._active:
            chain = [frame.slot for frame in self._frames]
            raise QueryCycle((*chain[chain.index(slot):], slot))
        frame = _Frame(slot)
        self._frames.append(frame)
        self._active.add(slot)
        counters = table.counters
        counters.executed += 1
        try:
            value = query.fn(self, key)
            weight = query.weight(value) if query.evict else 0
        except Exception:
            if not self._unwinding:
                # Whoever caught this saw a failure: the old value must not be backdated over it.
                self._forget(table, key)
            raise
        finally:
            self._abandon(len(self._frames))
            self._frames.pop()
            self._active.discard(slot)
        if self._unwinding:
            raise self._cancelled()
        revision = self._revision
        deps = tuple(frame.deps)
        durable = all(_durable(t, k) for t, k in deps)
        if old is None or table.memos.get(key) is not old:
            # New, or forgotten meanwhile: a failure was seen since, so nothing to backdate to.
            memo = _Memo(table, key, revision)
        else:
            memo = old
            if not unchanged:
                # Backdated only when no less durable than before (salsa's rule): a durable reader
                # verified through it would otherwise stay durable, and the next change of the
                # volatile input it reads now would never reach that reader.
                if memo.has_value and (durable or not memo.durable) and query.eq(memo.value, value):
                    counters.backdated += 1
                    value = memo.value  # interchangeable by eq: readers keep the object they had
                else:
                    memo.changed_at = revision
        memo.value = value
        memo.has_value = True
        memo.verified_at = memo.read_at = revision
        memo.deps = deps
        memo.uses = tuple(frame.uses) if frame.uses else ()
        memo.durable = durable
        table.memos[key] = memo
        if query.evict:
            self._list(memo, weight)
        return value

    # -- internals: eviction ---------------------------------------------------------------------

    def _use(self, content: _Memo) -> None:
        """A content entry read or stored: last in the LRU order, and used by whatever is being made
        (a content entry after its miss, a derived execution; see :meth:`sweep`), or at this
        revision outside any."""
        content.read_at = self._revision
        if not self.records_uses:
            self._touch(content)
            return
        making = self._making
        if making and making[-1].depth == len(self._frames):
            making[-1].uses.add(content.slot)
        elif self._frames:
            self._frames[-1].uses.add(content.slot)
        self._touch(content)

    def _missed(self, table: _Table, key: Hashable) -> None:
        """A content entry not found: what is read until it is stored is what it is made of."""
        if not self.records_uses:
            return
        making = self._making
        depth = len(self._frames)
        top = making[-1] if making else None
        if top is not None and top.depth == depth and top.table is table and top.key == key:
            return
        making.append(_Making(table, key, depth))
        if len(making) > _MAX_MAKING:  # misses never followed by a store, outside any execution
            del making[0]

    def _made(self, content: _Memo) -> None:
        """A content entry stored: if it was missed at this level, its ingredients are what was used
        since (entries missed after it and never stored included); then it is used itself."""
        making = self._making
        depth = len(self._frames)
        for i in range(len(making) - 1, -1, -1):
            m = making[i]
            if m.depth != depth:
                break
            if m.table is content.table and m.key == content.key:
                uses = m.uses
                for later in making[i + 1:]:
                    uses |= later.uses
                del making[i:]
                content.uses = tuple(uses)
                break
        self._use(content)

    def _abandon(self, depth: int) -> None:
        """An execution at ``depth`` ends: the misses it never stored count as its own uses."""
        making = self._making
        while making and making[-1].depth == depth:
            self._frames[depth - 1].uses |= making.pop().uses

    def _touch(self, memo: _Memo) -> None:
        """Move ``memo`` last in the LRU order, if it is in it (a pinned value is not).  On every
        content hit, so a test rather than a ``suppress`` block (a call and an object each)."""
        lru = self._lru
        if memo.slot in lru:
            lru.move_to_end(memo.slot)

    def _list(self, memo: _Memo, weight: int) -> None:
        """Put ``memo``'s new value last in the LRU order, then evict down to the bound; a value
        heavier than the whole bound is dropped at once rather than flushing every other one."""
        self._unlist(memo)
        if weight > self.max_weight:
            self._drop_value(memo)
            return
        self._lru[memo.slot] = memo
        memo.weight = weight
        self._weight += weight
        self._evict_to_bound()

    def _evict_to_bound(self) -> None:
        """Drop the least recently used values until the listed ones weigh at most the bound."""
        while self._weight > self.max_weight:
            _, victim = self._lru.popitem(last=False)
            self._weight -= victim.weight
            victim.weight = 0
            self._drop_value(victim)

    def keys(self, query: Input[K, Any]) -> list[K]:
        """The keys ``query`` holds a value at (not a dependency of anything)."""
        with self._cond:
            table = self._tables.get(query.name)
            return [] if table is None else [cast(K, k) for k, m in table.memos.items() if m.has_value]

    def export(self, leave_out: Iterable[Derived[Any, Any]] = ()) -> DbState:
        """Every input and derived memo with its revisions and deps: what :meth:`adopt` makes
        another database of (a worker process's) hold, so that it reads the same values without
        computing them.  The memos of ``leave_out`` and of queries that are not ``portable`` go
        without their values, as evicted ones do, and are computed again where they are read.
        Content tables are left out, and so what memos used of them (:meth:`sweep`): their entries
        are caches by content, never stale, so a database without them computes the same.  Call
        it from outside any read."""
        skipped = {q.name for q in leave_out}

        def keeps(table: _Table) -> bool:
            derived = table.derived
            return derived is None or (derived.portable and derived.name not in skipped)

        with self.snapshot():
            listed = [m for m in self._lru.values() if not m.table.content and keeps(m.table)]
            in_order = {m.slot for m in listed}
            rest = [
                self._memo_state(m, keeps(t))
                for t in self._tables.values()
                if not t.content
                for m in t.memos.values()
                if m.slot not in in_order
            ]
            rest.extend(self._memo_state(m, True) for m in listed)
            return DbState(self._revision, self._absent_since, self._durable_since, tuple(rest))

    @staticmethod
    def _memo_state(memo: _Memo, keep: bool) -> _MemoState:
        has_value = memo.has_value and keep
        deps = tuple((table.query, key) for table, key in memo.deps)
        return _MemoState(memo.table.query, memo.key, has_value, memo.value if has_value else None,
                          memo.changed_at, memo.verified_at, memo.read_at, deps, memo.durable,
                          memo.weight if has_value else 0)

    def adopt(self, state: DbState) -> None:
        """Hold ``state``'s inputs and memos instead of this database's own (its content tables
        stay: they cannot be stale), at ``state``'s revision: every read then finds what the
        exporting database held, verified as it was there, and later writes invalidate it as
        they would have there.  The values are shared with ``state``, not copied."""
        with self.write():
            for name in [n for n, t in self._tables.items() if not t.content]:
                for memo in self._tables.pop(name).memos.values():
                    self._unlist(memo)
            for m in state.memos:
                table = self._table(m.query)
                memo = table.memos[m.key] = _Memo(table, m.key, m.changed_at)
                memo.has_value, memo.value = m.has_value, m.value
                memo.verified_at, memo.read_at, memo.durable = m.verified_at, m.read_at, m.durable
                memo.deps = tuple((self._table(q), k) for q, k in m.deps)
                if m.weight:
                    self._lru[memo.slot] = memo
                    memo.weight = m.weight
                    self._weight += m.weight
            self._revision = state.revision
            self._absent_since, self._durable_since = state.absent_since, state.durable_since
            self._evict_to_bound()

    def release(self) -> None:
        """Forget every memo and input at once, for an owner that is done with the database.

        Memos point back at their tables, so without this a dropped database's memos and values
        form cycles that only a full garbage collection frees, and that collection's pause lands on
        whatever runs next (a fresh project's check, a request)."""
        with self._cond:
            for table in self._tables.values():
                table.memos.clear()
            self._tables.clear()
            self._making.clear()
            self._lru.clear()
            self._weight = 0

    @staticmethod
    def _drop_value(memo: _Memo) -> None:
        memo.value = None
        memo.has_value = False
        memo.table.counters.evicted += 1
        if memo.table.content:
            del memo.table.memos[memo.key]  # nothing to verify through it: gone altogether

    def _forget(self, table: _Table, key: Hashable) -> None:
        memo = table.memos.pop(key, None)
        if memo is not None:
            self._unlist(memo)
            self._durable_since = self._revision

    def _unlist(self, memo: _Memo) -> None:
        if self._lru.pop(memo.slot, None) is not None:
            self._weight -= memo.weight
            memo.weight = 0


_LIVE: weakref.WeakSet[Database] = weakref.WeakSet()  # every database of this process


def _after_fork_in_child() -> None:
    for db in list(_LIVE):
        db._forked()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
