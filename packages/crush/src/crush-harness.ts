// Crush as a harness: a session's rows of `.crush/crush.db`, the project
// store, and `crush --session=<id>` run in the project directory to resume
// (Crush reads the session from that project's database). Crush itself
// cannot run here (its npm package downloads a binary at install), so there
// is no programCheck: the writer is checked against Crush's published
// schema and parts rules instead (docs/formats/crush.md).
import { type HarnessDefinition, loadText, readHead, TxcriptError } from "@txcript/core";
import { crushCodec } from "./crush-codec.js";
import { crushResumeCommand } from "./crush-paths.js";
import { crushProject } from "./crush-project.js";
import { type CrushSession, harness, parseCrushSession } from "./crush-schema.js";
import { CrushStore } from "./crush-store.js";

export const crushHarness: HarnessDefinition<CrushSession> = {
  id: harness,
  displayName: "Crush session",
  aliases: ["charm-crush", "charmbracelet-crush"],
  codec: crushCodec,
  extension: ".crush.json",
  project: (transcript) => crushProject(transcript),
  environment: [
    [
      "CRUSH_GLOBAL_DATA",
      "Crush's global data directory, holding projects.json (every project's .crush/crush.db)",
    ],
    [
      "XDG_DATA_HOME",
      "when CRUSH_GLOBAL_DATA is unset, Crush's global data directory is <dir>/crush (default ~/.local/share/crush)",
    ],
  ],
  // A database holds many sessions: a discovered one loads through its store by id.
  loadFile: async (file, context) => {
    if (context.discovered !== undefined)
      return new CrushStore({ root: context.discovered.path }).load(context.discovered.id);
    if (context.text === undefined && (await readHead(file, 16)).startsWith("SQLite format 3"))
      throw new TxcriptError("USAGE", "a Crush database holds many sessions, not one", {
        harness,
        location: { file },
        hint: "name the session by its id (`txcript list --harness crush` lists them)",
      });
    const text = context.text ?? (await loadText(file, context, harness));
    return parseCrushSession(text, { file });
  },
  readsAlone: async () => undefined,
  store: (environment, root) =>
    new CrushStore({ env: environment, ...(root === undefined ? {} : { root }) }),
  resumeCommand: (id) => crushResumeCommand(id),
};
