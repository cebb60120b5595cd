// @txcript/crush: Crush (charmbracelet/crush) sessions — a session's rows of
// `.crush/crush.db` to and from the Common model, its normalization as code,
// the project store (read-only reading, a writer that creates the schema
// Crush's migrations define) and the resume command. Nothing here runs Crush.
export { commonToCrush, crushMessageId } from "./common-to-crush.js";
export { crushCodec } from "./crush-codec.js";
export { crushMigrations, crushSchemaStatements } from "./crush-ddl.js";
export { crushHarness } from "./crush-harness.js";
export { crushLoss, crushLosses } from "./crush-losses.js";
export { type CrushPart, decodeParts, isGoBase64, partFields } from "./crush-parts.js";
export {
  crushDatabaseIn,
  crushDatabaseOf,
  crushGlobalDataDir,
  crushProjectOf,
  crushResumeCommand,
} from "./crush-paths.js";
export { crushProject } from "./crush-project.js";
export type { CrushSession } from "./crush-schema.js";
export { parseCrushSession, serializeCrushSession } from "./crush-schema.js";
export { readSession, writeSession } from "./crush-sqlite.js";
export type { CrushStoreOptions } from "./crush-store.js";
export { CrushStore } from "./crush-store.js";
export { crushToCommon } from "./crush-to-common.js";
export { canonicalToCrushTool, crushToolToCanonical } from "./crush-tools.js";
