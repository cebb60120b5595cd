// redactTranscript: every piece of free text in a transcript (titles, text,
// thinking, tool input string values, tool output, compaction summaries and
// history, subagents) scanned at once, each secret replaced by
// `[redacted: <kind>]`, with a report of what went where. Ids, tool names,
// tool_use ids, timestamps, keys and the shape of every value are never touched.
import type { Block, Json, Message, Subagent, Transcript } from "@txcript/core";
import { scanFormats } from "./redact-formats.js";
import {
  isAuthorizationName,
  isSecretName,
  looksSecret,
  scanAuthorizationValue,
  scanPositions,
} from "./redact-positions.js";
import { type Finding, secretlintScanner } from "./redact-rules.js";

/** Which part of a message a secret was found in. */
export type RedactionField =
  | "title"
  | "meta"
  | "text"
  | "thinking"
  | "tool_input"
  | "tool_result"
  | "compaction";

/** Secrets of one kind in one place. */
export interface RedactionLocation {
  kind: string;
  count: number;
  field: RedactionField;
  /** Ordinal (1-based, as `txcript view` numbers) of the message; for a subagent, of the message with its spawning call when known. Absent for the session title. */
  message?: number;
  /** The subagent's id, when the secret was inside a subagent's conversation. */
  subagent?: string;
  /** Ordinal of the message inside that subagent (1-based). */
  subagentMessage?: number;
}

/** What was redacted: JSON-serializable, for `--redact-report`. */
export interface RedactionReport {
  total: number;
  /** Per kind: how many, and in which message ordinals (sorted, unique). */
  kinds: Record<string, { count: number; messages: number[] }>;
  locations: RedactionLocation[];
}

export interface RedactOptions {
  /**
   * Also redact random-looking values in secret positions (credential-named
   * keys and variables, Authorization headers) and JSON Web Tokens. Default true.
   */
  positions?: boolean;
  /** @internal Characters per secretlint call (tests make it small to cross chunk boundaries). */
  chunkChars?: number;
}

export interface RedactResult {
  transcript: Transcript;
  report: RedactionReport;
}

/** The text a redacted secret is replaced by. */
export function redactionMarker(kind: string): string {
  return `[redacted: ${kind}]`;
}

export interface Place {
  field: RedactionField;
  message?: number;
  subagent?: string;
  subagentMessage?: number;
}

export interface Slot {
  text: string;
  set: (value: string) => void;
  place: Place;
  /** Set when the whole value stands in a secret position (a credential-named JSON key). */
  whole?: boolean;
  /** Set when the value is an Authorization header's (a JSON value under that key). */
  authorization?: boolean;
}

/**
 * Redact every secret in `transcript`. Asynchronous because secretlint's
 * engine is. The input is not changed; the result is a copy with the same
 * structure, ids and timestamps.
 */
export async function redactTranscript(
  transcript: Transcript,
  options: RedactOptions = {},
): Promise<RedactResult> {
  const copy = structuredClone(transcript);
  const redactor = slotRedactor(options);
  for (const slot of collectSlots(copy, options.positions ?? true)) await redactor.add(slot);
  await redactor.end();
  return { transcript: copy, report: redactor.report() };
}

/**
 * Slots redacted in the order they are added: each chunk of text is scanned
 * once it is full (and at the end), then each of its slots gets its
 * findings (secretlint's, and the position checks'), is set to its redacted
 * text, counted, and `done` is told the merged findings. The whole and the
 * streaming redaction both run on it, so they find and count alike.
 */
export function slotRedactor(options: RedactOptions) {
  const positions = options.positions ?? true;
  const tally = new Map<string, RedactionLocation>();
  let pending: { slot: Slot; done: ((merged: Finding[]) => void) | undefined }[] = [];
  let next = 0;
  const scanner = secretlintScanner((findings) => {
    const { slot, done } = pending[next++] as (typeof pending)[number];
    findings.push(...scanFormats(slot.text));
    if (positions) {
      findings.push(...scanPositions(slot.text));
      if (slot.whole) findings.push({ start: 0, end: slot.text.length, kind: "secret-value" });
      if (slot.authorization) findings.push(...scanAuthorizationValue(slot.text));
    }
    if (findings.length === 0) return;
    const merged = mergeFindings(findings);
    slot.set(applyFindings(slot.text, merged));
    for (const finding of merged) count(tally, finding.kind, slot.place);
    done?.(merged);
  }, options.chunkChars);
  const flush = async () => {
    await scanner.flush();
    pending = [];
    next = 0;
  };
  return {
    async add(slot: Slot, done?: (merged: Finding[]) => void): Promise<void> {
      pending.push({ slot, done });
      scanner.add(slot.text);
      if (scanner.full()) await flush();
    },
    end: flush,
    report: (): RedactionReport => reportOf([...tally.values()]),
  };
}

/**
 * The slots of a session's meta: its title, working directory and git branch (a token pasted
 * into a directory or branch name is as exposed as one in the text).
 */
export function titleSlots(meta: Transcript["meta"]): Slot[] {
  const slots: Slot[] = [];
  if (meta.title !== undefined)
    slots.push({
      text: meta.title,
      set: (value) => (meta.title = value),
      place: { field: "title" },
    });
  if (meta.cwd !== undefined)
    slots.push({ text: meta.cwd, set: (value) => (meta.cwd = value), place: { field: "meta" } });
  if (meta.gitBranch !== undefined)
    slots.push({
      text: meta.gitBranch,
      set: (value) => (meta.gitBranch = value),
      place: { field: "meta" },
    });
  return slots;
}

