// pi reads what we write: the pinned pi (0.73.1, installed on demand into
// node_modules/.cache by the root test setup) opens copies of sessions
// fromCommon wrote — from every fixture's Common document, the real
// captures of pi, Claude Code and Amp, and generated transcripts — in RPC
// mode, offline, and reports our messages, tool pairs and token totals
// without touching the file. Controls show each check failing.
import { promises as fs, readdirSync, readFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Message, Transcript } from "@txcript/core";
import type { AnyCodec } from "@txcript/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { piCodec } from "./pi-codec.js";
import { piProject } from "./pi-project.js";
import { PiStore } from "./pi-store.js";
import {
  documentedContext,
  fixtureTranscripts,
  generatedTranscripts,
  type NamedTranscript,
  offlineAgentDir,
  realDirectory,
  runRpc,
} from "./test-support/pi-rpc.js";

/** Another harness's codec, imported by a name TypeScript does not follow (its source may be mid-change). */
async function codecOf(packageName: string, exportName: string): Promise<AnyCodec | undefined> {
  try {
    const module = (await import(packageName)) as Record<string, AnyCodec>;
    return module[exportName];
  } catch (error) {
    console.warn(`skipping ${packageName} captures: ${String(error).slice(0, 200)}`);
    return undefined;
  }
}

async function realTranscripts(): Promise<NamedTranscript[]> {
  const out: NamedTranscript[] = [];
  const read = (
    directory: string,
    label: string,
    accept: (name: string) => boolean,
    codec: AnyCodec | undefined,
  ) => {
    if (codec === undefined) return;
    let names: string[];
    try {
      names = readdirSync(directory);
    } catch {
      console.warn(`skipping real captures in ${directory}: absent`);
      return;
    }
    for (const name of names.filter(accept).sort()) {
      try {
        const text = readFileSync(path.join(directory, name), "utf8");
        out.push({ name: `real/${label}${name}`, transcript: codec.toCommon(codec.parse(text)) });
      } catch (error) {
        // A capture another harness's codec cannot read yet is its test's business, not this one's.
        console.warn(`skipping real/${label}${name}: ${String(error).slice(0, 200)}`);
      }
    }
  };
  const jsonl = (name: string) => name.endsWith(".jsonl");
  read(path.join(realDirectory, "pi"), "pi/", jsonl, piCodec);
  read(
    path.join(realDirectory, "claude-code"),
    "claude-code/",
    jsonl,
    await codecOf("@txcript/claude-code", "claudeCodeCodec"),
  );
  read(
    realDirectory,
    "",
    (name) => name === "amp-export-convo.json",
    await codecOf("@txcript/amp", "ampCodec"),
  );
  read(
    path.join(realDirectory, "codex"),
    "codex/",
    jsonl,
    await codecOf("@txcript/codex", "codexCodec"),
  );
  read(
    path.join(realDirectory, "opencode"),
    "opencode/",
    (name) => name.endsWith(".json"),
    await codecOf("@txcript/opencode", "opencodeCodec"),
  );
  read(
    path.join(realDirectory, "gemini"),
    "gemini/",
    (name) => /\.jsonl?$/.test(name),
    await codecOf("@txcript/gemini-cli", "geminiCliCodec"),
  );
  return out;
}

const sessions: NamedTranscript[] = [
  ...fixtureTranscripts(),
  ...(await realTranscripts()),
  ...generatedTranscripts(5),
];

const commands = [{ type: "get_state" }, { type: "get_messages" }, { type: "get_session_stats" }];

/** What pi's stats must say, from the projected transcript: the messages pi keeps after the last compaction. */
function expectedFromCommon(transcript: Transcript) {
  const messages = transcript.messages;
  const last = messages.findLastIndex((message) =>
    message.content.some((block) => block.type === "compaction"),
  );
  // pi's context after a compaction: its summary, the messages it kept (its history), and what follows.
  const compaction =
    last < 0 ? undefined : messages[last]?.content.find((block) => block.type === "compaction");
  const kept = compaction?.type === "compaction" ? (compaction.history ?? []) : [];
  const tail: Message[] = [...kept, ...messages.slice(last + 1)];
  const assistants = tail.filter((message) => message.role === "assistant");
  const callIds = assistants.flatMap((message) =>
    message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : [])),
  );
  const resultIds = tail.flatMap((message) =>
    message.content.flatMap((block) => (block.type === "tool_result" ? [block.toolUseId] : [])),
  );
  const sum = (pick: (message: Message) => number) =>
    assistants.reduce((total, message) => total + pick(message), 0);
  return {
    compacted: last >= 0,
    assistantMessages: assistants.length,
    callIds,
    resultIds,
    tokens: {
      input: sum((message) => message.usage?.inputTokens ?? 0),
      output: sum((message) => message.usage?.outputTokens ?? 0),
      cacheRead: sum((message) => message.usage?.cacheReadInputTokens ?? 0),
      cacheWrite: sum((message) => message.usage?.cacheCreationInputTokens ?? 0),
    },
  };
}

interface Written {
  id: string;
  file: string;
  cwd: string;
  agentDir: string;
  home: string;
  text: string;
}

// The table of pinned programs is plain JavaScript with no types: import it by a name TypeScript does not follow.
const programsModule = new URL("../../../scripts/real-programs.mjs", import.meta.url).href;
const programs = (await import(programsModule)) as {
  programBin(name: string): string | undefined;
  programSkipReason(name: string): string | undefined;
};
const skipReason = programs.programSkipReason("pi");
const bin = programs.programBin("pi");
let temporary: string;

