// @ts-check
/**
 * End-to-end test in a real VS Code: code-server (from npm) with the packaged .vsix installed,
 * driven through headless Debian Chromium by playwright-core. It checks what a user would see:
 * the squiggle on a leak, the witness in the hover, the numbered step labels of "Show witness",
 * navigation, and the squiggle going away once the leak is fixed by typing the free().
 *
 * It follows the extension README's install path on a bare machine: nothing but the .vsix is
 * installed, no setting names an interpreter, and `python3` on PATH is a bare Python (Debian's,
 * checked to have no ctlsp and no pygls): the server that runs is the one the .vsix carries. The
 * workspace has a `server.py` of its own, which must not be what starts.
 *
 * Inputs (environment): CODE_SERVER_BIN, CHROMIUM_BIN, CTLSP_BARE_PYTHON (default /usr/bin/python3),
 * CTLSP_VSIX.
 * Screenshots go to vscode-extension/test-output/. Exit code 0 = every check passed.
 */
import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const extDir = path.resolve(here, "../..");
const outDir = path.join(extDir, "test-output");
const codeServer = required("CODE_SERVER_BIN");
const chromiumBin = process.env.CHROMIUM_BIN || "/usr/bin/chromium";
const barePython = process.env.CTLSP_BARE_PYTHON || "/usr/bin/python3";
const vsix = path.resolve(process.env.CTLSP_VSIX ?? path.join(extDir, "dist/ctlsp.vsix"));
const SLOW = 120_000;

const LEAK = `#include <stdlib.h>

int work(int n)
{
    char *p = malloc(n);
    if (p == NULL)
        return -1;
    p[0] = 1;
    return 0;
}
`;

// A header and a .c file nobody opens (written after the start: the file watcher brings them in).
const POOL_H = `#include <stdlib.h>

static inline int pool_probe(int n)
{
    char *slot = malloc(n);
    if (slot == NULL)
        return -1;
    slot[0] = 0;
    return 0;
}
`;

const RELEASE_C = `#include <stdlib.h>
#include "pool.h"

void release(char *buf)
{
    free(buf);
    free(buf);
}
`;

// A double free whose five witness steps (test, free, next iteration, test again, free again) are all
// on one line.
const LOOP_C = `#include <stdlib.h>

void drain(char *p, int n)
{
    for (int i = 0; i < n; i++) { if (p) free(p); }
}
`;

function required(name) {
  const value = process.env[name];
  if (!value) {
    fail(`${name} is not set (run through .ci/e2e.sh, which installs the tools)`);
  }
  return /** @type {string} */ (value);
}

/** @param {string} message */
function fail(message) {
  console.error(`e2e FAILED: ${message}`);
  process.exit(1);
}

let checks = 0;
/** @param {string} what */
function pass(what) {
  checks += 1;
  console.log(`  ok ${checks} - ${what}`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * @param {string} dir
 * @param {(name: string) => boolean} accept
 * @returns {string[]}
 */
function findFiles(dir, accept) {
  if (!fs.existsSync(dir)) {
    return [];
  }
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? findFiles(full, accept) : accept(entry.name) ? [full] : [];
  });
}

/** @param {string} url @param {number} timeoutMs */
async function waitForHttp(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`code-server did not answer at ${url} within ${timeoutMs / 1000}s`);
}

