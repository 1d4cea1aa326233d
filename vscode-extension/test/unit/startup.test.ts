import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Interpreter } from "../../src/model/interpreter";
import { diagnoseProbe, installCommand } from "../../src/model/startup";

const py: Interpreter = { command: "/venv/bin/python", prefixArgs: [], source: "setting" };

describe("diagnoseProbe", () => {
  it("accepts a Python 3.11+ that imports the server", () => {
    assert.equal(diagnoseProbe(py, { exitCode: 0, stdout: "3 11\n", stderr: "" }), undefined);
    assert.equal(diagnoseProbe(py, { exitCode: 0, stdout: "3 13\nusage: ctlsp serve [-h]\n", stderr: "" }), undefined);
  });

  it("explains a missing interpreter and offers to set it", () => {
    const p = diagnoseProbe(py, { spawnError: "ENOENT", exitCode: null, stdout: "", stderr: "" });
    assert.ok(p);
    assert.match(p.message, /\/venv\/bin\/python \(from the ctlsp.interpreter setting\) does not exist/);
    assert.deepEqual(p.fixes, ["setInterpreter", "showLog"]);
  });

  it("says ctlsp is not installed and gives the pip command", () => {
    const stderr = "Traceback (most recent call last):\nModuleNotFoundError: No module named 'server'\n";
    const p = diagnoseProbe(py, { exitCode: 1, stdout: "", stderr });
    assert.ok(p);
    assert.match(p.message, /ctlsp is not installed/);
    assert.match(p.message, /\/venv\/bin\/python -m pip install ctlsp/);
    assert.equal(p.installCommand, installCommand(py));
    assert.ok(p.fixes.includes("copyInstall"));
  });

  it("names a missing dependency separately from a missing ctlsp", () => {
    const p = diagnoseProbe(py, { exitCode: 1, stdout: "", stderr: "ModuleNotFoundError: No module named 'pygls'" });
    assert.match(p?.message ?? "", /a dependency of ctlsp is missing \(pygls\)/);
    const partial = diagnoseProbe(py, { exitCode: 1, stdout: "3 11\n", stderr: "ModuleNotFoundError: No module named 'server.cli_check'" });
    assert.match(partial?.message ?? "", /installation is incomplete \(no module server.cli_check\)/);
    const bare = diagnoseProbe(py, { exitCode: 1, stdout: "3 11\n", stderr: "/venv/bin/python: No module named server" });
    assert.match(bare?.message ?? "", /ctlsp is not installed/);
  });

  it("rejects an old Python", () => {
    const p = diagnoseProbe(py, { exitCode: 0, stdout: "3 9", stderr: "" });
    assert.match(p?.message ?? "", /needs Python 3.11/);
    const failed = diagnoseProbe(py, { exitCode: 1, stdout: "3 8\n", stderr: "SyntaxError: invalid syntax" });
    assert.match(failed?.message ?? "", /is Python 3.8; ctlsp needs Python 3.11/);
  });

  it("reports other failures with the last stderr line, and timeouts", () => {
    const p = diagnoseProbe(py, { exitCode: 1, stdout: "", stderr: "boom\nSyntaxError: bad\n" });
    assert.match(p?.message ?? "", /cannot start .*: SyntaxError: bad\.$/);
    const t = diagnoseProbe(py, { exitCode: null, stdout: "", stderr: "", timedOut: true });
    assert.match(t?.message ?? "", /did not finish/);
  });
});
