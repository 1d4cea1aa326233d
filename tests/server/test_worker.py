"""The checker process's dispatch, in this process: what its reader thread does with each message
(``worker.receive``) and what its check thread answers (``worker.run``), read off the other end of
the pipe. The process itself, under a real server, is in ``test_checker_process.py``."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from multiprocessing import Pipe
from multiprocessing.connection import Connection

import pytest

from extractors.api import Config
from server.lsp.text_splice import changed_span
from server.lsp.worker import Worker, receive, run
from server.lsp.worker_messages import (
    Announce,
    AnnounceEdit,
    CheckFile,
    CheckOutcome,
    CheckPaths,
    CloseFolder,
    Failure,
    OpenFolder,
    Partial,
    Reply,
    Withdraw,
)
from tests.server.lsp_helpers import LEAK, many_functions

PATH = "/w/a.c"
FIXED = LEAK.replace("    p[0] = 1;\n", "    p[0] = 1;\n    free(p);\n")


@pytest.fixture
def pipe() -> Iterator[tuple[Worker, Connection]]:
    server, checker = Pipe()
    worker = Worker(checker)
    receive(worker, OpenFolder(1, Config()))
    yield worker, server
    worker.edits.shutdown()


def run_queued(worker: Worker) -> None:
    while not worker.work.empty():
        run(worker, worker.work.get())


def answers(server: Connection) -> list[object]:
    found = []
    while server.poll():
        found.append(server.recv())
    return found


def rules(reply: object) -> list[str]:
    assert isinstance(reply, Reply) and isinstance(reply.value, CheckOutcome)
    return sorted(f.rule_id for f in reply.value.findings[PATH])


def test_each_request_is_answered_once_in_order(pipe: tuple[Worker, Connection]) -> None:
    worker, server = pipe
    receive(worker, CheckFile(10, 1, PATH, LEAK, partial=False))
    receive(worker, CheckPaths(11, 1, (PATH,), partial=False))
    run_queued(worker)
    first, second = answers(server)
    assert rules(first) == rules(second) == ["memory-leak"]
    assert (first.request, second.request) == (10, 11)  # type: ignore[attr-defined]
    assert worker.tickets == {}


def test_a_newer_text_of_the_file_makes_a_queued_check_outdated(pipe: tuple[Worker, Connection]) -> None:
    """What ``still_wanted`` was: the server only wants the newest text checked, and the check of an
    older one that has not started answers None (outdated) without checking."""
    worker, server = pipe
    receive(worker, CheckFile(10, 1, PATH, LEAK, partial=False))
    receive(worker, Announce(1, PATH, FIXED))
    receive(worker, CheckFile(11, 1, PATH, FIXED, partial=False))
    receive(worker, CheckFile(12, 1, "/w/other.c", LEAK, partial=False))  # another file: still wanted
    run_queued(worker)
    outdated, fixed, other = answers(server)
    assert outdated == Reply(10, None)
    assert rules(fixed) == []
    assert isinstance(other, Reply) and other.value is not None


def test_a_check_without_a_text_checks_the_text_last_announced(pipe: tuple[Worker, Connection]) -> None:
    """An edit's text crosses the pipe once, with its announcement; its check names none. A check
    that a newer announcement withdrew answers None, and the next one checks the newest text."""
    worker, server = pipe
    receive(worker, CheckFile(10, 1, PATH, LEAK, partial=False))
    run_queued(worker)
    receive(worker, Announce(1, PATH, FIXED))
    receive(worker, CheckFile(11, 1, PATH, None, partial=False))
    receive(worker, Announce(1, PATH, LEAK.replace("p[0] = 1;", "p[0] = 2;")))
    receive(worker, CheckFile(12, 1, PATH, None, partial=False))
    receive(worker, CheckFile(13, 1, "/w/never.c", None, partial=False))
    run_queued(worker)
    first, outdated, newest, unknown = answers(server)
    assert rules(first) == ["memory-leak"]
    assert outdated == Reply(11, None)
    assert rules(newest) == ["memory-leak"]
    assert isinstance(newest, Reply) and isinstance(newest.value, CheckOutcome) and newest.value.changed_functions
    assert isinstance(unknown, Failure) and unknown.kind == "error" and "no text of /w/never.c" in unknown.detail


def test_an_edit_announced_as_the_span_it_changed_is_the_text_checked(pipe: tuple[Worker, Connection]) -> None:
    """The server sends a file announced before as the span that changed: the process rebuilds the
    editor's text from the one it holds, edit after edit, withdraws what would read the old one, and
    checks the new one."""
    worker, server = pipe
    receive(worker, Announce(1, PATH, LEAK))
    receive(worker, CheckFile(10, 1, PATH, None, partial=False))
    receive(worker, AnnounceEdit(1, PATH, changed_span(LEAK, FIXED)))
    receive(worker, CheckFile(11, 1, PATH, None, partial=False))
    run_queued(worker)
    outdated, fixed = answers(server)
    assert outdated == Reply(10, None) and rules(fixed) == []
    texts = [FIXED, FIXED.replace("free(p);", "/* é */ free(p); free(p);"), LEAK.replace("\n", "\n\n", 3)]
    for before, after in zip(texts, texts[1:], strict=False):
        receive(worker, AnnounceEdit(1, PATH, changed_span(before, after)))
    receive(worker, CheckFile(12, 1, PATH, None, partial=False))
    run_queued(worker)
    [newest] = answers(server)
    assert worker.texts[(1, PATH)] == worker.folders[1].announced_text(PATH) == texts[-1]
    assert rules(newest) == ["memory-leak"]


def test_an_edit_of_a_text_the_process_does_not_hold_fails_its_check(pipe: tuple[Worker, Connection]) -> None:
    """Never sent by the server (it sends a whole text first to each process); if it came, the check
    fails rather than checking a wrong text, until a whole text is announced again. A closed folder's
    texts are forgotten."""
    worker, server = pipe
    receive(worker, Announce(1, PATH, LEAK))
    receive(worker, AnnounceEdit(1, PATH, changed_span(FIXED, LEAK)))  # made from another text
    receive(worker, CheckFile(10, 1, PATH, None, partial=False))
    run_queued(worker)
    receive(worker, AnnounceEdit(1, PATH, changed_span(LEAK, FIXED)))  # nothing held now
    receive(worker, CheckFile(11, 1, PATH, None, partial=False))
    run_queued(worker)
    receive(worker, Announce(1, PATH, FIXED))
    receive(worker, CheckFile(12, 1, PATH, None, partial=False))
    run_queued(worker)
    failed, still, fixed = answers(server)
    assert isinstance(failed, Failure) and failed.kind == "error" and "no text of /w/a.c" in failed.detail
    assert isinstance(still, Failure) and still.kind == "error"
    assert rules(fixed) == []
    receive(worker, CloseFolder(1))
    assert worker.texts == {}


def test_an_announcement_waits_for_its_folder_to_open(pipe: tuple[Worker, Connection]) -> None:
    """The check thread makes a folder's project: an announcement that arrives before (as after a
    restart, when the folders open again) is set once it is made, and one for a folder closed
    before it opened does not hold up the edits after it."""
    worker, server = pipe
    receive(worker, OpenFolder(2, Config()))
    receive(worker, Announce(2, PATH, LEAK))
    receive(worker, CloseFolder(2))
    receive(worker, OpenFolder(3, Config()))
    receive(worker, Announce(3, PATH, FIXED))
    receive(worker, CheckFile(10, 3, PATH, None, partial=False))
    thread = threading.Thread(target=run_queued, args=(worker,), daemon=True)
    thread.start()
    thread.join(60)
    assert not thread.is_alive(), "an edit waits for a folder that never opens"
    [fixed] = answers(server)
    assert rules(fixed) == [] and 2 not in worker.folders


def test_a_newer_text_withdraws_a_queued_chunk_that_reads_the_file(pipe: tuple[Worker, Connection]) -> None:
    """A chunk of the workspace check that has not started fails ``cancelled``, as it would had it
    been running (the server runs it again after the edit's check); one without the file runs."""
    worker, server = pipe
    receive(worker, CheckFile(10, 1, PATH, LEAK, partial=False))
    run_queued(worker)
    receive(worker, CheckPaths(11, 1, (PATH, "/w/b.c"), partial=False))
    receive(worker, CheckPaths(12, 1, ("/w/b.c",), partial=False))
    receive(worker, Announce(1, PATH, FIXED))
    run_queued(worker)
    _, stopped, other = answers(server)
    assert isinstance(stopped, Failure) and stopped.request == 11 and stopped.kind == "cancelled"
    assert isinstance(other, Reply) and other.request == 12


def test_a_later_check_of_the_same_file_makes_an_earlier_one_outdated(pipe: tuple[Worker, Connection]) -> None:
    worker, server = pipe
    receive(worker, CheckFile(10, 1, PATH, LEAK, partial=False))
    receive(worker, CheckFile(11, 1, PATH, LEAK, partial=False))
    run_queued(worker)
    outdated, checked = answers(server)
    assert outdated == Reply(10, None) and rules(checked) == ["memory-leak"]


def test_a_withdrawn_request_is_skipped(pipe: tuple[Worker, Connection]) -> None:
    worker, server = pipe
    receive(worker, CheckPaths(10, 1, (PATH,), partial=False))
    receive(worker, Withdraw(10))
    run_queued(worker)
    [skipped] = answers(server)
    assert isinstance(skipped, Failure) and skipped.request == 10 and skipped.kind == "cancelled"


def test_a_long_check_sends_its_findings_so_far_before_its_answer(pipe: tuple[Worker, Connection]) -> None:
    worker, server = pipe
    receive(worker, CheckFile(10, 1, PATH, many_functions(100), partial_every=0.0, early=True))
    run_queued(worker)
    *partials, last = answers(server)
    assert partials and all(isinstance(p, Partial) and p.request == 10 and p.path == PATH for p in partials)
    assert rules(last) == ["memory-leak", "memory-leak"]


def test_requests_of_a_closed_folder_fail_closed_and_errors_are_answered(pipe: tuple[Worker, Connection]) -> None:
    worker, server = pipe
    receive(worker, CheckPaths(10, 1, None, partial=False))  # type: ignore[arg-type]  # paths that are none
    receive(worker, CloseFolder(1))
    receive(worker, CheckFile(11, 1, PATH, LEAK, partial=False))
    run_queued(worker)
    answered = answers(server)
    assert [type(a).__name__ for a in answered] == ["Failure", "Failure"]
    failed, closed = answered
    assert isinstance(failed, Failure) and failed.kind == "error" and "Traceback" in failed.detail
    assert isinstance(closed, Failure) and closed.kind == "closed"
