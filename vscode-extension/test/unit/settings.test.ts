import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { serverSettings } from "../../src/model/settings";

describe("serverSettings", () => {
  it("drops client-only keys from the ctlsp section and keeps the server's", () => {
    const values = [{ interpreter: "/p", importStrategy: "useBundled", codeLens: true, cExtensions: [".c", ".h"], trace: { server: "off" }, serverArgs: [], rules: { "dead-store": false }, allocators: ["xmalloc"] }];
    assert.deepEqual(serverSettings([{ section: "ctlsp" }], values), [{ rules: { "dead-store": false }, allocators: ["xmalloc"] }]);
  });

  it("leaves other sections and non-object answers alone, and hides client-only subsections", () => {
    const out = serverSettings([{ section: "editor" }, { section: "ctlsp" }, { section: "ctlsp.codeLens" }, { section: "ctlsp.rules" }], [{ tabSize: 4 }, null, true, { a: true }]);
    assert.deepEqual(out, [{ tabSize: 4 }, null, null, { a: true }]);
  });
});
