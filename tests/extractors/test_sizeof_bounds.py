"""Loops bounded by ``sizeof``: a ``sizeof`` (and an array's element count ``sizeof a / sizeof
a[0]``) is at least 1, so a counter starting at 0 passes its first test and the loop runs at least
once (``extractors.cfg.POSITIVE``); a counter that C converts to a huge unsigned value decides
nothing."""

from __future__ import annotations

from tests.extractors.helpers import check_src, line_of, of_rule

ELEMENT_COUNT = """\
static const int weights[] = { 3, 5, 7 };

int heaviest(void)
{
    unsigned i;
    int best;
    for (i = 0; i < sizeof weights / sizeof *weights; i++) {
        if (i == 0 || weights[i] > best)
            best = weights[i];
    }
    return best; /*R*/
}
"""


def _reads(src: str) -> list[int]:
    return [f.location.start_line for f in of_rule(check_src(src), "uninitialised-read")]


def test_a_loop_over_an_arrays_element_count_runs_at_least_once() -> None:
    assert _reads(ELEMENT_COUNT) == []
    cast = "(int)(sizeof(weights) / sizeof(weights[0]))"
    assert _reads(ELEMENT_COUNT.replace("sizeof weights / sizeof *weights", cast)) == []


def test_a_loop_bounded_by_a_count_that_may_be_zero_still_reads_unset() -> None:
    may_skip = ELEMENT_COUNT.replace("(void)", "(unsigned n)").replace("sizeof weights / sizeof *weights", "n")
    assert _reads(may_skip) == [line_of(may_skip, "/*R*/")]
    # a quotient of two unrelated sizes may be 0
    other = ELEMENT_COUNT.replace("sizeof weights / sizeof *weights", "sizeof(int) / sizeof(long long)")
    assert _reads(other) == [line_of(other, "/*R*/")]


SIZEOF_BOUND = """\
unsigned long load_word(const unsigned char *bytes)
{
    int i;
    unsigned long word;
    for (i = 0; i < sizeof word; i++) {
        if (i == 0)
            word = bytes[0];
        else
            word = (word << 8) | bytes[i];
    }
    return word; /*R*/
}
"""


def test_a_loop_bounded_by_sizeof_runs_at_least_once() -> None:
    assert _reads(SIZEOF_BOUND) == []
    reversed_test = SIZEOF_BOUND.replace("i < sizeof word", "sizeof(word) > i")
    assert _reads(reversed_test) == []


def test_a_negative_counter_is_converted_to_unsigned_so_the_loop_may_not_run() -> None:
    # -1 < sizeof word is false in C (-1 becomes SIZE_MAX): the read of an unset word is real
    starts_negative = SIZEOF_BOUND.replace("for (i = 0;", "for (i = -1;").replace("i == 0", "i == -1")
    assert _reads(starts_negative) == [line_of(starts_negative, "/*R*/")]
