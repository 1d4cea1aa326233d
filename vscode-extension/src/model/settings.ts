/**
 * What the server sees of the "ctlsp" settings section. Keys that only steer the client (how to
 * start the server, whether to draw CodeLenses) are removed, so the server's check for unknown
 * settings stays meaningful for the keys it does read.
 */

export const CLIENT_ONLY_KEYS: readonly string[] = ["interpreter", "importStrategy", "serverArgs", "trace", "codeLens", "cExtensions"];

/** `items` are the requested sections; `values` the answers in the same order. */
export function serverSettings(items: readonly { section?: string }[], values: unknown[]): unknown[] {
  return values.map((value, i) => {
    const section = items[i]?.section;
    if (section === "ctlsp" && typeof value === "object" && value !== null && !Array.isArray(value)) {
      return Object.fromEntries(Object.entries(value).filter(([key]) => !CLIENT_ONLY_KEYS.includes(key)));
    }
    if (section !== undefined && section.startsWith("ctlsp.") && CLIENT_ONLY_KEYS.includes(section.slice(6).split(".")[0])) {
      return null;
    }
    return value;
  });
}
