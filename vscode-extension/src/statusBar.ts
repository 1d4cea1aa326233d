/** The status bar item: server state, check progress, and finding counts across the workspace. */

import * as vscode from "vscode";
import { Counts, ProgressState, ServerState, statusView } from "./model/status";

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("ctlsp.status", vscode.StatusBarAlignment.Left, 10);
  private state: ServerState = "starting";
  private progress: ProgressState | undefined;
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

  setProgress(progress: ProgressState | undefined): void {
    this.progress = progress;
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
