// Redaction of a session read as a stream of parts (core's stream.ts), for
// files too long to hold whole: planPartsRedaction reads the parts once,
// scanning their text a chunk at a time exactly as redactTranscript does
// (the same slots in the same order, so the same findings and the same
// report), and keeps only where each secret is: per title, message and
// subagent, the findings of the slots that have any. `apply` then replaces
// them in any later read of the same parts (each message copied only when
// it holds a secret), so the writer never sees one.
import type { Message, StreamPart, Subagent } from "@txcript/core";
import type { Finding } from "./redact-rules.js";
import {
  applyFindings,
  messageSlots,
  type RedactionReport,
  type RedactOptions,
  type Slot,
  slotRedactor,
  subagentSlots,
  titleSlots,
} from "./redact-transcript.js";

export interface PartsRedaction {
  /** What was found where, as redactTranscript reports it for the whole session. */
  readonly report: RedactionReport;
  /** The parts with every secret found replaced (for any read of the parts that were planned). */
  apply(parts: Iterable<StreamPart>): Generator<StreamPart>;
}

/** Where the secrets of one title, message or subagent are: slot index → merged findings. */
type Found = Map<number, Finding[]>;

function redactSlots(slots: readonly Slot[], found: Found): void {
  for (const [index, merged] of found) {
    const slot = slots[index];
    if (slot !== undefined) slot.set(applyFindings(slot.text, merged));
  }
}

/**
 * Read `parts` once and find their secrets (see the module comment). The
 * parts are not changed.
 */
export async function planPartsRedaction(
  parts: Iterable<StreamPart>,
  options: RedactOptions = {},
): Promise<PartsRedaction> {
  const positions = options.positions ?? true;
  const redactor = slotRedactor(options);
  let title: Found | undefined;
  const messages = new Map<number, Found>();
  const subagents = new Map<number, Found>();
  const callOrdinals = new Map<string, number>();
  /** Queue a unit's slots, recording the findings of each under `into()`. */
  const queue = async (slots: readonly Slot[], into: () => Found) => {
    for (const [index, slot] of slots.entries())
      await redactor.add({ ...slot, set: () => {} }, (merged) => {
        into().set(index, merged);
      });
  };
  let ordinal = 0;
  let subagent = 0;
  for (const part of parts) {
    if (part.kind === "meta") {
      await queue(titleSlots({ ...part.meta }), () => {
        title ??= new Map();
        return title;
      });
    } else if (part.kind === "message") {
      ordinal += 1;
      const at = ordinal;
      await queue(messageSlots(part.message, at, callOrdinals, positions), () =>
        entry(messages, at),
      );
    } else {
      const at = subagent++;
      await queue(subagentSlots(part.subagent, callOrdinals, positions), () =>
        entry(subagents, at),
      );
    }
  }
  await redactor.end();
  const report = redactor.report();
  return {
    report,
    *apply(source: Iterable<StreamPart>): Generator<StreamPart> {
      let ordinal = 0;
      let subagent = 0;
      const unused = new Map<string, number>();
      for (const part of source) {
        if (part.kind === "meta") {
          if (title === undefined) yield part;
          else {
            const meta = { ...part.meta };
            redactSlots(titleSlots(meta), title);
            yield { ...part, meta };
          }
        } else if (part.kind === "message") {
          ordinal += 1;
          const found = messages.get(ordinal);
          if (found === undefined) yield part;
          else {
            const message: Message = structuredClone(part.message);
            redactSlots(messageSlots(message, ordinal, unused, positions), found);
            yield { kind: "message", message };
          }
        } else {
          const found = subagents.get(subagent++);
          if (found === undefined) yield part;
          else {
            const copy: Subagent = structuredClone(part.subagent);
            redactSlots(subagentSlots(copy, unused, positions), found);
            yield { kind: "subagent", subagent: copy };
          }
        }
      }
    },
  };
}

function entry(map: Map<number, Found>, key: number): Found {
  let found = map.get(key);
  if (found === undefined) {
    found = new Map();
    map.set(key, found);
  }
  return found;
}
