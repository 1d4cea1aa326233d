"""``ctlsp rsm``: model-check CTL formulas on a JSON RSM, the way the published benchmarks are run.

This is the checker's edge to the outside world without any C front end: it makes the engine
runnable on the benchmark files (and on hand-written models) from a shell, prints verdicts,
statistics and witness paths, and never lets a bad file end in a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat
from pathlib import Path
from typing import Any

from checker import STRATEGIES, KnowledgeBase, Step, check
from checker.ctl import CTLSyntaxError, Formula, parse
from checker.model import RSM, ModelError
from checker.rsm_json import brief, load_ctl, load_rsm
from checker.semantics import SEMANTICS, apply_semantics


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "model", metavar="MODEL", help="JSON RSM file (.rsm) or benchmark zip holding NAME.rsm"
    )
    parser.add_argument(
        "formulas",
        metavar="FORMULAS",
        nargs="?",
        help="a .ctl file (one formula a line) or one formula such as 'A G p'; "
        "for a zip, defaults to its NAME_single_usedef.ctl",
    )
    parser.add_argument(
        "--zip-formulas",
        choices=["single_usedef", "usedef"],
        default="single_usedef",
        help="which .ctl member of a benchmark zip to use when FORMULAS is omitted",
    )
    parser.add_argument(
        "--strategy", choices=STRATEGIES, default="lazy", help="checking strategy (default lazy)"
    )
    parser.add_argument("--witness", action="store_true", help="print a witness or counterexample path")
    parser.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    parser.add_argument(
        "--no-reduce",
        action="store_true",
        help="do not collapse callees without the formula's atoms (formulas without EX only)",
    )
    parser.add_argument(
        "--semantics",
        choices=SEMANTICS,
        default="exact",
        help="exact (default): a call into a callee entry that is also an exit returns at once; "
        "rsmcheck: the run stops at such a call, as in the published RSMCheck tool, which "
        "reproduces the published benchmark verdicts (see checker/semantics.py)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="check the formulas in N worker processes (not with --strategy kb, whose knowledge "
        "base is one process's memory); default 1",
    )


def _formulas(args: argparse.Namespace) -> list[tuple[int, Formula]]:
    spec: str | None = args.formulas
    if spec is None:
        if Path(args.model).suffix != ".zip":
            raise ValueError("no FORMULAS given (a .ctl file or a formula in quotes)")
        return load_ctl(args.model, args.zip_formulas)
    if spec.endswith(".ctl") or _is_file(spec):
        if not _is_file(spec):
            shown = spec if len(spec) <= 200 and spec.isprintable() else brief(spec)
            raise ValueError(f"{shown}: no such formula file")
        return load_ctl(spec)
    try:
        return [(1, parse(spec))]
    except CTLSyntaxError as e:
        raise ValueError(f"formula {brief(spec)}: {e}") from None


def _is_file(spec: str) -> bool:
    try:
        return Path(spec).is_file()
    except (OSError, ValueError):  # a formula too long for a file name, or holding a NUL
        return False


def _step_json(step: Step) -> dict[str, Any]:
    node = step.node if isinstance(step.node, str) else list(step.node)
    return {"component": step.component, "node": node, "stack": [list(f) for f in step.stack]}


def _step_text(step: Step) -> str:
    stack = " > ".join(f"{c}.{b}" for c, b in step.stack) or "-"
    node = step.node if isinstance(step.node, str) else f"{step.node[0]}:{step.node[1]}"
    return f"[{stack}] {step.component}/{node}"


def _run_all(
    model: RSM, formulas: list[tuple[int, Formula]], strategy: str, witness: bool, reduce: bool = True
) -> list[dict[str, Any]]:
    kb = KnowledgeBase() if strategy == "kb" else None
    rows = []
    for line, f in formulas:
        started = time.perf_counter()
        res = check(model, f, strategy, kb=kb, witness=witness, reduce=reduce)
        row: dict[str, Any] = {
            "line": line,
            "formula": str(f),
            "holds": res.holds,
            "contexts": int(res.stats.get("contexts", 0)),
            "instances": int(res.stats.get("instances", 0)),
            "seconds": round(time.perf_counter() - started, 6),
        }
        if witness:
            row["witness_kind"] = res.witness_kind
            row["witness"] = None if res.witness is None else [_step_json(s) for s in res.witness]
            row["loop_start"] = res.loop_start
            row["_steps"] = res.witness
        rows.append(row)
    return rows


_WORKER_MODEL: RSM | None = None


def _load_in_worker(path: str, semantics: str = "exact") -> None:
    global _WORKER_MODEL
    _WORKER_MODEL = apply_semantics(load_rsm(path), semantics)


def _run_in_worker(
    formulas: list[tuple[int, Formula]], strategy: str, witness: bool, reduce: bool
) -> list[dict[str, Any]]:
    assert _WORKER_MODEL is not None
    return _run_all(_WORKER_MODEL, formulas, strategy, witness, reduce)


def _run_parallel(path: str, formulas: list[tuple[int, Formula]], args: argparse.Namespace) -> list[dict[str, Any]]:
    """Independent formulas spread over processes: each worker loads the model once, then takes
    small chunks, so one slow formula does not leave the other cores idle at the end."""
    size = max(1, len(formulas) // (args.jobs * 8))
    chunks = [formulas[i : i + size] for i in range(0, len(formulas), size)]
    rows: list[dict[str, Any]] = []
    with ProcessPoolExecutor(args.jobs, initializer=_load_in_worker, initargs=(path, args.semantics)) as pool:
        for part in pool.map(
            _run_in_worker, chunks, repeat(args.strategy), repeat(args.witness), repeat(not args.no_reduce)
        ):
            rows.extend(part)
    return rows


def _print_text(rows: list[dict[str, Any]], total: float) -> None:
    for row in rows:
        print(f"{'true ' if row['holds'] else 'false'}  {row['formula']}")
        steps = row.get("_steps")
        if row.get("witness_kind"):
            print(f"  {row['witness_kind']}:")
            for i, s in enumerate(steps or ()):
                mark = " <- loop starts" if row["loop_start"] == i else ""
                print(f"    {i:>3} {_step_text(s)}{mark}")
            if row["loop_start"] is not None:
                print(f"        (then back to step {row['loop_start']} forever)")
        elif "witness_kind" in row:
            print("  (no path to show: the verdict rests on the absence of a path)")
    contexts = sum(r["contexts"] for r in rows)
    print(
        f"{len(rows)} formula(s), {sum(r['holds'] for r in rows)} true; contexts built {contexts}; "
        f"time {total:.3f}s"
    )


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    try:
        model = apply_semantics(load_rsm(args.model), args.semantics)
        formulas = _formulas(args)
        if not formulas:
            raise ValueError("no formulas to check")
        if args.jobs < 1:
            raise ValueError("--jobs must be at least 1")
        if args.jobs > 1 and args.strategy == "kb":
            raise ValueError("--jobs needs --strategy lazy or exhaustive: kb shares one knowledge base")
        if args.jobs > 1 and len(formulas) > 1:
            rows = _run_parallel(args.model, formulas, args)
        else:
            rows = _run_all(model, formulas, args.strategy, args.witness, not args.no_reduce)
    except (ModelError, ValueError) as e:
        print(f"ctlsp rsm: error: {e}", file=sys.stderr)
        return 2
    total = time.perf_counter() - started
    if args.json:
        for r in rows:
            r.pop("_steps", None)
        doc = {
            "model": str(args.model),
            "strategy": args.strategy,
            "semantics": args.semantics,
            "results": rows,
            "seconds": round(total, 6),
        }
        json.dump(doc, sys.stdout, indent=2)
        print()
    else:
        _print_text(rows, total)
    return 0
