"""``ctlsp check PATH...``: check C files from the command line or CI.

This module only wires things together: arguments and rule selection (here), files and
configuration (:mod:`server.workspace`), checking with cache and work units on a local pool or a
Dask cluster (:mod:`server.check_runner`), progress (:mod:`server.progress`), baselines
(:mod:`server.baseline`) and output formats (:mod:`server.reporting`).  Exit status: 0 clean,
1 findings, 2 usage error (bad path, configuration, rule id, baseline or executor; one line on
stderr).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from extractors.api import PHASES, Config, ConfigError, Finding, Rule, catalogue
from extractors.config import RuleSetting
from extractors.preprocessor import macro_name, parse_define
from server import collector
from server.baseline import BaselineError, apply_baseline, read_baseline, write_baseline
from server.check_runner import EXECUTORS, RunResult, default_jobs, run_check
from server.dask_executor import INSTALL_HINT, DaskUnavailable, dask_installed
from server.disk_cache import CACHE_DIR_NAME, DiskCache
from server.progress import console_progress
from server.reporting import RENDERERS, Summary
from server.reporting.text import position
from server.workspace import (
    PathError,
    check_compile_commands,
    collect,
    config_files_of,
    config_from_file,
    config_in,
    find_config_file,
    read_sources,
    with_found_compile_commands,
)

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
MAX_NOTES = 20  # functions not checked named on stderr (all of them are in JSON and SARIF)
POOL_MIN_LINES = 5000  # below this, starting worker processes costs more than it saves


class UsageError(Exception):
    """Anything the user must fix before a check can run; printed as one line, exit status 2."""


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="C files or folders (searched for *.c, *.h)")
    parser.add_argument("--format", choices=sorted(RENDERERS), default="text", help="output format")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE instead of stdout")
    parser.add_argument("-j", "--jobs", type=_positive, metavar="N", help="worker processes (default: cores)")
    parser.add_argument("--no-cache", action="store_true", help=f"neither read nor write {CACHE_DIR_NAME}/")
    parser.add_argument("--cache-dir", metavar="DIR", help=f"cache folder (default: PATH/{CACHE_DIR_NAME})")
    parser.add_argument("--baseline", metavar="FILE", help="hide the findings recorded in FILE")
    parser.add_argument(
        "--write-baseline", metavar="FILE", help="record the current findings in FILE and exit with status 0"
    )
    parser.add_argument("--config", metavar="FILE", help="ctlsp.toml or pyproject.toml to use")
    parser.add_argument(
        "--rule", action="append", default=[], metavar="ID", help="check only these rules (repeatable)"
    )
    parser.add_argument(
        "--disable", action="append", default=[], metavar="ID", help="skip this rule (repeatable)"
    )
    parser.add_argument(
        "-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
        help="a macro defined for #if/#ifdef, as for the compiler (repeatable)",
    )
    parser.add_argument(
        "-U", dest="undefines", action="append", default=[], metavar="NAME",
        help="a macro known not to be defined (repeatable)",
    )
    parser.add_argument(
        "-I", dest="include", action="append", default=[], metavar="DIR",
        help="a folder headers are looked for in, for their macros (repeatable)",
    )
    parser.add_argument(
        "--compile-commands", metavar="FILE",
        help="compile_commands.json whose -D/-U/-I/-include flags apply per file "
        "(default: the nearest compile_commands.json at or above PATH)",
    )
    parser.add_argument(
        "--executor", choices=EXECUTORS, default="local",
        help="where work units run: local worker processes (default) or a Dask cluster",
    )
    parser.add_argument(
        "--scheduler", metavar="tcp://HOST:PORT",
        help="the Dask scheduler of --executor dask (default: a local cluster of --jobs processes)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.add_argument(
        "-v", "--verbose", "--stats", action="store_true",
        help="show checked/reused counters, time per phase, and name the functions that could not be checked",
    )


# ----- configuration -----------------------------------------------------------------------------
def _split_ids(values: Sequence[str]) -> list[str]:
    return [v.strip() for item in values for v in item.split(",") if v.strip()]


def select_rules(config: Config, only: Sequence[str], disable: Sequence[str]) -> Config:
    """``--rule`` / ``--disable`` applied on top of the file's rule settings (the command line wins)."""
    known = {r.id for r in catalogue(config, include_disabled=True)}
    for rid in [*only, *disable]:
        if rid not in known:
            raise UsageError(f"unknown rule {rid!r}; known rules: {', '.join(sorted(known))}")
    if not only and not disable:
        return config
    settings = dict(config.rules)
    for rid in known:
        old = settings.get(rid, RuleSetting())
        enabled = (rid in only) if only else old.enabled
        if rid in disable:
            enabled = False
        settings[rid] = RuleSetting(enabled, old.severity)
    return dataclasses.replace(config, rules=settings)


