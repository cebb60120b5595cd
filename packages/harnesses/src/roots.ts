// Where each harness's store lives, computed from the environment alone:
// the same roots `defaultRegistry.stores(environment)` gives, without
// importing any codec or schema (node:os and node:path only). The CLI's
// search fast path compares these with the roots the index saved; a root
// computed wrongly here can only send it to the full path, and
// roots.test.ts holds each one to its store's own `root`.
import * as os from "node:os";
import * as path from "node:path";

type Environment = Record<string, string | undefined>;

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

function expandTilde(value: string, home: string): string {
  if (value === "~") return home;
  if (value.startsWith("~/")) return path.join(home, value.slice(2));
  return value;
}

// Each as its store computes it (amp-store.ts, opencode-paths.ts, claude-code-paths.ts,
// codex-paths.ts, pi-paths.ts, gemini-cli-paths.ts, copilot-cli-paths.ts, qwen-code-paths.ts,
// kimi-cli-paths.ts).
function ampRoot(env: Environment): string {
  const explicit = nonEmpty(env.AMP_THREADS_DIR);
  if (explicit !== undefined) return path.resolve(explicit);
  const xdg = nonEmpty(env.XDG_DATA_HOME);
  const win = process.platform === "win32";
  if (!win && xdg !== undefined && path.isAbsolute(xdg))
    return path.resolve(path.join(xdg, "amp", "threads"));
  const home = nonEmpty(win ? (env.USERPROFILE ?? env.HOME) : env.HOME) ?? os.homedir();
  return path.resolve(path.join(home, ".local", "share", "amp", "threads"));
}

function opencodeRoot(env: Environment): string {
  const base = env.XDG_DATA_HOME || path.join(env.HOME || os.homedir(), ".local", "share");
  const data = path.join(base, "opencode");
  const override = env.OPENCODE_DB;
  if (override && override !== ":memory:")
    return path.isAbsolute(override) ? override : path.join(data, override);
  return path.join(data, "opencode.db");
}

function copilotCliRoot(env: Environment): string {
  const configured = nonEmpty(env.COPILOT_HOME);
  return path.resolve(
    configured ?? path.join(env.HOME || env.USERPROFILE || os.homedir(), ".copilot"),
  );
}

function claudeCodeRoot(env: Environment): string {
  const configured = nonEmpty(env.CLAUDE_CONFIG_DIR);
  const root =
    configured !== undefined
      ? path.join(configured, "projects")
      : path.join(env.HOME || env.USERPROFILE || os.homedir(), ".claude", "projects");
  return path.resolve(root);
}

function codexRoot(env: Environment): string {
  const configured = nonEmpty(env.CODEX_HOME);
  return path.resolve(
    configured ?? path.join(env.HOME || env.USERPROFILE || os.homedir(), ".codex"),
  );
}

function piRoot(env: Environment): string {
  const home = env.HOME || env.USERPROFILE || os.homedir();
  const sessionDir = nonEmpty(env.PI_CODING_AGENT_SESSION_DIR);
  if (sessionDir !== undefined) return path.resolve(expandTilde(sessionDir, home));
  const configured = nonEmpty(env.PI_CODING_AGENT_DIR);
  const agent =
    configured !== undefined ? expandTilde(configured, home) : path.join(home, ".pi", "agent");
  return path.resolve(path.join(agent, "sessions"));
}

function geminiCliRoot(env: Environment): string {
  const home = nonEmpty(env.GEMINI_CLI_HOME) ?? (env.HOME || env.USERPROFILE || os.homedir());
  return path.resolve(path.join(home, ".gemini"));
}

function qwenCodeRoot(env: Environment): string {
  const home = env.HOME || env.USERPROFILE || os.homedir();
  const configured = nonEmpty(env.QWEN_RUNTIME_DIR) ?? nonEmpty(env.QWEN_HOME);
  if (configured !== undefined) return path.resolve(expandTilde(configured, home));
  return path.resolve(path.join(home, ".qwen"));
}

function kimiCliRoot(env: Environment): string {
  const configured = nonEmpty(env.KIMI_SHARE_DIR);
  if (configured !== undefined) return path.resolve(configured);
  return path.resolve(path.join(env.HOME || env.USERPROFILE || os.homedir(), ".kimi"));
}

/** The harnesses of the default registry that keep a store, in registry order. */
export const storeRootHarnesses = [
  "amp",
  "opencode",
  "copilot_cli",
  "qwen_code",
  "claude_code",
  "codex",
  "pi",
  "gemini_cli",
  "kimi_cli",
] as const;

const rootOf: Record<(typeof storeRootHarnesses)[number], (env: Environment) => string> = {
  amp: ampRoot,
  opencode: opencodeRoot,
  copilot_cli: copilotCliRoot,
  claude_code: claudeCodeRoot,
  codex: codexRoot,
  pi: piRoot,
  gemini_cli: geminiCliRoot,
  qwen_code: qwenCodeRoot,
  kimi_cli: kimiCliRoot,
};

// Each store's `sessionPaths`, as its class declares them (codex-store.ts, gemini-cli-store.ts,
// copilot-cli-store.ts, qwen-code-store.ts, kimi-cli-store.ts).
const pathsOf: Partial<Record<(typeof storeRootHarnesses)[number], readonly string[]>> = {
  codex: ["sessions/**", "archived_sessions/**", "session_index.jsonl"],
  gemini_cli: ["projects.json", "tmp/*/.project_root", "tmp/*/chats/**"],
  copilot_cli: ["session-state/*", "session-state/*/events.jsonl"],
  qwen_code: ["projects/*/chats/*"],
  kimi_cli: ["sessions/**", "kimi.json"],
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
    const paths = pathsOf[harness];
    return {
      harness,
      root: rootOf[harness](environment),
      ...(paths === undefined ? {} : { paths: [...paths] }),
    };
  });
}
