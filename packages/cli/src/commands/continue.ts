// `txcript continue`: write a copy of a session into another harness's
// store and launch that harness's resume command. Amp and store-less
// harnesses are refused before anything is written. The source is only read.
import { spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { TxcriptError, WarningCollector } from "@txcript/core";
import { type Parsed, requireOption, stringOption, type Values } from "../args.js";
import { type Plan, planCopy } from "../continue-plan.js";
import { streamedCopy } from "../continue-stream.js";
import { findHarness, type Harness } from "../harnesses.js";
import { type Input, locateInput, readLocated, readTranscript } from "../input.js";
import { type Io, write } from "../io.js";
import { lossJson, onLeg, type ReportSettings, reportSettings } from "../losses.js";
import { note, printWarnings } from "../output.js";
import { sliceForCopy, splitRange } from "../range.js";
import { redactIfAsked } from "../redaction.js";
import { locate, withFile } from "../report.js";
import { inputJson, printResult } from "../result.js";
import { terminalSafe } from "../terminal-text.js";
import { verifyWritten } from "../verify.js";
import { checkWithProgram, findProgram } from "../verify-program.js";

export function resumeVariable(harness: Harness): string {
  return `TXCRIPT_${harness.id.toUpperCase()}_RESUME_CMD`;
}

function refuseTarget(target: Harness): void {
  if (target.continueRefusal) {
    throw new TxcriptError(
      "REFUSED",
      `cannot continue in ${target.id}: ${target.continueRefusal.reason}; nothing was written`,
      { hint: target.continueRefusal.instead },
    );
  }
  if (!target.store || !target.resumeCommand) {
    throw new TxcriptError(
      "REFUSED",
      `cannot continue in ${target.id}: it keeps no sessions on disk to resume; nothing was written`,
      { hint: `use \`txcript convert <ref> --to ${target.id}\` for a file in its format` },
    );
  }
}

/**
 * A session id that begins with `-` could be read as an option by the resume
 * program (a custom TXCRIPT_<HARNESS>_RESUME_CMD, say): refused, before
 * anything is written and again before anything is launched.
 */
function refuseOptionLikeId(id: string, file: string, outcome: string): void {
  if (id.startsWith("-"))
    throw new TxcriptError(
      "REFUSED",
      `the session id ${JSON.stringify(id)} begins with "-", which a program could take for an option; ${outcome}`,
      {
        location: { file },
        hint: "a session id is a word, not an option: check where this session came from",
      },
    );
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** The whole path: the session read, redacted when asked, ranged, and planned (planCopy). */
async function readForCopy(
  io: Io,
  values: Values,
  settings: ReportSettings,
  input: Input,
  range: ReturnType<typeof splitRange>["range"],
  target: Harness,
) {
  const read = await readTranscript(input);
  // Secrets go before anything is written: the session, and the archive of what is left out.
  const { transcript } = await redactIfAsked(io, values, read.transcript, settings);
  const ranged = sliceForCopy(transcript, range);
  // The harness resumes by looking in the directory it runs in, so the copy
  // is written for the directory it will be launched in: the recorded one
  // when it exists here, else the current one.
  const directory = await resumeDirectory(io, ranged.meta.cwd, settings);
  const plan = await planCopy(io, settings, values, {
    file: input.file,
    ranged,
    whole: range === undefined,
    source: input.harness.id,
    target: target.id,
    directory,
  });
  return { input, readWarnings: read.warnings, transcript, ranged, directory, plan };
}

export async function continueCommand(io: Io, { values, positionals }: Parsed): Promise<number> {
  const target = findHarness(requireOption(values, "with", "continue"));
  refuseTarget(target);
  // --verify finds the target's program before anything is written.
  const program = values.verify === true ? await findProgram(io, target) : undefined;
  const { ref, range } = splitRange(positionals[0] as string);
  const located = await locateInput(ref, io, stringOption(values, "from"));
  const settings = reportSettings(values);
  // A long session file continued from its last compaction streams (continue-stream.ts).
  const streamed = await streamedCopy(io, located, {
    values,
    settings,
    range,
    target,
    directoryFor: (cwd) => resumeDirectory(io, cwd, settings),
  });
  const { input, readWarnings, transcript, ranged, directory, plan } =
    streamed === undefined
      ? await readForCopy(io, values, settings, await readLocated(located, io), range, target)
      : { ...streamed, ranged: streamed.transcript };
  const collector = new WarningCollector();
  for (const warning of readWarnings) collector.add(warning);
  // A copy of a range is a different conversation: give it its own id.
  const copy = {
    ...plan.copy,
    meta: {
      ...plan.copy.meta,
      cwd: directory,
      ...(range === undefined ? {} : { id: `${ranged.meta.id}${range.text}` }),
    },
  };
  refuseOptionLikeId(copy.meta.id, input.file, "nothing was written");
  // The writer's errors (a document too deep to print, say) name the input they come from.
  // The body goes to the store, which writes its side files (subagent transcripts) too.
  const native = withFile(input.file, () =>
    target.codec.fromCommon(copy, {
      ...target.writeOptions?.({ from: input.harness.id }),
      forStore: true,
      onWarning: onLeg("write", target.id, collector.add),
    }),
  );
  const out = stringOption(values, "store");
  const store = target.store?.(io.env, out === undefined ? undefined : path.resolve(io.cwd, out));
  if (!store) throw new Error("unreachable: refuseTarget checked the store");
  if (range === undefined && input.harness === target && input.file !== "<stdin>") {
    // A whole session already in the target store: a copy would be the same
    // file (and --force would overwrite the source). Resume it instead.
    const inside = path.relative(store.root, path.resolve(io.cwd, input.file));
    if (!inside.startsWith("..") && !path.isAbsolute(inside)) {
      const id = input.discovered?.id ?? sessionIdOf(target, input.text, input.file);
      throw new TxcriptError(
        "REFUSED",
        `this session is already in the ${target.id} store; nothing was written`,
        {
          location: { file: input.file },
          hint: `resume it with \`${(target.resumeCommand?.(id) ?? []).join(" ")}\`, or continue a range of it to fork a copy`,
        },
      );
    }
  }
  const saved = await store
    .save(native, { overwrite: values.force === true })
    .catch(async (error) => {
      if (TxcriptError.isInstance(error) && error.code === "CONFLICT") {
        const existing = error.location.file;
        // A store that is one database (OpenCode) names it: the id is the one just written.
        const id =
          existing === undefined
            ? copy.meta.id
            : existing === store.root
              ? sessionIdOf(target, target.codec.serialize(native), existing)
              : sessionIdOf(target, await fs.readFile(existing, "utf8").catch(() => ""), existing);
        throw new TxcriptError("CONFLICT", `this session was already continued in ${target.id}`, {
          location: error.location,
          hint: `resume it with \`${(target.resumeCommand?.(id) ?? []).join(" ")}\`, or pass --force to write it again`,
          cause: error,
        });
      }
      throw locate(error, input.file);
    });
  // Read back before success: what the store holds must be what was meant.
  // A failed check removes the session (verify.ts) and an archive this run made.
  const verified = await (async () => {
    await verifyWritten(target, store, saved, copy);
    return program === undefined
      ? undefined
      : await checkWithProgram(target, store, saved, program, directory);
  })().catch(async (error: unknown) => {
    await removeArchive(plan);
    throw error;
  });
  if (verified !== undefined)
    await note(
      io,
      settings,
      `verified with ${verified.program} ${verified.version} (${verified.path}): ${verified.detail}`,
    );
  // A failed hand-over (OpenCode's import) leaves no archive this run made either.
  const resumable = target.afterSave
    ? await target
        .afterSave(saved, { environment: io.env, cwd: directory })
        .catch(async (error: unknown) => {
          await removeArchive(plan);
          throw error;
        })
    : saved;
  await printWarnings(io, collector.warnings, settings);
  await note(io, settings, `wrote ${target.id} session ${resumable.id} to ${resumable.path}`);
  const argv = target.resumeCommand?.(resumable.id) ?? [];
  const result = {
    command: "continue" as const,
    input: inputJson(input, transcript.meta.id),
    outputs: [
      { harness: target.id, path: resumable.path, sessionId: resumable.id },
      ...(plan.archive === undefined ? [] : [{ harness: "common", path: plan.archive }]),
    ],
    resumeCommand: argv,
    ...(verified === undefined ? {} : { verified }),
    losses: collector.warnings.map(lossJson),
  };
  if (values["no-resume"] === true) {
    if (settings.json)
      await printResult(io, { ...result, resumed: { launched: false, status: null } });
    else await write(io.stdout, `${terminalSafe(argv.join(" "))}\n`);
    return 0;
  }
  const status = await launch(io, target, resumable.id, directory, settings);
  if (settings.json) await printResult(io, { ...result, resumed: { launched: true, status } });
  return status;
}

/** The id a harness resumes a session file by: read from the file, else its name (pi names files <time>_<id>). */
/**
 * Take back an archive this run made, after a failed check or hand-over: its
 * directory, and `.txcript/` itself when nothing but our `.gitignore` is left
 * in it (another session's archive, or a file of the user's, keeps it).
 */
async function removeArchive(plan: Plan): Promise<void> {
  if (plan.archive === undefined || plan.archiveCreated !== true) return;
  await fs.rm(plan.archive, { recursive: true, force: true }).catch(() => undefined);
  const parent = path.dirname(plan.archive);
  const left = await fs.readdir(parent).catch(() => undefined);
  if (left === undefined || left.length !== 1 || left[0] !== ".gitignore") return;
  const ignore = await fs.readFile(path.join(parent, ".gitignore"), "utf8").catch(() => "");
  if (ignore.startsWith("# written by txcript"))
    await fs.rm(parent, { recursive: true, force: true });
}

function sessionIdOf(target: Harness, text: string, file: string): string {
  try {
    return target.codec.toCommon(target.codec.parse(text, { file })).meta.id;
  } catch {
    return path.basename(file).replace(/\.[^.]*$/, "");
  }
}

async function resumeDirectory(
  io: Io,
  recorded: string | undefined,
  settings: ReportSettings,
): Promise<string> {
  if (recorded !== undefined && path.isAbsolute(recorded)) {
    const stat = await fs.stat(recorded).catch(() => undefined);
    if (stat?.isDirectory()) return recorded;
  }
  await note(
    io,
    settings,
    recorded === undefined
      ? `the session records no directory; continuing it in ${io.cwd}`
      : `the session's directory ${recorded} does not exist here; continuing it in ${io.cwd}`,
  );
  return io.cwd;
}

async function launch(
  io: Io,
  target: Harness,
  id: string,
  cwd: string,
  settings: ReportSettings,
): Promise<number> {
  refuseOptionLikeId(id, cwd, "the session is written; nothing was launched");
  const template = io.env[resumeVariable(target)];
  const argv = target.resumeCommand?.(id) ?? [];
  const [command, args, shell] =
    template !== undefined && template.trim() !== ""
      ? ["/bin/sh", ["-c", template.replaceAll("{id}", shellQuote(id))], true]
      : [argv[0] ?? "", argv.slice(1), false];
  await note(io, settings, `launching ${shell ? (args[1] ?? "") : argv.join(" ")} in ${cwd}`);
  return new Promise<number>((resolve, reject) => {
    // With --json stdout carries the result: the child's output goes to stderr.
    const stdio = settings.json ? (["inherit", 2, "inherit"] as const) : "inherit";
    const child = spawn(command, args, { cwd, stdio: stdio as never, env: io.env });
    child.on("error", (cause) => {
      const missing = (cause as NodeJS.ErrnoException).code === "ENOENT";
      reject(
        new TxcriptError(
          "IO",
          missing
            ? `cannot launch ${command}: not found`
            : `cannot launch ${command}: ${cause.message}`,
          {
            hint: `the session is written; run \`${argv.join(" ")}\` in ${cwd} once it is installed, or set ${resumeVariable(target)}`,
            cause,
          },
        ),
      );
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