def with_defines(
    config: Config, defines: Sequence[str], undefines: Sequence[str], include: Sequence[str] = ()
) -> Config:
    """``-D``/``-U``/``-I``: the command line's layer, which wins over each file's compile flags and
    ctlsp.toml (see ``extractors.queries.Settings``); a name given to both ``-D`` and ``-U`` is
    defined."""
    if not defines and not undefines and not include:
        return config
    parsed = []
    for d in defines:
        try:
            parsed.append(parse_define(d))
        except ValueError as e:
            raise UsageError(f"-D {d}: {e}") from None
    undefined: list[str] = []
    for u in undefines:
        try:
            undefined.append(macro_name(u))
        except ValueError as e:
            raise UsageError(f"-U {u}: {e}") from None
    return dataclasses.replace(
        config,
        command_defines=tuple(parsed),
        command_undefines=tuple(undefined),
        command_include=tuple(os.path.normpath(d) for d in include),
    )


def with_compile_commands(config: Config, named: str | None, first: Path) -> Config:
    """``--compile-commands`` over ``[preprocessor] compile_commands`` over the nearest
    ``compile_commands.json`` at or above ``first``; a usage error when the one chosen cannot be
    read or is not a compile database (so that a check never silently runs without its flags)."""
    if named is not None:
        config = dataclasses.replace(config, compile_commands=os.path.normpath(named))
    elif config.compile_commands is None:
        config = with_found_compile_commands(config, first)
    if config.compile_commands is not None:
        try:
            check_compile_commands(config.compile_commands)
        except ValueError as e:
            raise UsageError(str(e)) from None
    return config


def resolve_config(args: argparse.Namespace, start: Path, found: Path | None) -> Config:
    """The configuration of the files whose configuration file is ``found`` (None: none applies),
    ``--config`` instead when given, with the command line's layers over it; its compile database
    is looked for from ``start``."""
    try:
        config = config_from_file(Path(args.config)) if args.config else config_in(found, start)
        config = with_defines(config, args.defines, args.undefines, args.include)
        config = with_compile_commands(config, args.compile_commands, start)
        return select_rules(config, _split_ids(args.rule), _split_ids(args.disable))
    except ConfigError as e:
        where = f"{e.path}:{e.line}" if e.line else e.path
        raise UsageError(f"{where}: {' '.join(e.message.split())}") from None


@dataclass(frozen=True)
class Part:
    """The files of a check that one configuration applies to (in the order they were found)."""

    config: Config
    files: list[str]


def configured_parts(args: argparse.Namespace, files: list[str]) -> list[Part]:
    """``files`` split by the configuration that applies to each: the nearest configuration file at
    or above the file (``workspace.config_files_of``, the search the language server makes per
    workspace folder), or ``--config`` for all of them.  Each part is checked as one project, as
    the language server checks one workspace folder, so ``ctlsp check dirA dirB`` reports what
    ``ctlsp check dirA`` and ``ctlsp check dirB`` report.  With no files, one part: the
    configuration of the first PATH (its rule list still goes into the report).

    A part's compile database (when neither ``--compile-commands`` nor its configuration names one)
    is the nearest at or above its start: the configuration file's folder when that is inside the
    PATH its files came from, else that PATH (for a single part: the first PATH, as before)."""
    first = _first_dir(args.paths)
    if args.config or not files:
        return [Part(resolve_config(args, first, find_config_file(first)), files)]
    starts = [_first_dir([a]).resolve() for a in args.paths]
    parts = []
    for found, group in config_files_of(files).items():
        start = _start_of(found, Path(group[0]).resolve(), starts, first)
        parts.append(Part(resolve_config(args, start, found), group))
    return parts


