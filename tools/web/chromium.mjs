// Debian's chromium, driven by npm's playwright-core (no browser download): headless,
// sandbox off (it runs as root in CI), no background traffic, a fresh profile each time.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

export const CHROMIUM = process.env.PICOYACHT_CHROMIUM || "/usr/bin/chromium";
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run", "--mute-audio"];

export async function launch(nodeModules) {
  const { chromium } = await import(
    pathToFileURL(resolve(nodeModules, "playwright-core", "index.mjs")).href);
  const profile = mkdtempSync(join(tmpdir(), "picoyacht-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: FLAGS,
  });
  const close = async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  };
  return { context, close };
}
