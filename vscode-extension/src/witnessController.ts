/**
 * Shows one witness at a time: after-text step labels on every line of the path, a highlight on the
 * current step, a tree view, and next/previous navigation that opens whichever file the step is in.
 * The witness is dropped when one of its files is edited, since its positions would then be stale.
 */

import * as vscode from "vscode";
import { lineAnnotations, stepLabel, Witness, WitnessCursor, WitnessStep } from "./model/witness";
import { WitnessTree } from "./witnessTree";

export class WitnessController implements vscode.Disposable {
  private cursor: WitnessCursor | undefined;
  private readonly stepType = vscode.window.createTextEditorDecorationType({
    after: {
      margin: "0 0 0 2em",
      color: new vscode.ThemeColor("editorCodeLens.foreground"),
      fontStyle: "italic",
    },
    rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
  });
  private readonly rangeType = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor("editor.wordHighlightBackground"),
    borderRadius: "2px",
  });
  private readonly currentType = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor("editor.stackFrameHighlightBackground"),
    isWholeLine: true,
    overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.infoForeground"),
    overviewRulerLane: vscode.OverviewRulerLane.Full,
  });
  private readonly tree = new WitnessTree();
  private readonly view: vscode.TreeView<unknown>;
  private readonly subscriptions: vscode.Disposable[] = [];
  private stepMessage: vscode.Disposable | undefined;

  constructor() {
    this.view = vscode.window.createTreeView("ctlspWitness", { treeDataProvider: this.tree });
    this.subscriptions.push(
      this.view,
      vscode.window.onDidChangeVisibleTextEditors(() => this.render()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0 && this.cursor?.witness.steps.some((s) => s.uri === e.document.uri.toString())) {
          this.clear();
        }
      }),
    );
  }

  get witness(): Witness | undefined {
    return this.cursor?.witness;
  }

  async show(witness: Witness, toUri: (uri: string) => vscode.Uri): Promise<void> {
    this.uriOf = toUri;
    this.cursor = new WitnessCursor(witness);
    this.tree.show(witness);
    this.view.message = `${witness.rule}: ${witness.message}`;
    await vscode.commands.executeCommand("setContext", "ctlsp.witnessActive", true);
    this.render();
    if (!this.view.visible) {
      // Opens the Explorer with the witness view expanded; goTo then gives the focus back to the editor.
      await vscode.commands.executeCommand("ctlspWitness.focus");
    }
    if (witness.steps.length > 0) {
      await this.goTo(0);
    }
  }

  private uriOf: (uri: string) => vscode.Uri = (uri) => vscode.Uri.parse(uri);

  async next(): Promise<void> {
    await this.move(() => this.cursor?.next());
  }

  async previous(): Promise<void> {
    await this.move(() => this.cursor?.previous());
  }

  async goTo(index: number): Promise<void> {
    await this.move(() => this.cursor?.goTo(index));
  }

  private async move(step: () => WitnessStep | undefined): Promise<void> {
    if (!this.cursor) {
      void vscode.window.setStatusBarMessage("ctlsp: no witness shown; run \"ctlsp: Show Witness\" on a finding", 4000);
      return;
    }
    const target = step();
    if (!target) {
      return;
    }
    const range = toRange(target);
    try {
      const document = await vscode.workspace.openTextDocument(this.uriOf(target.uri));
      const editor = await vscode.window.showTextDocument(document, { preserveFocus: false, preview: true });
      editor.selection = new vscode.Selection(range.start, range.start);
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    } catch (e) {
      void vscode.window.showWarningMessage(`ctlsp: cannot open ${target.uri}: ${String(e)}`);
    }
    this.render();
    const item = this.tree.item(this.cursor.index);
    if (item && this.view.visible) {
      await this.view.reveal(item, { select: true, focus: false });
    }
    this.stepMessage?.dispose();
    this.stepMessage = vscode.window.setStatusBarMessage(`ctlsp ${this.cursor.describe()}`, 8000);
  }

  clear(): void {
    this.cursor = undefined;
    this.stepMessage?.dispose();
    this.stepMessage = undefined;
    this.tree.show(undefined);
    this.view.message = "";
    void vscode.commands.executeCommand("setContext", "ctlsp.witnessActive", false);
    this.render();
  }

  private render(): void {
    const witness = this.cursor?.witness;
    const annotations = witness ? lineAnnotations(witness) : [];
    const current = this.cursor?.step;
    for (const editor of vscode.window.visibleTextEditors) {
      const uri = editor.document.uri.toString();
      const lines = annotations.filter((a) => a.uri === uri);
      editor.setDecorations(
        this.stepType,
        lines.map((a) => {
          const end = editor.document.lineAt(Math.min(a.line, editor.document.lineCount - 1)).range.end;
          const hoverMessage = a.steps.length > 1 ? new vscode.MarkdownString().appendText(a.hover) : undefined;
          return { range: new vscode.Range(end, end), renderOptions: { after: { contentText: a.text } }, hoverMessage };
        }),
      );
      editor.setDecorations(
        this.rangeType,
        (witness?.steps ?? [])
          .map((s, i) => ({ s, i }))
          .filter(({ s }) => s.uri === uri)
          .map(({ s, i }) => ({ range: toRange(s), hoverMessage: stepLabel(s, i) })),
      );
      editor.setDecorations(this.currentType, current && current.uri === uri ? [toRange(current)] : []);
    }
  }

  dispose(): void {
    this.subscriptions.forEach((d) => d.dispose());
    this.stepType.dispose();
    this.rangeType.dispose();
    this.currentType.dispose();
    this.tree.dispose();
  }
}

function toRange(step: WitnessStep): vscode.Range {
  const { start, end } = step.range;
  return new vscode.Range(start.line, start.character, end.line, end.character);
}
