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


def test_after_check_freezes_without_collecting_and_idle_reclaims_young_cycles(clean_gc: None) -> None:
    policy = MemoryPolicy()
    gc.collect()
    a, b = Node(), Node()
    a.other, b.other = b, a
    dead = weakref.ref(a)
    del a, b
    kept = Node()
    policy.after_check()
    assert gc.get_freeze_count() > 0
    gc.collect()
    assert dead() is not None  # frozen, not walked: the edit that follows does not wait for it
    assert policy.when_idle() > 0
    assert dead() is None  # the idle collection reclaims it
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
