// pi continues what we write, and we read what pi then writes: the pinned pi
// opens a session converted from a Claude Code fixture, sends its history to
// a stub model on 127.0.0.1 (which answers with a bash call, then text, then
// a compaction summary), runs the call, compacts, and appends all of it to
// the file. The file reads back byte-exact, our part unchanged, pi's part as
// the messages, tool pair and compaction it holds.
import { promises as fs, readFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { commonCodec } from "@txcript/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { piCodec } from "./pi-codec.js";
import { PiStore } from "./pi-store.js";
import { offlineAgentDir, repoRoot, runRpc } from "./test-support/pi-rpc.js";
import { startStubModel } from "./test-support/stub-model.js";

const programsModule = new URL("../../../scripts/real-programs.mjs", import.meta.url).href;
const programs = (await import(programsModule)) as {
  programBin(name: string): string | undefined;
  programSkipReason(name: string): string | undefined;
};
const skipReason = programs.programSkipReason("pi");
const bin = programs.programBin("pi");

let temporary: string;
beforeAll(async () => {
  temporary = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-pi-continue-"));
});
afterAll(async () => {
  if (temporary !== undefined) await fs.rm(temporary, { recursive: true, force: true });
});

describe.skipIf(skipReason !== undefined)(
  `pi 0.73.1 continues a converted session${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    it("sends our history to the model, and what it appends reads back byte-exact", async () => {
      const source = commonCodec.toCommon(
        commonCodec.parse(
          readFileSync(
            path.join(repoRoot, "fixtures/claude-code/split-messages.common.json"),
            "utf8",
          ),
        ),
      );
      const stub = await startStubModel([
        { toolCall: { id: "call_stub_1", name: "bash", arguments: { command: "echo from-pi" } } },
        { text: "Done: it printed from-pi." },
        { text: "SUMMARY: the user asked for an echo." },
        { text: "SUMMARY (spare)" },
      ]);
      try {
        const { agentDir, home } = await offlineAgentDir(temporary, stub.baseUrl);
        const cwd = path.join(temporary, "project");
        await fs.mkdir(cwd, { recursive: true });
        const store = new PiStore({ root: path.join(agentDir, "sessions") });
        const saved = await store.save(piCodec.fromCommon(source, { cwd }));
        const ours = await fs.readFile(saved.path, "utf8");

        const run = await runRpc(bin as string, {
          sessionArg: saved.id,
          cwd,
          agentDir,
          home,
          commands: [
            { type: "prompt", message: "Run echo from-pi.", until: "agent_end" },
            { type: "compact" },
            { type: "get_state" },
          ],
        });
        expect(run.status, run.stderr).toBe(0);
        expect(
          run.responses.get("compact")?.success,
          JSON.stringify(run.responses.get("compact")),
        ).toBe(true);

        // The first request carried the converted conversation: its first prompt and its last reply.
        const sent = JSON.stringify(stub.requests[0]?.messages);
        const firstPrompt = source.messages[0]?.content.find((block) => block.type === "text");
        expect(
          firstPrompt?.type === "text" &&
            sent.includes(JSON.stringify(firstPrompt.text).slice(1, -1)),
        ).toBe(true);
        expect(sent).toContain("Run echo from-pi.");

        const after = await fs.readFile(saved.path, "utf8");
        expect(after.startsWith(ours)).toBe(true);
        expect(piCodec.serialize(piCodec.parse(after))).toBe(after);
        const before = piCodec.toCommon(piCodec.parse(ours));
        const read = piCodec.toCommon(piCodec.parse(after));
        expect(read.messages.slice(0, before.messages.length)).toEqual(before.messages);
        const added = read.messages.slice(before.messages.length);
        expect(added.map((message) => message.content.map((block) => block.type))).toEqual([
          ["text"],
          ["tool_use"],
          ["tool_result"],
          ["text"],
          ["compaction"],
        ]);
        expect(added[1]?.content[0]).toEqual({
          type: "tool_use",
          id: "call_stub_1",
          tool: { name: "Bash", input: { command: "echo from-pi" } },
        });
        expect(added[2]?.content[0]).toMatchObject({
          type: "tool_result",
          toolUseId: "call_stub_1",
          isError: false,
        });
        expect(JSON.stringify(added[2]?.content[0])).toContain("from-pi");
        expect(added[3]).toMatchObject({
          role: "assistant",
          model: "fake-1",
          stopReason: "end_turn",
        });
        expect(added[1]?.usage).toMatchObject({ inputTokens: 101, outputTokens: 11 });
        expect(added[4]?.content[0]).toMatchObject({
          type: "compaction",
          summary: expect.stringContaining("SUMMARY"),
        });
      } finally {
        await stub.close();
      }
    });
  },
);
