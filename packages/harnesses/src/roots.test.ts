// The light roots (roots.ts) against the registry's own stores: for every
// environment, the same harnesses in the same order with the same roots.
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultRegistry } from "./index.js";
import { storeRoots } from "./roots.js";

const variables = [
  "HOME",
  "USERPROFILE",
  "XDG_DATA_HOME",
  "AMP_THREADS_DIR",
  "OPENCODE_DB",
  "CLAUDE_CONFIG_DIR",
  "CODEX_HOME",
  "PI_CODING_AGENT_DIR",
  "PI_CODING_AGENT_SESSION_DIR",
  "GEMINI_CLI_HOME",
  "QWEN_HOME",
  "QWEN_RUNTIME_DIR",
  "CRUSH_GLOBAL_DATA",
] as const;

const value = fc.constantFrom(
  "",
  "~",
  "~/x",
  "/abs/dir",
  "/abs/../other/",
  "relative/dir",
  "./rel",
  ":memory:",
  "name.db",
);

function registryRoots(env: Record<string, string | undefined>) {
  return defaultRegistry.stores(env).map(({ harness, store }) => ({
    harness: harness.id,
    root: store.root,
    ...(store.sessionPaths === undefined ? {} : { paths: [...store.sessionPaths] }),
  }));
}

describe("storeRoots", () => {
  it("agrees with the registry's stores for the default environment (control: a changed one differs)", () => {
    const env = { HOME: "/home/someone" };
    expect(storeRoots(env)).toEqual(registryRoots(env));
    expect(storeRoots({ HOME: "/home/other" })).not.toEqual(registryRoots(env));
  });

  it("agrees with the registry's stores for any setting of the variables they read", () => {
    fc.assert(
      fc.property(
        fc.record(Object.fromEntries(variables.map((name) => [name, value])), {
          requiredKeys: [],
        }),
        (env: Record<string, string | undefined>) => {
          expect(storeRoots(env)).toEqual(registryRoots(env));
        },
      ),
      lawParameters(500),
    );
  });
});