def _start_of(found: Path | None, file: Path, starts: list[Path], first: Path) -> Path:
    arg = next((d for d in starts if file.is_relative_to(d)), None)
    if arg is None:
        return first
    if found is not None and found.parent.resolve().is_relative_to(arg):
        return found.parent
    return arg


# ----- the command -------------------------------------------------------------------------------
def _first_dir(paths: Sequence[str]) -> Path:
    p = Path(paths[0])
    return p if p.is_dir() else (p.parent if str(p.parent) else Path("."))


def _open_cache(args: argparse.Namespace, first: Path) -> DiskCache | None:
    if args.no_cache:
        return None
    root = Path(args.cache_dir) if args.cache_dir else first / CACHE_DIR_NAME
    try:
        root.mkdir(parents=True, exist_ok=True)
        ignore = root / ".gitignore"
        if not ignore.exists():
            ignore.write_text("*\n", encoding="utf-8")
    except OSError:
        pass  # unwritable: the cache then silently stores nothing
    return DiskCache(root)


def _emit(text: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as e:
        raise UsageError(f"{output}: cannot write report: {e.strerror or e}") from None


def phase_line(result: RunResult) -> str:
    """Where the time went, for ``--stats``: wall-clock seconds per phase of the run; for work units
    their time on the workers and the slowest one; and the checking's time split into its phases
    (extraction a worker still had to do, projection, model checking, refutation, and the rest), as
    the workers measured them and summed over workers, so the split adds up to the units' time (or,
    file by file, to the checking's)."""
    parts = [f"{name} {seconds:.2f}s" for name, seconds in result.phases.items()]
    line = "ctlsp: time: " + (", ".join(parts) or "nothing to do")
    if result.units:
        line += f"; {result.units} units, {result.unit_seconds:.2f}s on {result.workers} workers"
    if result.check_seconds:
        line += f" ({check_split(result)})" if result.units else f"; checking: {check_split(result)}"
    if result.slowest is not None:
        line += f"; slowest {result.slowest.label} {result.slowest.seconds:.2f}s"
    return line


def check_split(result: RunResult) -> str:
    """``projection 1.20s, model checking 0.80s, ..., other 0.10s``: the phases of the checking in
    :data:`~extractors.phase_clock.PHASES` order, then what is left of its seconds."""
    phases = [(name, result.check_phases.get(name, 0.0)) for name in PHASES]
    rest = max(0.0, result.check_seconds - sum(seconds for _, seconds in phases))
    return ", ".join(f"{name} {seconds:.2f}s" for name, seconds in [*phases, ("other", rest)])


def _executor_usable(args: argparse.Namespace) -> None:
    if args.scheduler and args.executor != "dask":
        raise UsageError("--scheduler needs --executor dask")
    if args.executor == "dask" and not dask_installed():
        raise UsageError(INSTALL_HINT)


def _rules_of(parts: Sequence[Part]) -> list[Rule]:
    """The rules the report describes: every part's, the first part's of each id."""
    out: dict[str, Rule] = {}
    for part in parts:
        for rule in catalogue(part.config):
            out.setdefault(rule.id, rule)
    return list(out.values())


def _joined(results: Sequence[RunResult]) -> RunResult:
    """One part's run result after another's, as one run: findings and notes together, counts,
    counters and seconds added up, the most workers and the slowest unit of any."""
    out = RunResult(findings={})
    for r in results:
        out.findings.update(r.findings)
        out.files_checked += r.files_checked
        out.files_reused += r.files_reused
        for name, n in r.counters.items():
            out.counters[name] = out.counters.get(name, 0) + n
        out.workers = max(out.workers, r.workers)
        out.problems.extend(r.problems)
        out.not_checked.extend(r.not_checked)
        for name, seconds in r.phases.items():
            out.phases[name] = out.phases.get(name, 0.0) + seconds
        out.units += r.units
        out.unit_seconds += r.unit_seconds
        if r.slowest is not None and (out.slowest is None or r.slowest.seconds > out.slowest.seconds):
            out.slowest = r.slowest
        out.add_phases(r.check_seconds, r.check_phases)
    return out


def check_command(args: argparse.Namespace) -> int:
    _executor_usable(args)
    files = collect(args.paths)
    first = _first_dir(args.paths)
    parts = configured_parts(args, files)
    rules = _rules_of(parts)
    baseline = None
    if args.baseline:
        try:
            baseline = read_baseline(Path(args.baseline))
        except BaselineError as e:
            raise UsageError(str(e)) from None
    sources, problems = read_sources(files)
    for msg in problems:
        print(f"ctlsp: warning: {msg}", file=sys.stderr)
    if not files:
        print(f"ctlsp: no C files found in {' '.join(args.paths)}", file=sys.stderr)
    cache = _open_cache(args, first)
    jobs = args.jobs or default_jobs()
    show = not args.no_progress and sys.stderr.isatty()
    results: list[RunResult] = []
    try:
        with console_progress(show) as (on_start, on_progress):
            total = [0]

            def started(units: int) -> None:  # one bar over every part's units
                total[0] += units
                on_start(total[0])

            for part in parts:
                results.append(
                    run_check(
                        part.config,
                        {f: sources[f] for f in part.files if f in sources},
                        cache=cache,
                        cache_root=str(cache.root.resolve()) if cache is not None else None,
                        jobs=jobs,
                        pool_min_lines=0 if args.jobs else POOL_MIN_LINES,
                        executor=args.executor,
                        scheduler=args.scheduler,
                        on_start=started,
                        on_progress=on_progress,
                    )
                )
    except DaskUnavailable as e:
        raise UsageError(str(e)) from None
    result = results[0] if len(results) == 1 else _joined(results)
    for msg in result.problems:
        print(f"ctlsp: warning: {msg}", file=sys.stderr)
    current: list[Finding] = [f for p in sources for f in result.findings.get(p, [])]
    findings, hidden = current, 0
    if baseline is not None:
        findings, hidden = apply_baseline(findings, baseline, Path(args.baseline).parent)
    counters = {**result.counters, "workers": result.workers}
    if cache is not None:
        counters["cache_corrupt_entries"] = cache.corrupt
    for note in result.not_checked[:MAX_NOTES]:
        print(f"{position(note.location)}: note: {note.message}", file=sys.stderr)
    if len(result.not_checked) > MAX_NOTES:
        print(f"ctlsp: note: {len(result.not_checked) - MAX_NOTES} more functions not checked", file=sys.stderr)
    summary = Summary(
        len(sources), result.files_checked, result.files_reused, hidden, counters, tuple(result.not_checked)
    )
    _emit(RENDERERS[args.format](findings, rules, summary), args.output)
    if args.verbose:
        print(phase_line(result), file=sys.stderr)
    print(summary.line(findings, verbose=args.verbose), file=sys.stderr)
    if args.write_baseline:
        try:
            n = write_baseline(Path(args.write_baseline), current)  # all of them, baselined ones too
        except OSError as e:
            raise UsageError(f"{args.write_baseline}: cannot write baseline: {e.strerror or e}") from None
        print(f"ctlsp: wrote {n} finding(s) to baseline {args.write_baseline}", file=sys.stderr)
        return EXIT_CLEAN
    return EXIT_FINDINGS if findings else EXIT_CLEAN


def run(args: argparse.Namespace) -> int:
    collector.tune()
    try:
        return check_command(args)
    except (UsageError, PathError) as e:
        print(f"ctlsp: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("ctlsp: interrupted", file=sys.stderr)
        return 130


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point for running this sub-command alone (tests, ``python -m server.cli_check``)."""
    parser = argparse.ArgumentParser(prog="ctlsp check")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
