/**
 * Turns a failed server start into a message that says what to do. A bare "connection closed"
 * from the language client leaves users guessing; the usual causes (no such interpreter, ctlsp not
 * installed in it, too old a Python) each have a one-line fix.
 */

import { Interpreter, describeInterpreter } from "./interpreter";

export interface ProbeResult {
  /** Node's spawn error code, e.g. "ENOENT" when the interpreter does not exist. */
  spawnError?: string;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut?: boolean;
}

export type Fix = "setInterpreter" | "showLog" | "copyInstall";

export interface StartupProblem {
  message: string;
  fixes: Fix[];
  installCommand: string;
}

/**
 * The script the probe runs: it prints the Python version, then runs exactly what the client will
 * run (`-m server serve`) with `--help`, so every import the server needs is exercised and exits.
 */
export const PROBE_SCRIPT = [
  "import runpy, sys",
  "print(*sys.version_info[:2], flush=True)",
  "sys.argv = ['ctlsp', 'serve', '--help']",
  "runpy.run_module('server', run_name='__main__', alter_sys=True)",
].join("; ");

export function installCommand(interpreter: Interpreter): string {
  return `${[interpreter.command, ...interpreter.prefixArgs].join(" ")} -m pip install ctlsp`;
}

/** `undefined` when the probe shows a usable server; otherwise what went wrong and the fixes to offer. */
export function diagnoseProbe(interpreter: Interpreter, probe: ProbeResult): StartupProblem | undefined {
  const who = describeInterpreter(interpreter);
  const install = installCommand(interpreter);
  if (probe.spawnError !== undefined) {
    const why = probe.spawnError === "ENOENT" ? "does not exist" : `cannot be started (${probe.spawnError})`;
    return {
      message: `ctlsp: the Python interpreter ${who} ${why}. Set ctlsp.interpreter to a Python 3.11+ that has ctlsp installed.`,
      fixes: ["setInterpreter", "showLog"],
      installCommand: install,
    };
  }
  if (probe.timedOut) {
    return {
      message: `ctlsp: ${who} did not finish importing the server in time; see the log.`,
      fixes: ["showLog", "setInterpreter"],
      installCommand: install,
    };
  }
  const [major, minor] = (probe.stdout.trim().split("\n")[0] ?? "").split(/\s+/).map(Number);
  if (major === 3 && minor < 11) {
    return {
      message: `ctlsp: ${who} is Python ${major}.${minor}; ctlsp needs Python 3.11 or newer. Set ctlsp.interpreter.`,
      fixes: ["setInterpreter"],
      installCommand: install,
    };
  }
  if (probe.exitCode === 0) {
    return undefined;
  }
  const missing = /No module named '?([\w.]+)'?/.exec(probe.stderr);
  if (missing) {
    const module = missing[1];
    const ours = ["server", "checker", "extractors"].some((m) => module.startsWith(`${m}.`));
    const what =
      module === "server"
        ? "ctlsp is not installed"
        : ours
          ? `the ctlsp installation is incomplete (no module ${module})`
          : `a dependency of ctlsp is missing (${module})`;
    return {
      message: `ctlsp: ${what} in ${who}. Install it with \`${install}\`, or set ctlsp.interpreter to a Python that has it.`,
      fixes: ["copyInstall", "setInterpreter", "showLog"],
      installCommand: install,
    };
  }
  const lastLine = probe.stderr.trim().split("\n").pop() ?? "";
  return {
    message: `ctlsp: the server cannot start with ${who}${lastLine ? `: ${lastLine}` : ""}.`,
    fixes: ["showLog", "setInterpreter"],
    installCommand: install,
  };
}
