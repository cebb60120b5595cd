// The lean convert path: slices that add up to exactly what the codecs
// serialize (line by line or whole), the input text taken once parsed, and a
// sliced atomic write that leaves nothing behind when making the text fails.
import { promises as fs, readdirSync, readFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { convert, TxcriptError } from "@txcript/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pieces, writeSlicesAtomic } from "./atomic-stream.js";
import { convertSource, outputSlices } from "./convert-pipeline.js";
import { detectHarness, findHarness, harnesses } from "./harnesses.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const fixtures = ["amp", "claude-code", "stream-json"].flatMap((directory) =>
  readdirSync(path.join(repoRoot, "fixtures", directory))
    .filter((name) => /\.jsonl?$/.test(name) && !name.endsWith(".common.json"))
    .map((name) => path.join(repoRoot, "fixtures", directory, name)),
);
const startTime = new Date("2026-01-01T00:00:00.000Z");

function source(file: string) {
  const text = readFileSync(file, "utf8");
  return { text, harness: detectHarness(text, file), file, startTime };
}

/** What core's convert() prints and reports for the same input: the reference. */
function reference(file: string, to: ReturnType<typeof findHarness>) {
  const { text, harness } = source(file);
  const write = to.writeOptions?.({ from: harness.id, sourceText: text });
  const read = harness.readOptions?.({ startTime });
  return convert(text, harness.codec, to.codec, {
    file,
    ...(read === undefined ? {} : { read }),
    ...(write === undefined ? {} : { write }),
  });
}

describe("convertSource", () => {
  it("prints what convert() prints, whole or line by line, for every fixture and target", () => {
    expect(fixtures.length).toBeGreaterThan(5);
    for (const file of fixtures)
      for (const to of harnesses) {
        const expected = reference(file, to);
        for (const lineByLine of [false, true]) {
          const converted = convertSource(source(file), to, { lineByLine });
          expect([...converted.slices].join(""), `${file} → ${to.id}`).toBe(expected.text);
          expect(converted.warnings()).toEqual(expected.warnings);
        }
      }
  });

  it("takes the input text: it is cleared once parsed", () => {
    const input = source(path.join(repoRoot, "fixtures/amp/export-thread.json"));
    convertSource(input, findHarness("claude_code"), { lineByLine: true });
    expect(input.text).toBe("");
  });

  it("names the file on a read error", () => {
    const input = { ...source(fixtures[0] as string), text: "{" };
    expect(() => convertSource(input, findHarness("claude_code"))).toThrow(
      expect.objectContaining({ location: expect.objectContaining({ file: fixtures[0] }) }),
    );
  });
});

describe("outputSlices", () => {
  it("adds up to serialize() in many slices, a missing final newline kept", () => {
    for (const [id, file] of [
      ["claude_code", "fixtures/claude-code/slash-commands.jsonl"],
      ["stream_json", "fixtures/stream-json/claude-tools.jsonl"],
    ] as const) {
      const harness = findHarness(id);
      for (const text of [
        readFileSync(path.join(repoRoot, file), "utf8"),
        readFileSync(path.join(repoRoot, file), "utf8").trimEnd(),
      ]) {
        const native = harness.codec.parse(text);
        const slices = [...outputSlices(harness, native, 3)];
        expect(slices.length).toBeGreaterThan(2);
        expect(slices.join("")).toBe(text);
      }
    }
  });
});

describe("writeSlicesAtomic", () => {
  let directory: string;
  beforeEach(async () => {
    directory = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-slices-"));
  });
  afterEach(async () => {
    await fs.rm(directory, { recursive: true, force: true });
  });

  it("writes the slices in order, and refuses to clobber without overwrite", async () => {
    const target = path.join(directory, "out.jsonl");
    await writeSlicesAtomic(target, ["a\n", "", "ü\n"]);
    expect(await fs.readFile(target, "utf8")).toBe("a\nü\n");
    await expect(writeSlicesAtomic(target, ["b"])).rejects.toMatchObject({ code: "CONFLICT" });
    await writeSlicesAtomic(target, ["b"], { overwrite: true });
    expect(await fs.readFile(target, "utf8")).toBe("b");
  });

  it("encodes a big slice in pieces without splitting a surrogate pair", async () => {
    const text = `a${"😀".repeat(5)}b😀`;
    for (const length of [1, 2, 3, 4, 100]) {
      const parts = [...pieces(text, length)];
      expect(parts.join("")).toBe(text);
      for (const part of parts) expect(Buffer.from(part, "utf8").toString("utf8")).toBe(part);
    }
    const target = path.join(directory, "emoji.txt");
    await writeSlicesAtomic(target, [text.repeat(200_000)]);
    expect(await fs.readFile(target, "utf8")).toBe(text.repeat(200_000));
  });

  it("refuses a symlink target", async () => {
    const target = path.join(directory, "link");
    await fs.symlink(path.join(directory, "elsewhere"), target);
    await expect(writeSlicesAtomic(target, ["x"], { overwrite: true })).rejects.toMatchObject({
      code: "UNSAFE_PATH",
    });
  });

  it("leaves nothing behind and rethrows the error as is when a slice cannot be made", async () => {
    const target = path.join(directory, "out.jsonl");
    const failure = new TxcriptError("TOO_LARGE", "too deep");
    function* slices() {
      yield "first\n";
      throw failure;
    }
    await expect(writeSlicesAtomic(target, slices())).rejects.toBe(failure);
    const plain = new RangeError("not ours");
    function* broken() {
      yield "x";
      throw plain;
    }
    await expect(writeSlicesAtomic(target, broken())).rejects.toBe(plain);
    expect(await fs.readdir(directory)).toEqual([]);
  });
});
