/** Runs the interpreter once, briefly, to learn whether it can import the server before we start it. */

import { execFile } from "child_process";
import { Interpreter, ServerSource } from "./model/interpreter";
import { ProbeResult, probeArgs } from "./model/startup";

export function probeInterpreter(
  interpreter: Interpreter,
  source: ServerSource,
  cwd: string | undefined,
  timeoutMs = 30_000,
): Promise<ProbeResult> {
  return new Promise((resolve) => {
    execFile(
      interpreter.command,
      probeArgs(interpreter, source),
      { cwd, timeout: timeoutMs, windowsHide: true },
      (error, stdout, stderr) => {
        const err = error as (NodeJS.ErrnoException & { killed?: boolean; code?: string | number }) | null;
        if (err && typeof err.code === "string") {
          resolve({ spawnError: err.code, exitCode: null, stdout, stderr });
          return;
        }
        resolve({
          exitCode: err ? (typeof err.code === "number" ? err.code : 1) : 0,
          stdout,
          stderr,
          timedOut: err?.killed === true,
        });
      },
    );
  });
}
