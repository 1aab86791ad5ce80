/** A request that cannot be carried out as asked (a bad path, option or switch): the caller's to fix. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly code = 'usage_error';
}
