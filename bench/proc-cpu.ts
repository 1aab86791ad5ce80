/**
 * CPU seconds a process has used so far, its reaped children (ffmpeg) included, from Linux's
 * /proc/PID/stat: on a loaded machine CPU time says what work was done when wall time cannot.
 * NaN where /proc is not there.
 */
import { readFileSync } from 'node:fs';

/** Linux reports these fields in clock ticks of 1/100 s on every common platform. */
const TICKS_PER_SECOND = 100;

export function cpuSecondsOf(pid: number | 'self'): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime, stime, cutime, cstime are 14–17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    return ticks / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/**
 * CPU seconds of this process's children that have ended and been reaped (cutime + cstime of
 * /proc/self/stat): the difference across one child's run is that child's CPU, its threads
 * included. NaN where /proc is not there.
 */
export function reapedChildrenCpuSeconds(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}
