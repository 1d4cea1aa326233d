/** The "ctlsp witness" explorer view: the shown witness as a numbered list; clicking a step goes there. */

import * as vscode from "vscode";
import { callChain, stepLabel, stepLocation, Witness } from "./model/witness";

export class StepItem extends vscode.TreeItem {
  constructor(
    readonly index: number,
    witness: Witness,
  ) {
    const step = witness.steps[index];
    super(stepLabel(step, index), vscode.TreeItemCollapsibleState.None);
    this.id = `ctlsp-step-${index}`;
    this.description = [stepLocation(step), callChain(step)].filter((s) => s !== "").join(" · ");
    this.tooltip = `${stepLocation(step)}\n${step.message}${callChain(step) ? `\n${callChain(step)}` : ""}`;
    this.command = { command: "ctlsp.goToStep", title: "Go to step", arguments: [index] };
    this.iconPath = new vscode.ThemeIcon(index === witness.steps.length - 1 ? "debug-breakpoint" : "debug-stackframe-dot");
  }
}

export class WitnessTree implements vscode.TreeDataProvider<StepItem> {
  private witness: Witness | undefined;
  private items: StepItem[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  show(witness: Witness | undefined): void {
    this.witness = witness;
    this.items = witness ? witness.steps.map((_, i) => new StepItem(i, witness)) : [];
    this.changed.fire();
  }

  item(index: number): StepItem | undefined {
    return this.items[index];
  }

  getTreeItem(element: StepItem): vscode.TreeItem {
    return element;
  }

  getChildren(element?: StepItem): StepItem[] {
    return element || !this.witness ? [] : this.items;
  }

  getParent(): undefined {
    return undefined;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