/** The slots of main message `ordinal` (1-based), noting its calls' ordinals for the subagents. */
export function messageSlots(
  message: Message,
  ordinal: number,
  callOrdinals: Map<string, number>,
  positions: boolean,
): Slot[] {
  const slots: Slot[] = [];
  for (const block of message.content)
    if (block.type === "tool_use") callOrdinals.set(block.id, ordinal);
  collectMessage(slots, message, { field: "text", message: ordinal }, positions);
  return slots;
}

/** The slots of a subagent and its nested ones, placed at the message of their spawning call. */
export function subagentSlots(
  subagent: Subagent,
  callOrdinals: ReadonlyMap<string, number>,
  positions: boolean,
  parentOrdinal?: number,
): Slot[] {
  const slots: Slot[] = [];
  const ordinal =
    (subagent.toolUseId === undefined ? undefined : callOrdinals.get(subagent.toolUseId)) ??
    parentOrdinal;
  const base: Place = { field: "text", subagent: subagent.id };
  if (ordinal !== undefined) base.message = ordinal;
  if (subagent.title !== undefined)
    slots.push({
      text: subagent.title,
      set: (value) => (subagent.title = value),
      place: { ...base, field: "title" },
    });
  subagent.messages.forEach((message, index) => {
    collectMessage(slots, message, { ...base, subagentMessage: index + 1 }, positions);
  });
  for (const nested of subagent.subagents ?? [])
    slots.push(...subagentSlots(nested, callOrdinals, positions, ordinal));
  return slots;
}

function collectSlots(transcript: Transcript, positions = true): Slot[] {
  const slots = titleSlots(transcript.meta);
  const callOrdinals = new Map<string, number>();
  transcript.messages.forEach((message, index) => {
    slots.push(...messageSlots(message, index + 1, callOrdinals, positions));
  });
  for (const subagent of transcript.subagents ?? [])
    slots.push(...subagentSlots(subagent, callOrdinals, positions));
  return slots;
}

function collectMessage(slots: Slot[], message: Message, place: Place, positions: boolean): void {
  const inCompaction = place.field === "compaction";
  const at = (field: RedactionField): Place => ({
    ...place,
    field: inCompaction ? place.field : field,
  });
  message.content.forEach((block: Block) => {
    switch (block.type) {
      case "text":
        slots.push({ text: block.text, set: (value) => (block.text = value), place: at("text") });
        return;
      case "thinking":
        slots.push({
          text: block.text,
          set: (value) => (block.text = value),
          place: at("thinking"),
        });
        return;
      case "tool_use": {
        const tool = block.tool as { input: Json };
        collectJson(
          slots,
          tool.input,
          (value) => (tool.input = value),
          at("tool_input"),
          positions,
        );
        return;
      }
      case "tool_result":
        collectJson(
          slots,
          block.content,
          (value) => (block.content = value),
          at("tool_result"),
          positions,
        );
        return;
      case "compaction":
        slots.push({
          text: block.summary,
          set: (value) => (block.summary = value),
          place: at("compaction"),
        });
        for (const earlier of block.history ?? [])
          collectMessage(slots, earlier, { ...place, field: "compaction" }, positions);
        return;
      case "image":
        return;
    }
  });
}

/** Every string value inside a JSON value (never its keys), with a setter for each. */
function collectJson(
  slots: Slot[],
  value: Json,
  set: (value: string) => void,
  place: Place,
  positions: boolean,
  name?: string,
): void {
  if (typeof value === "string") {
    const slot: Slot = { text: value, set, place };
    if (positions && name !== undefined && isSecretName(name) && looksSecret(value, name))
      slot.whole = true;
    if (positions && name !== undefined && isAuthorizationName(name)) slot.authorization = true;
    slots.push(slot);
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => {
      collectJson(slots, item, (next) => (value[index] = next), place, positions);
    });
  } else if (value !== null && typeof value === "object") {
    for (const key of Object.keys(value))
      collectJson(slots, value[key] as Json, (next) => (value[key] = next), place, positions, key);
  }
}

/** Fixed-format kinds name the secret best; a position says only where it stood. */
function rank(kind: string): number {
  if (kind === "secret-value") return 2;
  if (kind === "authorization-header") return 1;
  return 0;
}

/** Overlapping findings become one (the most specific kind); touching ones stay apart. */
export function mergeFindings(findings: Finding[]): Finding[] {
  const sorted = [...findings].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Finding[] = [];
  for (const finding of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && finding.start < last.end) {
      last.end = Math.max(last.end, finding.end);
      if (rank(finding.kind) < rank(last.kind)) last.kind = finding.kind;
    } else merged.push({ ...finding });
  }
  return merged;
}

export function applyFindings(text: string, merged: readonly Finding[]): string {
  let out = "";
  let at = 0;
  for (const finding of merged) {
    out += text.slice(at, finding.start) + redactionMarker(finding.kind);
    at = finding.end;
  }
  return out + text.slice(at);
}

function count(tally: Map<string, RedactionLocation>, kind: string, place: Place): void {
  const key = JSON.stringify([
    kind,
    place.field,
    place.message,
    place.subagent,
    place.subagentMessage,
  ]);
  const existing = tally.get(key);
  if (existing !== undefined) {
    existing.count += 1;
    return;
  }
  tally.set(key, { kind, count: 1, ...place });
}

function reportOf(locations: RedactionLocation[]): RedactionReport {
  const kinds: Record<string, { count: number; messages: number[] }> = {};
  let total = 0;
  for (const location of locations) {
    total += location.count;
    const entry = kinds[location.kind] ?? { count: 0, messages: [] };
    kinds[location.kind] = entry;
    entry.count += location.count;
    if (location.message !== undefined && !entry.messages.includes(location.message))
      entry.messages.push(location.message);
  }
  for (const entry of Object.values(kinds)) entry.messages.sort((a, b) => a - b);
  return { total, kinds, locations };
}
