// Whether a text is txcript's Cursor CLI chat document: the codec's
// `detect`, with no import but the language's own, so
// @txcript/harnesses/sniffs (the CLI's detection) tells one apart without
// loading the codec or a schema.

/** The marker key (and version) that opens the document. */
export const documentMarker = "cursorCliChat";

/** Cursor CLI's detection: the marker key within the first 200 characters. */
export function cursorCliSniff(text: string): boolean {
  return text.slice(0, 200).includes(`"${documentMarker}"`);
}
