// Each harness (and each that keeps a store), loaded on its own: `import()` of that one
// package, so a program that needs one harness (the CLI's search after one
// store changed) compiles that harness's code and not every codec's. The
// registry (index.ts) stays the one list; lazy.test.ts holds every loader
// to the registry's harness of that id.
import type { AnyHarness } from "@txcript/core";
import type { storeRootHarnesses } from "./roots.js";

/** The harness of each store of the default registry, by id, imported when first asked for. */
export const storeHarnessLoaders: Record<
  (typeof storeRootHarnesses)[number],
  () => Promise<AnyHarness>
> = {
  cursor_cli: async () => (await import("@txcript/cursor-cli")).cursorCliHarness,
  amp: async () => (await import("@txcript/amp")).ampHarness,
  opencode: async () => (await import("@txcript/opencode")).opencodeHarness,
  copilot_cli: async () => (await import("@txcript/copilot-cli")).copilotCliHarness,
  crush: async () => (await import("@txcript/crush")).crushHarness,
  qwen_code: async () => (await import("@txcript/qwen-code")).qwenCodeHarness,
  claude_code: async () => (await import("@txcript/claude-code")).claudeCodeHarness,
  codex: async () => (await import("@txcript/codex")).codexHarness,
  pi: async () => (await import("@txcript/pi")).piHarness,
  gemini_cli: async () => (await import("@txcript/gemini-cli")).geminiCliHarness,
  kimi_cli: async () => (await import("@txcript/kimi-cli")).kimiCliHarness,
};

/**
 * Every harness of the default registry, by id, imported when first asked
 * for: the CLI imports the one its input's sniff (sniffs.ts) or a name
 * picked, and compiles no other harness's code.
 */
export const harnessLoaders: Record<string, () => Promise<AnyHarness>> = {
  common: async () => (await import("@txcript/core")).commonHarness,
  ...storeHarnessLoaders,
  stream_json: async () => (await import("@txcript/stream-json")).streamJsonHarness,
};

/** A harness of the default registry by its id (undefined for an id it does not have). */
export function loadHarness(id: string): Promise<AnyHarness> | undefined {
  return Object.hasOwn(harnessLoaders, id)
    ? (harnessLoaders[id] as () => Promise<AnyHarness>)()
    : undefined;
}

/** The harness of a store by its id (undefined for one that keeps no store here). */
export function loadStoreHarness(id: string): Promise<AnyHarness> | undefined {
  return Object.hasOwn(storeHarnessLoaders, id)
    ? storeHarnessLoaders[id as keyof typeof storeHarnessLoaders]()
    : undefined;
}
