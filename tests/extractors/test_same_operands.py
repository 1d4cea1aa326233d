"""An operation the path condition does not compute exactly (``%``, a cast, a comparison of mixed
signedness) still gives the same value for the same operands, so two complementary tests of it
are correlated: ``if (n % 4 == 0) s = f(); if (n % 4) return; use(s);`` sets ``s`` on every path
to the read.

Real case: bitarray's ``ba2hex``, ``ba2base`` (``nbits % 4``, ``nbits % m``) and ``ssqi``
(``(uint64_t) nbits <= limit``), reported as reading an uninitialised local (3 findings).  The
twins test different operands, where the read is a real bug.
"""

from __future__ import annotations

import pytest

from tests.extractors.helpers import check_src, line_of, of_rule

BODY = """\
long g(long);
long f(long n, long m, int mode) {{
    unsigned long limit = mode ? 6 : 3;
    long s;
    if ({first})
        s = g(n);
    if ({second})
        return -1;
    return s;   /*R*/
}}
"""

SAME = {
    "remainder": ("n % 4 == 0", "n % 4"),
    "remainder by a variable": ("n % m == 0", "n % m"),
    "cast": ("(unsigned long) n <= limit", "(unsigned long) n > limit"),
    "mixed signedness": ("n <= limit", "n > limit"),
    "shift": ("(n >> 2) == 1", "(n >> 2) != 1"),
}
OTHER = {
    "remainder": ("n % 4 == 0", "n % 3"),
    "remainder by a variable": ("n % m == 0", "m % n"),
    "cast": ("(unsigned long) n <= limit", "(unsigned long) m > limit"),
    "mixed signedness": ("n <= limit", "m > limit"),
    "shift": ("(n >> 2) == 1", "(n >> 3) != 1"),
}


@pytest.mark.parametrize(("first", "second"), SAME.values(), ids=list(SAME))
def test_complementary_tests_of_the_same_operation_are_correlated(first: str, second: str) -> None:
    src = BODY.format(first=first, second=second)
    assert of_rule(check_src(src), "uninitialised-read") == []


@pytest.mark.parametrize(("first", "second"), OTHER.values(), ids=list(OTHER))
def test_tests_of_other_operands_are_not(first: str, second: str) -> None:
    src = BODY.format(first=first, second=second)
    found = of_rule(check_src(src), "uninitialised-read")
    assert [f.location.start_line for f in found] == [line_of(src, "/*R*/")]


def test_an_operation_of_mixed_types_is_still_the_same_for_the_same_operands() -> None:
    """``nbits % m`` of a typedef (``Py_ssize_t``, a type this module does not know) and an int:
    bitarray's ``ba2base``.  The twin tests another remainder, where the read is a real bug."""
    body = """\
typedef long ssize;
long g(ssize);
long f(ssize n, int m) {{
    long s;
    if (n % m == 0)
        s = g(n);
    if ({second})
        return -1;
    return s;   /*R*/
}}
"""
    assert of_rule(check_src(body.format(second="n % m")), "uninitialised-read") == []
    other = body.format(second="n % (m + 1)")
    found = of_rule(check_src(other), "uninitialised-read")
    assert [f.location.start_line for f in found] == [line_of(other, "/*R*/")]
