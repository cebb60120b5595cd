// The pinned Gemini CLI reads the id in `geminiResumeCommand`'s argv as the
// value of --resume even when it looks like an option (issue 33, item 3):
// `gemini --resume=--yolo` tries to resume a session named `--yolo` and never
// turns YOLO mode on. The control is the old form, `gemini --resume --yolo`,
// which does. Offline: a temporary home, a fake key, proxies at 127.0.0.1:9.
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { geminiResumeCommand } from "./gemini-cli-paths.js";
import { geminiBin, geminiVersion, runGemini, writeSettings } from "./test-support/interop.js";

const found = geminiBin();
const bin = "bin" in found ? found.bin : undefined;
const reason = "skip" in found ? found.skip : "";
if (bin === undefined) console.warn(`SKIPPED the Gemini CLI resume argv check: ${reason}`);

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-gemini-argv-"));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function run(label: string, resume: string[]) {
  const home = path.join(root, label, "home");
  const cwd = path.join(root, label, "work");
  await fs.mkdir(cwd, { recursive: true });
  writeSettings(home, false);
  return runGemini(
    bin as string,
    home,
    cwd,
    [...resume, "-p", "hi", "--skip-trust"],
    path.join(root, label, "tmp"),
  );
}

describe.skipIf(bin === undefined)(
  `gemini ${geminiVersion}: a hostile session id stays a value${bin === undefined ? ` (skipped: ${reason})` : ""}`,
  () => {
    it("geminiResumeCommand('--yolo') resumes a session named --yolo, and YOLO mode stays off", async () => {
      const argv = geminiResumeCommand("--yolo");
      expect(argv[0]).toBe("gemini");
      const result = await run("ours", argv.slice(1));
      expect(result.output).toContain("Error resuming session");
      expect(result.output).not.toMatch(/YOLO mode is enabled/i);
    }, 120_000);

    it("the control: `--resume --yolo` (the id as its own word) turns YOLO mode on", async () => {
      const result = await run("control", ["--resume", "--yolo"]);
      expect(result.output).toMatch(/YOLO mode is enabled/i);
    }, 120_000);
  },
);
