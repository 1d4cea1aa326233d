"""Allocator inference after an edit: the last inference over the same functions is reused only
where the edit cannot change it, and otherwise the answer is a fresh inference's."""

from __future__ import annotations

from checker.querydb import Database
from extractors.api import Project
from extractors.calls import BUILTIN
from extractors.projection import ProjectionStore, Scope, function_id, infer_allocators

BASE = {
    "raw": "char *raw(int n) { return malloc(n); }",
    "wrap": "char *wrap(int n) { char *p = raw(n); return p; }",
    "other": "char *other(int n) { return (char *)0; }",
    "plain": "int plain(int n) { return n + 1; }",
}


def scope_of(bodies: dict[str, str]) -> Scope:
    p = Project()
    p.update_file("t.c", "\n".join(bodies.values()) + "\n")
    models = p.files["t.c"].model.functions.values()
    return Scope({function_id(fm): fm for fm in models}, BUILTIN, frozenset(), frozenset())


def names(found: frozenset[str]) -> set[str]:
    return {i.rsplit(":", 1)[1] for i in found}


def test_an_edit_that_cannot_change_the_allocators_reuses_the_last_inference() -> None:
    store = ProjectionStore(Database(10**6))
    first = infer_allocators(scope_of(BASE), store.returned_calls, store.inferences)
    assert names(first) == {"raw", "wrap"}
    edited = {**BASE, "plain": "int plain(int n) { n++; return n * 2; }"}
    again = infer_allocators(scope_of(edited), store.returned_calls, store.inferences)
    assert again is first  # the last answer itself: nothing was inferred again


def test_edits_that_change_the_allocators_are_inferred_again() -> None:
    edits = [
        {"other": "char *other(int n) { return raw(n); }"},  # becomes one through raw
        {"raw": "char *raw(int n) { return (char *)0; }"},  # stops being one, and so does wrap
        {"wrap": "char *wrap(int n) { char *p = raw(n); keep = p; return p; }"},  # kept elsewhere
        {"plain": "int plain(int n) { return n; }", "other": "char *other(int n) { return wrap(n); }"},
    ]
    for edit in edits:
        store = ProjectionStore(Database(10**6))
        infer_allocators(scope_of(BASE), store.returned_calls, store.inferences)
        scope = scope_of({**BASE, **edit})
        got = infer_allocators(scope, store.returned_calls, store.inferences)
        assert got == infer_allocators(scope), edit
        assert got != infer_allocators(scope_of(BASE)), edit
