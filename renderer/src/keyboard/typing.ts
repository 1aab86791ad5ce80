/** Whether a key press belongs to what has focus: a field being typed in, or an open dialog. */
export function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest('dialog')) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['range', 'checkbox'].includes(target.type);
  return target.isContentEditable;
}
