// Which harness wrote a text, without loading a codec or a schema: each
// harness package's own detection in its `./sniff` subpath (no runtime
// import but the language's), the very function its codec's `detect` is,
// listed here in the registry's detection order with the harness's names
// (id and aliases). The CLI sniffs with these, then imports the one harness
// that matched (lazy.ts). sniffs.test.ts holds the list to the registry:
// the same ids in the same order, the same names, each sniff its codec's
// detect.
import { ampSniff } from "@txcript/amp/sniff";
import { claudeCodeSniff } from "@txcript/claude-code/sniff";
import { codexSniff } from "@txcript/codex/sniff";
import { copilotCliSniff } from "@txcript/copilot-cli/sniff";
import { commonSniff } from "@txcript/core/sniff";
import { crushSniff } from "@txcript/crush/sniff";
import { cursorCliSniff } from "@txcript/cursor-cli/sniff";
import { geminiCliSniff } from "@txcript/gemini-cli/sniff";
import { kimiCliSniff } from "@txcript/kimi-cli/sniff";
import { opencodeSniff } from "@txcript/opencode/sniff";
import { piSniff } from "@txcript/pi/sniff";
import { qwenCodeSniff } from "@txcript/qwen-code/sniff";
import { streamJsonSniff } from "@txcript/stream-json/sniff";

/** One harness of the default registry as detection and name lookup see it. */
export interface HarnessSniff {
  id: string;
  /** The harness's id, then its aliases (HarnessDefinition.aliases). */
  names: readonly string[];
  /** Its codec's `detect`. */
  sniff: (text: string) => boolean;
}

/** Every harness of the default registry, in its detection order (index.ts). */
export const harnessSniffs: readonly HarnessSniff[] = [
  { id: "common", names: ["common", "txcript", "common-json"], sniff: commonSniff },
  {
    id: "cursor_cli",
    names: ["cursor_cli", "cursor", "cursor-agent", "cursor-cli"],
    sniff: cursorCliSniff,
  },
  { id: "amp", names: ["amp", "amp-thread", "sourcegraph-amp"], sniff: ampSniff },
  { id: "opencode", names: ["opencode", "open-code", "oc", "sst-opencode"], sniff: opencodeSniff },
  {
    id: "copilot_cli",
    names: ["copilot_cli", "copilot", "copilot-cli", "github-copilot", "github-copilot-cli"],
    sniff: copilotCliSniff,
  },
  { id: "crush", names: ["crush", "charm-crush", "charmbracelet-crush"], sniff: crushSniff },
  { id: "qwen_code", names: ["qwen_code", "qwen", "qwen-code", "qwencode"], sniff: qwenCodeSniff },
  {
    id: "claude_code",
    names: ["claude_code", "claude", "claude-code", "claudecode", "cc"],
    sniff: claudeCodeSniff,
  },
  { id: "codex", names: ["codex", "codex-cli", "openai-codex"], sniff: codexSniff },
  { id: "pi", names: ["pi", "pi-coding-agent", "pi_coding_agent", "pi-mono"], sniff: piSniff },
  {
    id: "gemini_cli",
    names: ["gemini_cli", "gemini", "gemini-cli", "geminicli"],
    sniff: geminiCliSniff,
  },
  {
    id: "kimi_cli",
    names: ["kimi_cli", "kimi", "kimi-cli", "kimicli", "kimi-code"],
    sniff: kimiCliSniff,
  },
  {
    id: "stream_json",
    names: ["stream_json", "stream-json", "streamjson", "jsonl-stream"],
    sniff: streamJsonSniff,
  },
];

/** The id of the first harness (in detection order) whose sniff recognizes the text, if any. */
export function sniffHarness(text: string): string | undefined {
  for (const { id, sniff } of harnessSniffs) if (sniff(text)) return id;
  return undefined;
}

function normalizeName(name: string): string {
  return name.trim().toLowerCase().replaceAll("-", "_");
}

/** The id of the harness a name (id or alias; case-insensitive, `-` and `_` alike) names, if any. */
export function harnessIdOf(name: string): string | undefined {
  const wanted = normalizeName(name);
  return harnessSniffs.find((entry) => entry.names.some((known) => normalizeName(known) === wanted))
    ?.id;
}
