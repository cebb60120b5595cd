// Codex opens what we write: the pinned Codex 0.171.0 and 0.142.5 (installed
// on demand by the root setup, never workspace dependencies) read copies of
// sessions fromCommon wrote — from every fixture of every harness, the real
// captures and generated transcripts — offline. `exec resume` must send the
// whole history to a loopback stub; `app-server` must list and read them.
// Each check has a control that fails on a broken file or a missing id.
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  type Block,
  compactionOf,
  lastCompactionIndex,
  type Message,
  type Transcript,
} from "@txcript/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codexCodec } from "./codex-codec.js";
import { codexHarness } from "./codex-harness.js";
import { codexProject } from "./codex-project.js";
import { CodexStore } from "./codex-store.js";
import {
  AppServer,
  execResume,
  fixtureTranscripts,
  generatedTranscripts,
  type NamedTranscript,
  realCodexTranscripts,
  realForeignTranscripts,
  startStub,
} from "./test-support/codex-programs.js";

/** The pinned-program table (scripts/real-programs.mjs, plain JS without types). */
const programs = (await import(
  new URL("../../../scripts/real-programs.mjs", import.meta.url).href
)) as {
  programBin(name: string): string | undefined;
  programSkipReason(name: string): string | undefined;
};

const sessions: NamedTranscript[] = [
  ...fixtureTranscripts(),
  ...realCodexTranscripts(),
  ...(await realForeignTranscripts()),
  ...generatedTranscripts(6),
  {
    // fromCommon keeps lineage as an extra session_meta key: Codex must still take the file.
    name: "with lineage",
    transcript: {
      meta: {
        id: "T-2f0c",
        timestamp: "2026-02-01T00:00:00.000Z",
        lineage: {
          harness: "amp",
          id: "T-2f0c",
          txcriptVersion: "0.1.0",
          convertedAt: "2026-02-02T00:00:00.000Z",
        },
      },
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "where from?" }],
          timestamp: "2026-02-01T00:00:01.000Z",
        },
        {
          role: "assistant",
          content: [{ type: "text", text: "from Amp" }],
          timestamp: "2026-02-01T00:00:02.000Z",
        },
      ],
    },
  },
  {
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
let work: string;
const written = new Map<
  string,
  { id: string; expected: Transcript; source: Transcript; keepsEncrypted: boolean }
>();
const brokenId = "019b0000-0000-7000-8000-00000000b0b0";
const missingId = "019b0000-0000-7000-8000-0000000000aa";

beforeAll(async () => {
  temporary = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-codex-interop-"));
  work = path.join(temporary, "work");
  await fs.mkdir(work, { recursive: true });
  const home = path.join(temporary, "written");
  const store = new CodexStore({ root: home });
  const ids = new Set<string>();
  for (const { name, transcript } of sessions) {
    // The recorded cwd does not exist here: the session moves to one that does, as `continue` does.
    // Fixtures of one capture share a session id; each gets its own here (a name maps to a UUIDv7).
    const id = ids.has(transcript.meta.id.toLowerCase())
      ? `txcript-test ${name}`
      : transcript.meta.id;
    ids.add(id.toLowerCase());
    const moved: Transcript = { ...transcript, meta: { ...transcript.meta, id, cwd: work } };
    // As the CLI writes it: encrypted reasoning kept only for sessions Codex wrote.
    const from =
      name.startsWith("real/codex/") || name.startsWith("codex/")
        ? "codex"
        : (name.split("/")[0] ?? name);
    const options = codexHarness.writeOptions?.({ from }) ?? {};
    const saved = await store.save(codexCodec.fromCommon(moved, options), { overwrite: true });
    written.set(name, {
      id: saved.id,
      expected: codexProject(moved),
      source: moved,
      keepsEncrypted: from === "codex",
    });
  }
  // The control: a written session whose session_meta has a numeric timestamp, which Codex rejects.
  const first = written.values().next().value as { id: string };
  const good = await store.locate(first.id);
  const text = (await fs.readFile(good, "utf8")).replaceAll(first.id, brokenId);
  const broken = text
    .replace(/"timestamp":"[^"]*"/, '"timestamp":1767323045')
    .replace(/"timestamp":"[^"]*"/, '"timestamp":1767323045');
  await fs.writeFile(
    path.join(path.dirname(good), `rollout-2026-01-01T00-00-00-${brokenId}.jsonl`),
    broken,
  );
}, 120_000);

afterAll(async () => {
  await fs.rm(temporary, { recursive: true, force: true });
});

const texts = (blocks: readonly Block[]) =>
  blocks.flatMap((block) => (block.type === "text" ? [block.text] : []));

/**
 * What the model must receive: prompts, answers, calls and the outputs of
 * calls that exist. After a compaction Codex sends its replacement history
 * and what follows; without one, the earlier prompts, the summary and what follows.
 */
function expectations(transcript: Transcript, forModel: boolean) {
  const marker = forModel ? lastCompactionIndex(transcript.messages) : -1;
  const block = marker < 0 ? undefined : compactionOf(transcript.messages[marker] as Message);
  const after = transcript.messages.slice(marker + 1);
  const earlierPrompts =
    block === undefined || block.history !== undefined
      ? []
      : transcript.messages
          .slice(0, marker)
          .filter((message) => message.role === "user" && message.context === undefined);
  const kept = block === undefined ? transcript.messages : [...(block.history ?? []), ...after];
  const conversation = kept.filter((message) => message.context === undefined);
  const user = conversation.filter((message) => message.role === "user");
  const assistant = conversation.filter((message) => message.role === "assistant");
  const calls = assistant.flatMap((message) =>
    message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : [])),
  );
  const outputs = user.flatMap((message) =>
    message.content.flatMap((block) =>
      block.type === "tool_result" && calls.includes(block.toolUseId) ? [block.toolUseId] : [],
    ),
  );
  return {
    prompts: user.flatMap((message) => texts(message.content)),
    /** Prompts before a compaction without history: Codex re-sends their text, one message each joined (0.142.5). */
    earlier: earlierPrompts.flatMap((message) => texts(message.content)),
    answers: assistant.flatMap((message) => texts(message.content)),
    calls,
    outputs,
  };
}

