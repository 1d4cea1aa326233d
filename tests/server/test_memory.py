"""The server's collector policy: freeze after checks, and still reclaim cycles when idle."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from server.lsp.memory import MemoryPolicy


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def clean_gc() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_after_check_collects_young_cycles_and_freezes_survivors(clean_gc: None) -> None:
    policy = MemoryPolicy()
    a, b = Node(), Node()
    a.other, b.other = b, a
    dead = weakref.ref(a)
    del a, b
    kept = Node()
    policy.after_check()
    assert dead() is None  # young cyclic garbage is collected, not frozen
    assert gc.get_freeze_count() > 0
    assert kept is not None


def test_idle_collection_frees_cycles_that_died_after_being_frozen(clean_gc: None) -> None:
    policy = MemoryPolicy()
    a, b = Node(), Node()
    a.other, b.other = b, a
    policy.after_check()  # the cycle is alive here, so it is frozen
    dead = weakref.ref(a)
    del a, b
    gc.collect()
    assert dead() is not None  # frozen objects are out of reach of ordinary collections
    assert policy.when_idle() > 0
    assert dead() is None
    assert policy.when_idle() == 0  # nothing checked since: no second full collection
