/**
 * Which documents the extension hands to the server: every `c` document, and the `cpp` documents
 * whose file extension is one of `ctlsp.cExtensions` (VS Code opens `.h` files as C++). The server
 * checks files ending in `.c` or `.h`; other documents it is handed are left alone.
 */

export const DEFAULT_C_EXTENSIONS: readonly string[] = [".c", ".h"];

/** A document filter as both `vscode.DocumentFilter` and the language client's `TextDocumentFilter`. */
export interface DocumentFilter {
  readonly scheme: string;
  readonly language?: string;
  readonly pattern?: string;
}

/**
 * The extensions of the setting, normalised: with their dot, each once. Entries that
 * are not strings or not plain extensions (`.h`, `h`, `.inc`; no glob characters, no folders) are
 * dropped, so that a typo cannot turn the selector into a pattern that matches every C++ file.
 * Anything but a list means the default.
 */
export function cExtensions(setting: unknown): string[] {
  if (!Array.isArray(setting)) {
    return [...DEFAULT_C_EXTENSIONS];
  }
  const out: string[] = [];
  for (const entry of setting) {
    if (typeof entry !== "string") {
      continue;
    }
    const bare = entry.trim().replace(/^\./, "");
    if (!/^[A-Za-z0-9_+-]+$/.test(bare)) {
      continue;
    }
    if (!out.includes(`.${bare}`)) {
      out.push(`.${bare}`);
    }
  }
  return out;
}

/** A glob for the files with these extensions (`**\/*.h`, `**\/*.{c,h}`), or undefined for none. */
export function extensionPattern(extensions: readonly string[]): string | undefined {
  const bare = extensions.map((e) => e.replace(/^\./, ""));
  if (bare.length === 0) {
    return undefined;
  }
  return bare.length === 1 ? `**/*.${bare[0]}` : `**/*.{${bare.join(",")}}`;
}

/** The C documents: `c` ones (saved or untitled) and the `cpp` files with one of the extensions. */
export function cDocumentSelector(extensions: readonly string[]): DocumentFilter[] {
  const selector: DocumentFilter[] = [
    { scheme: "file", language: "c" },
    { scheme: "untitled", language: "c" },
  ];
  const pattern = extensionPattern(extensions);
  if (pattern !== undefined) {
    selector.push({ scheme: "file", language: "cpp", pattern });
  }
  return selector;
}
