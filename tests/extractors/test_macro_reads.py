"""Macros that read a local of their caller by name: ``#define EQ(s1) (strcmp(s1, inst) == 0)``
(lua's ltests.c) reads the ``inst`` of every function that calls it, so that local is neither
unused nor overwritten unread.  What the macro reads is its body's free lower-case names
(``extractors.count_macros.free_reads``), through the macros it calls."""

from __future__ import annotations

from extractors.count_macros import free_reads
from tests.extractors.helpers import check_src, line_of, of_rule

PICK = """\
#include <string.h>
#define EQ(s1) (strcmp(s1, inst) == 0)
#define IS_A() EQ("a")
int pick(const char *name)
{
    const char *inst;
    int n = 0;
    inst = name;
    if (IS_A())
        n = 1;
    else if (EQ("b"))
        n = 2;
    inst = "c"; /*D*/
    return n;
}
"""


def test_a_macro_reading_a_local_by_name_reads_it() -> None:
    found = check_src(PICK)
    assert of_rule(found, "unused-variable") == []
    # the store the macros read is live; the one after the last call is dead
    assert [f.location.start_line for f in of_rule(found, "dead-store")] == [line_of(PICK, "/*D*/")]


UNCALLED = """\
#include <string.h>
#define EQ(s1) (strcmp(s1, inst) == 0)
int pick(const char *name, const char *other)
{
    const char *inst = name; /*U*/
    return strcmp(other, "a") == 0;
}
"""


def test_a_macro_not_called_reads_nothing() -> None:
    found = of_rule(check_src(UNCALLED), "unused-variable")
    assert [f.location.start_line for f in found] == [line_of(UNCALLED, "/*U*/")]


def test_free_reads_are_plain_names_only() -> None:
    assert free_reads((("s1",), "(strcmp(s1, inst) == 0)")) == ("inst",)
    assert free_reads((("x",), "(x->inst + s.count + LIMIT)")) == ("s",)
    assert free_reads((("a",), '{ int k = 0; k += a; total += k; printf("%d", shown); }')) == ("shown", "total")
    assert free_reads((("e",), "lua_assert(e)")) == ()
    # a name the body assigns is the macro's to define (macro_specs), not a read of the caller's
    assert free_reads(((), "(c = next_char(f), c)")) == ("f",)
    # ``return status;`` declares nothing: the caller's status is read
    assert free_reads(((), "{ if (status) return status; }")) == ("status",)
    assert free_reads(((), "#x")) == ()


SCAN = """\
#include <stdio.h>
#define NEXT() (c = getc(f), c)
int count_lines(FILE *f)
{
    int c;
    int lines = 0;
    while (NEXT() != EOF)
        if (c == '\\\\n')
            lines++;
    return lines;
}
"""


def test_a_macro_that_assigns_a_name_before_reading_it_reads_no_unset_value() -> None:
    assert of_rule(check_src(SCAN), "uninitialised-read") == []


VARINT = """\
typedef unsigned int u32;
int get_varint32(const unsigned char *p, u32 *v);
#define GET_VARINT32(a,b) get_varint32(a,(u32*)&(b))
#define PEEK(b) ((u32)(b) & 0x7f)
int seek(const unsigned char *a, int at, int n, int base)
{
    int end;
    if (at >= n) {
        end = n + 1;
    } else {
        int extra;
        at += GET_VARINT32(&a[at], extra);
        end = base + extra;
    }
    return end + at;
}
"""


def test_a_macro_handing_on_an_address_under_a_cast_defines_its_argument() -> None:
    """sqlite's ``fts5GetVarint32(a,b)`` is ``sqlite3Fts5GetVarint32(a,(u32*)&(b))``: ``b`` is
    set through its address; a macro that only reads its argument leaves it unset."""
    assert of_rule(check_src(VARINT), "uninitialised-read") == []
    peek = VARINT.replace("at += GET_VARINT32(&a[at], extra);", "at += PEEK(extra); /*R*/")
    found = of_rule(check_src(peek), "uninitialised-read")
    assert [f.location.start_line for f in found] == [line_of(peek, "/*R*/")]


