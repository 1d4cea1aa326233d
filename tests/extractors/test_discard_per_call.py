"""unchecked-return reports every statement that drops a must-check result, not one per callee:
each such statement is a value of its own (``$ret:g#k``)."""

from __future__ import annotations

from extractors.cfg import Cfg
from extractors.projection import discard_values, discarded_value
from tests.extractors.helpers import cfg_of, check_src, line_of, of_rule

HEADER = "#include <unistd.h>\n#include <string.h>\n"


def dropped(src: str) -> list[tuple[str, int]]:
    return sorted((f.message, f.location.start_line) for f in of_rule(check_src(src), "unchecked-return"))


def test_every_dropped_call_of_one_callee_is_reported() -> None:
    src = HEADER + """
void greet(int fd, const char *name) {
    write(fd, "hello ", 6);          /*A*/
    write(fd, name, strlen(name));   /*B*/
    if (write(fd, "\\n", 1) != 1)
        return;
}
"""
    msg = "return value of write() is ignored"
    assert dropped(src) == [(msg, line_of(src, "/*A*/")), (msg, line_of(src, "/*B*/"))]


def test_checked_calls_of_the_same_callee_stay_silent() -> None:
    src = HEADER + """
int greet(int fd) {
    if (write(fd, "a", 1) != 1)
        return -1;
    return write(fd, "b", 1) == 1 ? 0 : -1;
}
"""
    assert dropped(src) == []


def test_values_are_numbered_per_callee_and_node() -> None:
    cfg: Cfg = cfg_of(HEADER + "void g(int fd) { write(fd, 0, 0); close(fd); read(fd, 0, 0); write(fd, 0, 0); }\n")
    values = discard_values(cfg)
    assert sorted(values) == ["$ret:read#1", "$ret:write#1", "$ret:write#2"]  # close is not must-check
    assert len(set(values.values())) == 3
    assert discarded_value("$ret:write#2") == "write" and discarded_value("p") is None
