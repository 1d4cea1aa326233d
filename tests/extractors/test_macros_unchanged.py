"""``macros_unchanged`` against :func:`macro_specs` itself: whenever it says an edit keeps the
macros, reading both texts must find the same ones."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from extractors.functions import macro_specs, macros_unchanged

LINES = [
    "#define SET(k, n) ((k) = (n))",
    "#define ADD(k, n) \\",
    "    ((k) += (n))",
    "  # define PUT(a) a = 1 /* a comment",
    "   that goes on */ b = 2",
    "/* #define GONE(x) x = 0 */",
    "int f(int x) { x = 1; return x; }",
    "    y = SET(a, 2); // #define NOT(x) x = 1",
    "#define TWO(p, q) p = q; \\\r",
    "    q = p",
    "",
]
CHARS = "abpqxyz =;()#/*\\\n\r\t,"


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(LINES), min_size=1, max_size=8), st.data())
def test_an_edit_said_to_keep_the_macros_keeps_them(lines: list[str], data: st.DataObject) -> None:
    old = "\n".join(lines) + "\n"
    row = data.draw(st.integers(0, len(lines) - 1))  # an edit within or around one line
    at = sum(len(line) + 1 for line in lines[:row]) + data.draw(st.integers(0, len(lines[row])))
    cut = data.draw(st.integers(0, min(3, len(old) - at)))
    new = old[:at] + data.draw(st.text(CHARS, max_size=3)) + old[at + cut :]
    if macros_unchanged(old, new):
        assert macro_specs(old) == macro_specs(new)


def test_an_edit_in_a_function_body_keeps_them_and_one_on_a_define_does_not() -> None:
    text = "#define SET(k, n) ((k) = (n))\nint f(int x)\n{\n    x = 1;\n    return x;\n}\n"
    assert macros_unchanged(text, text.replace("x = 1;", "x = 2; (void)x;"))
    assert not macros_unchanged(text, text.replace("((k) = (n))", "((n) = (k))"))
    assert not macros_unchanged(text, text.replace("x = 1;", "x = 1; /*"))


def test_each_way_an_edit_outside_a_define_line_can_still_change_a_macro() -> None:
    cases = [
        # the line continues a define (with a CRLF line end too)
        ("#define TWO(p, q) p = q; \\\n    q = p\n", "    q = p", "    x = p"),
        ("#define TWO(p, q) p = q; \\\r\n    q = p\n", "    q = p", "    x = p"),
        # a comment that began on a define line ends on this one, joining the two
        ("#define PUT(a) /* note\n   more */ a = 1\n", "*/ a = 1", "*/ b = 1"),
        # removing what stood before a '#' makes a define line, and the other way round
        ("    x #define SET(k) k = 1\n", "    x #", "    #"),
        ("    #define SET(k) k = 1\n", "    #", "    x #"),
        # a new line break lets a define out of a line comment
        ("// abc x #define F(a) a = 1\n", "x #", "x\n #"),
        # characters next to the edit make a comment: "/ x*" loses "x"
        ("int a; / x*\n#define SET(k) k = 1\n/* */\n", "/ x*", "/*"),
    ]
    for old, before, after in cases:
        new = old.replace(before, after, 1)
        assert macro_specs(old) != macro_specs(new), (old, new)
        assert not macros_unchanged(old, new), (old, new)
