// @txcript/core: the Common model, the canonical tools, the codec and store
// contracts, conversion through Common, the text projection, and the shared
// file and JSON primitives. Arbitraries and the law suite live in the
// `./arbitraries` and `./testing` subpaths so this entry needs only zod.

export type {
  BudgetCalibration,
  BudgetCut,
  BudgetOptions,
  BudgetResult,
  TokenCounter,
} from "./budget.js";
export {
  BudgetFit,
  blockText,
  estimateTokens,
  fitMessages,
  fitToBudget,
  recordedPromptTokens,
} from "./budget.js";
export type {
  Codec,
  ConversionOptions,
  Discovered,
  HarnessId,
  Loss,
  ParseOptions,
  SaveOptions,
  SkippedFile,
  Store,
  Warning,
  WarningCase,
  WarningKind,
  WriteOptions,
} from "./codec.js";
export { LossTally, WarningCollector, warn } from "./codec.js";
export { CommonDocument, commonCodec, validateTranscript } from "./common-codec.js";
export type { CommonFormat } from "./common-format.js";
export { commonFormat, commonFormats } from "./common-format.js";
export { commonHarness } from "./common-harness.js";
export {
  contextKinds,
  lineageOf,
  messageContextOf,
  timestampPattern,
} from "./common-values.js";
export { compactionOf, fromLastCompaction, lastCompactionIndex } from "./compaction.js";
export type { ConvertOptions, ConvertResult } from "./convert.js";
export { convert, toTranscript } from "./convert.js";
export type { TxcriptErrorCode, TxcriptErrorLocation, TxcriptErrorOptions } from "./errors.js";
export { errorCodes, jsonPath, TxcriptError } from "./errors.js";
export type { AtomicContent, WriteAtomicOptions } from "./files.js";
export {
  assertInside,
  ioError,
  makeDirectory,
  makeDirectoryInside,
  readHead,
  readTextFile,
  removeStaleTemporaries,
  temporaryPrefix,
  textPieces,
  writeFileAtomic,
} from "./files.js";
export type {
  AnyHarness,
  CodecOptions,
  ContinueRefusal,
  Environment,
  HarnessDefinition,
  HarnessVariant,
  LoadContext,
  OptionContext,
  ProgramCheck,
  ProgramCheckContext,
  ProgramCheckResult,
  SavedSession,
} from "./harness.js";
export {
  closest,
  editDistance,
  HarnessRegistry,
  loadSessionFile,
  loadText,
  sessionReadsAlone,
} from "./harness.js";
export type { Json, JsonObject, ParseJsonOptions } from "./json.js";
export {
  arrayAt,
  isJsonObject,
  jsonEqual,
  lineAndColumn,
  numberAt,
  objectAt,
  ownValue,
  parseJson,
  parseJsonObject,
  quote,
  stringAt,
  stringifyJson,
} from "./json.js";
export type { JsonObjectEvent, JsonObjectWalkOptions } from "./json-object-lines.js";
export { setOwnValue, walkJsonObjectLines } from "./json-object-lines.js";
export { commonJsonSchema } from "./json-schema.js";
export type { JsonLineOptions, JsonLines, JsonObjectLine } from "./jsonl.js";
export {
  joinJsonLines,
  parseJsonObjectLine,
  parseJsonObjectLines,
  splitJsonLines,
  writtenJsonLine,
} from "./jsonl.js";
export type { BlockType, CanonicalStopReason } from "./model.js";
export {
  Block,
  CompactionBlock,
  canonicalStopReasons,
  ImageBlock,
  Lineage,
  Message,
  MessageContext,
  Meta,
  Role,
  StopReason,
  Subagent,
  TextBlock,
  ThinkingBlock,
  Timestamp,
  ToolResultBlock,
  ToolUseBlock,
  Transcript,
  Usage,
} from "./model.js";
export { nodeChildProcess, nodeCrypto, nodeHttp } from "./node-builtins.js";
export type { ConvertedSession, ConvertSessionOptions, SessionSource } from "./pipeline.js";
export {
  convertSession,
  onLeg,
  readSession,
  withInputFile,
  withInputFileEach,
} from "./pipeline.js";
export type { FileEnds } from "./session-ends.js";
export { eventLoopTurns, readFileEnds } from "./session-ends.js";
export type { OneSessionFileOptions, SaveSessionFileOptions } from "./session-files.js";
export {
  deleteFilesIn,
  deleteSessionFile,
  isRegularFile,
  listDirectories,
  oneSessionFile,
  readTail,
  refuseCopyElsewhere,
  regularFiles,
  saveSessionFile,
  unsafeIdError,
} from "./session-files.js";
export type { SignatureEntry } from "./signature.js";
export { signature } from "./signature.js";
export type {
  SqliteConstructor,
  SqliteDatabase,
  SqliteOpenOptions,
  SqliteStatement,
} from "./sqlite.js";
export { sqliteBinding } from "./sqlite.js";
export type {
  HeadLast,
  HeadLastConversion,
  HeadLastWriter,
  StreamConversion,
  StreamConvertOptions,
  StreamInput,
  StreamMemo,
  StreamPart,
  StreamReader,
  StreamWriter,
} from "./stream.js";
export {
  collectTranscript,
  isUserToolCall,
  orderedParts,
  restMessages,
  scanOnce,
  splitMeta,
  streamConvert,
  streamConvertHeadLast,
  streamMemoOf,
  streamMemoOption,
  transcriptInput,
  transcriptParts,
} from "./stream.js";
export type { PathOptions, PathResult } from "./stream-check.js";
export { convertStreamed, convertWhole } from "./stream-check.js";
export { commonDocumentPieces, commonWriteStream } from "./stream-common.js";
export { IntColumn, StringIds } from "./stream-intern.js";
export type { LineReadOptions, LineSource } from "./stream-lines.js";
export {
  defaultMaxLineBytes,
  fileLineSource,
  linesOrBlocks,
  readFileLineBlocks,
  readFileLines,
  textLineBlocks,
  textLineSource,
  textLines,
} from "./stream-lines.js";
export type { MessageRange, ToTextOptions } from "./text.js";
export { resolveRange, toText } from "./text.js";
export { isCanonicalTimestamp, readTimestamp, timestampMillis } from "./timestamp.js";
export type {
  RenamedToolDialect,
  RenamedToolDialectOptions,
  RenamedToolSpec,
} from "./tool-dialect.js";
export { renamedToolDialect, renameKeys } from "./tool-dialect.js";
export type { InputShape, ValueShape } from "./tool-inputs.js";
export {
  fitsToolInput,
  fromCanonical,
  toCanonical,
  toolInputShapes,
  toolName,
  typedToolNames,
} from "./tool-inputs.js";
export type { RawTool, Tool, ToolInput, TypedTool, TypedToolName } from "./tools.js";
export { JsonValue, RawToolSchema, ToolSchema, toolInputSchemas } from "./tools.js";
export { isUuid, uuidV5, uuidV5In } from "./uuid.js";
