/**
 * Lowers the calling thread's scheduling priority, where the OS lets a thread do so on its own
 * (Linux: a thread's nice value is its own, and the threads it starts inherit it). For bulk work
 * beside a UI (an import): on two cores, its threads and the thread serving the UI compete for
 * the CPU, and the UI's thread waited 57-76 ms for one in two runs of fifteen.
 */
import { readlinkSync } from 'node:fs';
import { constants, getPriority, setPriority } from 'node:os';

export function lowerThreadPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    // "<pid>/task/<tid>": this thread's id, which setpriority(2) takes for the thread alone.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    if (!Number.isInteger(tid) || tid <= 0) return;
    // Never raised: a process started below normal stays where it was put.
    setPriority(tid, Math.max(getPriority(tid), constants.priority.PRIORITY_BELOW_NORMAL));
  } catch {
    // No /proc, or not allowed: the thread keeps its priority.
  }
}
