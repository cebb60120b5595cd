// Claude Code finds what we write: the pinned `claude` (scripts/real-programs.mjs;
// the root test setup installs it into node_modules/.cache, never a workspace
// dependency) resumes copies of sessions fromCommon wrote — from every Amp,
// stream-json and Claude Code fixture (the 2.x store one with its subagent
// file too), the real captures and generated transcripts — offline. Found
// and loaded, it fails on the connection; not found, it says "No
// conversation found". A missing binary skips every case with the reason.
import { promises as fs, readFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fromLastCompaction, type Transcript } from "@txcript/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claudeCodeCodec } from "./claude-code-codec.js";
import { claudeCodeProject } from "./claude-code-project.js";
import { ClaudeCodeStore } from "./claude-code-store.js";
import {
  claudeCodeVersion,
  ensureClaude,
  fixtureTranscripts,
  generatedTranscripts,
  type NamedTranscript,
  realClaudeTranscripts,
  realDirectory,
  resumeCaptured,
  resumeOffline,
} from "./test-support/interop.js";

/** The real Amp run, as a thread export and as its stream-json capture, through their codecs. */
async function realAmpTranscripts(): Promise<NamedTranscript[]> {
  const out: NamedTranscript[] = [];
  try {
    const { ampCodec } = await import("@txcript/amp");
    const text = readFileSync(path.join(realDirectory, "amp-export-convo.json"), "utf8");
    out.push({
      name: "real/amp-export-convo.json",
      transcript: ampCodec.toCommon(ampCodec.parse(text)),
    });
  } catch (error) {
    console.warn(`skipping the real Amp export: ${String(error).slice(0, 200)}`);
  }
  try {
    const { streamJsonCodec } = await import("@txcript/stream-json");
    const text = readFileSync(path.join(realDirectory, "amp-stream-same-run.jsonl"), "utf8");
    const transcript = streamJsonCodec.toCommon(streamJsonCodec.parse(text), {
      startTime: new Date("2026-07-01T00:00:00.000Z"),
    });
    out.push({ name: "real/amp-stream-same-run.jsonl", transcript });
  } catch (error) {
    console.warn(`skipping the real Amp stream-json capture: ${String(error).slice(0, 200)}`);
  }
  return out;
}

const sessions: NamedTranscript[] = [
  ...fixtureTranscripts(["amp", "stream-json", "claude-code", "claude-code/store"]),
  ...realClaudeTranscripts(),
  ...(await realAmpTranscripts()),
  ...generatedTranscripts(6),
  {
    // Nothing but the required fields: no cwd (the store is told where), version, model or usage.
    name: "minimal (no cwd, version or model)",
    transcript: {
      meta: { id: "minimal", timestamp: "2026-01-01T00:00:00.000Z" },
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "hello" }],
          timestamp: "2026-01-01T00:00:01.000Z",
        },
        {
          role: "assistant",
          content: [{ type: "text", text: "hi there" }],
          timestamp: "2026-01-01T00:00:02.000Z",
        },
      ],
    },
  },
];

let temporary: string;
let bin: string | undefined;
let skipReason: string | undefined;
let work: string;
/** Written sessions: where the test wrote them, and the copy Claude Code may append to. */
const written = new Map<string, { id: string; cwd: string; transcript: Transcript }>();

beforeAll(async () => {
  temporary = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-claude-resume-"));
  work = path.join(temporary, "work");
  // A cwd longer than Claude Code's 200-character directory names, to prove the munging.
  const deep = path.join(temporary, "d".repeat(120), "e".repeat(120));
  await fs.mkdir(work, { recursive: true });
  await fs.mkdir(deep, { recursive: true });
  const store = new ClaudeCodeStore({ root: path.join(temporary, "written", "projects") });
  for (const [index, { name, transcript }] of sessions.entries()) {
    const cwd = index % 5 === 4 ? deep : work;
    // The recorded cwd does not exist here: the session moves to one that does, as `continue` does.
    const moved: Transcript =
      transcript.meta.cwd === undefined && name.startsWith("minimal")
        ? transcript
        : { ...transcript, meta: { ...transcript.meta, cwd } };
    const saved = await store.save(claudeCodeCodec.fromCommon(moved), { overwrite: true, cwd });
    written.set(name, { id: saved.id, cwd, transcript: moved });
  }
  await fs.cp(path.join(temporary, "written"), path.join(temporary, "copy"), { recursive: true });
  const found = ensureClaude();
  if ("skip" in found) {
    skipReason = found.skip;
    console.warn(`SKIPPED Claude Code resume interop: ${skipReason}`);
  } else bin = found.bin;
}, 300_000);

afterAll(async () => {
  await fs.rm(temporary, { recursive: true, force: true });
});

