"""SARIF 2.1.0 output built from the ``sarif-om`` object model.

SARIF is what GitHub code scanning and most IDE viewers import.  Each finding becomes a result whose
``codeFlows`` replay the witness path (one ``threadFlowLocation`` per step, ``nestingLevel`` = call
depth), so viewers can step through how the bug happens.  ``sarif-om`` gives typed classes but no
serialiser, so :func:`to_json_value` turns them into JSON using each field's schema property name
and leaves out fields still at their schema default (except ``level``).
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import quote

import attr
import sarif_om as om

from extractors.findings import NOT_CHECKED, Finding, Location
from extractors.rules import Rule
from server.baseline import fingerprint_of
from server.reporting.summary import Summary

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SARIF_VERSION = "2.1.0"
SRCROOT = "%SRCROOT%"
# Defaults that viewers should not have to know: a level is always written out.
_ALWAYS = frozenset({"level"})
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def tool_version() -> str:
    try:
        return metadata.version("ctlsp")
    except metadata.PackageNotFoundError:  # running from a source tree that is not installed
        pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
        try:
            return str(tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"])
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "0.0.0"


def _default_of(a: Any) -> Any:
    d = a.default
    factory = getattr(d, "factory", None)
    if isinstance(d, attr.Factory) and callable(factory):  # type: ignore[arg-type]
        return factory()
    return d


def to_json_value(obj: Any) -> Any:
    """JSON-ready value of a ``sarif-om`` object tree (dicts and lists pass through)."""
    if attr.has(type(obj)):
        out: dict[str, Any] = {}
        for a in attr.fields(type(obj)):
            value = getattr(obj, a.name)
            name = a.metadata.get("schema_property_name", a.name)
            if value is None:
                continue
            if name not in _ALWAYS and a.default is not attr.NOTHING and value == _default_of(a):
                continue
            out[name] = to_json_value(value)
        return out
    if isinstance(obj, dict):
        return {k: to_json_value(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [to_json_value(v) for v in obj]
    return obj


def _uri(path: str, root: Path) -> tuple[str, str | None]:
    """A URI relative to ``%SRCROOT%`` (the working directory) when possible, else absolute."""
    absolute = Path(os.path.abspath(path))
    try:
        rel = absolute.relative_to(root)
    except ValueError:
        return absolute.as_uri(), None
    return quote(rel.as_posix()), SRCROOT


def _location(loc: Location, root: Path, message: str | None = None) -> om.Location:
    uri, base = _uri(loc.path, root)
    end_line = max(loc.end_line, loc.start_line)
    end_col = loc.end_col if loc.end_line > loc.start_line else max(loc.end_col, loc.start_col + 1)
    region = om.Region(
        start_line=loc.start_line + 1,
        start_column=loc.start_col + 1,
        end_line=end_line + 1,
        end_column=end_col + 1,
    )
    return om.Location(
        physical_location=om.PhysicalLocation(
            artifact_location=om.ArtifactLocation(uri=uri, uri_base_id=base), region=region
        ),
        message=om.Message(text=message) if message else None,
    )


def _rule(rule: Rule) -> om.ReportingDescriptor:
    props: dict[str, Any] = {"tags": ["correctness"], "formula": rule.formula}
    if rule.cwe:
        props["cwe"] = f"CWE-{rule.cwe}"
        props["tags"].append(f"external/cwe/cwe-{rule.cwe}")
    help_text = rule.doc
    if rule.bad_example:
        help_text += f"\n\nExample of the bug:\n{rule.bad_example}"
    if rule.good_example:
        help_text += f"\n\nCorrect:\n{rule.good_example}"
    return om.ReportingDescriptor(
        id=rule.id,
        name=rule.id,
        short_description=om.MultiformatMessageString(text=rule.message.replace("{var}", "...")),
        full_description=om.MultiformatMessageString(text=rule.doc or rule.message),
        help=om.MultiformatMessageString(text=help_text or rule.message),
        default_configuration=om.ReportingConfiguration(level=_LEVEL[rule.severity]),
        properties=props,
    )


def _code_flow(f: Finding, root: Path) -> om.CodeFlow:
    locations = [
        om.ThreadFlowLocation(
            location=_location(step.location, root, step.describe()),
            nesting_level=len(step.stack),
            execution_order=i,
            kinds=[step.kind],
        )
        for i, step in enumerate(f.witness, 1)
    ]
    return om.CodeFlow(thread_flows=[om.ThreadFlow(locations=locations)], message=om.Message(text=f.message))


def _result(f: Finding, rule_index: dict[str, int], root: Path) -> om.Result:
    return om.Result(
        message=om.Message(text=f.message),
        rule_id=f.rule_id,
        rule_index=rule_index.get(f.rule_id, -1),
        level=_LEVEL.get(f.severity, "warning"),
        locations=[_location(f.location, root)],
        partial_fingerprints={"ctlspFingerprint/v1": fingerprint_of(f)},
        code_flows=[_code_flow(f, root)] if f.witness else None,
        properties={"function": f.function},
    )


def sarif_log(
    findings: Sequence[Finding], rules: Sequence[Rule], summary: Summary, root: Path | None = None
) -> om.SarifLog:
    """The SARIF log object; every reported rule is listed in ``tool.driver.rules``."""
    root = Path(os.path.abspath(root or os.getcwd()))
    listed = list(rules)
    known = {r.id for r in listed}
    # A finding of a rule missing from the catalogue (e.g. from an old cache) still gets a descriptor.
    for f in findings:
        if f.rule_id not in known:
            known.add(f.rule_id)
            listed.append(Rule(f.rule_id, f.severity, f.message, f.cwe, "", doc=f.message))
    index = {r.id: i for i, r in enumerate(listed)}
    driver = om.ToolComponent(
        name="ctlsp",
        version=tool_version(),
        semantic_version=tool_version(),
        rules=[_rule(r) for r in listed],
        notifications=[
            om.ReportingDescriptor(
                id=NOT_CHECKED,
                short_description=om.MultiformatMessageString(text="A function ctlsp could not model."),
                full_description=om.MultiformatMessageString(
                    text="The function was not checked: ctlsp could not model its code (the message says why)."
                ),
            )
        ],
    )
    run = om.Run(
        tool=om.Tool(driver=driver),
        results=[_result(f, index, root) for f in findings],
        invocations=[
            om.Invocation(
                execution_successful=True,
                properties=summary.to_dict(findings),
                tool_execution_notifications=[
                    om.Notification(
                        message=om.Message(text=u.message),
                        level="note",
                        descriptor=om.ReportingDescriptorReference(id=NOT_CHECKED),
                        locations=[_location(u.location, root)],
                    )
                    for u in summary.not_checked
                ]
                or None,
            )
        ],
        original_uri_base_ids={SRCROOT: om.ArtifactLocation(uri=root.as_uri() + "/")},
        column_kind="unicodeCodePoints",
    )
    return om.SarifLog(runs=[run], version=SARIF_VERSION, schema_uri=SCHEMA_URI)


def render_sarif(findings: Sequence[Finding], rules: Sequence[Rule], summary: Summary) -> str:
    return json.dumps(to_json_value(sarif_log(findings, rules, summary)), indent=2) + "\n"
