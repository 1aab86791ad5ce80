/** A hub address LabelDesk cannot read (either of libpq's forms), with the reason in a sentence. */
export class HubUrlError extends Error {
  override readonly name = 'HubUrlError';
  readonly code = 'bad_hub_url';
}