describe(`claude ${claudeCodeVersion} -p --resume <id> finds sessions fromCommon wrote`, () => {
  it("has sessions from every source", () => {
    const names = sessions.map((session) => session.name.split("/")[0]);
    for (const source of ["amp", "stream-json", "claude-code", "generated #1"])
      expect(names).toContain(source);
  });
  for (const { name } of sessions) {
    it(`loads ${name}`, (context) => {
      if (bin === undefined) {
        context.skip(skipReason);
        return;
      }
      const session = written.get(name);
      if (session === undefined) throw new Error(`${name} was not written`);
      const outcome = resumeOffline(bin, path.join(temporary, "copy"), session.cwd, session.id);
      expect(outcome.output).not.toContain("No conversation found");
      expect(outcome.output).toMatch(/ECONNREFUSED|Connection refused|Unable to connect/);
      expect(outcome.status).not.toBe(0);
    });
  }
  it("says so when the session is not there (the probe can fail)", (context) => {
    if (bin === undefined) {
      context.skip(skipReason);
      return;
    }
    const outcome = resumeOffline(
      bin,
      path.join(temporary, "copy"),
      work,
      "00000000-0000-4000-8000-000000000000",
    );
    expect(outcome.output).toContain("No conversation found with session ID");
  });
});

type ApiBlock = {
  type?: string;
  id?: string;
  tool_use_id?: string;
  signature?: unknown;
  text?: string;
};

/** Sessions whose API request the capture test inspects (a few: each run takes seconds). */
const captured = sessions.filter(
  ({ name }) =>
    name.startsWith("real/amp") ||
    name.startsWith("amp/") ||
    name === "stream-json/claude-tools.common.json" ||
    name === "claude-code/compaction-missing-parent.common.json" ||
    name.startsWith("claude-code/store/") ||
    name === "generated #6",
);

describe("Claude Code sends the whole written history, as the API accepts it", () => {
  for (const { name } of captured) {
    it(`sends ${name}`, async (context) => {
      if (bin === undefined) {
        context.skip(skipReason);
        return;
      }
      const session = written.get(name);
      if (session === undefined) throw new Error(`${name} was not written`);
      const { output, requests } = await resumeCaptured(
        bin,
        path.join(temporary, "copy"),
        session.cwd,
        session.id,
      );
      expect(output).not.toContain("No conversation found");
      const request = requests.find(
        (entry) => entry.url.startsWith("/v1/messages") && entry.body.messages,
      );
      expect(request, `no Messages API request; output: ${output.slice(0, 300)}`).toBeDefined();
      const messages = (request?.body.messages ?? []).map((message) => ({
        role: message.role,
        blocks: (Array.isArray(message.content)
          ? message.content
          : [{ type: "text", text: message.content }]) as ApiBlock[],
      }));
      // Every call is answered in the next user message, and no thinking goes unsigned.
      messages.forEach((message, index) => {
        for (const block of message.blocks)
          if (block.type === "thinking") expect(typeof block.signature).toBe("string");
        if (message.role !== "assistant") return;
        const next = messages.slice(index + 1).find((candidate) => candidate.role !== "system");
        for (const call of message.blocks.filter((block) => block.type === "tool_use")) {
          expect(next?.role).toBe("user");
          expect(next?.blocks.map((block) => block.tool_use_id)).toContain(call.id);
        }
      });
      // History intact: every call of the written conversation since its last compaction
      // reaches the model (at a compact boundary Claude Code sends the summary instead).
      const sent = new Set(messages.flatMap((message) => message.blocks.map((block) => block.id)));
      const calls = fromLastCompaction(claudeCodeProject(session.transcript)).messages.flatMap(
        (message) =>
          message.role === "assistant"
            ? message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : []))
            : [],
      );
      for (const call of calls) expect(sent.has(call)).toBe(true);
      // What came before the last compaction, and what subagents did, is not sent: Claude
      // Code reads the written boundary as its own, and the sidechain lines as sidechains.
      const projected = claudeCodeProject(session.transcript);
      const cut = projected.messages.length - fromLastCompaction(projected).messages.length;
      const unsent = [
        ...projected.messages.slice(0, cut),
        ...(projected.subagents ?? []).flatMap((subagent) => subagent.messages),
      ].flatMap((message) =>
        message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : [])),
      );
      for (const call of unsent) expect(sent.has(call), call).toBe(false);
      if (name.startsWith("claude-code/")) expect(unsent.length).toBeGreaterThan(0);
      if (name.startsWith("real/amp-export")) expect(calls.length).toBeGreaterThan(5);
      // And the new prompt comes after it.
      const prompts = messages.filter((message) => message.role === "user");
      expect(prompts.at(-1)?.blocks.some((block) => block.text === "hi")).toBe(true);
    });
  }
});
