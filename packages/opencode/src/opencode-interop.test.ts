// OpenCode takes what we write: the pinned `opencode` (scripts/real-programs.mjs,
// installed on demand into node_modules/.cache) imports sessions our writer
// produced from every fixture of every harness, the real OpenCode exports
// and generated transcripts; lists them; exports them back with our
// messages and parts (compared through Common); and on `run --session`
// sends their whole history, tool call and result included, to a loopback
// stub. Controls show each check failing on a broken file. All offline,
// under a temporary HOME/XDG tree.
import { existsSync, promises as fs, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { commonCodec, type Discovered, type Transcript } from "@txcript/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { opencodeCodec } from "./opencode-codec.js";
import { opencodeHarness } from "./opencode-harness.js";
import { opencodeImport } from "./opencode-import.js";
import { importProblems } from "./opencode-importable.js";
import { listSessions, openReadOnly } from "./opencode-sqlite.js";
import { OpencodeStore } from "./opencode-store.js";
import {
  checksum,
  opencodeBin,
  opencodeSkipReason,
  runOpencode,
  type Sandbox,
  type Stub,
  sandbox,
  startStub,
} from "./test-support/opencode-sandbox.js";
import {
  fixtureTranscripts,
  generatedTranscripts,
  type NamedTranscript,
  realTranscripts,
} from "./test-support/sessions.js";
import { realSkipReason } from "./test-support.js";

if (opencodeSkipReason !== undefined)
  console.warn(`skipping the OpenCode interop checks: ${opencodeSkipReason}`);

const probe: NamedTranscript = {
  name: "probe (tool call and result)",
  transcript: {
    meta: { id: "txcript-probe", timestamp: "2026-11-01T10:00:00.000Z", title: "probe" },
    messages: [
      {
        role: "user",
        timestamp: "2026-11-01T10:00:01.000Z",
        content: [{ type: "text", text: "TXCRIPT_PROBE list the files" }],
      },
      {
        role: "assistant",
        timestamp: "2026-11-01T10:00:02.000Z",
        model: "claude-sonnet-4-5",
        stopReason: "tool_use",
        content: [
          { type: "text", text: "I'll list them." },
          {
            type: "tool_use",
            id: "call_probe_1",
            tool: { name: "Bash", input: { command: "ls", description: "list" } },
          },
        ],
      },
      {
        role: "user",
        timestamp: "2026-11-01T10:00:03.000Z",
        content: [
          {
            type: "tool_result",
            toolUseId: "call_probe_1",
            content: "a.txt\nTXCRIPT_RESULT.txt",
            isError: false,
          },
        ],
      },
      {
        role: "assistant",
        timestamp: "2026-11-01T10:00:04.000Z",
        model: "claude-sonnet-4-5",
        stopReason: "end_turn",
        content: [{ type: "text", text: "There are two files." }],
      },
    ],
  },
};

const generated = generatedTranscripts(2);

/**
 * OpenCode orders messages by time and stamps a new prompt with the current
 * time, so a session whose times lie after now gets the prompt sorted into
 * its past. For `run --session`, one generated session moved to 2025.
 */
function movedToThePast({ name, transcript }: NamedTranscript): NamedTranscript {
  const last = Math.max(
    ...transcript.messages.map((message) => Date.parse(message.timestamp)),
    Date.parse(transcript.meta.timestamp),
  );
  const shift = last - Date.UTC(2025, 5, 1);
  const move = (timestamp: string) => new Date(Date.parse(timestamp) - shift).toISOString();
  return {
    name: `${name}, moved to 2025`,
    transcript: {
      ...transcript,
      meta: { ...transcript.meta, timestamp: move(transcript.meta.timestamp) },
      messages: transcript.messages.map((message) => ({
        ...message,
        timestamp: move(message.timestamp),
      })),
    },
  };
}
const movedIntoThePast = movedToThePast(generated[1] as NamedTranscript);

/**
 * Each session under an id of its own: `opencode import` replaces a session of
 * the same id, and some fixtures share one (a harness's default id for a file
 * that records none, Kimi CLI's loose context files).
 */
function distinctIds(transcripts: NamedTranscript[]): NamedTranscript[] {
  const seen = new Set<string>();
  return transcripts.map((entry, index) => {
    const { id } = entry.transcript.meta;
    if (!seen.has(id)) {
      seen.add(id);
      return entry;
    }
    const unique = `${id}-${index}`;
    seen.add(unique);
    return {
      ...entry,
      transcript: { ...entry.transcript, meta: { ...entry.transcript.meta, id: unique } },
    };
  });
}

const sessions: NamedTranscript[] = distinctIds([
  probe,
  ...fixtureTranscripts(),
  ...realTranscripts(),
  ...generated,
  movedIntoThePast,
]);

interface Written {
  name: string;
  id: string;
  file: string;
  expected: Transcript;
}

describe.skipIf(opencodeSkipReason !== undefined)(
  `the pinned OpenCode imports, lists, exports and continues what we write${opencodeSkipReason ? ` (skipped: ${opencodeSkipReason})` : ""}`,
  () => {
    let box: Sandbox;
    let stub: Stub;
    const written: Written[] = [];
    /** Sessions `run --session` appended a turn to. */
    const continued = new Set<string>();

    beforeAll(async () => {
      stub = await startStub(40, 600_000);
      box = await sandbox(stub.port);
      const files = path.join(box.root, "files");
      await fs.mkdir(files);
      for (const [index, session] of sessions.entries()) {
        const text = opencodeCodec.serialize(opencodeCodec.fromCommon(session.transcript));
        const native = opencodeCodec.parse(text);
        const id = String(native.document.info.id);
        const file = path.join(files, `${index}.json`);
        await fs.writeFile(file, text);
        // import files the session under the directory it runs in.
        const ours = opencodeCodec.toCommon(native);
        written.push({
          name: session.name,
          id,
          file,
          expected: { ...ours, meta: { ...ours.meta, cwd: box.project } },
        });
      }
    }, 60_000);

    afterAll(async () => {
      await stub?.close();
      await box?.dispose();
    });

    it("writes files import's schema accepts (checked by importProblems)", () => {
      for (const session of written)
        expect(
          importProblems(opencodeCodec.parse(readText(session.file)).document),
          session.name,
        ).toEqual([]);
    });

    it("imports every session: `opencode import` exits 0 and names our id", async () => {
      for (const session of written) {
        const ran = await runOpencode(box, ["import", session.file]);
        expect({ name: session.name, status: ran.status, out: ran.stdout.trim() }).toEqual({
          name: session.name,
          status: 0,
          out: `Imported session: ${session.id}`,
        });
      }
    }, 600_000);

    it("lists every imported session in `opencode session list --format json`", async () => {
      const ran = await runOpencode(box, ["session", "list", "--format", "json"]);
      expect(ran.status).toBe(0);
      const listed = new Set((JSON.parse(ran.stdout) as { id: string }[]).map((row) => row.id));
      for (const session of written) expect(listed.has(session.id), session.name).toBe(true);
    }, 120_000);

    it("gives back our messages and parts on `opencode export <id>` (compared through Common)", async () => {
      for (const session of written) {
        const ran = await runOpencode(box, ["export", session.id]);
        expect(ran.status, session.name).toBe(0);
        const back = opencodeCodec.toCommon(opencodeCodec.parse(ran.stdout));
        expect(back, session.name).toEqual(session.expected);
      }
    }, 600_000);

    it("sends the whole history, tool call and result included, on `opencode run --session <id>`", async () => {
      const session = written[0] as Written;
      continued.add(session.id);
      const ran = await runOpencode(box, [
        "run",
        "--session",
        session.id,
        "-m",
        "loop/stub",
        "continue",
      ]);
      expect(ran.status, ran.stderr.slice(-400)).toBe(0);
      expect(ran.stdout).toContain("STUB_OK");
      const request = stub.requests.find((entry) => entry.url.includes("chat/completions"));
      if (request === undefined) throw new Error("the stub received no chat/completions request");
      const messages = (request.body as { messages: Record<string, unknown>[] }).messages;
      const shape = messages.slice(1).map((message) => ({
        role: message.role,
        content: message.content,
        calls: (
          message.tool_calls as
            | { id: string; function: { name: string; arguments: string } }[]
            | undefined
        )?.map((call) => [call.id, call.function.name, JSON.parse(call.function.arguments)]),
        ...(message.tool_call_id === undefined ? {} : { result: message.tool_call_id }),
      }));
      expect(shape).toEqual([
        { role: "user", content: "TXCRIPT_PROBE list the files", calls: undefined },
        {
          role: "assistant",
          content: "I'll list them.",
          calls: [["call_probe_1", "bash", { command: "ls", description: "list" }]],
        },
        {
          role: "tool",
          content: "a.txt\nTXCRIPT_RESULT.txt",
          calls: undefined,
          result: "call_probe_1",
        },
        { role: "assistant", content: "There are two files.", calls: undefined },
        { role: "user", content: "continue", calls: undefined },
      ]);
    }, 120_000);

    it("sends every answered tool call and its result of other sessions on `run --session`", async () => {
      const chosen = written.filter(
        (session) =>
          [
            "fixtures/stream-json/claude-tools.common.json",
            "real/export-1.2.20-codectx.json",
          ].includes(session.name) || session.name === movedIntoThePast.name,
      );
      // The real export is there only where ../shared is (it skips, with a warning, without it).
      expect(chosen.length).toBe(realSkipReason === undefined ? 3 : 2);
      for (const session of chosen) {
        continued.add(session.id);
        const before = stub.requests.length;
        const ran = await runOpencode(box, [
          "run",
          "--session",
          session.id,
          "-m",
          "loop/stub",
          "continue",
        ]);
        expect(ran.status, `${session.name}: ${ran.stderr.slice(-300)}`).toBe(0);
        const request = stub.requests
          .slice(before)
          .find((entry) => entry.url.includes("chat/completions"));
        const messages =
          ((request?.body ?? {}) as { messages?: Record<string, unknown>[] }).messages ?? [];
        const sentCalls = new Set(
          messages.flatMap((message) =>
            ((message.tool_calls as { id: string }[] | undefined) ?? []).map((call) => call.id),
          ),
        );
        const sentResults = new Map(
          messages.flatMap((message) =>
            message.role === "tool" ? [[message.tool_call_id as string, message.content]] : [],
          ),
        );
        const results = session.expected.messages.flatMap((message) =>
          message.content.flatMap((block) => (block.type === "tool_result" ? [block] : [])),
        );
        for (const result of results) {
          expect(sentCalls.has(result.toolUseId), `${session.name}: call ${result.toolUseId}`).toBe(
            true,
          );
          expect(
            sentResults.get(result.toolUseId),
            `${session.name}: result ${result.toolUseId}`,
          ).toBe(result.content);
        }
        console.log(
          `${session.name}: ${results.length} tool results sent back, ${messages.length} messages in the request`,
        );
      }
    }, 600_000);

    it("continues through opencodeHarness: save stages the file, afterSave imports it, the store loads what OpenCode took", async () => {
      const transcript = {
        ...probe.transcript,
        meta: { ...probe.transcript.meta, id: "txcript-probe-harness" },
      };
      const store = opencodeHarness.store?.(box.env) as OpencodeStore;
      expect(store.root).toBe(box.database);
      const staging = new OpencodeStore({ env: box.env, staging: path.join(box.root, "staging") });
      const saved = await staging.save(opencodeCodec.fromCommon(transcript));
      const ours = opencodeCodec.toCommon(opencodeCodec.parse(readText(saved.path)));
      const afterSave = opencodeHarness.afterSave;
      if (afterSave === undefined) throw new Error("opencodeHarness has no afterSave");
      const imported = await afterSave(saved, { environment: box.env, cwd: box.project });
      expect(imported.id).toBe(saved.id);
      // The staged file was a hand-over only: import ran, so it is gone.
      expect(existsSync(saved.path)).toBe(false);
      const back = opencodeCodec.toCommon(await store.load(imported.id));
      expect(back).toEqual({ ...ours, meta: { ...ours.meta, cwd: box.project } });
      expect(opencodeHarness.resumeCommand?.(imported.id)).toEqual([
        "opencode",
        `--session=${imported.id}`,
      ]);
    }, 120_000);

    it("control: an id OpenCode does not have fails export and run", async () => {
      const exported = await runOpencode(box, ["export", "ses_doesnotexist0000000000"]);
      expect(exported.status).not.toBe(0);
      expect(exported.stderr + exported.stdout).toContain("Session not found");
    }, 120_000);

    it("control: a broken file is refused by our check first, and by `opencode import` itself", async () => {
      const session = written[0] as Written;
      const native = opencodeCodec.parse(readText(session.file));
      const entry = native.document.messages[1];
      if (entry === undefined) throw new Error("the probe has no second message");
      entry.info.id = "abc123";
      const broken = path.join(box.root, "broken.json");
      await fs.writeFile(broken, opencodeCodec.serialize(native));
      expect(importProblems(native.document)[0]?.path).toBe("$.messages[1].info.id");
      await expect(opencodeImport(broken, { cwd: box.project, env: box.env })).rejects.toThrow(
        /would reject .*\$\.messages\[1\]\.info\.id.*nothing was imported/,
      );
      const ran = await runOpencode(box, ["import", broken]);
      expect(ran.status).not.toBe(0);
      expect(ran.stderr + ran.stdout).toContain('Expected a string starting with "msg"');
    }, 120_000);

    it("control: when import fails mid-way, opencodeImport names what it left in the database", async () => {
      const transcript = {
        ...probe.transcript,
        meta: { ...probe.transcript.meta, id: "txcript-probe-midway" },
      };
      const native = opencodeCodec.fromCommon(transcript);
      const second = native.document.messages[1];
      if (second === undefined) throw new Error("the probe has no second message");
      // A wrong type in a field our check leaves to OpenCode: import decodes message 0, writes it, then fails.
      second.info.variant = 5;
      const file = path.join(box.root, "midway.json");
      await fs.writeFile(file, opencodeCodec.serialize(native));
      expect(importProblems(native.document)).toEqual([]);
      const parts = native.document.messages.reduce((sum, entry) => sum + entry.parts.length, 0);
      const firstParts = native.document.messages[0]?.parts.length ?? 0;
      await expect(
        opencodeImport(file, { cwd: box.project, env: box.env, bin: opencodeBin as string }),
      ).rejects.toThrow(
        new RegExp(
          `left in .*: the session row, 1 of ${native.document.messages.length} messages and ${firstParts} of ${parts} parts`,
        ),
      );
    }, 120_000);

    it("the store reads a live database OpenCode is writing: a session still only in the -wal file is listed and converted, and OpenCode finishes unhindered", async () => {
      const release = stub.hold();
      const seen = stub.requests.length;
      const live = runOpencode(box, ["run", "-m", "loop/stub", "TXCRIPT_LIVE a new session"]);
      let walOnly: Discovered[] = [];
      let inMainFile = new Set<string>();
      let transcript: Transcript | undefined;
      try {
        const deadline = Date.now() + 60_000;
        while (stub.requests.length === seen && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 200));
        // The main file alone, as a reader that ignores -wal would see it.
        const alone = path.join(box.root, "alone");
        await fs.mkdir(alone, { recursive: true });
        await fs.copyFile(box.database, path.join(alone, "opencode.db"));
        const withoutWal = await openReadOnly(path.join(alone, "opencode.db"));
        inMainFile = new Set(listSessions(withoutWal).map((row) => row.id));
        withoutWal.close();
        const store = new OpencodeStore({
          root: box.database,
          storage: path.join(box.root, "no-storage"),
        });
        const listed: Discovered[] = [];
        for await (const found of store.discover()) listed.push(found);
        walOnly = listed.filter((found) => !inMainFile.has(found.id));
        const first = walOnly[0];
        if (first !== undefined) transcript = opencodeCodec.toCommon(await store.load(first.id));
        console.log(
          `while OpenCode is mid-turn: ${walOnly.length} session(s) only in the -wal file (${statSync(`${box.database}-wal`).size} bytes), ${inMainFile.size} in the main file`,
        );
      } finally {
        release();
      }
      const ran = await live;
      expect(stub.requests.length, "OpenCode reached the model").toBeGreaterThan(seen);
      expect(walOnly.length).toBe(1);
      const prompt = transcript?.messages[0]?.content[0];
      expect(prompt?.type === "text" ? prompt.text : prompt).toContain(
        "TXCRIPT_LIVE a new session",
      );
      expect(ran.status, ran.stderr.slice(-400)).toBe(0);
      expect(ran.stdout).toContain("STUB_OK");
    }, 180_000);

    it("the store lists every session and converts them as OpenCode exports them, changing no byte of the database", async () => {
      const files = [box.database, `${box.database}-wal`];
      const before = files.map(checksum);
      const shmBefore = checksum(`${box.database}-shm`);
      const store = new OpencodeStore({
        root: box.database,
        storage: path.join(box.root, "no-storage"),
      });
      const listed = new Map<string, Discovered>();
      for await (const found of store.discover()) listed.set(found.id, found);
      for (const session of written) {
        expect(listed.has(session.id), session.name).toBe(true);
        const transcript = opencodeCodec.toCommon(await store.load(session.id));
        // `run --session` appended a turn: what we wrote is its start.
        if (continued.has(session.id))
          expect(transcript.messages.slice(0, session.expected.messages.length)).toEqual(
            session.expected.messages,
          );
        else expect(transcript, session.name).toEqual(session.expected);
        commonCodec.serialize(commonCodec.fromCommon(transcript));
      }
      expect(files.map(checksum)).toEqual(before);
      console.log(
        `after list/load/convert of ${written.length} sessions: opencode.db and -wal unchanged (sha256); -shm ${checksum(`${box.database}-shm`) === shmBefore ? "unchanged" : "changed"}`,
      );
    }, 120_000);
  },
);

function readText(file: string): string {
  return readFileSync(file, "utf8");
}
