// The small Common values a reader takes from txcript's own keys in a
// session it wrote (the lineage, a message's context), checked without zod:
// reading a session must not load zod (docs/decisions/0018). model.ts's
// `Lineage` and `MessageContext` schemas stay the definition and the public
// API; common-values.test.ts holds each function here to that schema's
// verdict and output on generated values, and model.ts takes the pattern and
// the kinds from here so the two cannot drift apart.
import { isJsonObject } from "./json.js";
import type { Lineage, MessageContext } from "./model.js";

/** A Common timestamp: ISO 8601 UTC with milliseconds, as `Date.prototype.toISOString` writes it. */
export const timestampPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const contextKinds = ["system", "developer", "injected"] as const;

const nonEmpty = (value: unknown): value is string => typeof value === "string" && value !== "";

function onlyKeys(value: object, keys: readonly string[]): boolean {
  for (const key of Object.keys(value)) if (!keys.includes(key)) return false;
  return true;
}

const lineageKeys = ["harness", "id", "txcriptVersion", "convertedAt"] as const;

/** `value` as a Common lineage when `Lineage.safeParse` accepts it (the same object it gives), else undefined. */
export function lineageOf(value: unknown): Lineage | undefined {
  if (!isJsonObject(value) || !onlyKeys(value, lineageKeys)) return undefined;
  const { harness, id, txcriptVersion, convertedAt } = value as Record<string, unknown>;
  if (!(nonEmpty(harness) && nonEmpty(id) && nonEmpty(txcriptVersion))) return undefined;
  if (!(typeof convertedAt === "string" && timestampPattern.test(convertedAt))) return undefined;
  return { harness, id, txcriptVersion, convertedAt };
}

const contextKeys = ["kind", "source"] as const;

/** `value` as a message context when `MessageContext.safeParse` accepts it (the same object it gives), else undefined. */
export function messageContextOf(value: unknown): MessageContext | undefined {
  if (!isJsonObject(value) || !onlyKeys(value, contextKeys)) return undefined;
  const { kind, source } = value as Record<string, unknown>;
  if (!(contextKinds as readonly unknown[]).includes(kind)) return undefined;
  if (!Object.hasOwn(value, "source") || source === undefined)
    return { kind: kind as MessageContext["kind"] };
  return nonEmpty(source) ? { kind: kind as MessageContext["kind"], source } : undefined;
}
