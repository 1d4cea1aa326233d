"""Fuzzing both command lines: no input makes ``ctlsp check`` or ``ctlsp rsm`` end in a traceback.

Each example runs the real entry point (:func:`server.cli.main`) in this process on a hostile
input: random bytes, random mutations of real C files, of a real ``ctlsp.toml``, of the benchmark
JSON models and ``.ctl`` files, and deep nestings.  Whatever the input, an exception escaping
``main`` fails the example (that is what a traceback is), the exit status is 0, 1 or 2, and 1 is
given only with findings printed.  CI runs a small number of examples; ``CTLSP_FUZZ_EXAMPLES``
raises it for a long local run.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.cli import main

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "benchmarks" / "rsm"
EXAMPLES = int(os.environ.get("CTLSP_FUZZ_EXAMPLES", "40"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=EXAMPLES <= 100,  # CI: the same examples every run
)
FINDING_LINE = re.compile(r"^\S.*:\d+:\d+: (error|warning|info|note): ", re.M)

C_SEEDS = sorted((REPO / "examples").glob("*.c")) + [REPO / "tests" / "extractors" / "data" / "realistic.c"]
C_TOKENS = [
    b"{", b"}", b"(", b")", b";", b"\n", b"#if 0\n", b"#else\n", b"#endif\n", b"#ifdef X\n", b"#define F(x) ",
    b"free(p);", b"p = malloc(8);", b"*p = 1;", b"return;", b"goto out;", b"out:", b"/*", b"*/", b'"', b"'",
    b"\\\n", b"\x00", b"\xff\xfe", b"int ", b"static ", b"struct s {", b"lock(&m);", b"unlock(&m);", b"else",
]
TOML_SEED = b"""[extract]
allocators = ["pool_get"]
deallocators = ["pool_put"]
locks = [["spin_lock", "spin_unlock"]]
must_check = ["setuid"]

[rules.dead-store]
enabled = false

[rules.memory-leak]
severity = "error"

