/**
 * The witness path of a finding, as returned by the server's `ctlsp.witness` command.
 *
 * Kept free of the `vscode` module so that validation, labelling and navigation can be unit-tested
 * in plain node: the payload crosses a process boundary, so it is checked here rather than trusted.
 */

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface WitnessStep {
  uri: string;
  range: Range;
  message: string;
  function: string;
  stack: string[];
  kind: string;
}

export interface Witness {
  rule: string;
  message: string;
  steps: WitnessStep[];
}

export class WitnessFormatError extends Error {}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asPosition(value: unknown, where: string): Position {
  if (!isRecord(value) || !Number.isInteger(value.line) || !Number.isInteger(value.character)) {
    throw new WitnessFormatError(`${where} is not a {line, character} position`);
  }
  const line = value.line as number;
  const character = value.character as number;
  if (line < 0 || character < 0) {
    throw new WitnessFormatError(`${where} has a negative line or character`);
  }
  return { line, character };
}

function asString(value: unknown, fallback: string): string {
  return typeof value === "string" ? value : fallback;
}

/** Validates an untrusted payload; `null` means "no finding there", a malformed one throws. */
export function parseWitness(payload: unknown): Witness | null {
  if (payload === null || payload === undefined) {
    return null;
  }
  if (!isRecord(payload) || !Array.isArray(payload.steps)) {
    throw new WitnessFormatError("witness payload has no steps array");
  }
  const steps = payload.steps.map((raw, i): WitnessStep => {
    const where = `step ${i + 1}`;
    if (!isRecord(raw) || typeof raw.uri !== "string" || raw.uri === "" || !isRecord(raw.range)) {
      throw new WitnessFormatError(`${where} needs a uri and a range`);
    }
    const start = asPosition(raw.range.start, `${where} range.start`);
    const end = asPosition(raw.range.end, `${where} range.end`);
    const stack = Array.isArray(raw.stack) ? raw.stack.filter((s): s is string => typeof s === "string") : [];
    return {
      uri: raw.uri,
      range: { start, end },
      message: asString(raw.message, ""),
      function: asString(raw.function, ""),
      stack,
      kind: asString(raw.kind, ""),
    };
  });
  return { rule: asString(payload.rule, "ctlsp"), message: asString(payload.message, ""), steps };
}

const CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳";

/** The step number as a circled digit (①..⑳), then "(21)" and up: compact inline after the code. */
export function stepNumber(index: number): string {
  const n = index + 1;
  return n <= CIRCLED.length ? CIRCLED[index] : `(${n})`;
}

/** "① allocated here" — what is drawn after the step's line and listed in the tree view. */
export function stepLabel(step: WitnessStep, index: number): string {
  const text = step.message.trim() || step.kind || "step";
  return `${stepNumber(index)} ${text}`;
}

/** Where the step runs: "in leaf ← helper ← main", innermost first, as the server's hover writes it. */
export function callChain(step: WitnessStep): string {
  const frames = [step.function, ...[...step.stack].reverse()].filter((f) => f !== "");
  return frames.length ? `in ${frames.join(" ← ")}` : "";
}

function fileName(uri: string): string {
  const path = uri.split("?")[0].split("#")[0];
  const last = path.slice(path.lastIndexOf("/") + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** "leak.c:7" (1-based line, as people read it). */
export function stepLocation(step: WitnessStep): string {
  return `${fileName(step.uri)}:${step.range.start.line + 1}`;
}

export interface LineAnnotation {
  uri: string;
  line: number;
  /** The indices of the steps on this line, in path order. */
  steps: number[];
  /** What is drawn after the line: one step's text at most, so that it stays on screen. */
  text: string;
  /** Every step of the line with its text, one per line: the hover of the drawn text. */
  hover: string;
}

/**
 * One annotation per (file, line): a loop or a call and its return can put several steps on one
 * line, and separate after-texts on one line would overlap. Their texts joined ran off-screen and
 * hid the deciding step (issue #15), so the line shows the numbers of its steps and the text of the
 * last, the one the path goes on from ("①②③ ④ 'p' freed here"); the hover lists them all.
 */
export function lineAnnotations(witness: Witness): LineAnnotation[] {
  const byKey = new Map<string, LineAnnotation>();
  witness.steps.forEach((step, index) => {
    const key = `${step.uri}\u0000${step.range.start.line}`;
    const label = stepLabel(step, index);
    const found = byKey.get(key);
    if (found) {
      found.steps.push(index);
      found.text = `${found.steps.slice(0, -1).map(stepNumber).join("")} ${label}`;
      found.hover = `${found.hover}\n${label}`;
    } else {
      byKey.set(key, { uri: step.uri, line: step.range.start.line, steps: [index], text: label, hover: label });
    }
  });
  return [...byKey.values()];
}

/** The current step of a shown witness; moving stops at the ends rather than wrapping (like F8 does not). */
export class WitnessCursor {
  private current = -1;

  constructor(readonly witness: Witness) {}

  get index(): number {
    return this.current;
  }

  get step(): WitnessStep | undefined {
    return this.current >= 0 ? this.witness.steps[this.current] : undefined;
  }

  next(): WitnessStep | undefined {
    if (this.current + 1 < this.witness.steps.length) {
      this.current += 1;
    }
    return this.step;
  }

  previous(): WitnessStep | undefined {
    if (this.current > 0) {
      this.current -= 1;
    } else if (this.current < 0 && this.witness.steps.length > 0) {
      this.current = 0;
    }
    return this.step;
  }

  goTo(index: number): WitnessStep | undefined {
    if (index >= 0 && index < this.witness.steps.length) {
      this.current = index;
    }
    return this.step;
  }

  /** "step 2/5 · leak.c:7 · in f ← main: allocated here" for the status line while navigating. */
  describe(): string {
    const step = this.step;
    if (!step) {
      return "";
    }
    const chain = callChain(step);
    const where = [stepLocation(step), chain].filter((s) => s !== "").join(" · ");
    return `step ${this.current + 1}/${this.witness.steps.length} · ${where}: ${step.message}`;
  }
}