BLEND = """\
#define SHIFT(a) ((((a) >> 8) + a) >> 8)
#define MULDIV255(a, b, tmp) (tmp = (a) * (b) + 128, SHIFT(tmp))
#define PREBLEND(mask, in1, in2, tmp1) (MULDIV255(in1, (255 - mask), tmp1) + in2)
unsigned blend(unsigned m, unsigned a, unsigned b)
{
    unsigned tmp1;
    return PREBLEND(m, a, b, tmp1);
}
"""


def test_a_macro_handing_its_parameter_to_a_macro_that_assigns_it_assigns_it() -> None:
    # Pillow's ImagingUtils.h: PREBLEND stores into tmp1 through MULDIV255
    assert of_rule(check_src(BLEND), "uninitialised-read") == []
    # a macro that only reads the parameter it hands on leaves it unset
    reads = BLEND.replace("(MULDIV255(in1, (255 - mask), tmp1) + in2)", "(SHIFT(tmp1) + in2)")
    assert len(of_rule(check_src(reads), "uninitialised-read")) == 1


# object-like macros written as statements (Pillow's Pack.c): ``C16B;`` is ``C16S;`` on a little
# endian build, whose body reads the caller's ``tmp`` and stores into ``out``
PACKED = """\
typedef unsigned char UINT8;
typedef unsigned short UINT16;
#define C16N (out[0] = tmp[0], out[1] = tmp[1]);
#define C16S (out[1] = tmp[0], out[0] = tmp[1]);
#ifdef WORDS_BIGENDIAN
#define C16B C16N
#else
#define C16B C16S
#endif
void pack(UINT8 *out, const UINT16 *in, int pixels)
{
    UINT16 tmp_;
    UINT8 *tmp = (UINT8 *)&tmp_; /*T*/
    for (int i = 0; i < pixels; i++) {
        tmp_ = in[i];
        C16B;
        out += 2;
    }
}
"""
# a statement macro that assigns a local: ``RESET;`` defines pos before it is read
RESET = """\
#define RESET pos = 0; count = 0;
int scan(const char *s)
{
    int pos, count;
    RESET;
    while (s[pos]) {
        if (s[pos] == ',')
            count++;
        pos++;
    }
    return count; /*R*/
}
"""


def test_an_object_like_statement_macro_reads_and_stores_through_its_body() -> None:
    assert of_rule(check_src(PACKED), "unused-variable") == []
    direct = PACKED.replace("C16B;", "C16S;")
    assert of_rule(check_src(direct), "unused-variable") == []
    unpacked = PACKED.replace("        C16B;\n", "")
    assert [f.location.start_line for f in of_rule(check_src(unpacked), "unused-variable")] == [
        line_of(unpacked, "/*T*/")
    ]
    assert of_rule(check_src(RESET), "uninitialised-read") == []
    unreset = RESET.replace("    RESET;\n", "")
    assert of_rule(check_src(unreset), "uninitialised-read") != []


# pycryptodome's keccak_x4_neon.c: locals named only through token pasting in a macro's body
PASTED_NAMES = """\
#define ADD(x) total += x
#define ROW(p, r) do { ADD(p##r##0); ADD(p##r##1); } while (0)
int rows(const int *m)
{
    int total = 0;
    int sa0 = m[0], sa1 = m[1];
    int sb0 = m[2], sb1 = m[3]; /*B*/
    ROW(s, a);
    return total;
}
"""


def test_a_local_named_only_by_pasting_in_a_macro_is_read() -> None:
    found = of_rule(check_src(PASTED_NAMES), "unused-variable")
    # sa0 and sa1 are read through ROW(s, a); sb0 and sb1 are named by no call
    assert sorted(f.message for f in found) == [
        "'sb0' is declared but never read",
        "'sb1' is declared but never read",
    ]
    assert {f.location.start_line for f in found} == {line_of(PASTED_NAMES, "/*B*/")}
