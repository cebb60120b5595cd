// `txcript convert`: native → native through Common, for one session (a
// file, a stored id, or stdin) or for every session file in a directory.
// The batch reports a bad file and goes on; any failure makes the exit 1.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { makeDirectory, makeDirectoryInside, TxcriptError, writeFileAtomic } from "@txcript/core";
import { type Parsed, requireOption, stringOption, type Values } from "../args.js";
import { atomicContent, type ConversionSource, type Converted } from "../convert-pipeline.js";
import {
  detectHarness,
  findHarness,
  type Harness,
  harnessList,
  harnessNamed,
  loadRegistry,
} from "../harnesses.js";
import { locateInput, readLocated } from "../input.js";
import { type Io, write } from "../io.js";
import { maxInputBytes, readLimitedFile } from "../limits.js";
import { lossJson, type ReportSettings, reportSettings } from "../losses.js";
import { note, printWarnings } from "../output.js";
import { Progress } from "../progress.js";
import { formatError } from "../report.js";
import { inputJson, printResult, type ResultOutput, requireFileOutput } from "../result.js";
import { convertLocated } from "../stream-convert.js";

function dialectOption(values: Values, to: Harness): string | undefined {
  const dialect = stringOption(values, "dialect");
  if (dialect !== undefined && to.id !== "stream_json") {
    throw new TxcriptError("USAGE", "--dialect applies only to --to stream_json", {
      hint: "drop --dialect, or convert to stream_json",
    });
  }
  if (dialect !== undefined && dialect !== "claude" && dialect !== "amp") {
    throw new TxcriptError("USAGE", `unknown dialect ${JSON.stringify(dialect)}`, {
      hint: "expected claude or amp",
    });
  }
  return dialect;
}

export async function convertCommand(io: Io, { values, positionals }: Parsed): Promise<number> {
  const to = await harnessNamed(requireOption(values, "to", "convert"));
  const dialect = dialectOption(values, to);
  const ref = positionals[0] as string;
  const from = stringOption(values, "from");
  const force = values.force === true;
  const settings = reportSettings(values);
  const stat =
    ref === "-" ? undefined : await fs.stat(path.resolve(io.cwd, ref)).catch(() => undefined);
  if (stat?.isDirectory()) {
    const out = stringOption(values, "out-dir");
    if (out === undefined || stringOption(values, "output") !== undefined) {
      throw new TxcriptError("USAGE", "a directory converts into --out-dir DIR, not -o", {
        hint: "txcript convert <dir> --to H --out-dir DIR",
      });
    }
    return convertDirectory(io, ref, out, to, { force, from, dialect, settings, values });
  }
  if (stringOption(values, "out-dir") !== undefined) {
    throw new TxcriptError(
      "USAGE",
      "--out-dir is for a directory input; use -o FILE for one session",
      { hint: "see txcript convert --help" },
    );
  }
  // The conversion takes the input's text (and clears it once parsed), so
  // nothing here keeps a second copy of a big session alive.
  const output = stringOption(values, "output");
  if (settings.json) requireFileOutput(output, "convert");
  const toFile = output !== undefined && output !== "-";
  const located = await locateInput(ref, io, from);
  // A long session file streams when both sides can (stream-convert.ts); else it is read whole.
  const { input, converted } = await convertLocated(io, located, to, {
    dialect,
    values,
    settings,
    toFile,
    read: () => readLocated(located, io),
  });
  const inputFacts = inputJson(input, input.discovered?.id);
  await writeConverted(io, converted, output, force, settings);
  await printWarnings(io, converted.warnings(), settings);
  if (settings.json)
    await printResult(io, {
      command: "convert",
      input: inputFacts,
      outputs: [{ harness: to.id, path: output as string }],
      losses: converted.warnings().map(lossJson),
    });
  return 0;
}

/** Like writeOutput, for text that comes in slices: stdout, or a file written atomically. */
async function writeConverted(
  io: Io,
  converted: Converted,
  output: string | undefined,
  force: boolean,
  settings: ReportSettings,
): Promise<void> {
  if (output === undefined || output === "-") {
    // Never with a head last: the streaming path that gives one writes to a file only.
    if (converted.head !== undefined) throw new Error("a head-last conversion reached stdout");
    for (const slice of converted.slices) await write(io.stdout, slice);
    return;
  }
  const target = path.resolve(io.cwd, output);
  await makeDirectory(path.dirname(target));
  await writeFileAtomic(target, atomicContent(converted), { overwrite: force });
  await note(io, settings, `wrote ${output}`);
}

/** Every .json / .jsonl file under `root` (dot entries and `skip` excluded), sorted. */
async function sessionFiles(root: string, skip: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (directory: string) => {
    const entries = await fs.readdir(directory, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (path.resolve(full) !== skip) await walk(full);
      } else if (entry.isFile() && /\.jsonl?$/.test(entry.name)) found.push(full);
    }
  };
  await walk(root);
  return found.sort();
}

