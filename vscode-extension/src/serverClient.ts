/**
 * Owns the language client: resolves the interpreter, probes it, starts the server over stdio (the
 * copy bundled with the extension, or `-m ctlsp serve` from the interpreter's environment), and
 * restarts on demand. Start failures become one actionable notification instead of the language
 * client's generic "connection closed".
 */

import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ProgressToken,
  ServerOptions,
  State,
  TransportKind,
  WorkDoneProgress,
  WorkDoneProgressCreateRequest,
  WorkDoneProgressBegin,
  WorkDoneProgressReport,
} from "vscode-languageclient/node";
import { cDocumentSelector, cExtensions } from "./model/documents";
import {
  FROM_ENVIRONMENT,
  INTERPRETER_SCOPE,
  ServerSource,
  describeInterpreter,
  openSettingCommand,
  resolveInterpreter,
  serverArgs,
} from "./model/interpreter";
import { serverSettings } from "./model/settings";
import { diagnoseProbe, StartupProblem } from "./model/startup";
import { ProgressState, ServerState } from "./model/status";
import { probeInterpreter } from "./probe";
import { pythonExtensionCommand } from "./pythonExtension";

export class ServerClient implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private readonly stateEmitter = new vscode.EventEmitter<ServerState>();
  private readonly progressEmitter = new vscode.EventEmitter<ProgressState | undefined>();
  private readonly progress = new Map<ProgressToken, ProgressState>();
  readonly onState = this.stateEmitter.event;
  readonly onProgress = this.progressEmitter.event;
  private starting: Promise<void> | undefined;

  constructor(
    private readonly output: vscode.LogOutputChannel,
    private readonly trace: vscode.OutputChannel,
    private readonly extensionPath: string,
  ) {}

  /**
   * The bundled server unless `ctlsp.importStrategy` is `fromEnvironment` (or this build of the
   * extension carries none); with the wheel the extension carries, for the install command.
   */
  private serverSource(strategy: string | undefined): { source: ServerSource; wheel?: string; cwd?: string } {
    const bundled = path.join(this.extensionPath, "bundled");
    let wheel: string | undefined;
    try {
      const name = fs.readdirSync(bundled).find((n) => /^ctlsp-.*\.whl$/.test(n));
      wheel = name ? path.join(bundled, name) : undefined;
    } catch {
      wheel = undefined;
    }
    if (strategy === "fromEnvironment") {
      return { source: FROM_ENVIRONMENT, wheel };
    }
    if (!fs.existsSync(path.join(bundled, "libs"))) {
      this.output.warn("ctlsp: this build of the extension carries no server; using the interpreter's environment");
      return { source: FROM_ENVIRONMENT, wheel };
    }
    return { source: { kind: "bundled", launcher: path.join(bundled, "tool", "ctlsp_serve.py") }, wheel, cwd: bundled };
  }

  get languageClient(): LanguageClient | undefined {
    return this.client?.state === State.Running ? this.client : undefined;
  }

  start(): Promise<void> {
    this.starting ??= this.doStart().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.clearProgress();
    if (client && client.state !== State.Stopped) {
      try {
        await client.stop(5_000);
      } catch (e) {
        this.output.warn(`ctlsp: stopping the server: ${String(e)}`);
      }
    }
    this.stateEmitter.fire("stopped");
  }

  private async doStart(): Promise<void> {
    this.stateEmitter.fire("starting");
    const folder = vscode.workspace.workspaceFolders?.[0];
    const config = vscode.workspace.getConfiguration("ctlsp", folder);
    const interpreter = resolveInterpreter({
      setting: config.get<string>("interpreter"),
      pythonExtension: config.get<string>("interpreter")
        ? undefined
        : await pythonExtensionCommand(folder?.uri, (line) => this.output.warn(line)),
      workspaceFolder: folder?.uri.fsPath,
      homeDir: os.homedir(),
      env: process.env,
      platform: process.platform,
    });
    const { source, wheel, cwd: ownCwd } = this.serverSource(config.get<string>("importStrategy"));
    const cwd = ownCwd ?? (folder?.uri.scheme === "file" ? folder.uri.fsPath : undefined);
    const from = source.kind === "bundled" ? "the server bundled with the extension" : "ctlsp installed in it";
    this.output.info(`ctlsp: using ${describeInterpreter(interpreter)} with ${from}`);
    const problem = diagnoseProbe(interpreter, await probeInterpreter(interpreter, source, cwd), source, wheel, process.platform);
    if (problem) {
      this.fail(problem);
      return;
    }
    const args = serverArgs(interpreter, config.get<string[]>("serverArgs") ?? [], source);
    const serverOptions: ServerOptions = {
      command: interpreter.command,
      args,
      transport: TransportKind.stdio,
      options: { cwd },
    };
    const clientOptions: LanguageClientOptions = {
      // C documents, with the headers VS Code opens as C++ (`ctlsp.cExtensions`), and ctlsp.toml
      documentSelector: [
        ...cDocumentSelector(cExtensions(config.get<unknown>("cExtensions"))),
        { scheme: "file", pattern: "**/ctlsp.toml" },
      ],
      synchronize: { configurationSection: "ctlsp" },
      outputChannel: this.output,
      traceOutputChannel: this.trace,
      diagnosticCollectionName: "ctlsp",
      middleware: {
        workspace: {
          configuration: async (params, token, next) => {
            const values = await next(params, token);
            return Array.isArray(values) ? serverSettings(params.items, values) : values;
          },
        },
      },
    };
    const client = new LanguageClient("ctlsp", "ctlsp", serverOptions, clientOptions);
    this.client = client;
    client.onDidChangeState((event) => {
      if (event.newState === State.Stopped && this.client === client) {
        this.clearProgress();
        this.stateEmitter.fire("stopped");
      }
    });
    this.output.info(`ctlsp: starting ${interpreter.command} ${args.join(" ")}`);
    try {
      await client.start();
    } catch (e) {
      this.client = undefined;
      this.fail({
        message: `ctlsp: the server did not start (${e instanceof Error ? e.message : String(e)}). See the ctlsp log.`,
        fixes: ["showLog", "setInterpreter"],
        installCommand: "",
      });
      return;
    }
    this.hookProgress(client);
    this.stateEmitter.fire("running");
  }

  /**
   * Takes over `window/workDoneProgress/create` so that check progress goes to our status bar item
   * (a notification per keystroke-triggered check would be noise).
   */
  private hookProgress(client: LanguageClient): void {
    client.onRequest(WorkDoneProgressCreateRequest.type, ({ token }) => {
      const sub = client.onProgress(WorkDoneProgress.type, token, (value) => {
        if (value.kind === "begin") {
          const begin = value as WorkDoneProgressBegin;
          this.progress.set(token, { title: begin.title, message: begin.message, percentage: begin.percentage });
        } else if (value.kind === "report") {
          const report = value as WorkDoneProgressReport;
          const old = this.progress.get(token) ?? { title: "ctlsp" };
          this.progress.set(token, {
            title: old.title,
            message: report.message ?? old.message,
            percentage: report.percentage ?? old.percentage,
          });
        } else {
          this.progress.delete(token);
          sub.dispose();
        }
        this.fireProgress();
      });
      return null;
    });
  }

  private fireProgress(): void {
    const latest = [...this.progress.values()].pop();
    this.progressEmitter.fire(latest);
  }

  private clearProgress(): void {
    this.progress.clear();
    this.progressEmitter.fire(undefined);
  }

  private fail(problem: StartupProblem): void {
    this.output.error(problem.message);
    this.stateEmitter.fire("failed");
    const labels = {
      setInterpreter: "Set ctlsp.interpreter",
      showLog: "Show Log",
      copyInstall: "Copy Install Command",
    } as const;
    void vscode.window.showErrorMessage(problem.message, ...problem.fixes.map((f) => labels[f])).then(async (choice) => {
      if (choice === labels.setInterpreter) {
        const open = openSettingCommand("ctlsp.interpreter", INTERPRETER_SCOPE, vscode.env.remoteName);
        await vscode.commands.executeCommand(open.command, ...open.args);
      } else if (choice === labels.showLog) {
        this.output.show();
      } else if (choice === labels.copyInstall) {
        await vscode.env.clipboard.writeText(problem.installCommand);
      }
    });
  }

  dispose(): void {
    void this.stop();
    this.stateEmitter.dispose();
    this.progressEmitter.dispose();
  }
}
