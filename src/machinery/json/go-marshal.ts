/**
 * Go's json.Marshal text for a JSON value built in Go's field order (insertion order here): the same as
 * JSON.stringify except that Go escapes `<`, `>`, `&`, U+2028 and U+2029 (HTML-safe encoding, its default).
 * Used where kube stores the Marshal output of a Go value in a string (annotations) that clients compare.
 */
export function goMarshal(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
