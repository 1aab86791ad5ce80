// Our tokens carry a recognisable prefix (ldk_ API keys, lds_ session tokens, ldt_ trial keys), so
// anything shaped like one can be masked before it reaches a log line or an error message.
// The look-behind skips words such as "builds_dir" but still catches "x_ldk_…" and "=ldk_…".
const PREFIXED_TOKEN = /(?<![A-Za-z0-9])(ld[kst]_)[A-Za-z0-9._~+/=-]+/g;
const BEARER = /\b(Bearer)\s+[^\s"',;]+/gi;

/** Masks every `ldk_…`, `lds_…`, `ldt_…` and `Bearer …` value; keeps the prefix for debugging. */
export function redactSecrets(text: string): string {
  return text.replace(PREFIXED_TOKEN, '$1***').replace(BEARER, '$1 ***');
}
