/**
 * The manager name of a write (kube's managerOrUserAgent): the `fieldManager` query parameter, else the
 * User-Agent up to its first `/` (`kubectl/v1.33.0 (linux/amd64) …` → `kubectl`), non-printable characters
 * dropped, cut at 128 bytes. An empty result is recorded as `unknown` by the field manager.
 */
const MAX_BYTES = 128;

function isPrint(ch: string): boolean {
  // Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
  return ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}

export function managerOrUserAgent(fieldManager: string | undefined, userAgent: string | undefined): string {
  if (fieldManager) return fieldManager;
  const prefix = (userAgent ?? '').split('/')[0]!;
  let out = '';
  let bytes = 0;
  for (const ch of prefix) {
    if (!isPrint(ch)) continue;
    const n = Buffer.byteLength(ch);
    if (bytes + n > MAX_BYTES) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** ValidateFieldManager: at most 128 bytes, printable characters only (messages as FieldError details). */
export function fieldManagerProblems(fieldManager: string): Array<{ type: 'TooLong' | 'Invalid'; detail: string }> {
  const out: Array<{ type: 'TooLong' | 'Invalid'; detail: string }> = [];
  if (Buffer.byteLength(fieldManager) > MAX_BYTES) out.push({ type: 'TooLong', detail: `may not be more than ${MAX_BYTES} bytes` });
  let i = 0;
  for (const ch of fieldManager) {
    if (!isPrint(ch)) {
      const cp = ch.codePointAt(0)!;
      out.push({ type: 'Invalid', detail: `invalid character U+${cp.toString(16).toUpperCase().padStart(4, '0')} (at position ${i})` });
    }
    i += Buffer.byteLength(ch);
  }
  return out;
}
