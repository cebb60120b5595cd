// The resume argv against the pinned Copilot CLI's own parser: with the id
// in the flag's word (`--resume=--help`) the id is a value (the program
// looks for a session named `--help` and finds none); the control, the id
// as a word of its own (`--resume --help`), is read as the option and
// prints the usage. Offline: a temporary HOME, the model at 127.0.0.1:9.
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copilotResumeCommand } from "./copilot-cli-paths.js";
import { copilotCacheHome, runCopilot } from "./copilot-cli-verify.js";
import { copilotBin, copilotVersion } from "./test-support/interop.js";

const found = copilotBin();
const bin = "bin" in found ? found.bin : undefined;
const reason = "skip" in found ? found.skip : "";
if (bin === undefined) console.warn(`SKIPPED the Copilot CLI resume argv check: ${reason}`);

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-copilot-argv-"));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function run(args: string[]) {
  return runCopilot(
    bin as string,
    {
      copilotHome: path.join(root, "copilot"),
      home: path.join(root, "home"),
      cacheHome: copilotCacheHome(),
      cwd: root,
      baseUrl: "http://127.0.0.1:9/v1",
    },
    args,
    60_000,
  );
}

describe.skipIf(bin === undefined)(
  `copilot ${copilotVersion}: the resume argv keeps a hostile id a value${bin === undefined ? ` (skipped: ${reason})` : ""}`,
  () => {
    it("--resume=--help looks for a session named --help", async () => {
      const argv = copilotResumeCommand("--help");
      const result = await run([...argv.slice(1), "-p", "hi"]);
      expect(result.status).toBe(1);
      expect(result.output).toContain("No session, task, or name matched '--help'");
      expect(result.output).not.toContain("Usage: copilot");
    }, 90_000);
    it("the control: --resume --help is read as the option and prints the usage", async () => {
      const result = await run(["--resume", "--help", "-p", "hi"]);
      expect(result.status).toBe(0);
      expect(result.output).toContain("Usage: copilot");
    }, 90_000);
  },
);
