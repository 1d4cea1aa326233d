import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cDocumentSelector, cExtensions, DEFAULT_C_EXTENSIONS, extensionPattern } from "../../src/model/documents";

describe("cExtensions", () => {
  it("defaults to .c and .h when unset or not a list", () => {
    assert.deepEqual(cExtensions(undefined), [".c", ".h"]);
    assert.deepEqual(cExtensions(".h"), [...DEFAULT_C_EXTENSIONS]);
  });

  it("normalises entries and drops what is not a plain extension", () => {
    assert.deepEqual(cExtensions(["h", ".inc", " .c ", "*", "**/*.hpp", "a/b", "", ".", 3, null, ".h"]), [".h", ".inc", ".c"]);
    assert.deepEqual(cExtensions([]), []);
  });
});

describe("cDocumentSelector", () => {
  it("takes every C document and the C++ documents with a C extension", () => {
    assert.deepEqual(cDocumentSelector([".c", ".h"]), [
      { scheme: "file", language: "c" },
      { scheme: "untitled", language: "c" },
      { scheme: "file", language: "cpp", pattern: "**/*.{c,h}" },
    ]);
    assert.deepEqual(cDocumentSelector([".h"])[2], { scheme: "file", language: "cpp", pattern: "**/*.h" });
  });

  it("takes no C++ document when no extension is given", () => {
    assert.equal(extensionPattern([]), undefined);
    assert.deepEqual(
      cDocumentSelector([]).map((f) => f.language),
      ["c", "c"],
    );
  });
});