async function main() {
  for (const [what, file] of [["code-server", codeServer], ["chromium", chromiumBin], ["python", barePython], ["vsix", vsix]]) {
    if (!fs.existsSync(file)) {
      fail(`${what} not found at ${file}`);
    }
  }
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ctlsp-e2e-"));
  for (const module of ["server.cli", "pygls"]) {
    try {
      execFileSync(barePython, ["-c", `import ${module}`], { cwd: tmp, stdio: "ignore" });
    } catch {
      continue; // as it should be: the bare Python cannot import it
    }
    fail(`${barePython} imports ${module}: not a bare Python, so the test would not show the bundled server works`);
  }
  // The only python3 on the extension host's PATH is the bare one.
  const bin = path.join(tmp, "bin");
  fs.mkdirSync(bin);
  fs.symlinkSync(barePython, path.join(bin, "python3"));
  const userData = path.join(tmp, "user-data");
  const extensions = path.join(tmp, "extensions");
  const workspace = path.join(tmp, "workspace");
  fs.mkdirSync(path.join(userData, "User"), { recursive: true });
  fs.mkdirSync(workspace, { recursive: true });
  fs.writeFileSync(path.join(workspace, "leak.c"), LEAK);
  // What `python -m server` would run from the workspace folder: the extension must never start it.
  fs.writeFileSync(path.join(workspace, "server.py"), 'raise SystemExit("the workspace\'s server.py was run instead of ctlsp")\n');
  // ctlsp.interpreter is machine-scoped, so in code-server (a remote window) it lives in the Machine
  // settings; it is not set here: the extension finds python3 on PATH.
  fs.mkdirSync(path.join(userData, "Machine"), { recursive: true });
  const settingsFile = path.join(userData, "Machine", "settings.json");
  const settings = {
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": false,
    "workbench.enableExperiments": false,
    "security.workspace.trust.enabled": false,
    "telemetry.telemetryLevel": "off",
    "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false,
    "update.mode": "none",
    "editor.hover.delay": 200,
    "editor.minimap.enabled": false,
    "workbench.colorTheme": "Default Dark Modern",
    "window.commandCenter": false,
    "workbench.secondarySideBar.defaultVisibility": "hidden",
    "chat.disableAIFeatures": true,
    "editor.quickSuggestions": { other: false, comments: false, strings: false },
    "editor.suggestOnTriggerCharacters": false,
    "editor.acceptSuggestionOnEnter": "off",
  };
  fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
  fs.writeFileSync(path.join(userData, "User", "settings.json"), JSON.stringify(settings, null, 2));
  const configFile = path.join(tmp, "code-server.yaml");
  fs.writeFileSync(configFile, "auth: none\ncert: false\n");

  console.log(`e2e: installing ${path.basename(vsix)} into code-server`);
  execFileSync(codeServer, ["--config", configFile, "--user-data-dir", userData, "--extensions-dir", extensions, "--install-extension", vsix], {
    stdio: "inherit",
  });
  if (!fs.readdirSync(extensions).some((d) => d.startsWith("ctlsp.ctlsp"))) {
    fail(`the .vsix did not install into ${extensions}`);
  }
  pass("the .vsix installs with code-server --install-extension");

  const port = await freePort();
  const logFile = path.join(outDir, "code-server.log");
  const log = fs.openSync(logFile, "w");
  const server = spawn(
    codeServer,
    [
      "--bind-addr", `127.0.0.1:${port}`,
      "--auth", "none",
      "--config", configFile,
      "--user-data-dir", userData,
      "--extensions-dir", extensions,
      "--disable-telemetry",
      "--disable-update-check",
      "--disable-workspace-trust",
      "--disable-getting-started-override",
      workspace,
    ],
    {
      stdio: ["ignore", log, log],
      detached: true,
      env: {
        ...process.env,
        // No extension marketplace: the test machine reaches no gallery, and nothing should be fetched.
        EXTENSIONS_GALLERY: JSON.stringify({ serviceUrl: "http://127.0.0.1:9/gallery", itemUrl: "http://127.0.0.1:9/item" }),
        PATH: [bin, process.env.PATH].filter(Boolean).join(path.delimiter),
      },
    },
  );
  /** @type {string | undefined} */
  let failure;
  /** @type {import("playwright-core").Browser | undefined} */
  let browser;
  /** @type {import("playwright-core").Page | undefined} */
  let page;
  try {
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000);
    browser = await chromium.launch({
      executablePath: chromiumBin,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    page = await context.newPage();
    await scenario(page, port, settingsFile, settings, workspace);
  } catch (e) {
    if (page) {
      await page.screenshot({ path: path.join(outDir, "failure.png") }).catch(() => undefined);
    }
    fs.cpSync(path.join(userData, "logs"), path.join(outDir, "vscode-logs"), { recursive: true });
    const tail = fs.readFileSync(logFile, "utf8").split("\n").slice(-30).join("\n");
    console.error(`--- code-server log (tail) ---\n${tail}`);
    for (const file of findFiles(path.join(outDir, "vscode-logs"), (name) => name === "ctlsp.log")) {
      const ctlspTail = fs.readFileSync(file, "utf8").split("\n").slice(-30).join("\n");
      console.error(`--- ctlsp extension log (tail of ${path.relative(outDir, file)}) ---\n${ctlspTail}`);
    }
    failure = e instanceof Error ? e.message : String(e);
  } finally {
    await browser?.close().catch(() => undefined);
    if (server.pid) {
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  if (failure !== undefined) {
    console.log(`${checks} passed, 1 failed`);
    fail(failure);
  }
  console.log(`${checks} passed, 0 failed`);
}

/**
 * @param {import("playwright-core").Page} page
 * @param {number} port
 * @param {string} settingsFile
 * @param {Record<string, unknown>} settings
 * @param {string} workspace
 */
async function scenario(page, port, settingsFile, settings, workspace) {
  // Progress is shown only while a check runs, so record every ctlsp status bar text as it changes.
  await page.addInitScript(() => {
    const seen = /** @type {string[]} */ ([]);
    Object.assign(window, { ctlspStatusTexts: seen });
    new MutationObserver(() => {
      for (const item of document.querySelectorAll(".statusbar-item")) {
        const text = item.textContent ?? "";
        if (text.includes("ctlsp") && seen[seen.length - 1] !== text) {
          seen.push(text);
        }
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.locator(".monaco-workbench").waitFor({ timeout: SLOW });
  pass("VS Code (code-server) loads in headless Chromium");

  await quickInput(page, "leak.c");
  await page.locator(".quick-input-list .monaco-list-row").first().waitFor({ timeout: 30_000 });
  await page.keyboard.press("Enter");
  const editor = page.locator(".editor-instance .monaco-editor").first();
  await editor.locator(".view-lines", { hasText: "malloc" }).waitFor({ timeout: 30_000 });
  pass("leak.c opens in the editor");

  const squiggle = page.locator(".monaco-editor .squiggly-warning, .monaco-editor .squiggly-error");
  const startError = page.locator(".notifications-toasts .notification-list-item", { hasText: "ctlsp:" });
  const first = await Promise.race([
    squiggle.first().waitFor({ timeout: SLOW }).then(() => "squiggle", () => "timeout"),
    startError.first().waitFor({ timeout: SLOW }).then(() => "error", () => "timeout"),
  ]);
  if (first === "timeout") {
    throw new Error(`no ctlsp diagnostic on the leak within ${SLOW / 1000}s`);
  }
  if (first === "error") {
    const message = await startError.first().locator(".notification-list-item-message").textContent();
    throw new Error(`the ctlsp server did not start: ${message ?? (await startError.first().textContent())}`);
  }
  pass("the leak is underlined (ctlsp diagnostic)");
  pass("the server the .vsix carries runs on a bare python3 from PATH, not the workspace's server.py");
  const status = page.locator(".statusbar-item", { hasText: /ctlsp: 1\b/ });
  await status.first().waitFor({ timeout: 30_000 });
  pass("the status bar counts 1 finding");
  const statusTexts = /** @type {string[]} */ (await page.evaluate(() => Reflect.get(window, "ctlspStatusTexts")));
  if (!statusTexts.some((t) => /ctlsp: .*(files|%)/.test(t))) {
    throw new Error(`the status bar never showed check progress; it showed: ${JSON.stringify(statusTexts)}`);
  }
  pass(`the status bar showed the workspace check's progress (${statusTexts.filter((t) => /files|%/.test(t)).join(" → ")})`);
  const lens = page.locator(".contentWidgets .codelens-decoration, .monaco-editor .codelens-decoration", { hasText: "Show witness" });
  await lens.first().waitFor({ timeout: 30_000 });
  pass("a \"Show witness\" CodeLens is above the finding");
  const warnings = page.locator(".notifications-toasts .notification-list-item", { hasText: "ctlsp" });
  if (await warnings.count()) {
    throw new Error(`ctlsp warned at start: ${await warnings.first().innerText()}`);
  }
  pass("the start raised no ctlsp warning (every setting the extension declares is known to the server)");
  await page.screenshot({ path: path.join(outDir, "diagnostic.png") });

  const box = await squiggle.first().boundingBox();
  if (!box) {
    throw new Error("the squiggle has no bounding box");
  }
  const hover = page.locator(".monaco-hover:visible", { hasText: "memory-leak" });
  for (let attempt = 0; attempt < 5 && !(await hover.count()); attempt += 1) {
    await page.mouse.move(box.x + Math.min(20, box.width / 2), box.y + box.height / 2 - 6);
    await page.mouse.move(box.x + Math.min(24, box.width / 2), box.y + box.height / 2 - 5);
    await hover.first().waitFor({ timeout: 5_000 }).catch(() => undefined);
  }
  await hover.first().waitFor({ timeout: 10_000 });
  const hoverText = await hover.first().innerText();
  for (const expected of ["Witness path: the", "malloc(n)", "returns without freeing"]) {
    if (!hoverText.includes(expected)) {
      throw new Error(`hover lacks ${JSON.stringify(expected)}; it says:\n${hoverText}`);
    }
  }
  // VS Code lists the diagnostic's related information (the steps) in the same hover: once, not twice
  const allocSteps = hoverText.split("malloc(n)").length - 1;
  if (allocSteps !== 1) {
    throw new Error(`the hover names the allocation step ${allocSteps} times; it says:\n${hoverText}`);
  }
  pass("hovering the squiggle shows the witness path once (malloc(n) ... returns without freeing)");
  await page.screenshot({ path: path.join(outDir, "hover.png") });
  await page.keyboard.press("Escape");

  // the menu opens only once the click has put the cursor on the squiggle (a hover or the code
  // actions' request may still be settling): ask again, as a user would, before giving up
  const quickFix = page.locator(".action-widget", { hasText: "Show witness path for memory-leak" });
  for (let attempt = 0; attempt < 3 && !(await quickFix.count()); attempt += 1) {
    await page.mouse.click(box.x + Math.min(20, box.width / 2), box.y + box.height / 2 - 5);
    await page.keyboard.press("Control+Period");
    await quickFix.first().waitFor({ timeout: 8_000 }).catch(() => page.keyboard.press("Escape"));
  }
  await quickFix.first().waitFor({ timeout: 8_000 });
  pass("the quick-fix menu offers \"Show witness path for memory-leak\"");
  await page.keyboard.press("Escape");
  await runCommand(page, "ctlsp: Show Witness");
  const labels = await waitForAfterTexts(page, (texts) => texts.some((t) => t.includes("①")) && texts.some((t) => t.includes("②")));
  pass(`"Show witness" labels the path steps in the editor: ${labels.join(" | ")}`);
  const tree = page.locator(".pane", { hasText: "ctlsp witness" }).locator(".monaco-list-row", { hasText: "①" });
  await tree.first().waitFor({ timeout: 15_000 });
  pass("the ctlsp witness view lists the steps");
  await page.screenshot({ path: path.join(outDir, "witness.png") });

  await editor.locator(".view-lines").click();
  await page.keyboard.press("Alt+BracketRight");
  await page.locator(".statusbar", { hasText: /step 2\/\d+/ }).waitFor({ timeout: 10_000 });
  pass("alt+] moves to step 2 of the witness");

  const fixLine = LEAK.split("\n").findIndex((l) => l.includes("return 0;")) + 1;
  await quickInput(page, `:${fixLine}`);
  await page.keyboard.press("Enter");
  await page.keyboard.press("End");
  await page.keyboard.press("Home");
  await page.keyboard.type("free(p);");
  await page.keyboard.press("Enter");
  await editor.locator(".view-lines", { hasText: "free(p);" }).waitFor({ timeout: 10_000 });
  await squiggle.first().waitFor({ state: "detached", timeout: SLOW });
  pass("typing free(p) before the return removes the squiggle");
  await lens.first().waitFor({ state: "detached", timeout: 15_000 });
  pass("the \"Show witness\" CodeLens goes with the finding");
  await waitForAfterTexts(page, (texts) => texts.length === 0);
  pass("editing the file clears the stale witness labels");
  if (await page.locator(".pane", { hasText: "ctlsp witness" }).locator(".monaco-list-row", { hasText: "①" }).count()) {
    throw new Error("the witness view still lists the steps of the cleared witness");
  }
  await page.locator(".statusbar-item", { hasText: /ctlsp: 0\b/ }).first().waitFor({ timeout: 30_000 });
  pass("the status bar counts 0 findings");
  await page.screenshot({ path: path.join(outDir, "fixed.png") });

  await invalidSetting(page, settingsFile, settings);
  await closedFilesAndHeaders(page, workspace);
  await loopWitness(page);

  fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, "ctlsp.interpreter": "/nonexistent/python3" }, null, 2));
  const toast = page.locator(".notifications-toasts", { hasText: "does not exist" });
  await toast.first().waitFor({ timeout: 60_000 });
  pass("a missing interpreter gives an error notification that says so and offers to set ctlsp.interpreter");
  if (!(await toast.first().innerText()).includes("Set ctlsp.interpreter")) {
    throw new Error("the error notification lacks its \"Set ctlsp.interpreter\" button");
  }
  await page.screenshot({ path: path.join(outDir, "bad-interpreter.png") });

  await toast.first().locator(".monaco-button", { hasText: "Set ctlsp.interpreter" }).first().click();
  const interpreterSetting = page.locator(".settings-editor .setting-item-contents", { hasText: "Python 3.11+ that runs the server" });
  await interpreterSetting.first().waitFor({ timeout: 30_000 });
  const tab = (await page.locator(".settings-editor .settings-tabs-widget .action-item .checked, .settings-editor .settings-tabs-widget .checked").first().innerText()).trim();
  if (!/remote/i.test(tab)) {
    throw new Error(`"Set ctlsp.interpreter" opened the ${JSON.stringify(tab)} settings, not the remote machine's`);
  }
  pass(`"Set ctlsp.interpreter" opens the Settings editor on the setting, in the scope it lives in (${tab})`);
  await page.screenshot({ path: path.join(outDir, "set-interpreter.png") });
}

/**
 * A rule id the server does not know, among valid settings: a warning names the setting and the id.
 * @param {import("playwright-core").Page} page
 * @param {string} settingsFile
 * @param {Record<string, unknown>} settings
 */
async function invalidSetting(page, settingsFile, settings) {
  fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, "ctlsp.rules": { "no-such-rule": false } }, null, 2));
  const warning = page.locator(".notifications-toasts .notification-list-item", { hasText: "no-such-rule" });
  await warning.first().waitFor({ timeout: 60_000 });
  const text = await warning.first().innerText();
  if (!text.includes("ctlsp.rules")) {
    throw new Error(`the warning about an unknown rule id does not name the setting: ${text}`);
  }
  pass(`an unknown rule id in ctlsp.rules gives a warning naming the setting: ${text.split("\n")[0]}`);
  await page.screenshot({ path: path.join(outDir, "invalid-setting.png") });
  fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
  await page.keyboard.press("Escape");
  await runCommand(page, "Notifications: Clear All Notifications");
}

/**
 * Files nobody opened, a header among them: after the workspace check (started by the file
 * watcher) the Problems panel lists their findings.
 * @param {import("playwright-core").Page} page
 * @param {string} workspace
 */
async function closedFilesAndHeaders(page, workspace) {
  fs.mkdirSync(path.join(workspace, "lib"), { recursive: true });
  fs.writeFileSync(path.join(workspace, "lib", "pool.h"), POOL_H);
  fs.writeFileSync(path.join(workspace, "lib", "release.c"), RELEASE_C);
  fs.writeFileSync(path.join(workspace, "loop.c"), LOOP_C);
  // Saving starts the workspace check too (the watcher may be slower to report the new files).
  await page.locator(".editor-instance .monaco-editor .view-lines").first().click();
  await page.keyboard.press("Control+S");
  await runCommand(page, "Focus on Problems View");
  const panel = page.locator(".markers-panel");
  await panel.waitFor({ timeout: 15_000 });
  // the list draws only the rows in view, and each finding's witness steps are rows too
  await runCommand(page, "View: Toggle Maximized Panel");
  const wanted = ["pool.h", "release.c", "loop.c"];
  const deadline = Date.now() + SLOW;
  let rows = [];
  while (Date.now() < deadline) {
    rows = await panel.locator(".monaco-list-row").allInnerTexts();
    if (wanted.every((name) => rows.some((r) => r.includes(name)))) {
      break;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  for (const [name, rule] of [["pool.h", "memory-leak"], ["release.c", "double-free"]]) {
    if (!rows.some((r) => r.includes(name))) {
      throw new Error(`the Problems panel does not list ${name}; it lists: ${JSON.stringify(rows)}`);
    }
    if (!rows.some((r) => r.includes(rule))) {
      throw new Error(`the Problems panel has no ${rule} finding; it lists: ${JSON.stringify(rows)}`);
    }
  }
  pass("after the workspace check the Problems panel lists the findings of closed files, a header among them");
  await page.screenshot({ path: path.join(outDir, "problems.png") });
  await runCommand(page, "View: Toggle Maximized Panel");
}

/**
 * A witness whose four steps are all on one line (a loop): every step label is drawn, and each one
 * lies inside the editor, none pushed off-screen.
 * @param {import("playwright-core").Page} page
 */
async function loopWitness(page) {
  // Opened from its row in the Problems panel, as a user goes to a finding of a closed file.
  await page.locator(".markers-panel .monaco-list-row", { hasText: "'p' may be freed twice" }).first().click();
  const editor = page.locator(".editor-instance .monaco-editor").first();
  await editor.locator(".view-lines", { hasText: "drain" }).waitFor({ timeout: 30_000 });
  const squiggle = editor.locator(".squiggly-error").first();
  await squiggle.waitFor({ timeout: SLOW });
  const box = await squiggle.boundingBox();
  if (!box) {
    throw new Error("the loop's squiggle has no bounding box");
  }
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2 - 5);
  await runCommand(page, "ctlsp: Show Witness");
  const steps = ["①", "②", "③", "④", "⑤"];
  const texts = await waitForAfterTexts(page, (found) => steps.every((s) => found.some((t) => t.includes(s))));
  const bounds = await editor.boundingBox();
  const offscreen = await page.evaluate((right) => {
    const out = [];
    for (const el of document.querySelectorAll(".monaco-editor .view-lines span")) {
      for (const pseudo of ["::after", "::before"]) {
        const content = getComputedStyle(el, pseudo).content;
        if (content && /[①-⑳]/.test(content) && el.getBoundingClientRect().right > right) {
          out.push(content);
        }
      }
    }
    return out;
  }, (bounds?.x ?? 0) + (bounds?.width ?? 0));
  if (offscreen.length) {
    throw new Error(`step labels run past the editor's right edge: ${JSON.stringify(offscreen)}`);
  }
  // the line shows the numbers and the last step's text; the witness view lists every step
  const iteration = page.locator(".pane", { hasText: "ctlsp witness" }).locator(".monaco-list-row", { hasText: "next iteration of the loop" });
  await iteration.first().waitFor({ timeout: 15_000 });
  pass(`a loop witness with five steps on one line (one of them the loop's next iteration) shows every step label inside the editor: ${texts.join(" | ")}`);
  await page.screenshot({ path: path.join(outDir, "loop-witness.png") });

  // Escape is VS Code's first: with several cursors it collapses them and the witness stays; the
  // next Escape clears the witness
  // on the squiggle's line (the loop), which has lines below it; measured again, since a CodeLens
  // that appeared above it since moved the line (a click on the lens would run it instead)
  const now = await squiggle.boundingBox();
  if (!now) {
    throw new Error("the loop's squiggle has no bounding box");
  }
  await page.mouse.click(now.x + now.width / 2, now.y + now.height / 2);
  // the mouse leaves the squiggle, so no hover opens: an open hover takes the first Escape
  await page.mouse.move(1, 1);
  await hoversClosed(page);
  await runCommand(page, "Add Cursor Below");
  const cursors = editor.locator(".cursors-layer .cursor");
  for (let i = 0; i < 50 && (await cursors.count()) < 2; i += 1) {
    await page.waitForTimeout(100);
  }
  if ((await cursors.count()) < 2) {
    throw new Error(`"Add Cursor Below" left ${await cursors.count()} cursor(s)`);
  }
  await hoversClosed(page);
  await editorFocused(page);
  await page.keyboard.press("Escape");
  for (let i = 0; i < 50 && (await cursors.count()) > 1; i += 1) {
    await page.waitForTimeout(100);
  }
  if ((await cursors.count()) !== 1) {
    const focus = await page.evaluate(() => document.activeElement?.className ?? "(none)");
    throw new Error(`Escape did not collapse the cursors (${await cursors.count()} left; focus on ${focus})`);
  }
  await waitForAfterTexts(page, (found) => found.some((t) => t.includes("⑤")), 3_000).catch(() => {
    throw new Error("the Escape meant for the extra cursor also cleared the witness");
  });
  await page.keyboard.press("Escape");
  await waitForAfterTexts(page, (found) => !found.some((t) => /[①-⑳]/.test(t)));
  pass("with several cursors, Escape collapses them and keeps the witness; the next Escape clears it");
}

/**
 * Waits until the command palette has closed and the editor has the focus again: an Escape sent
 * before then reaches no editor keybinding (both Escape bindings need `editorTextFocus`) and is lost.
 * @param {import("playwright-core").Page} page
 */
async function editorFocused(page) {
  const palette = page.locator(".quick-input-widget:visible");
  const editor = page.locator(".monaco-editor.focused");
  for (let i = 0; i < 100 && ((await palette.count()) > 0 || (await editor.count()) === 0); i += 1) {
    await page.waitForTimeout(100);
  }
  if ((await palette.count()) > 0 || (await editor.count()) === 0) {
    throw new Error("the editor did not get the focus back after the command palette");
  }
}

/**
 * Waits until no hover is open in the editor, since an open hover (or its pending show) takes the
 * next Escape for itself.
 * @param {import("playwright-core").Page} page
 */
async function hoversClosed(page) {
  const hovers = page.locator(".monaco-hover:visible");
  for (let i = 0; i < 50 && (await hovers.count()) > 0; i += 1) {
    await page.waitForTimeout(100);
  }
  if ((await hovers.count()) > 0) {
    throw new Error("a hover stayed open after the mouse left the editor");
  }
}

/**
 * Opens the quick input (F1) with `text` typed: ">" + a label runs a command from the palette,
 * ":" goes to a line, no prefix searches files.
 * @param {import("playwright-core").Page} page
 * @param {string} text
 */
async function quickInput(page, text) {
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ timeout: 15_000 });
  await input.fill(text);
}

/**
 * Runs a command through the command palette, as a user would.
 * @param {import("playwright-core").Page} page
 * @param {string} label e.g. "ctlsp: Show Witness"
 */
async function runCommand(page, label) {
  await quickInput(page, `>${label}`);
  await page.locator(".quick-input-list .monaco-list-row", { hasText: label }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.press("Enter");
}

/**
 * The after-texts (CSS ::after content) drawn in the editor, which is how VS Code renders
 * decoration `after.contentText`. Polls until `accept` is true.
 * @param {import("playwright-core").Page} page
 * @param {(texts: string[]) => boolean} accept
 */
async function waitForAfterTexts(page, accept, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let texts = [];
  while (Date.now() < deadline) {
    texts = await page.evaluate(() => {
      const found = [];
      for (const el of document.querySelectorAll(".monaco-editor .view-lines span")) {
        for (const pseudo of ["::after", "::before"]) {
          const content = getComputedStyle(el, pseudo).content;
          if (content && content !== "none" && content !== "normal" && /[①-⑳]/.test(content)) {
            found.push(content.replace(/^"|"$/g, ""));
          }
        }
        if (/[①-⑳]/.test(el.textContent ?? "") && el.className.includes("ced-")) {
          found.push(el.textContent ?? "");
        }
      }
      return found;
    });
    if (accept(texts)) {
      return texts;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`step labels not as expected; found: ${JSON.stringify(texts)}`);
}

await main();
