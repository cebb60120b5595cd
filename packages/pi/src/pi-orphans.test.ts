// The pinned pi, offline, sends what we write for slash commands (a call on
// a user message, which pi holds as text) with no orphan: in its chat
// completions request every `tool` message follows an assistant message
// whose tool_calls name its id (OpenAI-style APIs reject it otherwise).
// The control writes the command's result back as a toolResult entry, as
// the writer did before pi.orphan-result, and the same check fails on
// pi's request.
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
  temporary = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-pi-orphans-"));
});
afterAll(async () => {
  if (temporary !== undefined) await fs.rm(temporary, { recursive: true, force: true });
});

/** The ids of `tool` messages in a chat completions request with no earlier assistant tool call of that id. */
function orphanToolMessages(request: Record<string, unknown> | undefined): string[] {
  const called = new Set<string>();
  const orphans: string[] = [];
  for (const message of (request?.messages ?? []) as Record<string, unknown>[]) {
    if (message.role === "assistant")
      for (const call of (message.tool_calls ?? []) as { id: string }[]) called.add(call.id);
    if (message.role === "tool" && !called.has(String(message.tool_call_id)))
      orphans.push(String(message.tool_call_id));
  }
  return orphans;
}

/** Write the slash-command fixture as a pi session, optionally edit its text, and have pi send it once. */
async function sentRequest(name: string, edit: (text: string) => string) {
  const source = commonCodec.toCommon(
    commonCodec.parse(
      readFileSync(path.join(repoRoot, "fixtures/claude-code/slash-commands.common.json"), "utf8"),
    ),
  );
  const stub = await startStubModel([{ text: "OK" }, { text: "OK (spare)" }]);
  try {
    const { agentDir, home } = await offlineAgentDir(path.join(temporary, name), stub.baseUrl);
    const cwd = path.join(temporary, name, "project");
    await fs.mkdir(cwd, { recursive: true });
    const store = new PiStore({ root: path.join(agentDir, "sessions") });
    const saved = await store.save(piCodec.fromCommon(source, { cwd }));
    await fs.writeFile(saved.path, edit(await fs.readFile(saved.path, "utf8")));
    const run = await runRpc(bin as string, {
      sessionArg: saved.id,
      cwd,
      agentDir,
      home,
      commands: [{ type: "prompt", message: "Go on.", until: "agent_end" }],
    });
    expect(run.status, run.stderr).toBe(0);
    return stub.requests[0];
  } finally {
    await stub.close();
  }
}

describe.skipIf(skipReason !== undefined)(
  `pi 0.73.1 sends slash commands without an orphan tool message${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    it("every tool message pi sends follows its call, and the command's output is sent as text", async () => {
      const request = await sentRequest("ours", (text) => text);
      expect(request).toBeDefined();
      expect(orphanToolMessages(request)).toEqual([]);
      expect(JSON.stringify(request?.messages)).toContain("[tool result] ");
    }, 120_000);

    it("control: the command's result written as a toolResult entry is sent as an orphan tool message", async () => {
      const request = await sentRequest("control", (text) =>
        text
          .split("\n")
          .map((line) => {
            if (!line.includes("[tool result] ")) return line;
            // The user entry of the result's text, turned back into the toolResult entry it replaced.
            const entry = JSON.parse(line);
            entry.message = {
              role: "toolResult",
              toolCallId: "command-control",
              toolName: "",
              content: [{ type: "text", text: "output" }],
              isError: false,
              timestamp: entry.message.timestamp,
            };
            return JSON.stringify(entry);
          })
          .join("\n"),
      );
      expect(orphanToolMessages(request)).not.toEqual([]);
    }, 120_000);
  },
);
