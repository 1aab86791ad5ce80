/** The error every handler throws: a code and a sentence, as the contract carries it. */
export class LabelDeskError extends Error {
  override readonly name = 'LabelDeskError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
