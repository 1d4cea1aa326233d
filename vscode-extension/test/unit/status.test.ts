import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { statusView } from "../../src/model/status";

const none = { errors: 0, warnings: 0, infos: 0 };

describe("statusView", () => {
  it("shows progress with message and percentage while checking", () => {
    const v = statusView("running", { title: "ctlsp: checking workspace", message: "3/10 files", percentage: 30 }, none);
    assert.equal(v.text, "$(sync~spin) ctlsp: 3/10 files 30%");
    assert.equal(v.tooltip, "ctlsp: checking workspace (3/10 files 30%)");
  });

  it("shows finding counts when idle, with correct plurals", () => {
    assert.equal(statusView("running", undefined, none).text, "$(check) ctlsp: 0");
    const v = statusView("running", undefined, { errors: 1, warnings: 2, infos: 0 });
    assert.equal(v.text, "$(bug) ctlsp: 3");
    assert.match(v.tooltip, /1 error, 2 warnings;/);
    assert.match(statusView("running", undefined, { errors: 0, warnings: 0, infos: 1 }).tooltip, /1 info/);
  });

  it("shows starting and failure states", () => {
    assert.equal(statusView("starting", undefined, none).text, "$(sync~spin) ctlsp");
    assert.match(statusView("failed", undefined, none).tooltip, /failed to start/);
    assert.match(statusView("stopped", { title: "x" }, none).tooltip, /stopped/);
  });
});
