import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  callChain,
  lineAnnotations,
  parseWitness,
  stepLabel,
  stepLocation,
  stepNumber,
  Witness,
  WitnessCursor,
  WitnessFormatError,
} from "../../src/model/witness";

function step(line: number, message: string, extra: Partial<{ uri: string; function: string; stack: string[] }> = {}) {
  return {
    uri: extra.uri ?? "file:///w/leak.c",
    range: { start: { line, character: 2 }, end: { line, character: 9 } },
    message,
    function: extra.function ?? "main",
    stack: extra.stack ?? [],
    kind: "step",
  };
}

const payload = {
  rule: "memory-leak",
  message: "memory allocated here is never freed",
  fingerprint: "abc",
  steps: [step(3, "allocated here"), step(5, "enters helper", { uri: "file:///w/util%20s.c", function: "helper", stack: ["main"] }), step(5, "returns"), step(9, "leaked at exit")],
};

describe("parseWitness", () => {
  it("accepts the server payload and keeps step order", () => {
    const w = parseWitness(payload);
    assert.ok(w);
    assert.equal(w.rule, "memory-leak");
    assert.deepEqual(
      w.steps.map((s) => s.message),
      ["allocated here", "enters helper", "returns", "leaked at exit"],
    );
    assert.deepEqual(w.steps[1].stack, ["main"]);
  });

  it("returns null when the server found nothing at the position", () => {
    assert.equal(parseWitness(null), null);
    assert.equal(parseWitness(undefined), null);
  });

  it("rejects payloads without usable steps with a message naming the step", () => {
    assert.throws(() => parseWitness({ rule: "x" }), WitnessFormatError);
    assert.throws(() => parseWitness("nonsense"), WitnessFormatError);
    const bad = { steps: [step(1, "ok"), { uri: "file:///a.c", range: { start: { line: -1, character: 0 }, end: { line: 0, character: 0 } } }] };
    assert.throws(() => parseWitness(bad), /step 2 range.start/);
    assert.throws(() => parseWitness({ steps: [{ range: step(1, "x").range }] }), /step 1 needs a uri/);
  });

  it("tolerates missing optional fields", () => {
    const w = parseWitness({ steps: [{ uri: "file:///a.c", range: step(0, "").range }] });
    assert.ok(w);
    assert.equal(w.rule, "ctlsp");
    assert.deepEqual(w.steps[0].stack, []);
    assert.equal(stepLabel(w.steps[0], 0), "① step");
  });
});

describe("labels", () => {
  it("numbers steps with circled digits, then parenthesised numbers", () => {
    assert.equal(stepNumber(0), "①");
    assert.equal(stepNumber(9), "⑩");
    assert.equal(stepNumber(19), "⑳");
    assert.equal(stepNumber(20), "(21)");
  });

  it("labels, locates and places each step in its call chain", () => {
    const w = parseWitness(payload) as Witness;
    assert.equal(stepLabel(w.steps[0], 0), "① allocated here");
    assert.equal(stepLocation(w.steps[1]), "util s.c:6");
    assert.equal(callChain(w.steps[1]), "in helper ← main");
    assert.equal(callChain({ ...w.steps[0], function: "" }), "");
  });

  it("joins steps on the same line of the same file into one annotation", () => {
    const w = parseWitness(payload) as Witness;
    const notes = lineAnnotations(w);
    assert.equal(notes.length, 4);
    const sameFile = notes.filter((n) => n.uri === "file:///w/leak.c");
    assert.deepEqual(
      sameFile.map((n) => [n.line, n.steps, n.text]),
      [
        [3, [0], "① allocated here"],
        [5, [2], "③ returns"],
        [9, [3], "④ leaked at exit"],
      ],
    );
    const loop = [step(5, "p is not NULL"), step(5, "freed here"), step(5, "p is not NULL"), step(5, "freed again")];
    const merged = lineAnnotations({ ...w, steps: loop });
    assert.deepEqual(merged.map((n) => [n.steps, n.text]), [[[0, 1, 2, 3], "①②③ ④ freed again"]]);
    assert.equal(merged[0].hover, "① p is not NULL\n② freed here\n③ p is not NULL\n④ freed again");
  });
});

describe("WitnessCursor", () => {
  it("walks forward and back and stops at both ends", () => {
    const cursor = new WitnessCursor(parseWitness(payload) as Witness);
    assert.equal(cursor.step, undefined);
    assert.equal(cursor.next()?.message, "allocated here");
    assert.equal(cursor.previous()?.message, "allocated here");
    cursor.next();
    cursor.next();
    cursor.next();
    assert.equal(cursor.next()?.message, "leaked at exit");
    assert.equal(cursor.index, 3);
    assert.equal(cursor.previous()?.message, "returns");
  });

  it("previous on a fresh cursor starts at the first step; goTo ignores bad indices", () => {
    const cursor = new WitnessCursor(parseWitness(payload) as Witness);
    assert.equal(cursor.previous()?.message, "allocated here");
    assert.equal(cursor.goTo(2)?.message, "returns");
    assert.equal(cursor.goTo(99)?.message, "returns");
    assert.equal(cursor.goTo(-1)?.message, "returns");
  });

  it("describes the current step with position and call chain", () => {
    const cursor = new WitnessCursor(parseWitness(payload) as Witness);
    assert.equal(cursor.describe(), "");
    cursor.goTo(1);
    assert.equal(cursor.describe(), "step 2/4 · util s.c:6 · in helper ← main: enters helper");
  });

  it("handles an empty path", () => {
    const cursor = new WitnessCursor({ rule: "r", message: "m", steps: [] });
    assert.equal(cursor.next(), undefined);
    assert.equal(cursor.previous(), undefined);
  });
});
