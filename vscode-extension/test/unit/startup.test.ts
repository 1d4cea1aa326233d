import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Interpreter } from "../../src/model/interpreter";
import { diagnoseProbe, installCommand, probeArgs } from "../../src/model/startup";

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
    const bundled = { kind: "bundled", launcher: "/ext/bundled/tool/ctlsp_serve.py" } as const;
    const b = diagnoseProbe(py, { spawnError: "ENOENT", exitCode: null, stdout: "", stderr: "" }, bundled);
    assert.match(b?.message ?? "", /Set ctlsp.interpreter to a Python 3.11\+ \(the extension brings the server\)\.$/);
  });

  it("says ctlsp is not installed and gives the pip command", () => {
    const stderr = "Traceback (most recent call last):\nModuleNotFoundError: No module named 'ctlsp'\n";
    const p = diagnoseProbe(py, { exitCode: 1, stdout: "", stderr });
    assert.ok(p);
    assert.match(p.message, /ctlsp is not installed/);
    assert.match(p.message, /\/venv\/bin\/python -m pip install <path to a ctlsp checkout>/);
    assert.equal(p.installCommand, installCommand(py));
    assert.ok(p.fixes.includes("copyInstall"));
  });

  it("names a missing dependency separately from a missing ctlsp", () => {
    const p = diagnoseProbe(py, { exitCode: 1, stdout: "", stderr: "ModuleNotFoundError: No module named 'pygls'" });
    assert.match(p?.message ?? "", /a dependency of ctlsp is missing \(pygls\)/);
    const partial = diagnoseProbe(py, { exitCode: 1, stdout: "3 11\n", stderr: "ModuleNotFoundError: No module named 'ctlsp.server.cli_check'" });
    assert.match(partial?.message ?? "", /installation is incomplete \(no module ctlsp\.server\.cli_check\)/);
    const bare = diagnoseProbe(py, { exitCode: 1, stdout: "3 11\n", stderr: "/venv/bin/python: No module named ctlsp" });
    assert.match(bare?.message ?? "", /ctlsp is not installed/);
  });

  it("offers to install the wheel the extension carries, quoted for the shell", () => {
    const stderr = "ModuleNotFoundError: No module named 'ctlsp'\n";
    const wheel = "/home/u/.vscode/extensions/ctlsp 0.1.0/bundled/ctlsp-0.1.0-py3-none-any.whl";
    const p = diagnoseProbe(py, { exitCode: 1, stdout: "3 12\n", stderr }, { kind: "environment" }, wheel);
    assert.equal(p?.installCommand, `/venv/bin/python -m pip install '${wheel}'`);
  });

  it("quotes the install command for cmd.exe and PowerShell on Windows", () => {
    const stderr = "ModuleNotFoundError: No module named 'ctlsp'\n";
    const win: Interpreter = { command: "C:\\Users\\Ann Lee\\venv\\Scripts\\python.exe", prefixArgs: [], source: "setting" };
    const wheel = "C:\\Users\\Ann Lee\\.vscode\\extensions\\ctlsp.ctlsp-0.1.0-win32-x64\\bundled\\ctlsp-0.1.0-py3-none-any.whl";
    const p = diagnoseProbe(win, { exitCode: 1, stdout: "3 12\n", stderr }, { kind: "environment" }, wheel, "win32");
    assert.equal(p?.installCommand, `"${win.command}" -m pip install "${wheel}"`);
    const plain = diagnoseProbe({ ...win, command: "C:\\py\\python.exe" }, { exitCode: 1, stdout: "3 12\n", stderr }, { kind: "environment" }, "C:\\w.whl", "win32");
    assert.equal(plain?.installCommand, "C:\\py\\python.exe -m pip install C:\\w.whl");
  });

  it("says which Pythons the bundled server carries a parser for", () => {
    const bundled = { kind: "bundled", launcher: "/ext/bundled/tool/ctlsp_serve.py" } as const;
    assert.deepEqual(probeArgs(py, bundled), ["-I", "/ext/bundled/tool/ctlsp_serve.py", "--probe"]);
    const stderr = "ctlsp: this extension carries no tree_sitter for Python 3.15 (No module named 'tree_sitter'); bundled: Python 3.11, Python 3.12\n";
    const p = diagnoseProbe(py, { exitCode: 3, stdout: "3 15\n", stderr }, bundled);
    assert.match(p?.message ?? "", /bundled with the extension cannot run on .*no tree_sitter for it \(it carries Python 3.11, Python 3.12\)/);
    assert.deepEqual(p?.fixes, ["setInterpreter", "copyInstall", "showLog"]);
    assert.equal(diagnoseProbe(py, { exitCode: 0, stdout: "3 12\n", stderr: "" }, bundled), undefined);
  });

  it("rejects an old Python", () => {
    const p = diagnoseProbe(py, { exitCode: 0, stdout: "3 9", stderr: "" });
    assert.match(p?.message ?? "", /needs Python 3.11/);
    const noP = diagnoseProbe(py, { exitCode: 2, stdout: "", stderr: "Unknown option: -P\nusage: python3 [option]" });
    assert.match(noP?.message ?? "", /is older than Python 3.11; ctlsp needs Python 3.11/);
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
