// The streaming path of `convert` takes a target's head-last writer when it
// has one (stream-json, Amp: their first line or keys depend on the rest),
// so the input is read once fewer; and what it writes through core's
// writeFileAtomic is the whole path's text. Other targets keep their
// writeStream. The bytes of every streaming pair against the whole path are
// test/streaming.test.ts's; this checks the road taken.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { writeFileAtomic } from "@txcript/core";
import { afterAll, describe, expect, it } from "vitest";
import { atomicContent } from "./convert-pipeline.js";
import { findHarness, loadRegistry } from "./harnesses.js";
import { locateInput, readLocated } from "./input.js";
import type { Io } from "./io.js";
import { reportSettings } from "./losses.js";
import { convertLocated } from "./stream-convert.js";

await loadRegistry();

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const scratch = mkdtempSync(path.join(os.tmpdir(), "txcript-stream-convert-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function io(env: Record<string, string>): Io {
  return {
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    env,
    cwd: repoRoot,
  };
}

/** `convert <file> --to <to> -o FILE` as the command runs it: the text written, and whether its head came last. */
async function converted(file: string, from: string, to: string, env: Record<string, string>) {
  const given = io(env);
  const located = await locateInput(file, given, from);
  const { converted } = await convertLocated(given, located, findHarness(to), {
    values: {},
    settings: reportSettings({}),
    toFile: true,
    read: () => readLocated(located, given),
  });
  const target = path.join(scratch, `${from}-${to}-${Object.keys(env).length}.out`);
  await writeFileAtomic(target, atomicContent(converted), { overwrite: true });
  return { headLast: converted.head !== undefined, text: readFileSync(target, "utf8") };
}

describe("convert's streaming path and head-last writers", () => {
  const inputs: [string, string][] = [
    ["fixtures/stream-json/claude-tools.jsonl", "stream_json"],
    ["fixtures/amp/export-thread.json", "amp"],
  ];
  const streamAlways = { TXCRIPT_STREAM_MIN_BYTES: "0" };

  for (const [file, from] of inputs)
    it(`${from}: into stream-json and Amp the head comes last, into Codex not; the text is the whole path's`, async () => {
      for (const to of ["stream_json", "amp", "codex"]) {
        const streamed = await converted(file, from, to, streamAlways);
        const whole = await converted(file, from, to, {});
        expect({ to, headLast: streamed.headLast }).toEqual({ to, headLast: to !== "codex" });
        // Control: below the threshold the whole path writes, in order.
        expect(whole.headLast).toBe(false);
        expect(streamed.text).toBe(whole.text);
      }
    });
});
