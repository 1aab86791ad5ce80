/** Errors the store raises on purpose: a stable code for callers, a sentence for people. */
export type StoreErrorCode =
  'illegal_transition' | 'not_found' | 'secret_in_settings' | 'store_closed';

export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}