beforeAll(async () => {
  temporary = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-pi-rpc-"));
});
afterAll(async () => {
  if (temporary !== undefined) await fs.rm(temporary, { recursive: true, force: true });
});

let ordinal = 0;
/** A fresh offline agent dir holding the session fromCommon writes, saved through PiStore, with its cwd. */
async function writeSession(transcript: Transcript): Promise<Written> {
  const base = path.join(temporary, `run-${++ordinal}`);
  const { agentDir, home } = await offlineAgentDir(base);
  const cwd = path.join(base, "project");
  await fs.mkdir(cwd, { recursive: true });
  const store = new PiStore({ root: path.join(agentDir, "sessions") });
  const saved = await store.save(piCodec.fromCommon(transcript, { cwd }));
  return {
    id: saved.id,
    file: saved.path,
    cwd,
    agentDir,
    home,
    text: await fs.readFile(saved.path, "utf8"),
  };
}

describe.skipIf(skipReason !== undefined)(
  `pi 0.73.1 --mode rpc reads what fromCommon writes${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    it.each(sessions.map((session) => [session.name, session] as const))(
      "%s",
      async (_name, session) => {
        const written = await writeSession(session.transcript);
        const before = await fs.readFile(written.file);
        const run = await runRpc(bin as string, { sessionArg: written.id, ...written, commands });
        expect(run.status, run.stderr).toBe(0);
        // pi neither migrated nor appended anything: the file is byte for byte what we wrote.
        expect((await fs.readFile(written.file)).equals(before)).toBe(true);

        const state = run.responses.get("get_state")?.data as Record<string, unknown>;
        const listed = run.responses.get("get_messages")?.data as
          | { messages: Record<string, unknown>[] }
          | undefined;
        const messages = listed?.messages ?? [];
        const stats = run.responses.get("get_session_stats")?.data as Record<string, unknown>;
        const context = documentedContext(written.text);
        expect(state.sessionId).toBe(written.id);
        expect(state.sessionFile).toBe(written.file);
        expect(state.messageCount).toBe(context.length);
        expect(messages).toEqual(context);

        // And those are the messages of the transcript: its calls, results and tokens since the last compaction.
        const expected = expectedFromCommon(piProject(session.transcript));
        const calls = messages.flatMap((message) =>
          message.role === "assistant"
            ? (message.content as { type: string; id?: string }[]).flatMap((block) =>
                block.type === "toolCall" ? [block.id] : [],
              )
            : [],
        );
        const results = messages.flatMap((message) =>
          message.role === "toolResult" ? [message.toolCallId] : [],
        );
        expect(calls).toEqual(expected.callIds);
        expect(results).toEqual(expected.resultIds);
        expect(stats.assistantMessages).toBe(expected.assistantMessages);
        expect(stats.toolCalls).toBe(expected.callIds.length);
        expect(stats.toolResults).toBe(expected.resultIds.length);
        expect(stats.tokens).toMatchObject(expected.tokens);
        expect(messages[0]?.role === "compactionSummary").toBe(expected.compacted);
      },
    );

    it("control: an unknown id is not found", async () => {
      const written = await writeSession((sessions[0] as NamedTranscript).transcript);
      const run = await runRpc(bin as string, { sessionArg: "deadbeef", ...written, commands });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain("No session found matching 'deadbeef'");
    });

    it("control: a file whose first line is not a session header is not found by its id", async () => {
      const written = await writeSession((sessions[0] as NamedTranscript).transcript);
      await fs.writeFile(written.file, written.text.replace('"type":"session"', '"type":"sessio"'));
      const run = await runRpc(bin as string, { sessionArg: written.id, ...written, commands });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain("No session found");
    });

    it("control: a header without a version (v1) is rewritten, so the byte check can fail", async () => {
      const written = await writeSession((sessions[0] as NamedTranscript).transcript);
      const broken = written.text.replace('"version":3,', "");
      await fs.writeFile(written.file, broken);
      const run = await runRpc(bin as string, { sessionArg: written.id, ...written, commands });
      expect(run.status).toBe(0);
      expect(await fs.readFile(written.file, "utf8")).not.toBe(broken);
    });

    it("reads back byte-exact what pi itself appends (a `!` command, a session name)", async () => {
      const source =
        sessions.find((session) => session.name.startsWith("real/pi/2026")) ??
        (sessions[0] as NamedTranscript);
      const written = await writeSession(source.transcript);
      const run = await runRpc(bin as string, {
        sessionArg: written.id,
        ...written,
        commands: [
          { type: "bash", command: "echo txcript" },
          { type: "set_session_name", name: "named by pi" },
          { type: "get_state" },
        ],
      });
      expect(run.status, run.stderr).toBe(0);
      const after = await fs.readFile(written.file, "utf8");
      expect(after.startsWith(written.text)).toBe(true);
      expect(after.length).toBeGreaterThan(written.text.length);
      expect(piCodec.serialize(piCodec.parse(after))).toBe(after);
      const read = piCodec.toCommon(piCodec.parse(after));
      const ours = piCodec.toCommon(piCodec.parse(written.text));
      expect(read.meta.title).toBe("named by pi");
      expect(read.messages.slice(0, ours.messages.length)).toEqual(ours.messages);
      const appended = read.messages.slice(ours.messages.length);
      expect(appended).toHaveLength(1);
      expect(appended[0]?.context).toEqual({ kind: "injected", source: "bashExecution" });
      expect(appended[0]?.content).toEqual([
        { type: "text", text: "Ran `echo txcript`\n```\ntxcript\n\n```" },
      ]);
    });
  },
);
