// The pinned pi's own argument parser reads the id in `piResumeCommand`'s
// argv as the value of --session even when it looks like an option (issue
// 33, item 3): pi has no `--session=<id>` form, but its parser takes the word
// after `--session` verbatim. The control: the same hostile words on their
// own are options to that parser. Nothing is started: the parser is a pure
// function of pi's package (dist/cli/args.js).
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { piResumeCommand } from "./pi-paths.js";

const programs = (await import(
  new URL("../../../scripts/real-programs.mjs", import.meta.url).href
)) as {
  programCache: (name: string) => string;
  programSkipReason: (name: string) => string | undefined;
  realPrograms: Record<string, { version: string }>;
};

const argsModule = path.join(
  programs.programCache("pi"),
  "node_modules/@mariozechner/pi-coding-agent/dist/cli/args.js",
);
const skip = existsSync(argsModule) ? undefined : `${argsModule} is absent (pi not installed)`;
if (skip !== undefined) console.warn(`SKIPPED pi's parser check: ${skip}`);

type Parsed = { session?: string; help?: boolean; version?: boolean; continue?: boolean };

describe.skipIf(skip !== undefined)(
  `pi ${programs.realPrograms.pi?.version}: parseArgs of piResumeCommand(id)`,
  () => {
    it("keeps --help, --version, -c and --yolo the session id, never an option", async () => {
      const { parseArgs } = (await import(pathToFileURL(argsModule).href)) as {
        parseArgs: (args: string[]) => Parsed;
      };
      for (const id of ["--help", "--version", "-c", "--yolo", "-"]) {
        const argv = piResumeCommand(id);
        expect(argv[0]).toBe("pi");
        const parsed = parseArgs(argv.slice(1));
        expect(parsed.session, argv.join(" ")).toBe(id);
        expect([parsed.help, parsed.version, parsed.continue]).toEqual([
          undefined,
          undefined,
          undefined,
        ]);
      }
      // The control: the same words on their own are options to this parser.
      expect(parseArgs(["--help"]).help).toBe(true);
      expect(parseArgs(["-c"]).continue).toBe(true);
      expect(parseArgs(["--session=--help"]).session).toBeUndefined();
    });
  },
);
