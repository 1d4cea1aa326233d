"""The CTL parser: every operator and spelling, precedence, and clear errors on bad input."""

from __future__ import annotations

import pytest

from checker.ctl import (
    AF,
    AG,
    AU,
    AW,
    AX,
    EF,
    EG,
    EU,
    EW,
    EX,
    TRUE,
    And,
    Atom,
    CTLSyntaxError,
    FalseF,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    normalize,
    parse,
    parse_file,
)

p, q, r = Atom("p"), Atom("q"), Atom("r")


@pytest.mark.parametrize(
    ("text", "tree"),
    [
        ("p", p),
        ("true", TRUE),
        ("false", FalseF()),
        ("~ p", Not(p)),
        ("! p", Not(p)),
        ("not p", Not(p)),
        ("p & q", And(p, q)),
        ("p and q", And(p, q)),
        ("p | q", Or(p, q)),
        ("p or q", Or(p, q)),
        ("p --> q", Implies(p, q)),
        ("p <-> q", Iff(p, q)),
        ("E X p", EX(p)),
        ("E F p", EF(p)),
        ("E G p", EG(p)),
        ("A X p", AX(p)),
        ("A F p", AF(p)),
        ("A G p", AG(p)),
        ("E ( p U q )", EU(p, q)),
        ("A ( p U q )", AU(p, q)),
        ("E ( p W q )", EW(p, q)),
        ("A ( p W q )", AW(p, q)),
        ("E p U q", EU(p, q)),
        ("E blue U black", EU(Atom("blue"), Atom("black"))),
        ("E [ p U q ]", EU(p, q)),
        # precedence: ~ binds tighter than &, & tighter than |, | tighter than -->
        ("~ p & q", And(Not(p), q)),
        ("p | q & r", Or(p, And(q, r))),
        ("p & q | r", Or(And(p, q), r)),
        ("p | q --> r", Implies(Or(p, q), r)),
        ("p --> q --> r", Implies(p, Implies(q, r))),
        ("( p | q ) & r", And(Or(p, q), r)),
        ("E X p & q", And(EX(p), q)),
        ("A G ( p --> E F q )", AG(Implies(p, EF(q)))),
        ("A G ( ( p | q ) --> E F ( r ) )", AG(Implies(Or(p, q), EF(r)))),
        ("E X E G p", EX(EG(p))),
        ("~ ~ p", Not(Not(p))),
        ("def__x_y$z | use__a.b", Or(Atom("def__x_y$z"), Atom("use__a.b"))),
    ],
)
def test_parses(text: str, tree: Formula) -> None:
    assert parse(text) == tree


def test_printed_formula_parses_back() -> None:
    for text in ("A G ( p --> E F q )", "E ( p U ( q & E X r ) )", "A ( p W ~ q ) | A X A F r"):
        f = parse(text)
        assert parse(str(f)) == f


@pytest.mark.parametrize(
    ("text", "column", "expected"),
    [
        ("", 1, "a formula"),
        ("p &", 4, "a formula"),
        ("( p", 4, "')'"),
        ("p )", 3, "an operator or end of formula"),
        ("E p", 4, "'U' or 'W'"),
        ("E ( p & q )", 11, "'U' or 'W'"),
        ("A Y p", 5, "'U' or 'W'"),
        ("p q", 3, "an operator or end of formula"),
        ("& p", 1, "a formula"),
        ("E ( p U q", 10, "')'"),
        ("E X", 4, "a formula"),
        ("p # q", 3, "an operator or end of formula"),
        ("U", 1, "a formula"),
    ],
)
def test_bad_formula_reports_position_and_expectation(text: str, column: int, expected: str) -> None:
    with pytest.raises(CTLSyntaxError) as info:
        parse(text)
    err = info.value
    assert err.pos + 1 == column, str(err)
    assert expected in err.expected
    assert f"column {column}" in str(err)


def test_parse_file_skips_comments_and_names_bad_line() -> None:
    text = "# header\n\nA G p  # trailing\nE F q\n"
    assert parse_file(text) == [(3, AG(p)), (4, EF(q))]
    with pytest.raises(CTLSyntaxError, match="line 2"):
        parse_file("p\np &\n")


@pytest.mark.parametrize(
    ("text", "normal"),
    [
        ("A G p", Not(EU(TRUE, Not(p)))),
        ("A F p", Not(EG(Not(p)))),
        ("A X p", Not(EX(Not(p)))),
        ("E F p", EU(TRUE, p)),
        ("p --> q", Or(Not(p), q)),
        ("~ ~ p", p),
        ("false", Not(TRUE)),
    ],
)
def test_normal_form(text: str, normal: Formula) -> None:
    assert normalize(parse(text)) == normal
