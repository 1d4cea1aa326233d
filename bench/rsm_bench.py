"""RSM model-checking benchmark: time and contexts per strategy on the published benchmark models.

For each model, the single use-def formula is checked with every strategy (a crash is reported
as such, not hidden); then the full ``_usedef.ctl`` of one model is run per strategy (``kb`` with
one knowledge base shared across the formulas, as in an editor session).  Every verdict is
compared with the exact use-def oracle, so a fast wrong answer shows up as a mismatch.  Prints a
table and lazy-vs-exhaustive ratios measured in this run; not run in CI.

    .venv/bin/python bench/rsm_bench.py [--models dataflow,avroraReg,...] [--full avroraReg] [--limit N]
                                        [--semantics exact|rsmcheck]

``--semantics rsmcheck`` reads every model under the published tool's convention (a call into a
callee entry that is also an exit is a dead end, see ``checker/semantics.py``); the oracle then
judges the same transformed model, and the "published" column should match the "exact" one.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from checker import STRATEGIES, KnowledgeBase, check  # noqa: E402
from checker.ctl import AG, EF, Atom, Formula, Implies, Or  # noqa: E402
from checker.rsm_json import load_ctl, load_rsm  # noqa: E402
from checker.semantics import SEMANTICS, apply_semantics  # noqa: E402
from tests.checker.oracle import UseDefOracle  # noqa: E402

BENCH = Path(__file__).resolve().parents[2] / "shared" / "benchmarks" / "rsm"
MODELS = ["dataflow", "avroraReg", "avroraMedTest", "avroraELF", "fop2pdf", "dom2pdf"]
PUBLISHED = {
    "dataflow": False,
    "avroraReg": True,
    "avroraMedTest": True,
    "avroraELF": True,
    "fop2pdf": True,
    "dom2pdf": True,
}


def _atoms(f: Formula) -> frozenset[str]:
    if isinstance(f, Atom):
        return frozenset({f.name})
    if isinstance(f, Or):
        return _atoms(f.left) | _atoms(f.right)
    raise ValueError(f"not a disjunction of atoms: {f}")


def usedef_shape(f: Formula) -> tuple[frozenset[str], frozenset[str]]:
    if isinstance(f, AG) and isinstance(f.arg, Implies) and isinstance(f.arg.right, EF):
        return _atoms(f.arg.left), _atoms(f.arg.right.arg)
    raise ValueError(f"not a use-def formula: {f}")


def _cell(fn: object) -> tuple[bool | None, float, int, str]:
    started = time.perf_counter()
    try:
        res = fn()  # type: ignore[operator]
    except Exception as e:  # noqa: BLE001 - a crashing strategy is a result to report
        return None, time.perf_counter() - started, 0, f"{type(e).__name__}: {e}"[:60]
    return res.holds, time.perf_counter() - started, int(res.stats.get("contexts", 0)), ""


def single(models: list[str], console: Console, semantics: str = "exact") -> None:
    table = Table(title=f"single use-def formula per model ({semantics} semantics)")
    for col in (
        "model",
        "published",
        "exact",
        "load s",
        *(f"{s} s / ctx / verdict" for s in STRATEGIES),
        "exh/lazy time",
    ):
        table.add_column(col)
    for name in models:
        path = BENCH / f"{name}.zip"
        t0 = time.perf_counter()
        model = apply_semantics(load_rsm(path), semantics)
        formula = load_ctl(path)[0][1]
        load = time.perf_counter() - t0
        exact = UseDefOracle(model).check(*usedef_shape(formula))[0]
        cells, times = [], {}
        for s in STRATEGIES:
            holds, secs, ctx, err = _cell(lambda s=s, m=model, f=formula: check(m, f, s))
            times[s] = secs
            verdict = err or ("ok" if holds is exact else f"WRONG {holds}")
            cells.append(f"{secs:.2f} / {ctx} / {verdict}")
        ratio = times["exhaustive"] / times["lazy"] if times["lazy"] > 0 else float("nan")
        table.add_row(name, str(PUBLISHED[name]), str(exact), f"{load:.2f}", *cells, f"{ratio:.2f}")
    console.print(table)


def full(name: str, limit: int | None, console: Console, semantics: str = "exact") -> None:
    path = BENCH / f"{name}.zip"
    model = apply_semantics(load_rsm(path), semantics)
    formulas = load_ctl(path, "usedef")[:limit]
    oracle = UseDefOracle(model)
    t0 = time.perf_counter()
    exact = [oracle.check(*usedef_shape(f))[0] for _, f in formulas]
    oracle_s = time.perf_counter() - t0
    table = Table(
        title=f"{name}: full use-def file, {len(formulas)} formulas ({sum(exact)} true, {semantics} semantics)"
    )
    for col in ("strategy", "total s", "ms/formula", "contexts", "kb hits", "mismatches", "errors"):
        table.add_column(col)
    totals = {}
    for s in STRATEGIES:
        kb = KnowledgeBase() if s == "kb" else None
        secs = 0.0
        contexts = mismatches = errors = 0
        for (_, f), want in zip(formulas, exact, strict=True):
            started = time.perf_counter()
            try:
                res = check(model, f, s, kb=kb)
            except Exception:  # noqa: BLE001
                errors += 1
                secs += time.perf_counter() - started
                continue
            secs += time.perf_counter() - started
            contexts += int(res.stats.get("contexts", 0))
            mismatches += res.holds is not want
        totals[s] = secs
        hits = str(kb.hits) if kb is not None else "-"
        table.add_row(
            s,
            f"{secs:.1f}",
            f"{1000 * secs / len(formulas):.1f}",
            str(contexts),
            hits,
            str(mismatches),
            str(errors),
        )
    console.print(table)
    console.print(
        f"exact use-def oracle: {oracle_s:.1f}s for all formulas; "
        f"exhaustive/lazy time ratio {totals['exhaustive'] / totals['lazy']:.2f}, "
        f"kb/lazy {totals['kb'] / totals['lazy']:.2f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument(
        "--full", default="avroraReg", help="model whose whole _usedef.ctl is run ('' to skip)"
    )
    parser.add_argument("--limit", type=int, default=None, help="only the first N formulas of the full file")
    parser.add_argument("--semantics", choices=SEMANTICS, default="exact", help="model convention (default exact)")
    args = parser.parse_args()
    if not BENCH.is_dir():
        print(f"benchmarks not found at {BENCH}", file=sys.stderr)
        return 2
    console = Console(width=200)
    single([m for m in args.models.split(",") if m], console, args.semantics)
    if args.full:
        full(args.full, args.limit, console, args.semantics)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
