// The command dispatcher: picks the command, parses its options, runs it,
// and turns any error into one stderr line and an exit code (a stack trace
// only with --debug). Returns the exit code; the bin sets process.exitCode.

import type { AnyHarness, HarnessRegistry } from "@txcript/core";
import { TxcriptError } from "@txcript/core/errors";
import { closest } from "@txcript/core/harness";
import { type Parsed, parseCommand } from "./args.js";
import { commandSpecs, findCommand } from "./command-specs.js";
import { loadRegistry, useRegistry } from "./harnesses.js";
import { commandHelp, mainHelp } from "./help.js";
import { type Io, write } from "./io.js";
import { clearStatus } from "./progress.js";
import { exitCodeOf, formatError, formatStack } from "./report.js";
import { terminalSafe } from "./terminal-text.js";

type Command = (io: Io, parsed: Parsed) => Promise<number>;

// The commands that load only the harnesses they touch (harnesses.ts:
// harnessNamed, harnessOf); every other command gets the whole registry first.
// The help lists the harnesses from the bin's own list (help.ts), loading none.
const light = new Set(["view", "convert", "export", "list"]);

// Loaded on demand: `fixtures` alone pulls in fast-check.
const commands: Record<string, () => Promise<Command>> = {
  list: async () => (await import("./commands/list.js")).listCommand,
  view: async () => (await import("./commands/view.js")).viewCommand,
  convert: async () => (await import("./commands/convert.js")).convertCommand,
  export: async () => (await import("./commands/export.js")).exportCommand,
  continue: async () => (await import("./commands/continue.js")).continueCommand,
  fixtures: async () => (await import("./commands/fixtures.js")).fixturesCommand,
  schema: async () => (await import("./commands/schema.js")).schemaCommand,
  search: async () => (await import("./commands/search.js")).searchCommand,
  mcp: async () => (await import("./commands/mcp.js")).mcpCommand,
  completion: async () => (await import("./commands/completion.js")).completionCommand,
};

export interface MainOptions {
  /** The harnesses to use instead of the default registry (tests, plug-ins). */
  registry?: HarnessRegistry | readonly AnyHarness[];
}

export async function main(
  args: string[],
  io: Io,
  version: string,
  options: MainOptions = {},
): Promise<number> {
  const debug = args.includes("--debug") || io.env.TXCRIPT_DEBUG === "1";
  if (options.registry !== undefined) useRegistry(options.registry);
  try {
    // `--debug` may also come before the command.
    const [first, ...rest] = args[0] === "--debug" ? args.slice(1) : args;
    if (first === undefined) {
      // Bare `txcript`: the help, on stderr (stdout stays for results), and a usage exit.
      await write(io.stderr, mainHelp());
      return 2;
    }
    if (first === "help" || first === "--help" || first === "-h") {
      const topic = first === "help" ? rest[0] : undefined;
      const spec = topic === undefined ? undefined : findCommand(topic);
      if (topic !== undefined && spec === undefined) throw unknownCommand(topic);
      await write(io.stdout, spec ? commandHelp(spec) : mainHelp());
      return 0;
    }
    if (first === "--version" || first === "-V") {
      await write(io.stdout, `${version}\n`);
      return 0;
    }
    const spec = findCommand(first);
    const load = commands[first];
    if (!spec || !load) throw unknownCommand(first);
    const parsed = parseCommand(spec, rest);
    for (const line of parsed.notes ?? []) await write(io.stderr, `txcript: note: ${line}\n`);
    if (parsed.values.help) {
      await write(io.stdout, commandHelp(spec));
      return 0;
    }
    const run = await load();
    if (!light.has(first)) await loadRegistry();
    try {
      return await run(io, parsed);
    } finally {
      clearStatus();
    }
  } catch (error) {
    // The reader went away (`txcript view … | head`): not an error of ours.
    if ((error as NodeJS.ErrnoException | undefined)?.code === "EPIPE") return 0;
    await write(io.stderr, `${terminalSafe(formatError(error))}\n`);
    if (debug) await write(io.stderr, `${formatStack(error)}\n`);
    return exitCodeOf(error);
  }
}

function unknownCommand(name: string): TxcriptError {
  const suggestion = closest(
    name,
    commandSpecs.map((spec) => spec.name),
  );
  return new TxcriptError("USAGE", `unknown command ${JSON.stringify(name)}`, {
    hint: `${suggestion === undefined ? "" : `did you mean ${suggestion}? `}see txcript --help`,
  });
}
