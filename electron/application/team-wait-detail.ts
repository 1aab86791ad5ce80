/**
 * In a team project, files another member's run is sending are waited for, not sent: the run's
 * detail line says so, with how many files each member holds.
 */
export function teamWaitDetail(
  say: (detail: string) => void,
): (item: unknown, holder: string) => void {
  const holders = new Map<string, number>();
  return (_item, holder) => {
    holders.set(holder, (holders.get(holder) ?? 0) + 1);
    const who = [...holders].map(([h, n]) => `${n} by ${h}`).join(', ');
    say(
      `Waiting for the team's answers for files other members are sending (${who}): they are not sent twice.`,
    );
  };
}
