// The end-to-end harness: spawns the BUILT `txcript` bin (never functions)
// over a temporary home per test, with HOME, XDG_DATA_HOME, AMP_THREADS_DIR
// and CLAUDE_CONFIG_DIR pointing inside it. Build first:
// `pnpm --filter @txcript/cli build` (the root `pnpm test` does).
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, promises as fs, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeAll, beforeEach } from "vitest";

export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const repoRoot = path.resolve(packageRoot, "../..");
export const bin = path.join(packageRoot, "dist/txcript.js");

let buildMeta:
  | { outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }> }
  | undefined;

/**
 * The source files bundled into a file of dist/ (paths as esbuild names them,
 * relative to this package: `src/main.ts`, `../core/src/errors.ts`) that
 * put code into it, from the metafile build.mjs writes beside dist/: the
 * chunks are minified, so they keep no `// file` comments of their own.
 */
export function bundledSources(file: string): string[] {
  buildMeta ??= JSON.parse(readFileSync(path.join(packageRoot, "build-meta.json"), "utf8"));
  const key = path.relative(packageRoot, file).split(path.sep).join("/");
  const output = buildMeta?.outputs[key];
  if (output === undefined) throw new Error(`${key} is not in build-meta.json: rebuild the bin`);
  // A module whose code was all left out (a barrel of re-exports) is listed with no bytes.
  return Object.entries(output.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([source]) => source);
}
export const fixturesRoot = path.join(repoRoot, "fixtures");
export const realRoot = path.resolve(repoRoot, "../shared/real");

export function assertBuilt(): void {
  if (!existsSync(bin)) {
    throw new Error(`${bin} is missing: run \`pnpm --filter @txcript/cli build\` first`);
  }
}

export interface Home {
  root: string;
  home: string;
  dataHome: string;
  ampThreads: string;
  claudeConfig: string;
  /** A scratch directory for inputs and outputs, and the default cwd. */
  work: string;
  env: Record<string, string>;
}

export async function makeHome(): Promise<Home> {
  const root = await fs.mkdtemp(path.join(tmpdir(), "txcript-e2e-"));
  const home = path.join(root, "home");
  const dataHome = path.join(root, "data");
  const ampThreads = path.join(dataHome, "amp", "threads");
  const claudeConfig = path.join(home, ".claude");
  const work = path.join(root, "work");
  for (const directory of [home, ampThreads, path.join(claudeConfig, "projects"), work])
    await fs.mkdir(directory, { recursive: true });
  return {
    root,
    home,
    dataHome,
    ampThreads,
    claudeConfig,
    work,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      XDG_DATA_HOME: dataHome,
      AMP_THREADS_DIR: ampThreads,
      CLAUDE_CONFIG_DIR: claudeConfig,
      // No search keeper left behind by a test's search (search-keeper.test.ts starts its own).
      TXCRIPT_SEARCH_KEEPER: "0",
    },
  };
}

export async function removeHome(home: Home): Promise<void> {
  // Retried: a process a test started may still be removing its own files in there.
  await fs.rm(home.root, { recursive: true, force: true, maxRetries: 3 });
}

/** The usual test-file setup: the bin must be built, and each test gets a fresh home. */
export function useHome(set: (home: Home) => void): void {
  let current: Home | undefined;
  beforeAll(assertBuilt);
  beforeEach(async () => {
    current = await makeHome();
    set(current);
  });
  afterEach(async () => {
    if (current) await removeHome(current);
  });
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  stdin?: string;
  env?: Record<string, string | undefined>;
  cwd?: string;
}

/** Run the built bin with the home's environment (nothing inherited but PATH). */
export function txcript(home: Home, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const env: Record<string, string> = { ...home.env };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? home.work,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdin.end(options.stdin ?? "");
  return collect(child);
}

/** A child's exit code and whole output, once it closes. */
function collect(child: ChildProcessWithoutNullStreams): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({
        code: code ?? -1,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
      }),
    );
  });
}

/** Whether util-linux `script` (a pseudo-terminal for TTY tests) is installed. */
export const hasScript = ["/usr/bin/script", "/bin/script"].some((file) => existsSync(file));
if (!hasScript)
  console.warn("SKIPPED: no util-linux `script`; the terminal (TTY) tests do not run");

/** Run the bin under a pseudo-terminal (util-linux `script`), for TTY-only behaviour. */
export function txcriptOnTty(
  home: Home,
  args: string[],
  env: Record<string, string> = {},
): Promise<RunResult> {
  const quoted = [process.execPath, bin, ...args]
    .map((word) => `'${word.replaceAll("'", "'\\''")}'`)
    .join(" ");
  const child = spawn("script", ["-qec", quoted, "/dev/null"], {
    cwd: home.work,
    env: { ...home.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdin.end();
  return collect(child);
}

/** Every file under a directory (relative paths, sorted): proves what was and was not written. */
export async function listFiles(directory: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (current: string) => {
    for (const entry of await fs.readdir(current, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) await walk(full);
      else found.push(path.relative(directory, full));
    }
  };
  await walk(directory);
  return found.sort();
}

/**
 * Run the bin with a module hook (Node's `module.register`) that logs every
 * module it resolves: the result, the bundle files it loaded, and the source
 * files those hold (esbuild's `// file` markers), so a test can tell which
 * packages a command loaded; and Node's built-in modules the process loaded
 * (`process.moduleLoadList` at exit: also those a `require` loads, which no
 * resolve hook sees), as `node:<name>`; and `imported`, the built-ins the
 * bundle's modules import themselves (those the hook resolved).
 */
export async function runWithLoadLog(
  home: Home,
  args: string[],
  env: Record<string, string> = {},
): Promise<{
  result: RunResult;
  files: string[];
  sources: string[];
  builtins: string[];
  imported: string[];
}> {
  const log = path.join(home.root, "loaded.txt");
  const builtinLog = path.join(home.root, "builtins.txt");
  const hooks = path.join(home.root, "hooks.mjs");
  const register = path.join(home.root, "register.mjs");
  await fs.writeFile(
    hooks,
    `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, resolved.url + "\\n");
  return resolved;
}
`,
  );
  await fs.writeFile(
    register,
    `import { writeFileSync } from "node:fs";
import { register } from "node:module";
register(${JSON.stringify(pathToFileURL(hooks).href)});
process.on("exit", () => writeFileSync(${JSON.stringify(builtinLog)}, process.moduleLoadList.join("\\n")));
`,
  );
  await fs.rm(log, { force: true });
  await fs.rm(builtinLog, { force: true });
  const result = await txcript(home, args, {
    env: { ...env, NODE_OPTIONS: `--import=${pathToFileURL(register).href}` },
  });
  const urls = (await fs.readFile(log, "utf8").catch(() => "")).split("\n");
  // Built-ins the bundle imports itself (a pipe's stdout loads node:net whatever the bin does).
  const imported = [...new Set(urls.filter((url) => url.startsWith("node:")))].sort();
  const files = [
    ...new Set(
      urls
        .filter((url) => url.startsWith("file:") && url.endsWith(".js"))
        .map((url) => fileURLToPath(url)),
    ),
  ];
  const sources = files.flatMap(bundledSources);
  const builtins = (await fs.readFile(builtinLog, "utf8").catch(() => ""))
    .split("\n")
    .filter((line) => line.startsWith("NativeModule ") && !line.includes("internal/"))
    .map((line) => `node:${line.slice("NativeModule ".length)}`);
  return { result, files, sources, builtins, imported };
}
