"""Public API of the C front end: a :class:`Project` of C files, checked by CTL model checking.

Everything else in ctlsp (the ``ctlsp check`` CLI, the language server) codes against this module
only; it is kept stable.

    from extractors.api import Project, parse_c, Finding, Location, WitnessStep
    from extractors.api import Config, ConfigError, config_from_text, Rule, catalogue

    project = Project(config_from_text(text, "ctlsp.toml"), kb=None, cache=None)  # files: server.workspace
    upd = project.update_file("a.c", text)            # FileUpdate(changed, added, removed) function names
    project.remove_file("a.c")
    findings = project.check()                        # {path: [Finding, ...]} for every file
    findings = project.check(["a.c"], interprocedural=False)   # boxes only into the same file (typing)
    project.function_at("a.c", 12)                    # name of the function spanning 0-based line 12
    project.counters                                  # functions_extracted, functions_reused,
                                                      # checks_run, checks_reused, checks_bounded,
                                                      # models_built, files_reused,
                                                      # functions_check_reused (monotone)
    project.seconds                                   # per phase: extraction, projection,
                                                      # model checking, refutation (monotone)

How it works: each C function becomes a CFG (``extractors.cfg``), pruned by known flag values
(``extractors.prune``); for every access path ``v`` a function does something to, the function is
projected onto ``v`` (``extractors.projection``) as component ``f@v``.  Its nodes carry the canonical
propositions of ``v`` only:

    alloc    v receives fresh memory (malloc & co, [extract] allocators, inferred project allocators)
    open     v receives a handle (fopen, open, socket, [extract] resources)
    free     v is freed;  close: v's handle is released;  lock / unlock: v (a lock object) changes
    use      v is dereferenced (*v, v->f, v[i], or passed to a function that dereferences it)
    read     v's value is read;  write: v is assigned (not counting NULL/constant initialisers)
    def      v gets a new value in any way (assignment, &v, allocation)
    decl     v is declared without an initialiser
    escape   v is returned, stored elsewhere, assigned to another variable or passed to unknown code
    isnull / notnull   the branch just taken established v == NULL / v != NULL (also fd < 0)
    discard  (value "$ret") the result of a [extract] must_check function is ignored
    null     v is set to NULL;  ret: v is returned or stored through an out-parameter (*out = v)
    exit     (every component's exit) the function returns to its caller
    end      (root component only) the checked function has returned

A call that passes ``v`` (or a prefix of the path) to project function ``g`` as parameter ``i`` is a
box into ``g@i`` (``g@i->buf`` for field paths): the same component for every caller, so knowledge
about it is reused.  Each enabled rule (``extractors.rules``, ``rules.toml``) is an existential CTL
formula checked with ``checker.check(..., strategy="kb", kb=project.kb, witness=True)`` (``"lazy"``
without the knowledge base for one-shot runs); its witness
becomes the finding's :class:`WitnessStep` path (kinds: event, branch, call, end).

Reuse: function models are keyed by a hash of the function text, file constants and configuration
(an unchanged function is never re-extracted); a function's findings are kept while it, its position
and every function it can reach are unchanged; check results are keyed by the rule formula and the
deep digest of the checked RSM (content of all components it can reach), and stored in ``cache``
(a ``MutableMapping[str, bytes]``, e.g. disk-backed) or in the project's database.  The knowledge
base ``kb`` keeps what the checker learnt per component across checks.

Findings are deterministic, sorted by location, and carry a ``fingerprint`` made of the rule id,
function, variable and event text (no line numbers), so baselines survive edits.  Comments
``// ctlsp-ignore[rule-id, ...]`` or ``/* ctlsp-ignore */`` on the finding's line or the line
before silence it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from checker.querydb import Cancelled
from extractors.config import PARTIAL_EVERY, Config, ConfigError, config_from_text
from extractors.findings import NOT_CHECKED, Finding, Location, Unmodelled, WitnessStep
from extractors.functions import function_name, top_level_functions
from extractors.parse import parse_c
from extractors.phase_clock import PHASES, phases_between
from extractors.rules import Rule, catalogue

if TYPE_CHECKING:
    from extractors.project import MAX_WEIGHT, FileUpdate, FunctionNode, ModelKey, Piece, Project

__all__ = [
    "Cancelled",
    "NOT_CHECKED",
    "Config",
    "ConfigError",
    "FileUpdate",
    "Finding",
    "FunctionNode",
    "Location",
    "MAX_WEIGHT",
    "ModelKey",
    "Piece",
    "Project",
    "Rule",
    "Unmodelled",
    "WitnessStep",
    "PARTIAL_EVERY",
    "PHASES",
    "catalogue",
    "config_from_text",
    "function_name",
    "parse_c",
    "phases_between",
    "top_level_functions",
]

_ENGINE = frozenset({"MAX_WEIGHT", "FileUpdate", "FunctionNode", "ModelKey", "Piece", "Project"})


def __getattr__(name: str) -> Any:
    """The engine's names, imported on first use: the findings, configuration and rules above are
    all a process needs that only shows results (the language server's own process, which checks
    in a process of its own), and the engine costs that process a third of its start."""
    if name in _ENGINE:
        return getattr(importlib.import_module(".project", __package__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
