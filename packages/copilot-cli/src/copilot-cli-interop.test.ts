// The real Copilot CLI (pinned in scripts/real-programs.mjs) resumes what
// the store saves: offline, in BYOK mode against a chat completions stub on
// 127.0.0.1, `copilot --resume=<id> -p …` loads the written event log and
// its model request carries the whole conversation — the prompt, the
// answer, the tool call with its id and arguments, and the tool result.
// The controls: the same log broken after saving is refused, and so is an
// id that is not in the store; neither reaches the model.
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copilotCliCodec } from "./copilot-cli-codec.js";
import { CopilotCliStore } from "./copilot-cli-store.js";
import { copilotCacheHome, runCopilot, startChatStub } from "./copilot-cli-verify.js";
import { copilotBin, copilotVersion, exchange } from "./test-support/interop.js";

const found = copilotBin();
const bin = "bin" in found ? found.bin : undefined;
const reason = "skip" in found ? found.skip : "";
if (bin === undefined) console.warn(`SKIPPED the Copilot CLI interop checks: ${reason}`);

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-copilot-interop-"));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const id = "3b0f6a52-6f0e-4f43-9a55-0c7f1d2e8a10";

async function resume(label: string, resumeId: string, breakIt = false) {
  const cwd = path.join(root, label, "work");
  await fs.mkdir(cwd, { recursive: true });
  const store = new CopilotCliStore({ root: path.join(root, label, "copilot") });
  const saved = await store.save(copilotCliCodec.fromCommon(exchange(id, cwd)));
  if (breakIt) await fs.writeFile(saved.path, '{"type":"session.start","data":{not json\n');
  const stub = await startChatStub(6, 150_000);
  try {
    const run = await runCopilot(
      bin as string,
      {
        copilotHome: store.root,
        home: path.join(root, label, "home"),
        cacheHome: copilotCacheHome(),
        cwd,
        baseUrl: stub.baseUrl,
      },
      [`--resume=${resumeId}`, "-p", "What word did I ask you to remember?", "--allow-all-tools"],
      120_000,
    );
    return { run, requests: [...stub.requests] };
  } finally {
    await stub.close();
  }
}

describe.skipIf(bin === undefined)(
  `copilot ${copilotVersion}: resumes what txcript writes${bin === undefined ? ` (skipped: ${reason})` : ""}`,
  () => {
    it("sends the saved conversation to the model, tool call and result included", async () => {
      const { run, requests } = await resume("good", id);
      expect(run.status, run.output.slice(-600)).toBe(0);
      expect(requests.length).toBeGreaterThan(0);
      const messages = (requests[0] as { messages: Record<string, unknown>[] }).messages;
      const roles = messages.map((message) => message.role);
      // system, the saved prompt, the answer with its call, the result, the answer, the new prompt.
      expect(roles).toEqual(["system", "user", "assistant", "tool", "assistant", "user"]);
      expect(messages[1]?.content).toBe("Remember the word PAPAYA-7731.");
      expect(messages[2]?.content).toBe("Noted: PAPAYA-7731. Let me check the directory.");
      expect(messages[2]?.tool_calls).toEqual([
        {
          id: "call_txcript_1",
          type: "function",
          function: {
            name: "bash",
            arguments: JSON.stringify({ command: "ls", description: "List files" }),
          },
        },
      ]);
      expect(messages[3]).toMatchObject({
        role: "tool",
        tool_call_id: "call_txcript_1",
        content: "KIWI-4410.txt",
      });
      expect(messages[4]?.content).toBe("The directory holds KIWI-4410.txt.");
      expect(String(messages[5]?.content)).toContain("What word did I ask you to remember?");
    }, 200_000);

    it("refuses the same log broken after saving, before any model request (the control)", async () => {
      const { run, requests } = await resume("broken", id, true);
      expect(run.status).not.toBe(0);
      expect(run.output).toMatch(/could not be loaded|corrupted/);
      expect(requests).toEqual([]);
    }, 200_000);

    it("refuses an id that is not in the store (the control)", async () => {
      const { run, requests } = await resume("missing", "00000000-0000-4000-8000-000000000000");
      expect(run.status).not.toBe(0);
      expect(requests).toEqual([]);
    }, 200_000);
  },
);
