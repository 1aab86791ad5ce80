/**
 * Strings stored once and referred to by index: packed boxes (typed arrays) keep a label or a
 * review state as a number into `strings`.
 */
export class StringTable {
  readonly strings: string[] = [];
  private readonly index = new Map<string, number>();

  /** The index of `text`, added at the end when new. */
  indexOf(text: string): number {
    let at = this.index.get(text);
    if (at === undefined) {
      at = this.strings.length;
      this.strings.push(text);
      this.index.set(text, at);
    }
    return at;
  }
}
