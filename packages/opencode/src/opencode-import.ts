// Continuing into OpenCode goes through its own supported entry point,
// `opencode import <file>`, run in the session's directory (import files the
// session under that directory's project), then `opencode --session <id>`.
// Import writes rows without a transaction, so the file is checked against
// import's schema first; when import fails anyway, the error says exactly
// which rows of the session it left in the database.
import { existsSync } from "node:fs";
import { type Environment, nodeChildProcess, readTextFile, TxcriptError } from "@txcript/core";
import { importProblems } from "./opencode-importable.js";
import { opencodeDatabasePath } from "./opencode-paths.js";
import { harness, parseOpencodeExport } from "./opencode-schema.js";
import { openReadOnly, sessionFootprint } from "./opencode-sqlite.js";

export interface OpencodeImportOptions {
  /** The directory to import into (the session's cwd): import files it under this project. */
  cwd: string;
  /** The environment OpenCode runs with (HOME, XDG_DATA_HOME, OPENCODE_DB, …). Default process.env. */
  env?: Environment;
  /** The opencode executable. Default `opencode` on the PATH. */
  bin?: string;
  /** Kill import after this long (default 120 s). */
  timeoutMs?: number;
}

export interface OpencodeImportResult {
  /** The id OpenCode imported the session under (what `opencode --session` takes). */
  id: string;
  file: string;
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  error?: Error;
}

function run(
  bin: string,
  args: string[],
  cwd: string,
  env: Environment,
  timeoutMs: number,
): Promise<Run> {
  return new Promise((resolve) => {
    const child = nodeChildProcess().spawn(bin, args, {
      cwd,
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ status: null, stdout, stderr, error });
    });
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** What a failed import left in the database, in one sentence. */
async function leftBehind(
  env: Environment,
  id: string,
  expected: { messages: number; parts: number },
): Promise<string> {
  const database = opencodeDatabasePath(env);
  if (database === undefined || !existsSync(database))
    return "no database was found, so nothing was left";
  let handle: Awaited<ReturnType<typeof openReadOnly>> | undefined;
  try {
    handle = await openReadOnly(database);
    const found = sessionFootprint(handle, id);
    if (!found.session && found.messages === 0 && found.parts === 0)
      return `nothing of ${id} was left in ${database}`;
    return `left in ${database}: ${found.session ? "the session row" : "no session row"}, ${found.messages} of ${expected.messages} messages and ${found.parts} of ${expected.parts} parts of ${id} (remove them with \`opencode session delete ${id}\` or import a fixed file)`;
  } catch (error) {
    return `the database ${database} could not be read to tell what was left (${String(error)})`;
  } finally {
    handle?.close();
  }
}

/**
 * Import an export document into OpenCode: check it against import's schema
 * (a problem is an INVALID_DOCUMENT error and OpenCode is never run), then
 * run `opencode import <file>` in `cwd`. Returns the imported session's id.
 */
export async function opencodeImport(
  file: string,
  options: OpencodeImportOptions,
): Promise<OpencodeImportResult> {
  const env = options.env ?? process.env;
  const session = parseOpencodeExport(await readTextFile(file, { harness }), { file });
  const problems = importProblems(session.document);
  const first = problems[0];
  if (first !== undefined)
    throw new TxcriptError(
      "INVALID_DOCUMENT",
      `opencode import would reject ${file}: ${problems.length} problem(s), the first at ${first.path} (expected ${first.expected}); nothing was imported`,
      {
        harness,
        location: { file, path: first.path },
        hint: "write the file with txcript's OpenCode writer",
      },
    );
  const id = String(session.document.info.id);
  const expected = {
    messages: session.document.messages.length,
    parts: session.document.messages.reduce((sum, entry) => sum + entry.parts.length, 0),
  };
  const bin = options.bin ?? "opencode";
  const result = await run(bin, ["import", file], options.cwd, env, options.timeoutMs ?? 120_000);
  const imported = /Imported session:\s*(\S+)/.exec(result.stdout + result.stderr)?.[1];
  if (result.status === 0 && imported !== undefined) return { id: imported, file };
  const why =
    result.error !== undefined
      ? `could not run ${bin}: ${result.error.message}`
      : `\`${bin} import\` exited ${result.status ?? "on a signal (timed out)"}: ${(result.stderr || result.stdout).trim().slice(-400)}`;
  throw new TxcriptError("IO", `${why}; ${await leftBehind(env, id, expected)}`, {
    harness,
    location: { file },
    ...(result.error === undefined ? {} : { cause: result.error }),
  });
}
