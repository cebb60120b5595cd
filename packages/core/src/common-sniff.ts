// Whether a text is txcript's own Common JSON: the Common codec's `detect`,
// with no import, so @txcript/harnesses/sniffs (the CLI's detection) tells
// it apart without building the Common schema.

/** Common JSON opens with its `format` key (`txcript.common/<version>`) within its first 200 characters. */
export function commonSniff(text: string): boolean {
  return /^\s*\{[\s\S]{0,64}"format"\s*:\s*"txcript\.common\//.test(text.slice(0, 200));
}
