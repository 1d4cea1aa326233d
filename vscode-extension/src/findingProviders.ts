/** CodeLens and code action "Show witness" on lines that carry a ctlsp diagnostic. */

import * as vscode from "vscode";

export function ctlspDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === "ctlsp");
}

function ruleOf(diagnostic: vscode.Diagnostic): string {
  const code = diagnostic.code;
  if (typeof code === "object" && code !== null) {
    return String(code.value);
  }
  return code === undefined ? "finding" : String(code);
}

export class WitnessCodeLens implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly listener = vscode.languages.onDidChangeDiagnostics(() => this.changed.fire());

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (!vscode.workspace.getConfiguration("ctlsp", document.uri).get<boolean>("codeLens", true)) {
      return [];
    }
    const seen = new Set<number>();
    const lenses: vscode.CodeLens[] = [];
    for (const d of ctlspDiagnostics(document.uri)) {
      const line = d.range.start.line;
      if (seen.has(line)) {
        continue;
      }
      seen.add(line);
      lenses.push(
        new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
          title: `$(debug-step-into) Show witness (${ruleOf(d)})`,
          tooltip: `Show the path on which ${d.message}`,
          command: "ctlsp.showWitness",
          arguments: [document.uri.toString(), d.range.start.line, d.range.start.character],
        }),
      );
    }
    return lenses;
  }

  dispose(): void {
    this.listener.dispose();
    this.changed.dispose();
  }
}

export class WitnessCodeActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    return context.diagnostics
      .filter((d) => d.source === "ctlsp")
      .map((d) => {
        const action = new vscode.CodeAction(`Show witness path for ${ruleOf(d)}`, vscode.CodeActionKind.QuickFix);
        action.diagnostics = [d];
        action.command = {
          command: "ctlsp.showWitness",
          title: "Show witness",
          arguments: [document.uri.toString(), d.range.start.line, d.range.start.character],
        };
        return action;
      });
  }
}
