// Where each harness's store lives, computed from the environment alone:
// the same roots `defaultRegistry.stores(environment)` gives, without
// importing any codec or schema. Each harness package says where its store
// is in its own `./store-root` subpath (node:os and node:path only), which
// its store uses too; this module only lists them in registry order. The
// CLI's search fast path compares these with the roots the index saved, and
// roots.test.ts holds each one to its store's own `root` and `sessionPaths`.
import { ampStoreLocation } from "@txcript/amp/store-root";
import { claudeCodeStoreLocation } from "@txcript/claude-code/store-root";
import { codexStoreLocation } from "@txcript/codex/store-root";
import { copilotCliStoreLocation } from "@txcript/copilot-cli/store-root";
import { crushStoreLocation } from "@txcript/crush/store-root";
import { cursorCliStoreLocation } from "@txcript/cursor-cli/store-root";
import { geminiCliStoreLocation } from "@txcript/gemini-cli/store-root";
import { kimiCliStoreLocation } from "@txcript/kimi-cli/store-root";
import { opencodeStoreLocation } from "@txcript/opencode/store-root";
import { piStoreLocation } from "@txcript/pi/store-root";
import { qwenCodeStoreLocation } from "@txcript/qwen-code/store-root";

type Environment = Record<string, string | undefined>;

/** The harnesses of the default registry that keep a store, in registry order. */
export const storeRootHarnesses = [
  "cursor_cli",
  "amp",
  "opencode",
  "copilot_cli",
  "crush",
  "qwen_code",
  "claude_code",
  "codex",
  "pi",
  "gemini_cli",
  "kimi_cli",
] as const;

const locationOf: Record<
  (typeof storeRootHarnesses)[number],
  (env: Environment) => { root: string; paths?: string[] }
> = {
  cursor_cli: cursorCliStoreLocation,
  amp: ampStoreLocation,
  opencode: opencodeStoreLocation,
  copilot_cli: copilotCliStoreLocation,
  crush: crushStoreLocation,
  qwen_code: qwenCodeStoreLocation,
  claude_code: claudeCodeStoreLocation,
  codex: codexStoreLocation,
  pi: piStoreLocation,
  gemini_cli: geminiCliStoreLocation,
  kimi_cli: kimiCliStoreLocation,
};

/** A store's root, and where under it its sessions lie when not everywhere (Store.sessionPaths). */
export interface StoreRoot {
  harness: string;
  root: string;
  paths?: string[];
}

/** Every store of the default registry, as `{ harness, root, paths? }`, from the environment alone. */
export function storeRoots(environment: Environment): StoreRoot[] {
  return storeRootHarnesses.map((harness) => {
    const { root, paths } = locationOf[harness](environment);
    return { harness, root, ...(paths === undefined ? {} : { paths: [...paths] }) };
  });
}
