// Test support for the real-program checks (not shipped): the pinned
// Copilot CLI from scripts/real-programs.mjs, or the reason its checks skip,
// and a transcript that exercises what the writer writes (prompts, an
// answer, reasoning, a tool call and its result). Nothing here fakes a result.
import type { Transcript } from "@txcript/core";
import { programBin, programSkipReason, realPrograms } from "../../../../scripts/real-programs.mjs";

export const copilotVersion: string =
  (realPrograms as Record<string, { version: string }>).copilot?.version ?? "?";

/** The pinned `copilot` bin, or the reason its checks skip. */
export function copilotBin(): { bin: string } | { skip: string } {
  const bin = programBin("copilot") as string | undefined;
  return bin === undefined ? { skip: programSkipReason("copilot") as string } : { bin };
}

/** A conversation with every kind of block the event log carries, in `cwd`. */
export function exchange(id: string, cwd: string): Transcript {
  const at = (second: number) => `2026-11-30T10:00:${String(second).padStart(2, "0")}.000Z`;
  return {
    meta: { id, timestamp: at(0), cwd, title: "txcript interop" },
    messages: [
      {
        role: "user",
        content: [{ type: "text", text: "Remember the word PAPAYA-7731." }],
        timestamp: at(1),
      },
      {
        role: "assistant",
        content: [
          { type: "thinking", text: "The user wants a word kept." },
          { type: "text", text: "Noted: PAPAYA-7731. Let me check the directory." },
          {
            type: "tool_use",
            id: "call_txcript_1",
            tool: { name: "Bash", input: { command: "ls", description: "List files" } },
          },
        ],
        timestamp: at(2),
        model: "txcript-stub-model",
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            toolUseId: "call_txcript_1",
            content: "KIWI-4410.txt",
            isError: false,
          },
        ],
        timestamp: at(3),
      },
      {
        role: "assistant",
        content: [{ type: "text", text: "The directory holds KIWI-4410.txt." }],
        timestamp: at(4),
      },
    ],
  };
}
