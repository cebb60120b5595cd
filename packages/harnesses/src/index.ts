// The one list of harnesses txcript knows, in detection order (the most
// specific sniff first). Adding a harness is one import and one entry here;
// the CLI, the fuzz targets, the stores under fault, the bench and the
// cross-harness laws all read this registry and nothing else.
import { ampHarness } from "@txcript/amp";
import { claudeCodeHarness } from "@txcript/claude-code";
import { codexHarness } from "@txcript/codex";
import { copilotCliHarness } from "@txcript/copilot-cli";
import { type AnyHarness, commonHarness, HarnessRegistry } from "@txcript/core";
import { crushHarness } from "@txcript/crush";
import { cursorCliHarness } from "@txcript/cursor-cli";
import { geminiCliHarness } from "@txcript/gemini-cli";
import { kimiCliHarness } from "@txcript/kimi-cli";
import { opencodeHarness } from "@txcript/opencode";
import { piHarness } from "@txcript/pi";
import { qwenCodeHarness } from "@txcript/qwen-code";
import { streamJsonHarness } from "@txcript/stream-json";

export const harnessDefinitions: readonly AnyHarness[] = [
  commonHarness,
  // txcript's Cursor CLI chat document opens with its own marker key; nothing else has it.
  cursorCliHarness,
  ampHarness,
  opencodeHarness,
  copilotCliHarness,
  // A dump of Crush rows: a JSON object whose session row has Crush-only columns.
  crushHarness,
  // Before Claude Code: a Qwen Code record has uuid, parentUuid, sessionId and type too (with Gemini-style parts).
  qwenCodeHarness,
  claudeCodeHarness,
  codexHarness,
  piHarness,
  geminiCliHarness,
  // A Kimi CLI line has a role and no type, uuid or message: no earlier format's lines are like it.
  kimiCliHarness,
  streamJsonHarness,
];

export const defaultRegistry = new HarnessRegistry(harnessDefinitions);

/** A harness id's package and fixtures directory name: "_" spelled "-" (claude_code → claude-code). */
export function harnessDirectory(id: string): string {
  return id.replaceAll("_", "-");
}
