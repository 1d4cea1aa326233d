/**
 * The status bar text: progress while the server checks, finding counts when it is idle. Pure so the
 * wording and the count/plural logic are tested without a window.
 */

export interface ProgressState {
  title: string;
  message?: string;
  percentage?: number;
}

export interface Counts {
  errors: number;
  warnings: number;
  infos: number;
}

export type ServerState = "starting" | "running" | "stopped" | "failed";

export interface StatusView {
  text: string;
  tooltip: string;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export function statusView(state: ServerState, progress: ProgressState | undefined, counts: Counts): StatusView {
  if (state === "starting") {
    return { text: "$(sync~spin) ctlsp", tooltip: "ctlsp: starting the server" };
  }
  if (state === "failed" || state === "stopped") {
    return {
      text: "$(error) ctlsp",
      tooltip: `ctlsp: server ${state === "failed" ? "failed to start" : "stopped"}; click to see its log`,
    };
  }
  if (progress) {
    const detail = [progress.message, progress.percentage !== undefined ? `${Math.round(progress.percentage)}%` : undefined]
      .filter((s) => s !== undefined && s !== "")
      .join(" ");
    return {
      text: `$(sync~spin) ctlsp${detail ? `: ${detail}` : ""}`,
      tooltip: `${progress.title}${detail ? ` (${detail})` : ""}`,
    };
  }
  const total = counts.errors + counts.warnings + counts.infos;
  const parts = [plural(counts.errors, "error"), plural(counts.warnings, "warning")];
  if (counts.infos > 0) {
    parts.push(plural(counts.infos, "info"));
  }
  return {
    text: `${total === 0 ? "$(check)" : "$(bug)"} ctlsp: ${total}`,
    tooltip: `ctlsp findings: ${parts.join(", ")}; click to see the server log`,
  };
}
