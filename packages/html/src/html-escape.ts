// Exact escaping for the page: every piece of transcript text goes through
// `escapeHtml` (element content and quoted attribute values alike), and an
// image becomes a data: URL only when its media type and payload are plainly
// what they claim. Not a sanitizer: the page never passes markup through.

const entities: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Text as HTML text: safe in element content and in a quoted attribute value.
 * A bidi embedding, override or isolate (U+202A–U+202E, U+2066–U+2069) would
 * make a line read in another order than it runs: it is shown as a visible
 * mark, `<U+202E>`, instead (docs/security.md).
 */
export function escapeHtml(text: string): string {
  return text
    .replace(/[&<>"']/g, (character) => entities[character] as string)
    .replace(
      /[\u202a-\u202e\u2066-\u2069]/g,
      (character) => `&lt;U+${(character.codePointAt(0) as number).toString(16).toUpperCase()}&gt;`,
    );
}

/** Raster types a browser shows in <img> with no script context of their own. */
const imageTypes = new Set([
  "image/png",
  "image/jpeg",
  "image/jpg",
  "image/gif",
  "image/webp",
  "image/avif",
  "image/bmp",
]);

/** A data: URL for an image block, or undefined when it is not a plain raster image in base64. */
export function imageDataUrl(mediaType: string, data: string): string | undefined {
  const type = mediaType.trim().toLowerCase();
  if (!imageTypes.has(type)) return undefined;
  const payload = data.replace(/\s+/g, "");
  if (payload === "" || !/^[A-Za-z0-9+/]+={0,2}$/.test(payload)) return undefined;
  return `data:${type};base64,${payload}`;
}

/** Decoded size of a base64 payload, for captions. */
export function base64Bytes(data: string): number {
  const payload = data.replace(/\s+/g, "");
  const padding = payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((payload.length * 3) / 4) - padding);
}
