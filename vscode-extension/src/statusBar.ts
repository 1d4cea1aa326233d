/** The status bar item: server state, check progress, and finding counts across the workspace. */

import * as vscode from "vscode";
import { Counts, ProgressState, ServerState, statusView } from "./model/status";

const MIN_PROGRESS_MS = 1500;

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("ctlsp.status", vscode.StatusBarAlignment.Left, 10);
  private state: ServerState = "starting";
  private progress: ProgressState | undefined;
  private progressSince = 0;
  private clearTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly listener = vscode.languages.onDidChangeDiagnostics(() => this.render());

  constructor() {
    this.item.name = "ctlsp";
    this.item.command = "ctlsp.showOutput";
    this.render();
    this.item.show();
  }

  setState(state: ServerState): void {
    this.state = state;
    this.render();
  }

  /**
   * Progress stays up for at least {@link MIN_PROGRESS_MS}: a small workspace is checked in a few
   * milliseconds, and a spinner that flashes by unseen tells the user nothing ran.
   */
  setProgress(progress: ProgressState | undefined): void {
    clearTimeout(this.clearTimer);
    if (progress) {
      if (!this.progress) {
        this.progressSince = Date.now();
      }
      this.progress = progress;
      this.render();
      return;
    }
    const left = MIN_PROGRESS_MS - (Date.now() - this.progressSince);
    if (this.progress && left > 0) {
      this.clearTimer = setTimeout(() => this.setProgress(undefined), left);
      return;
    }
    this.progress = undefined;
    this.render();
  }

  private render(): void {
    const view = statusView(this.state, this.progress, countFindings());
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor =
      this.state === "failed" ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
  }

  dispose(): void {
    clearTimeout(this.clearTimer);
    this.listener.dispose();
    this.item.dispose();
  }
}

function countFindings(): Counts {
  const counts: Counts = { errors: 0, warnings: 0, infos: 0 };
  for (const [, diagnostics] of vscode.languages.getDiagnostics()) {
    for (const d of diagnostics) {
      if (d.source !== "ctlsp") {
        continue;
      }
      if (d.severity === vscode.DiagnosticSeverity.Error) {
        counts.errors += 1;
      } else if (d.severity === vscode.DiagnosticSeverity.Warning) {
        counts.warnings += 1;
      } else {
        counts.infos += 1;
      }
    }
  }
  return counts;
}
