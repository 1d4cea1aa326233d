import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  INTERPRETER_SCOPE,
  describeInterpreter,
  expandVariables,
  openSettingCommand,
  resolveInterpreter,
  serverArgs,
} from "../../src/model/interpreter";

const base = { setting: undefined, pythonExtension: undefined, workspaceFolder: "/ws", homeDir: "/home/u", env: { VENV: "/opt/venv" } };

describe("resolveInterpreter", () => {
  it("prefers the ctlsp.interpreter setting, expanding variables", () => {
    const i = resolveInterpreter({ ...base, setting: "${workspaceFolder}/.venv/bin/python", pythonExtension: ["/other/python"] });
    assert.deepEqual(i, { command: "/ws/.venv/bin/python", prefixArgs: [], source: "setting" });
  });

  it("falls back to the Python extension's exec command, keeping its prefix arguments", () => {
    const i = resolveInterpreter({ ...base, setting: "  ", pythonExtension: ["conda", "run", "-n", "x", "python"] });
    assert.equal(i.source, "python-extension");
    assert.equal(i.command, "conda");
    assert.deepEqual(serverArgs(i, ["--log-level", "DEBUG"]), ["run", "-n", "x", "python", "-P", "-m", "ctlsp", "serve", "--log-level", "DEBUG"]);
  });

  it("uses python3 on PATH when nothing else is configured", () => {
    const i = resolveInterpreter({ ...base, pythonExtension: [] });
    assert.deepEqual(i, { command: "python3", prefixArgs: [], source: "path" });
    assert.deepEqual(serverArgs(i), ["-P", "-m", "ctlsp", "serve"]);
    assert.equal(describeInterpreter(i), "python3 (found on PATH)");
  });

  it("uses python on PATH on Windows, where installers put no python3, and expands ~\\", () => {
    const i = resolveInterpreter({ ...base, pythonExtension: [], platform: "win32" });
    assert.deepEqual(i, { command: "python", prefixArgs: [], source: "path" });
    assert.equal(resolveInterpreter({ ...base, pythonExtension: [], platform: "darwin" }).command, "python3");
    const s = resolveInterpreter({ ...base, homeDir: "C:\\Users\\u", setting: "~\\venv\\Scripts\\python.exe", platform: "win32" });
    assert.equal(s.command, "C:\\Users\\u\\venv\\Scripts\\python.exe");
    assert.equal(resolveInterpreter({ ...base, setting: "~\\x" }).command, "~\\x");
  });
});

describe("serverArgs", () => {
  it("runs the bundled launcher isolated, so no file of the workspace or the environment is imported", () => {
    const i = resolveInterpreter({ ...base, pythonExtension: ["conda", "run", "python"] });
    const bundled = { kind: "bundled", launcher: "/ext/bundled/tool/ctlsp_serve.py" } as const;
    assert.deepEqual(serverArgs(i, ["--log-level", "DEBUG"], bundled), [
      "run", "python", "-I", "/ext/bundled/tool/ctlsp_serve.py", "serve", "--log-level", "DEBUG",
    ]);
  });
});

describe("expandVariables", () => {
  it("expands home, env and workspace variables", () => {
    assert.equal(expandVariables("~/py/bin/python", base), "/home/u/py/bin/python");
    assert.equal(expandVariables("${userHome}/x", base), "/home/u/x");
    assert.equal(expandVariables("${env:VENV}/bin/python", base), "/opt/venv/bin/python");
    assert.equal(expandVariables("${env:MISSING}python", base), "python");
  });

  it("leaves ${workspaceFolder} alone without a workspace, and does not touch ~ inside a path", () => {
    assert.equal(expandVariables("${workspaceFolder}/p", { ...base, workspaceFolder: undefined }), "${workspaceFolder}/p");
    assert.equal(expandVariables("/a/~/b", base), "/a/~/b");
  });
});

describe("openSettingCommand", () => {
  it("opens a machine-scoped setting in the remote machine's settings of a remote window", () => {
    assert.deepEqual(openSettingCommand("ctlsp.interpreter", "machine-overridable", "localhost:8080"), {
      command: "workbench.action.openRemoteSettings",
      args: [{ query: "ctlsp.interpreter" }],
    });
    assert.equal(openSettingCommand("x", "machine", "ssh-remote").command, "workbench.action.openRemoteSettings");
  });

  it("opens the User settings in a local window, and for settings of other scopes", () => {
    const user = { command: "workbench.action.openSettings", args: ["ctlsp.interpreter"] };
    assert.deepEqual(openSettingCommand("ctlsp.interpreter", "machine-overridable", undefined), user);
    assert.deepEqual(openSettingCommand("ctlsp.interpreter", "window", "ssh-remote"), user);
  });

  it("knows the scope package.json declares for ctlsp.interpreter", () => {
    const manifest = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "..", "package.json"), "utf8"));
    assert.equal(manifest.contributes.configuration.properties["ctlsp.interpreter"].scope, INTERPRETER_SCOPE);
  });
});