[[rules.custom]]
id = "no-free"
formula = "E F (free & E X E (~def U use))"
message = "{var} is used after free"
severity = "info"
cwe = 416
"""
TOML_TOKENS = [
    b"[", b"]", b"[[", b"]]", b'"', b"=", b"\n", b"[rules.custom]", b"[[rules.custom]]\n", b"formula = ",
    b"E F (", b"~", b"{var}", b"{nope}", b"{", b"}", b"enabled = ", b"true", b"1", b"severity = \"bad\"",
    b"[extract]\n", b"locks = [[\"a\"]]", b"id = \"x\"", b"message = ", b"\x00", b"\xff",
]
JSON_TOKENS = [
    b"[", b"]", b"{", b"}", b",", b":", b'"', b"null", b"true", b"0", b"-1", b"1e999", b'"name"', b'"labels"',
    b'"is_entry": true', b'"type": "box_node"', b'"components": []', b"\\u0000", b"\xff",
]
CTL_TOKENS = [
    b"A", b"E", b"X", b"F", b"G", b"U", b"W", b"(", b")", b"[", b"]", b"~", b"&", b"|", b"-->", b"<->", b"\n",
    b"#", b"true", b"false", b" ", b"blue", b"black", b"\x00",
]


def mutated(seed: bytes, tokens: list[bytes]) -> st.SearchStrategy[bytes]:
    """``seed`` after a few random edits: cut a span, insert a token or random bytes, repeat a span."""
    edit = st.tuples(
        st.sampled_from(["cut", "token", "bytes", "repeat"]),
        st.integers(0, len(seed)),
        st.integers(0, 64),
        st.sampled_from(tokens),
        st.binary(max_size=8),
    )

    def apply(edits: list[tuple[str, int, int, bytes, bytes]]) -> bytes:
        data = seed
        for kind, at, n, token, raw in edits:
            at = min(at, len(data))
            if kind == "cut":
                data = data[:at] + data[at + n :]
            elif kind == "token":
                data = data[:at] + token * (1 + n % 4) + data[at:]
            elif kind == "bytes":
                data = data[:at] + raw + data[at:]
            else:
                data = data[:at] + data[at : at + n] * 3 + data[at:]
        return data

    return st.lists(edit, min_size=1, max_size=6).map(apply)


def nested(opens: bytes, middle: bytes, closes: bytes, least: int = 50) -> st.SearchStrategy[bytes]:
    return st.integers(least, 6000).map(lambda n: opens * n + middle + closes * n)


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def assert_clean_exit(code: int, out: str, err: str, *, findings_possible: bool) -> None:
    assert "Traceback" not in err, err
    assert code in (0, 1, 2), (code, err)
    if code == 1:
        assert findings_possible and FINDING_LINE.search(out), (out, err)
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "error" in lines[0], err


def check_tree(files: dict[str, bytes]) -> tuple[int, str, str]:
    with tempfile.TemporaryDirectory() as d:
        for name, data in files.items():
            (Path(d) / name).write_bytes(data)
        return run_cli("check", d, "--jobs", "1", "--no-cache", "--no-progress")


def custom_rule(formula: bytes) -> bytes:
    return b'[[rules.custom]]\nid = "d"\nmessage = "m"\nformula = "' + formula + b'"'


# ----- ctlsp check ---------------------------------------------------------------------------------
@FUZZ
@given(st.binary(max_size=600))
def test_check_random_bytes(data: bytes) -> None:
    assert_clean_exit(*check_tree({"x.c": data}), findings_possible=True)


@FUZZ
@given(st.sampled_from(C_SEEDS).flatmap(lambda p: mutated(p.read_bytes(), C_TOKENS)))
def test_check_mutated_c(data: bytes) -> None:
    assert_clean_exit(*check_tree({"x.c": data}), findings_possible=True)


@FUZZ
@given(mutated(TOML_SEED, TOML_TOKENS))
def test_check_mutated_config(data: bytes) -> None:
    source = (REPO / "examples" / "frees.c").read_bytes()
    assert_clean_exit(*check_tree({"ctlsp.toml": data, "frees.c": source}), findings_possible=True)


@FUZZ
@given(
    st.one_of(
        nested(b"a = ", b"1", b""),
        nested(b"[", b"1", b"]").map(lambda v: b"[extract]\nallocators = " + v),
        nested(b"(", b"free", b")", 101).map(custom_rule),
        nested(b"E X ", b"free", b"", 100).map(custom_rule),
        nested(b"{ a = ", b"1", b" }").map(lambda v: b"x = " + v),
    )
)
def test_check_deep_config(data: bytes) -> None:
    code, out, err = check_tree({"ctlsp.toml": data, "clean.c": (REPO / "examples" / "clean.c").read_bytes()})
    assert_clean_exit(code, out, err, findings_possible=False)
    assert code == 2 and "ctlsp.toml" in err


# ----- ctlsp rsm -----------------------------------------------------------------------------------
def rsm_files(model: bytes, formulas: bytes) -> tuple[int, str, str]:
    with tempfile.TemporaryDirectory() as d:
        m, f = Path(d) / "m.rsm", Path(d) / "f.ctl"
        m.write_bytes(model)
        f.write_bytes(formulas)
        return run_cli("rsm", str(m), str(f), "--witness")


RSM_SEEDS = [SHARED / "simple.rsm", SHARED / "example.rsm"]
CTL_SEED = (SHARED / "example.ctl").read_bytes() if (SHARED / "example.ctl").is_file() else b"E X E G blue\n"


@FUZZ
@given(st.sampled_from(RSM_SEEDS).flatmap(lambda p: mutated(p.read_bytes(), JSON_TOKENS)))
def test_rsm_mutated_model(model: bytes) -> None:
    code, out, err = rsm_files(model, CTL_SEED)
    assert_clean_exit(code, out, err, findings_possible=False)


@FUZZ
@given(mutated(CTL_SEED, CTL_TOKENS))
def test_rsm_mutated_formulas(formulas: bytes) -> None:
    code, out, err = rsm_files((SHARED / "example.rsm").read_bytes(), formulas)
    assert_clean_exit(code, out, err, findings_possible=False)


@FUZZ
@given(
    st.one_of(
        nested(b"[", b"", b"]"),
        nested(b'{"a":', b"1", b"}"),
        nested(b"[", b"", b"]").map(lambda v: b'{"components": ' + v + b', "initial_component": "a"}'),
    )
)
def test_rsm_deep_model(model: bytes) -> None:
    code, out, err = rsm_files(model, b"E X a\n")
    assert_clean_exit(code, out, err, findings_possible=False)
    assert code == 2 and "m.rsm" in err


@FUZZ
@given(
    st.one_of(
        nested(b"E X ", b"blue", b""),
        nested(b"~", b"blue", b""),
        nested(b"(", b"blue", b")"),
        nested(b"A (blue U ", b"red", b")"),
        st.integers(50, 6000).map(lambda n: b" & ".join([b"blue"] * n)),
        st.integers(50, 6000).map(lambda n: b" --> ".join([b"blue"] * n)),
    )
)
def test_rsm_deep_formula(formula: bytes) -> None:
    code, out, err = rsm_files((SHARED / "example.rsm").read_bytes(), formula + b"\n")
    assert_clean_exit(code, out, err, findings_possible=False)
    assert code in (0, 2)
