// The shape of every `--json` result, as a zod schema: the one source of
// docs/schema/cli-result.schema.json (a test keeps the file current and
// validates each command's output against it).
import * as z from "zod";

const Loss = z.strictObject({
  /** A batch result names the input each loss came from. */
  file: z.string().optional(),
  leg: z.enum(["read", "write"]).nullable(),
  harness: z.string().nullable(),
  code: z.string().min(1),
  kind: z.enum(["unsupported", "degraded", "bookkeeping"]),
  count: z.int().positive(),
  message: z.string(),
  path: z.string().nullable(),
  cases: z.array(z.strictObject({ message: z.string(), count: z.int().positive() })).min(1),
});

export const CommandResultSchema = z.strictObject({
  format: z.literal("txcript.result/v1"),
  command: z.enum(["convert", "export", "continue", "fixtures"]),
  input: z
    .strictObject({ harness: z.string(), file: z.string(), sessionId: z.string().optional() })
    .optional(),
  outputs: z.array(
    z.strictObject({
      harness: z.string(),
      path: z.string(),
      sessionId: z.string().optional(),
      source: z.string().optional(),
    }),
  ),
  resumeCommand: z.array(z.string()).optional(),
  resumed: z.strictObject({ launched: z.boolean(), status: z.int().nullable() }).optional(),
  /** `continue --verify`: the target's own program that checked the written session, and what it reported. */
  verified: z
    .strictObject({
      program: z.string(),
      path: z.string(),
      version: z.string(),
      check: z.string(),
      detail: z.string(),
    })
    .optional(),
  failures: z
    .array(z.strictObject({ file: z.string(), error: z.string(), code: z.string().nullable() }))
    .optional(),
  losses: z.array(Loss),
});

export function resultJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(CommandResultSchema, { target: "draft-2020-12" }),
    $id: "https://txcript.dev/schema/cli-result.schema.json",
    title: "txcript --json result v1",
  };
}