/** Input plus output tokens of the last response that records usage. */
function lastUsageTokens(transcript: Transcript): number {
  const usage = transcript.messages.findLast((message) => message.usage !== undefined)?.usage;
  if (usage === undefined) return 0;
  return (
    usage.inputTokens +
    usage.cacheReadInputTokens +
    usage.cacheCreationInputTokens +
    usage.outputTokens
  );
}

/** Encrypted reasoning OpenAI produced, in messages and in compaction histories. */
function openaiEncrypted(messages: readonly Message[]): string[] {
  return messages.flatMap((message) =>
    message.content.flatMap((block) => {
      if (block.type === "compaction") return openaiEncrypted(block.history ?? []);
      return block.type === "thinking" && block.provider === "openai" && block.encrypted
        ? [block.encrypted]
        : [];
    }),
  );
}

type Item = Record<string, unknown>;
const itemTexts = (item: Item, type: string) =>
  Array.isArray(item.content)
    ? (item.content as Item[]).flatMap((part) =>
        part.type === type && typeof part.text === "string" ? [part.text] : [],
      )
    : [];

for (const program of ["codex", "codex-legacy"] as const) {
  const reason = programs.programSkipReason(program);
  if (reason !== undefined) console.warn(`SKIPPED the ${program} checks: ${reason}`);
  describe.skipIf(reason !== undefined)(
    `${program}: Codex opens sessions fromCommon wrote${reason ? ` (skipped: ${reason})` : ""}`,
    () => {
      let home: string;
      let bin: string;
      let stub: Awaited<ReturnType<typeof startStub>>;
      let server: AppServer;

      beforeAll(async () => {
        bin = programs.programBin(program) as string;
        home = path.join(temporary, `home-${program}`);
        // A copy: resume appends to the file. Times kept, since Codex lists by mtime.
        await fs.cp(path.join(temporary, "written"), home, {
          recursive: true,
          preserveTimestamps: true,
        });
        stub = await startStub();
        server = new AppServer(bin, home, work);
        const started = await server.start();
        expect(started.error, server.stderr.slice(-500)).toBeUndefined();
      }, 60_000);

      afterAll(async () => {
        server?.close();
        await stub?.close();
      });

      it("has sessions from every source", () => {
        const sources = new Set(sessions.map((session) => session.name.split("/")[0]));
        for (const source of ["amp", "claude-code", "codex", "generated #1"])
          expect(sources).toContain(source);
        if (realCodexTranscripts().length > 0) expect(sources).toContain("real");
      });

      describe("exec resume <id> hi sends the whole history to the model", () => {
        for (const { name } of sessions) {
          it(name, async () => {
            const session = written.get(name);
            if (session === undefined) throw new Error(`${name} was not written`);
            const outcome = await execResume(bin, home, work, session.id, stub.url);
            expect(outcome.output).toContain(`session id: ${session.id}`);
            // The turn's first request (Codex may retry once after it exits), by the thread id it carries.
            const request = stub.requests.find(
              (entry) => entry.method === "POST" && entry.body?.prompt_cache_key === session.id,
            );
            expect(
              request,
              `no request reached the stub: ${outcome.output.slice(-600)}`,
            ).toBeDefined();
            const input = (request?.body?.input ?? []) as Item[];
            const sentPrompts = input
              .filter((item) => item.role === "user")
              .flatMap((item) => itemTexts(item, "input_text"));
            const sentAnswers = input
              .filter((item) => item.role === "assistant")
              .flatMap((item) => itemTexts(item, "output_text"));
            const sentCalls = input.flatMap((item) =>
              item.type === "function_call" || item.type === "custom_tool_call"
                ? [item.call_id]
                : [],
            );
            const sentOutputs = input.flatMap((item) =>
              item.type === "function_call_output" || item.type === "custom_tool_call_output"
                ? [item.call_id]
                : [],
            );
            const wanted = expectations(session.expected, true);
            for (const text of wanted.prompts) expect(sentPrompts).toContain(text);
            for (const text of wanted.earlier)
              expect(
                sentPrompts.some((sent) => sent.includes(text)),
                text,
              ).toBe(true);
            for (const text of wanted.answers) expect(sentAnswers).toContain(text);
            for (const id of wanted.calls) expect(sentCalls).toContain(id);
            for (const id of wanted.outputs) expect(sentOutputs).toContain(id);
            // The new prompt comes last, unless the recorded usage fills the context: then Codex compacts first.
            const last = input.at(-1);
            if (last?.type === "compaction_trigger")
              expect(lastUsageTokens(session.source)).toBeGreaterThan(100_000);
            else expect(sentPrompts.at(-1)).toBe("hi");
            // Never encrypted reasoning Codex did not produce.
            const openai = new Set(
              session.keepsEncrypted ? openaiEncrypted(session.source.messages) : [],
            );
            for (const item of input)
              if (item.type === "reasoning" && typeof item.encrypted_content === "string")
                expect(openai.has(item.encrypted_content)).toBe(true);
          }, 60_000);
        }

        it("control: a session_meta with a numeric timestamp is refused, and nothing is sent", async () => {
          const before = stub.requests.filter((entry) => entry.method === "POST").length;
          const outcome = await execResume(bin, home, work, brokenId, stub.url);
          expect(outcome.output).toMatch(
            /does not start with session metadata|is empty|no rollout found/,
          );
          expect(outcome.output).not.toContain(`session id: ${brokenId}`);
          expect(stub.requests.filter((entry) => entry.method === "POST").length).toBe(before);
        }, 60_000);

        it("control: a missing id is not found", async () => {
          const outcome = await execResume(bin, home, work, missingId, stub.url);
          expect(outcome.output).toContain("no rollout found");
          expect(outcome.status).not.toBe(0);
        }, 60_000);
      });

      describe("app-server thread/list and thread/read", () => {
        it("lists every session, and not the broken one", async () => {
          const reply = await server.call("thread/list", { limit: 1000 });
          expect(reply.error, JSON.stringify(reply.error)).toBeUndefined();
          const ids = ((reply.result as { data: { id: string }[] }).data ?? []).map(
            (thread) => thread.id,
          );
          for (const { id } of written.values()) expect(ids).toContain(id);
          expect(ids).not.toContain(brokenId);
        }, 60_000);

        for (const { name } of sessions) {
          it(`reads ${name} with our user and agent messages`, async () => {
            const session = written.get(name);
            if (session === undefined) throw new Error(`${name} was not written`);
            const reply = await server.call("thread/read", {
              threadId: session.id,
              includeTurns: true,
            });
            expect(reply.error, JSON.stringify(reply.error)).toBeUndefined();
            const turns = (reply.result as { thread: { turns: { items: Item[] }[] } }).thread.turns;
            const items = turns.flatMap((turn) => turn.items);
            const users = items
              .filter((item) => item.type === "userMessage")
              .flatMap((item) =>
                (item.content as Item[]).flatMap((part) =>
                  typeof part.text === "string" ? [part.text] : [],
                ),
              )
              .join("\n\n");
            const agents = items
              .flatMap((item) => (item.type === "agentMessage" ? [item.text as string] : []))
              .join("\n\n");
            const wanted = expectations(session.expected, false);
            for (const text of wanted.prompts) expect(users).toContain(text);
            for (const text of wanted.answers) expect(agents).toContain(text);
            expect(items.length).toBeGreaterThan(0);
          }, 60_000);
        }

        it("control: reading the broken file and a missing id fails", async () => {
          for (const id of [brokenId, missingId]) {
            const reply = await server.call("thread/read", { threadId: id, includeTurns: true });
            expect(reply.error).toBeDefined();
          }
        }, 60_000);
      });
    },
  );
}
