"""Client settings (workspace/configuration section "ctlsp") merged over the workspace's ctlsp.toml.

The editor settings are the quick knob and ctlsp.toml the shared one, so editor values win but add to
the file's lists rather than replacing them.  Anything unusable is reported as a problem string and
ignored, so a typo in settings.json never leaves the user without diagnostics.

Keys of the "ctlsp" section (camelCase, as in VS Code settings):
``rules`` {rule-id: bool}, ``severities`` {rule-id: "error"|"warning"|"info"}, ``allocators``,
``deallocators``, ``uses``, ``mustCheck``, ``noreturn`` (lists of function names), ``locks`` and
``resources`` (lists of [acquire, release] pairs), ``includePaths`` (extra folders whose C files join
the project), ``debounceMs`` (delay before checking after an edit, default 150), ``partialResultsMs``
(how often a long check shows the findings so far, default 1000).  ``interpreter``,
``importStrategy`` (the bundled server or the interpreter's own), ``trace``, ``serverArgs``,
``codeLens``, ``cExtensions`` (which C++ documents VS Code hands over as C), ``enable`` and ``path``
belong to the client and are ignored here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from extractors.api import PARTIAL_EVERY
from extractors.config import SEVERITIES, Config, ConfigError, RuleSetting
from server.workspace import find_config

_LISTS = {"allocators": "allocators", "deallocators": "deallocators", "uses": "uses",
          "mustCheck": "must_check", "noreturn": "noreturn"}  # fmt: skip
_PAIRS = {"locks": "locks", "resources": "resources"}
# Keys the VS Code client owns; accepted so that they do not trigger "unknown setting" warnings.
_CLIENT_ONLY = {"interpreter", "importStrategy", "trace", "serverArgs", "codeLens", "cExtensions", "enable", "path"}
_SERVER_KEYS = {"rules", "severities", "includePaths", "debounceMs", "partialResultsMs"}
KNOWN_KEYS = frozenset(_LISTS) | frozenset(_PAIRS) | _CLIENT_ONLY | _SERVER_KEYS


@dataclass(frozen=True)
class ServerSettings:
    """What the server itself (not the extractors) reads from the settings."""

    include_paths: tuple[str, ...] = ()
    debounce_ms: int = 150
    partial_results_ms: int = round(PARTIAL_EVERY * 1000)


@dataclass
class Merged:
    config: Config
    settings: ServerSettings
    problems: list[str] = field(default_factory=list)


def load_workspace_config(root: Path | None) -> tuple[Config, list[str]]:
    """The configuration that applies to the workspace folder ``root``: the nearest ctlsp.toml (or
    pyproject [tool.ctlsp]) at or above it, found as ``ctlsp check`` finds it; defaults plus a
    problem if it is broken."""
    if root is None:
        return Config(), []
    try:
        return find_config(root), []
    except ConfigError as e:
        return Config(), [f"ctlsp: ignoring broken configuration ({e}); using defaults"]
    except Exception as e:  # a config reader bug must not take the server down
        return Config(), [f"ctlsp: cannot read configuration in {root}: {e}; using defaults"]


def merge_settings(base: Config, raw: Any, known_rules: Iterable[str] = ()) -> Merged:
    """Overlay the "ctlsp" settings object ``raw`` on ``base``."""
    problems: list[str] = []
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        return Merged(base, ServerSettings(), [f"ctlsp settings must be an object, got {type(raw).__name__}"])
    unknown = sorted(set(raw) - KNOWN_KEYS)
    if unknown:
        problems.append(f"unknown ctlsp setting(s): {', '.join('ctlsp.' + k for k in unknown)}")
    changes: dict[str, Any] = {}
    for key, attr in _LISTS.items():
        value = raw.get(key)
        if value is None:
            continue
        if isinstance(value, list) and all(isinstance(v, str) and v for v in value):
            changes[attr] = _union(getattr(base, attr), value)
        else:
            problems.append(f"ctlsp.{key} must be a list of function names")
    for key, attr in _PAIRS.items():
        value = raw.get(key)
        if value is None:
            continue
        if isinstance(value, list) and all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(s, str) and s for s in p) for p in value
        ):
            changes[attr] = _union(getattr(base, attr), [(p[0], p[1]) for p in value])
        else:
            problems.append(f'ctlsp.{key} must be a list of ["acquire", "release"] pairs')
    rules = dict(base.rules)
    rules_known = set(known_rules) | {r.id for r in base.custom_rules}
    _merge_rules(raw.get("rules"), raw.get("severities"), rules, rules_known, problems)
    changes["rules"] = rules
    include = raw.get("includePaths", [])
    if not (isinstance(include, list) and all(isinstance(p, str) for p in include)):
        problems.append("ctlsp.includePaths must be a list of folders")
        include = []
    debounce = _milliseconds(raw, "debounceMs", ServerSettings.debounce_ms, 10_000, problems)
    partial = _milliseconds(raw, "partialResultsMs", ServerSettings.partial_results_ms, 600_000, problems)
    config = dataclasses.replace(base, **changes)
    return Merged(config, ServerSettings(tuple(include), debounce, partial), problems)


def _milliseconds(raw: dict[str, Any], key: str, default: int, most: int, problems: list[str]) -> int:
    value = raw.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= most:
        problems.append(f"ctlsp.{key} must be an integer number of milliseconds (0..{most})")
        return default
    return value


def _merge_rules(
    enabled: Any, severities: Any, rules: dict[str, RuleSetting], known: set[str], problems: list[str]
) -> None:
    if enabled is not None:
        if not isinstance(enabled, dict):
            problems.append("ctlsp.rules must be an object mapping rule ids to true/false")
        else:
            for rid, on in enabled.items():
                if not isinstance(on, bool):
                    problems.append(f"ctlsp.rules.{rid} must be true or false")
                    continue
                if known and rid not in known:
                    # kept out of the configuration: the catalogue refuses a setting of an unknown rule
                    problems.append(f"ctlsp.rules: unknown rule {rid!r} (ignored)")
                    continue
                old = rules.get(rid, RuleSetting())
                rules[rid] = RuleSetting(on, old.severity)
    if severities is not None:
        if not isinstance(severities, dict):
            problems.append("ctlsp.severities must be an object mapping rule ids to error|warning|info")
            return
        for rid, severity in severities.items():
            if severity not in SEVERITIES:
                problems.append(f"ctlsp.severities.{rid} must be one of {', '.join(SEVERITIES)}")
                continue
            if known and rid not in known:
                problems.append(f"ctlsp.severities: unknown rule {rid!r} (ignored)")
                continue
            old = rules.get(rid, RuleSetting())
            rules[rid] = RuleSetting(old.enabled, severity)


def _union(first: Iterable[Any], second: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(dict.fromkeys([*first, *second]))