function outputName(relative: string, to: Harness): string {
  const stem = relative.replace(/\.jsonl?$/, "");
  return to.extension.startsWith(".common") && stem.endsWith(".common")
    ? `${stem.slice(0, -".common".length)}${to.extension}`
    : `${stem}${to.extension}`;
}

/** One file of a batch, read for convertSource (which then owns its text). */
async function readSessionFile(
  file: string,
  relative: string,
  forced: Harness | undefined,
  limit: number,
  environment: Io["env"],
): Promise<ConversionSource> {
  const { text, mtime } = await readLimitedFile(file, relative, limit);
  const harness = forced ?? detectHarness(text, relative);
  return { text, harness, file: relative, startTime: mtime, path: file, environment, limit };
}

async function convertDirectory(
  io: Io,
  directory: string,
  out: string,
  to: Harness,
  options: {
    force: boolean;
    from: string | undefined;
    dialect: string | undefined;
    settings: ReportSettings;
    values: Values;
  },
): Promise<number> {
  const { settings } = options;
  // Any file may be any harness's, and side files are asked of every harness: load them all.
  await loadRegistry();
  const root = path.resolve(io.cwd, directory);
  const outRoot = path.resolve(io.cwd, out);
  const files = await sessionFiles(root, outRoot);
  if (files.length === 0) {
    throw new TxcriptError("NOT_FOUND", "no .json or .jsonl files in the directory", {
      location: { file: directory },
    });
  }
  // A session's side file (a Claude Code subagent file beside its session) is read with that
  // session, through its harness's load, not converted as a session of its own.
  const all = new Set(files);
  const sides: string[] = [];
  for (const file of files)
    for (const harness of harnessList()) {
      const owner = await harness.sideFileOf?.(file);
      if (owner !== undefined && all.has(owner)) {
        sides.push(file);
        break;
      }
    }
  if (sides.length > 0) {
    const skipped = new Set(sides);
    files.splice(0, files.length, ...files.filter((file) => !skipped.has(file)));
    await note(
      io,
      settings,
      `${sides.length} subagent file${sides.length === 1 ? "" : "s"} read with ${sides.length === 1 ? "its session" : "their sessions"}, not on ${sides.length === 1 ? "its" : "their"} own`,
    );
  }
  const forced = options.from === undefined ? undefined : findHarness(options.from);
  const limit = maxInputBytes(io.env);
  const losses: Record<string, unknown>[] = [];
  const outputs: ResultOutput[] = [];
  const failures: { file: string; error: string; code: string | null }[] = [];
  const progress = new Progress(io, settings.json || settings.quiet ? 0 : files.length);
  let failed = 0;
  for (const [index, file] of files.entries()) {
    const relative = path.relative(root, file);
    progress.update(index, relative);
    try {
      // A long file streams as a single one would (stream-convert.ts); else it is read whole.
      const stat = await fs.stat(file);
      const { converted } = await convertLocated(
        io,
        { kind: "file", forced, path: file, shown: relative, size: stat.size, mtime: stat.mtime },
        to,
        {
          dialect: options.dialect,
          values: options.values,
          settings,
          toFile: true,
          read: () => readSessionFile(file, relative, forced, limit, io.env),
        },
      );
      const target = path.join(outRoot, outputName(relative, to));
      // Never through a symbolic link someone left in the output tree.
      await makeDirectoryInside(outRoot, path.dirname(target));
      await writeFileAtomic(target, atomicContent(converted), {
        overwrite: options.force,
        root: outRoot,
      });
      const warnings = converted.warnings();
      outputs.push({
        harness: to.id,
        path: path.relative(io.cwd, target) || target,
        source: relative,
      });
      for (const warning of warnings) losses.push({ file: relative, ...lossJson(warning) });
      progress.clear();
      await printWarnings(io, warnings, settings, relative);
    } catch (error) {
      failed += 1;
      progress.clear();
      const line = formatError(error, { file: relative });
      failures.push({
        file: relative,
        error: line.replace(/^txcript: /, ""),
        code: TxcriptError.isInstance(error) ? error.code : null,
      });
      if (!settings.json) await write(io.stderr, `${line}\n`);
    }
  }
  progress.clear();
  const converted = files.length - failed;
  await note(
    io,
    settings,
    `converted ${converted} of ${files.length} file${files.length === 1 ? "" : "s"} into ${out}${failed ? `; ${failed} failed` : ""}`,
  );
  if (settings.json) await printResult(io, { command: "convert", outputs, failures, losses });
  return failed > 0 ? 1 : 0;
}
