/** What went wrong, in the thrower's words: an Error's message, else the thrown value as text. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
