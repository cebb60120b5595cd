// The Common document's format names, apart from its zod schema
// (common-codec.ts), so that writing Common as a stream (stream-common.ts),
// which every streamed conversion's module graph reaches, loads no zod
// (docs/decisions/0018).

/** The format txcript writes. */
export const commonFormat = "txcript.common/v2";
/** Every format txcript reads: v1 documents are v2 documents without the v2 additions. */
export const commonFormats = ["txcript.common/v1", commonFormat] as const;
export type CommonFormat = (typeof commonFormats)[number];
