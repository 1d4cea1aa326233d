/**
 * Which Python runs the server, decided in a fixed order so that users can predict it:
 * the `ctlsp.interpreter` setting, then the Python extension's selected interpreter, then the
 * platform's Python on PATH (`python3`; `python` on Windows, where the python.org and Store
 * installers put no `python3`). Pure: the caller gathers the inputs (settings, extension API,
 * environment, platform).
 */

export type InterpreterSource = "setting" | "python-extension" | "path";

export interface Interpreter {
  command: string;
  /** Arguments that must precede ours (e.g. `conda run -n env python` style exec commands). */
  prefixArgs: string[];
  source: InterpreterSource;
}

export interface InterpreterInputs {
  setting: string | undefined;
  /** The Python extension's exec command for the workspace, if it is installed and has one. */
  pythonExtension: string[] | undefined;
  workspaceFolder: string | undefined;
  homeDir: string;
  env: Record<string, string | undefined>;
  /** `process.platform`; absent means a POSIX system. */
  platform?: string;
}

/** Expands `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and a leading `~`, as VS Code settings users expect. */
export function expandVariables(value: string, inputs: Pick<InterpreterInputs, "workspaceFolder" | "homeDir" | "env" | "platform">): string {
  let out = value.replace(/\$\{(workspaceFolder|userHome|env:([A-Za-z_][A-Za-z0-9_]*))\}/g, (match, name: string, envName?: string) => {
    if (name === "workspaceFolder") {
      return inputs.workspaceFolder ?? match;
    }
    if (name === "userHome") {
      return inputs.homeDir;
    }
    return envName !== undefined ? (inputs.env[envName] ?? "") : match;
  });
  if (out === "~" || out.startsWith("~/") || (inputs.platform === "win32" && out.startsWith("~\\"))) {
    out = inputs.homeDir + out.slice(1);
  }
  return out;
}

export function resolveInterpreter(inputs: InterpreterInputs): Interpreter {
  const setting = inputs.setting?.trim();
  if (setting) {
    return { command: expandVariables(setting, inputs), prefixArgs: [], source: "setting" };
  }
  const exec = (inputs.pythonExtension ?? []).filter((part) => part.trim() !== "");
  if (exec.length > 0) {
    return { command: exec[0], prefixArgs: exec.slice(1), source: "python-extension" };
  }
  return { command: pathPython(inputs.platform), prefixArgs: [], source: "path" };
}

/** The Python a plain install puts on PATH: `python3` on POSIX systems, `python` on Windows. */
export function pathPython(platform: string | undefined): string {
  return platform === "win32" ? "python" : "python3";
}

/**
 * Where the server's code comes from: the copy the extension carries (`bundled/`, see
 * scripts/bundle-server.sh), which needs nothing installed, or the interpreter's own environment
 * (`ctlsp.importStrategy: fromEnvironment`, for a development checkout).
 */
export type ServerSource = { kind: "bundled"; launcher: string } | { kind: "environment" };

export const FROM_ENVIRONMENT: ServerSource = { kind: "environment" };

/**
 * The full argv for the stdio server. Neither form can import the user's files: the bundled
 * launcher runs in isolated mode (`-I`: no current folder, user site or PYTHON* variables on
 * sys.path) and puts the bundled libraries first; from the environment, `-P` keeps the current
 * folder (the workspace, which may hold its own `server.py`) off sys.path.
 */
export function serverArgs(interpreter: Interpreter, extra: readonly string[] = [], source: ServerSource = FROM_ENVIRONMENT): string[] {
  const start = source.kind === "bundled" ? ["-I", source.launcher] : ["-P", "-m", "ctlsp"];
  return [...interpreter.prefixArgs, ...start, "serve", ...extra];
}

export function describeInterpreter(interpreter: Interpreter): string {
  const from = {
    setting: "from the ctlsp.interpreter setting",
    "python-extension": "selected in the Python extension",
    path: "found on PATH",
  }[interpreter.source];
  return `${[interpreter.command, ...interpreter.prefixArgs].join(" ")} (${from})`;
}

/** The scope `ctlsp.interpreter` is declared with in package.json (a unit test keeps them equal). */
export const INTERPRETER_SCOPE = "machine-overridable";

/**
 * The command that opens the Settings editor on `key` where the user can set it. A machine-scoped
 * setting (`machine`, `machine-overridable`) of a remote window (code-server, SSH, containers:
 * `remoteName` is set) can only be set in the remote machine's settings; the User tab hides it, so
 * `workbench.action.openSettings` showed an empty page there (issue #15). Local windows keep the
 * machine's settings in the User tab.
 */
export function openSettingCommand(key: string, scope: string, remoteName: string | undefined): { command: string; args: unknown[] } {
  const machine = scope === "machine" || scope === "machine-overridable";
  if (machine && remoteName) {
    return { command: "workbench.action.openRemoteSettings", args: [{ query: key }] };
  }
  return { command: "workbench.action.openSettings", args: [key] };
}
