/**
 * Turns a failed server start into a message that says what to do. A bare "connection closed"
 * from the language client leaves users guessing; the usual causes (no such interpreter, ctlsp not
 * installed in it, too old a Python) each have a one-line fix.
 */

import { FROM_ENVIRONMENT, Interpreter, ServerSource, describeInterpreter } from "./interpreter";

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
 * The script the probe runs from the environment: it prints the Python version, then runs exactly
 * what the client will run (`-m ctlsp serve`) with `--help`, so every import the server needs is
 * exercised and exits. The bundled launcher has its own `--probe` that does the same.
 */
export const PROBE_SCRIPT = [
  "import runpy, sys",
  "print(*sys.version_info[:2], flush=True)",
  "sys.argv = ['ctlsp', 'serve', '--help']",
  "runpy.run_module('ctlsp', run_name='__main__', alter_sys=True)",
].join("; ");

/** The probe's argv, with the same isolation as the server's (see `serverArgs`). */
export function probeArgs(interpreter: Interpreter, source: ServerSource = FROM_ENVIRONMENT): string[] {
  const probe = source.kind === "bundled" ? ["-I", source.launcher, "--probe"] : ["-P", "-c", PROBE_SCRIPT];
  return [...interpreter.prefixArgs, ...probe];
}

/**
 * How to install ctlsp into `interpreter`'s environment: the wheel the extension carries when it
 * has one (ctlsp is on no public package index), else a checkout of the ctlsp repository. Quoted
 * for the platform's shell: POSIX single quotes, or on Windows double quotes, which both cmd.exe
 * and PowerShell read, around paths that hold spaces.
 */
export function installCommand(interpreter: Interpreter, wheel?: string, platform?: string): string {
  const q = platform === "win32" ? quoteWindows : quote;
  const what = wheel ? q(wheel) : "<path to a ctlsp checkout>";
  return `${[interpreter.command, ...interpreter.prefixArgs].map(q).join(" ")} -m pip install ${what}`;
}

function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

function quoteWindows(word: string): string {
  return /^[\w@%+=:,./\\-]+$/.test(word) ? word : `"${word.replace(/"/g, '\\"')}"`;
}

/** `undefined` when the probe shows a usable server; otherwise what went wrong and the fixes to offer. */
export function diagnoseProbe(
  interpreter: Interpreter,
  probe: ProbeResult,
  source: ServerSource = FROM_ENVIRONMENT,
  wheel?: string,
  platform?: string,
): StartupProblem | undefined {
  const who = describeInterpreter(interpreter);
  const install = installCommand(interpreter, wheel, platform);
  if (probe.spawnError !== undefined) {
    const why = probe.spawnError === "ENOENT" ? "does not exist" : `cannot be started (${probe.spawnError})`;
    return {
      message: `ctlsp: the Python interpreter ${who} ${why}. Set ctlsp.interpreter to a Python 3.11+${
        source.kind === "bundled" ? " (the extension brings the server)" : " that has ctlsp installed"
      }.`,
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
  if ((major === 3 && minor < 11) || /Unknown option:? -[PI]/.test(probe.stderr)) {
    const version = major === 3 ? `Python ${major}.${minor}` : "older than Python 3.11";
    return {
      message: `ctlsp: ${who} is ${version}; ctlsp needs Python 3.11 or newer. Set ctlsp.interpreter.`,
      fixes: ["setInterpreter"],
      installCommand: install,
    };
  }
  if (probe.exitCode === 0) {
    return undefined;
  }
  const missing = /No module named '?([\w.]+)'?/.exec(probe.stderr);
  if (missing && source.kind === "bundled") {
    // The bundle is complete by construction; what it can lack is the compiled parser for this
    // Python's version (or platform).
    const carried = /bundled: (.*)$/m.exec(probe.stderr)?.[1];
    return {
      message:
        `ctlsp: the server bundled with the extension cannot run on ${who}: no ${missing[1]} for it` +
        `${carried ? ` (it carries ${carried})` : ""}. Set ctlsp.interpreter to one of those, or install ctlsp ` +
        `into this Python (\`${install}\`) and set ctlsp.importStrategy to fromEnvironment.`,
      fixes: ["setInterpreter", "copyInstall", "showLog"],
      installCommand: install,
    };
  }
  if (missing) {
    const module = missing[1];
    const ours = module.startsWith("ctlsp.");
    const what =
      module === "ctlsp"
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
