/**
 * Reads the interpreter the user selected in the Python extension (ms-python.python), if installed.
 * Its API has changed over the years, so both the `environments` API and the older
 * `settings.getExecutionDetails` are tried; any failure just means "not available".
 */

import * as vscode from "vscode";

interface PythonApi {
  environments?: {
    getActiveEnvironmentPath?(resource?: vscode.Uri): { path: string } | undefined;
  };
  settings?: {
    getExecutionDetails?(resource?: vscode.Uri): { execCommand: string[] | undefined };
  };
}

export async function pythonExtensionCommand(
  resource: vscode.Uri | undefined,
  log: (line: string) => void,
): Promise<string[] | undefined> {
  const extension = vscode.extensions.getExtension<PythonApi>("ms-python.python");
  if (!extension) {
    return undefined;
  }
  try {
    const api = extension.isActive ? extension.exports : await extension.activate();
    const active = api?.environments?.getActiveEnvironmentPath?.(resource);
    if (active?.path) {
      return [active.path];
    }
    const exec = api?.settings?.getExecutionDetails?.(resource)?.execCommand;
    return exec && exec.length > 0 ? exec : undefined;
  } catch (e) {
    log(`ctlsp: could not ask the Python extension for its interpreter: ${String(e)}`);
    return undefined;
  }
}
