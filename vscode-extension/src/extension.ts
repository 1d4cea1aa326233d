/** Entry point: wires the server client, status bar, witness view and commands together. */

import * as vscode from "vscode";
import { ExecuteCommandRequest } from "vscode-languageclient/node";
import { ctlspDiagnostics, WitnessCodeActions, WitnessCodeLens } from "./findingProviders";
import { parseWitness, WitnessFormatError } from "./model/witness";
import { ServerClient } from "./serverClient";
import { StatusBar } from "./statusBar";
import { WitnessController } from "./witnessController";

let server: ServerClient | undefined;
const FINDING_LANGUAGES: vscode.DocumentSelector = [{ language: "c" }, { language: "cpp" }];
const RESTART_SETTINGS = ["ctlsp.interpreter", "ctlsp.importStrategy", "ctlsp.serverArgs", "ctlsp.cExtensions"];

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel("ctlsp", { log: true });
  const trace = vscode.window.createOutputChannel("ctlsp trace");
  const status = new StatusBar();
  const witnesses = new WitnessController();
  const lens = new WitnessCodeLens();
  server = new ServerClient(output, trace, context.extensionPath);
  const client = server;
  context.subscriptions.push(
    output,
    trace,
    status,
    witnesses,
    lens,
    client,
    client.onState((s) => status.setState(s)),
    client.onProgress((p) => status.setProgress(p)),
    // C and C++ documents: the providers act on ctlsp's diagnostics only, which only the documents
    // the server is handed (C, and C++ headers by ctlsp.cExtensions) have.
    vscode.languages.registerCodeLensProvider(FINDING_LANGUAGES, lens),
    vscode.languages.registerCodeActionsProvider(FINDING_LANGUAGES, new WitnessCodeActions(), {
      providedCodeActionKinds: WitnessCodeActions.kinds,
    }),
    vscode.commands.registerCommand("ctlsp.restartServer", async () => {
      witnesses.clear();
      await client.restart();
    }),
    vscode.commands.registerCommand("ctlsp.showOutput", () => output.show()),
    vscode.commands.registerCommand("ctlsp.showWitness", (uri?: string, line?: number, character?: number) =>
      showWitness(client, witnesses, output, uri, line, character),
    ),
    vscode.commands.registerCommand("ctlsp.nextStep", () => witnesses.next()),
    vscode.commands.registerCommand("ctlsp.previousStep", () => witnesses.previous()),
    vscode.commands.registerCommand("ctlsp.goToStep", (index: number) => witnesses.goTo(index)),
    vscode.commands.registerCommand("ctlsp.clearWitness", () => witnesses.clear()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // cExtensions shapes the language client's document selector, which is fixed when it starts.
      if (RESTART_SETTINGS.some((key) => e.affectsConfiguration(key))) {
        void client.restart();
      }
    }),
  );
  await client.start();
}

export async function deactivate(): Promise<void> {
  await server?.stop();
}

/** Where to look for a finding: the given position (CodeLens, code action) or the cursor's line. */
function target(uri?: string, line?: number, character?: number): { uri: vscode.Uri; position: vscode.Position } | undefined {
  if (typeof uri === "string" && Number.isInteger(line) && Number.isInteger(character)) {
    return { uri: vscode.Uri.parse(uri), position: new vscode.Position(line as number, character as number) };
  }
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    return undefined;
  }
  const cursor = editor.selection.active;
  const onLine = ctlspDiagnostics(editor.document.uri).filter((d) => d.range.start.line <= cursor.line && cursor.line <= d.range.end.line);
  const hit = onLine.find((d) => d.range.contains(cursor)) ?? onLine[0];
  return { uri: editor.document.uri, position: hit ? hit.range.start : cursor };
}

async function showWitness(
  server: ServerClient,
  witnesses: WitnessController,
  output: vscode.LogOutputChannel,
  uri?: string,
  line?: number,
  character?: number,
): Promise<void> {
  const client = server.languageClient;
  if (!client) {
    void vscode.window.showWarningMessage("ctlsp: the server is not running; run \"ctlsp: Restart Server\".");
    return;
  }
  const where = target(uri, line, character);
  if (!where) {
    void vscode.window.showInformationMessage("ctlsp: open a C file and put the cursor on a finding to show its witness.");
    return;
  }
  let payload: unknown;
  try {
    payload = await client.sendRequest(ExecuteCommandRequest.type, {
      command: "ctlsp.witness",
      arguments: [client.code2ProtocolConverter.asUri(where.uri), where.position.line, where.position.character],
    });
  } catch (e) {
    output.error(`ctlsp.witness failed: ${String(e)}`);
    void vscode.window.showErrorMessage(`ctlsp: could not get the witness: ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  try {
    const witness = parseWitness(payload);
    if (!witness) {
      void vscode.window.showInformationMessage("ctlsp: no finding at this position.");
      return;
    }
    await witnesses.show(witness, (u) => client.protocol2CodeConverter.asUri(u));
  } catch (e) {
    if (e instanceof WitnessFormatError) {
      output.error(`ctlsp.witness returned a malformed witness: ${e.message}`);
      void vscode.window.showErrorMessage(`ctlsp: the server sent a malformed witness (${e.message}).`);
      return;
    }
    throw e;
  }
}
