// One test per bug the reliability suite found in another package, named
// after what broke. A test marked it.fails documents a bug that is not fixed
// yet: it flips (and must be turned back into `it`) when the fix lands.
// known-bugs.ts lists the same bugs for the fuzzers.

import { promises as fs, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import {
  commonCodec,
  type Transcript,
  TxcriptError,
  toText,
  validateTranscript,
} from "@txcript/core";
import { describe, expect, it } from "vitest";
import { measure, streamJsonSource } from "./big.js";
import { writeBigClaudeSession } from "./big-claude.js";
import { makeHome, removeHome, txcript } from "./cli.js";
import { checkText } from "./oracle.js";
import { fixturesRoot, parserById } from "./parsers.js";
import { fifoProbe, storesUnderFault } from "./stores.js";

/** A fixture with `1e400` (Infinity once parsed) added to its first tool input. */
function withHugeNumberInToolInput(fixture: string, marker: string): string {
  const text = readFileSync(path.join(fixturesRoot, fixture), "utf8");
  expect(text).toContain(marker);
  return text.replace(marker, `${marker}"n": 1e400, `);
}

const deep = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;

function commonDocument(input: string): string {
  return JSON.stringify({
    format: "txcript.common/v1",
    meta: { id: "x", timestamp: "2026-01-01T00:00:00.000Z" },
    messages: [
      {
        role: "assistant",
        timestamp: "2026-01-01T00:00:00.000Z",
        content: [
          { type: "tool_use", id: "t", tool: { name: "Raw", toolName: "x", input: { a: "MARK" } } },
        ],
      },
    ],
  }).replace('"MARK"', input);
}

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("core", () => {
  // Was a bug, fixed in core (parseJson / validation): zod recursion in CommonDocument.safeParse overflows the stack; parseJson
  // turns JSON.parse's RangeError into TOO_LARGE but the schema check does not.
  it("commonCodec.parse turns a tool input nested 3,000 deep into TOO_LARGE, not RangeError", () => {
    const error = thrown(() =>
      commonCodec.parse(commonDocument(deep(3000)), { file: "deep.json" }),
    );
    expect(TxcriptError.isInstance(error) && error.code).toBe("TOO_LARGE");
  });
  it("validateTranscript turns a 100,000-deep tool input into TOO_LARGE, not RangeError", () => {
    const parsed = JSON.parse(commonDocument(deep(100_000)));
    const error = thrown(() =>
      validateTranscript({ meta: parsed.meta, messages: parsed.messages }),
    );
    expect(error === undefined || TxcriptError.isInstance(error)).toBe(true);
  });
});

describe("core toText", () => {
  // Was a bug, fixed in core (parseJson / validation): text.ts blockLines previews a tool input with bare JSON.stringify, so
  // `txcript view` of any session with a deeply nested tool input crashes with
  // "internal error: Maximum call stack size exceeded". Suggested fix:
  // stringifyJson (TOO_LARGE) or a depth-limited preview.
  it("turns a tool input nested 100,000 deep into TOO_LARGE, not RangeError", () => {
    let input: unknown = 1;
    for (let depth = 0; depth < 100_000; depth += 1) input = [input];
    const transcript = {
      meta: { id: "x", timestamp: "2026-01-01T00:00:00.000Z" },
      messages: [
        {
          role: "assistant",
          timestamp: "2026-01-01T00:00:00.000Z",
          content: [
            {
              type: "tool_use",
              id: "t",
              tool: { name: "Raw", toolName: "x", input: { deep: input } },
            },
          ],
        },
      ],
    } as unknown as Transcript;
    const error = thrown(() => toText(transcript));
    expect(error === undefined || TxcriptError.isInstance(error)).toBe(true);
  });
});

describe("cli", () => {
  // Was a bug (fixed; kept as a regression test): export/convert/continue print "txcript: document is nested too deeply
  // or too large to write" with no file: the writer's TOO_LARGE (from
  // stringifyJson) has no location and the commands do not add the input's.
  // Suggested fix: pass { file: input.file } to formatError, or wrap the
  // write leg like convert() wraps the read leg.
  it("a write-side TOO_LARGE names the file it came from", async () => {
    const home = await makeHome();
    try {
      let input = "1";
      for (let depth = 0; depth < 100_000; depth += 1) input = `[${input}]`;
      // A session that reads fine; only the writer meets the depth.
      const session =
        `{"type":"user","sessionId":"5e551011-0000-4000-8000-000000000001","uuid":"a1000000-0000-4000-8000-000000000001","parentUuid":null,"timestamp":"2026-01-05T10:00:00.000Z","cwd":"/","message":{"role":"user","content":"hi"}}\n` +
        `{"type":"assistant","sessionId":"5e551011-0000-4000-8000-000000000001","uuid":"a1000000-0000-4000-8000-000000000002","parentUuid":"a1000000-0000-4000-8000-000000000001","timestamp":"2026-01-05T10:00:01.000Z","cwd":"/","message":{"id":"msg_1","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_1","name":"X","input":{"deep":${input}}}],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}\n`;
      await fs.writeFile(`${home.work}/deep.jsonl`, session);
      const result = await txcript(home, [
        "export",
        "deep.jsonl",
        "-o",
        "out.json",
        "--from",
        "claude_code",
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/too deeply/);
      expect(result.stderr).toContain("deep.jsonl");
    } finally {
      await removeHome(home);
    }
  });
});

describe("cli big inputs", () => {
  const MiB = 2 ** 20;
  // Was a bug (fixed; kept as a regression test): live-view.ts keeps every message in a StreamJsonAccumulator and calls
  // snapshot() + toText over the whole transcript for each line, so memory
  // grows with the input and time is quadratic: a 1 GiB pipe had moved only
  // 243 MiB after 15 minutes, at 1,048 MiB resident (docs/reliability.md).
  // Suggested fix: render each completed message once and drop it from the
  // accumulator (keep only the open message and the tool-call index).
  it("cli: view - of a stream-json pipe keeps memory flat (peak does not grow with the input)", async () => {
    const home = await makeHome();
    try {
      const peaks: number[] = [];
      // A 16× larger input: a view that keeps the stream grows by ~120 MiB (and,
      // re-rendering, takes minutes); a flat one moves by GC noise and the set of
      // seen line uuids (~125 bytes each), well under the slack below.
      for (const size of [8 * MiB, 128 * MiB]) {
        const source = streamJsonSource(size);
        const run = await measure(home, ["view", "-"], {
          stdin: { ...source, total: size },
          timeoutMs: 120_000,
        });
        expect(run.code, run.stderr).toBe(0);
        peaks.push(run.peakMiB);
      }
      console.log(
        `view - peak RSS: 8 MiB in → ${peaks[0]?.toFixed(0)} MiB, 128 MiB in → ${peaks[1]?.toFixed(0)} MiB`,
      );
      expect(peaks[1]).toBeLessThan((peaks[0] ?? 0) + 64);
    } finally {
      await removeHome(home);
    }
  });
  // Was a bug (fixed; kept as a regression test): io.ts readAll concatenates stdin and calls toString, which throws
  // "Cannot create a string longer than 0x1fffffe8 characters" past ~512 MiB;
  // the CLI prints "internal error". Suggested fix: count bytes while reading
  // and throw TOO_LARGE (naming <stdin> and the limit) before concatenating.
  it("cli: stdin past V8's string limit is refused as too large, not an internal error", async () => {
    const home = await makeHome();
    try {
      const total = 600 * MiB;
      const source = streamJsonSource(total);
      const run = await measure(
        home,
        ["convert", "-", "--from", "stream_json", "--to", "amp", "-o", "x.json"],
        {
          stdin: { ...source, total },
          timeoutMs: 300_000,
        },
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/too large|past the limit/);
      expect(run.stderr).toContain("<stdin>");
    } finally {
      await removeHome(home);
    }
  });
});

describe("cli size limit", () => {
  // Was a bug (fixed; kept as a regression test): no command passes `maxBytes` to readTextFile, so a session file past
  // V8's largest string (~512 MiB) fails inside fs.readFile and prints
  // "<file>: cannot read: Invalid string length" — named, but not a size
  // error; below that, a 300 MiB thread converts at 3.4 GiB resident, close
  // to the default heap limit. Suggested fix: a documented input limit
  // (readTextFile's maxBytes) giving TOO_LARGE "file is N bytes, past the limit".
  // (Into a target written from the whole session: Amp, the target here before, now streams,
  // so a Claude Code session of any size converts into it.)
  it("cli: a 600 MiB session file is refused with a size error naming the file", async () => {
    const home = await makeHome();
    try {
      await writeBigClaudeSession(path.join(home.work, "huge.jsonl"), 600 * 2 ** 20);
      const run = await measure(
        home,
        ["convert", "huge.jsonl", "--from", "claude_code", "--to", "opencode", "-o", "out.json"],
        { timeoutMs: 300_000 },
      );
      expect(run.signal).toBeNull();
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("huge.jsonl");
      expect(run.stderr).toMatch(/too large|past the limit/);
    } finally {
      await removeHome(home);
    }
  });
});

describe("stream-json", () => {
  const parser = parserById("stream_json");
  // Was a bug (fixed; kept as a regression test): StreamJsonAccumulator.push formats an unknown line type with String(type);
  // an object whose toString is null throws TypeError, a deep array RangeError.
  it("a line whose type is an object with a null toString is read or refused with a TxcriptError", () => {
    expect(parser).toBeDefined();
    if (parser) checkText(parser, '{"type":[{"toString":null}]}\n', { tolerateKnownBugs: false });
  });
  it("a line whose type is an array 100,000 deep is read or refused with a TxcriptError", () => {
    if (parser) checkText(parser, `{"type":${deep(100_000)}}\n`, { tolerateKnownBugs: false });
  });
  // Was a bug (fixed; kept as a regression test): the accumulator takes session_id as the transcript id without checking
  // it is non-empty; Common's Meta.id requires at least one character, so the
  // transcript is invalid and writers downstream get garbage. Suggested fix:
  // treat "" like a missing session_id (INVALID_DOCUMENT at the line) or map it.
  it('a capture whose session_id is "" does not yield an empty Common meta.id', () => {
    if (parser) checkText(parser, '{"session_id":""}\n', { tolerateKnownBugs: false });
  });
  it("a number past the double range in a tool input does not reach Common as Infinity", () => {
    const text =
      '{"type":"system","subtype":"init","session_id":"s","cwd":"/","tools":[]}\n' +
      '{"type":"assistant","session_id":"s","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"X","input":{"n":1e400}}]}}\n';
    if (parser) checkText(parser, text, { tolerateKnownBugs: false });
  });
});

describe("amp", () => {
  // Was a bug, fixed in @txcript/amp: amp-to-common.ts formats a skipped message's role with bare
  // JSON.stringify (the unmodeledRole warning); a role nested 100,000 deep
  // throws RangeError out of toCommon. Suggested fix: describe the role by
  // its type (or stringifyJson inside a try) instead of serializing it.
  it("a message whose role is an array 100,000 deep is read or refused with a TxcriptError", () => {
    const parser = parserById("amp");
    const original = readFileSync(path.join(fixturesRoot, "amp/export-thread.json"), "utf8");
    const text = original.replace('"role": "user"', `"role": ${deep(100_000)}`);
    expect(text).not.toBe(original);
    if (parser) checkText(parser, text, { tolerateKnownBugs: false });
  });

  // Was a bug, fixed in @txcript/amp: the Amp codec re-serializes the parsed document, so an integer past
  // 2^53 anywhere in a thread (a tool output's id, say) silently comes back
  // rounded (9007199254740993 → 9007199254740992) on parse → serialize, and in
  // every conversion. Suggested fix: keep the original text and return it
  // when the document is unchanged, or warn (a loss) when an unsafe integer is read.
  it("serialize(parse(s)) keeps an integer past 2^53 exactly", () => {
    const parser = parserById("amp");
    const original = readFileSync(path.join(fixturesRoot, "amp/export-thread.json"), "utf8");
    expect(parser?.codec.serialize(parser.codec.parse(original))).toBe(original);
    const text = original.replace('"created": 1785177254351', '"created": 9007199254740993');
    expect(text).not.toBe(original);
    expect(parser?.codec.serialize(parser.codec.parse(text))).toBe(text);
  });

  // Was a bug, fixed in @txcript/amp: AmpStore.load lstat()s the file only to refuse symlinks, then reads
  // it; a FIFO named like a thread blocks the read forever (`txcript view
  // T-…` hangs). Suggested fix: refuse anything but stat.isFile() with
  // UNSAFE_PATH or IO, as ClaudeCodeStore does.
  it("AmpStore.load of a FIFO named like a thread is refused, not a hang", async () => {
    const subject = storesUnderFault.find((candidate) => candidate.harness === "amp");
    if (!subject) throw new Error("no Amp store");
    const root = await fs.mkdtemp(path.join(tmpdir(), "txcript-fifo-"));
    try {
      const store = subject.make(root);
      const { id, path: file } = await store.save(subject.parse(subject.sampleText("fifo")));
      const { loaded } = await fifoProbe(store, id, file);
      expect(loaded).toMatch(/^refused /);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });

  // Was a bug, fixed in core (parseJson / validation): JSON.parse reads 1e400 as Infinity; the codec carries it into a tool
  // input, which the Common schema (JSON values only) refuses downstream.
  it("a number past the double range in a tool input does not reach Common as Infinity", () => {
    const parser = parserById("amp");
    expect(parser).toBeDefined();
    if (parser)
      checkText(parser, withHugeNumberInToolInput("amp/export-thread.json", '"input": {'), {
        tolerateKnownBugs: false,
      });
  });
});

describe("claude-code", () => {
  it("a number past the double range in a tool input does not reach Common as Infinity", () => {
    const parser = parserById("claude_code");
    expect(parser).toBeDefined();
    if (parser)
      checkText(
        parser,
        withHugeNumberInToolInput("claude-code/split-messages.jsonl", '"input":{'),
        {
          tolerateKnownBugs: false,
        },
      );
  });
});
