"""GNU inline assembly (``asm``/``__asm__``/``__asm``, with ``volatile``/``goto``): an output
operand's lvalue is stored by the assembly, a ``+`` operand is read and then stored, an input is
read, and ``asm goto`` may jump to the labels it lists (brotli's ``BrotliRBit``)."""

from __future__ import annotations

from extractors.facts import FactWalker
from extractors.parse import parse_c
from tests.extractors.helpers import cfg_of, check_src, line_of, of_rule


def _events(stmt: str) -> set[tuple[str, str]]:
    tree = parse_c(f"void f(void) {{ {stmt} }}")
    body = tree.root_node.named_children[0].child_by_field_name("body")
    assert body is not None
    w = FactWalker({})
    w.walk(body.named_children[0].named_children[0])
    return set(w.f.events)


def _lines(src: str, rule: str) -> list[int]:
    return [f.location.start_line for f in of_rule(check_src(src), rule)]


def test_outputs_are_stored_inputs_read() -> None:
    got = _events('__asm__ volatile ("x" : [o] "=&r"(out), "+r"(acc) : [i] "r"(in), "m"(*p) : "memory");')
    assert ("out", "def") in got and ("out", "read") not in got and ("out", "write") not in got
    assert {("acc", "read"), ("acc", "def")} <= got
    assert {("in", "read"), ("p", "read"), ("p", "use")} <= got
    assert not {e for e in got if e[0] in ("o", "i")}  # operand names are no variables


def test_output_through_a_pointer_or_a_field() -> None:
    got = _events('asm("x" : "=m"(*q), "=r"(s.f), "=r"(t->g));')
    assert ("*q", "def") in got and ("q", "use") in got  # stored through q
    assert ("s", "def") in got and ("s", "read") not in got  # part of s set, nothing of it read
    assert ("t", "use") in got


BROTLI = """\
typedef unsigned long brotli_reg_t;
static inline brotli_reg_t BrotliRBit(brotli_reg_t input) {
  brotli_reg_t output;
  __asm__("rbit %0, %1\\n" : "=r"(output) : "r"(input));
  return output;
}
"""


def test_an_output_operand_initialises_the_variable() -> None:
    assert _lines(BROTLI, "uninitialised-read") == []
    for spelling in ("asm volatile", "__asm", "__asm__ __volatile__"):
        assert _lines(BROTLI.replace("__asm__", spelling, 1), "uninitialised-read") == []
    # an output never read is no dead store: the assembly must name what it sets
    unread = "void g(void) { int lo, hi; __asm__ volatile(\"rdtsc\" : \"=a\"(lo), \"=d\"(hi)); }"
    assert _lines(unread, "dead-store") == []


def test_an_input_or_read_write_operand_still_reads_an_unset_variable() -> None:
    src = """\
int f(void) {
  int x;
  __asm__("" : : "r"(x)); /*I*/
  return 0;
}
int g(int in) {
  int y;
  __asm__ volatile("add %0, %1" : "+r"(y) : "r"(in)); /*P*/
  return y;
}
"""
    assert _lines(src, "uninitialised-read") == [line_of(src, "/*I*/"), line_of(src, "/*P*/")]


def test_asm_goto_may_jump_to_its_labels() -> None:
    src = """\
int h(int in) {
  int r;
  asm goto("jmp %l0" : : "r"(in) : : done);
  r = 1;
  return r;
done:
  r = 2;
  return r;
}
"""
    assert _lines(src, "unreachable-code") == []
    cfg = cfg_of(src)
    jump = next(n.id for n in cfg.nodes if n.text.startswith("asm goto"))
    label = next(n.id for n in cfg.nodes if n.kind == "label")
    assert label in cfg.successors(jump) and len(cfg.successors(jump)) == 2
