import { describe, expect, it } from 'vitest';
import { CreditBudget, type BudgetLimits } from '../../../../electron/core/runner/credit-budget.js';

const limits = (over: Partial<BudgetLimits> = {}): BudgetLimits => ({
  remaining: 100,
  hourRemaining: 1_000,
  runBudget: null,
  hourBudget: null,
  spentThisHour: 0,
  ...over,
});

describe('CreditBudget', () => {
  it('reserves until the key is used up, counting what is in flight', () => {
    const b = new CreditBudget(limits({ remaining: 10 }));
    expect(b.tryReserve(4)).toBeUndefined();
    expect(b.tryReserve(4)).toBeUndefined();
    expect(b.tryReserve(4)).toBe('key'); // 8 reserved, 2 left
    expect(b.tryReserve(2)).toBeUndefined();
    expect(b.refusalFor(1)).toBe('key');
    expect(b.spent).toBe(0);
  });

  it('a refused reservation reserves nothing', () => {
    const b = new CreditBudget(limits({ remaining: 5 }));
    expect(b.tryReserve(6)).toBe('key');
    expect(b.tryReserve(5)).toBeUndefined();
  });

  it('gives back what a call did not spend', () => {
    const b = new CreditBudget(limits({ remaining: 8 }));
    b.tryReserve(4);
    b.tryReserve(4);
    b.settle(4, 0); // failed, charged nothing
    expect(b.tryReserve(4)).toBeUndefined();
    expect(b.spent).toBe(0);
  });

  it('the run budget caps spending and reservations together', () => {
    const b = new CreditBudget(limits({ runBudget: 10 }));
    expect(b.tryReserve(4)).toBeUndefined();
    expect(b.tryReserve(4)).toBeUndefined();
    expect(b.tryReserve(4)).toBe('run-budget');
    b.settle(4, 4);
    b.settle(4, 4);
    expect(b.spent).toBe(8);
    expect(b.tryReserve(4)).toBe('run-budget');
    expect(b.tryReserve(2)).toBeUndefined();
  });

  it('the hour budget counts what earlier runs spent this hour', () => {
    const b = new CreditBudget(limits({ hourBudget: 10, spentThisHour: 7 }));
    expect(b.tryReserve(4)).toBe('hour-budget');
    expect(b.tryReserve(3)).toBeUndefined();
    expect(b.refusalFor(1)).toBe('hour-budget');
  });

  it("the service's hourly frames refuse as 'hour'", () => {
    const b = new CreditBudget(limits({ hourRemaining: 6 }));
    expect(b.tryReserve(4)).toBeUndefined();
    expect(b.tryReserve(4)).toBe('hour');
  });

  it('refusals are checked key first, then run, hour budget and hourly frames', () => {
    const b = new CreditBudget(
      limits({ remaining: 1, runBudget: 1, hourBudget: 1, hourRemaining: 1 }),
    );
    expect(b.refusalFor(2)).toBe('key');
    const c = new CreditBudget(limits({ runBudget: 1, hourBudget: 1, hourRemaining: 1 }));
    expect(c.refusalFor(2)).toBe('run-budget');
  });

  it('with nothing else in flight, the figures of an answer replace the local ones', () => {
    const b = new CreditBudget(limits({ remaining: 100 }));
    b.tryReserve(4);
    // Someone else spent on the same key meanwhile: the service knows better.
    b.settle(4, 4, { remaining: 50, hourRemaining: 900 });
    expect(b.tryReserve(50)).toBeUndefined();
    expect(b.tryReserve(1)).toBe('key');
  });

  it('with other calls in flight, takes the lower of the local count and the service figure plus our reservations', () => {
    const b = new CreditBudget(limits({ remaining: 20 }));
    b.tryReserve(4);
    b.tryReserve(4);
    b.tryReserve(4); // 12 reserved, 8 free
    // The service already holds our two other calls (8 frames) when it answers the first one:
    // its remaining is 20 - 4 spent - 8 held = 8. Read naively that would leave 8 - 8 = 0 for us.
    b.settle(4, 4, { remaining: 8, hourRemaining: 1_000 });
    // Correct view: 16 left, 8 of them still reserved by the calls in flight, so 8 free.
    expect(b.tryReserve(8)).toBeUndefined();
    expect(b.tryReserve(1)).toBe('key');
  });

  it('in flight, a service figure lower than the local count wins (the key was spent elsewhere)', () => {
    const b = new CreditBudget(limits({ remaining: 100 }));
    b.tryReserve(4);
    b.tryReserve(4);
    b.settle(4, 4, { remaining: 10, hourRemaining: 1_000 }); // 4 of ours still in flight
    // min(100 - 4, 10 + 4) = 14, of which 4 reserved: 10 free.
    expect(b.tryReserve(10)).toBeUndefined();
    expect(b.tryReserve(1)).toBe('key');
  });

  it('in flight, a service figure higher than the local count never lets us overspend', () => {
    const b = new CreditBudget(limits({ remaining: 12 }));
    b.tryReserve(4);
    b.tryReserve(4);
    // The service has not seen our second call yet, so it reports 8 where 4 are really free.
    b.settle(4, 4, { remaining: 8, hourRemaining: 1_000 });
    // min(12 - 4, 8 + 4) = 8, of which 4 reserved: 4 free.
    expect(b.tryReserve(4)).toBeUndefined();
    expect(b.tryReserve(1)).toBe('key');
  });

  it('an uncertain call settled as spent keeps the budget from overshooting', () => {
    const b = new CreditBudget(limits({ runBudget: 8 }));
    b.tryReserve(4);
    b.settle(4, 4); // uncertain: counted as spent, no figures from the service
    expect(b.spent).toBe(4);
    expect(b.tryReserve(4)).toBeUndefined();
    expect(b.tryReserve(1)).toBe('run-budget');
  });

  it('refresh takes fresh figures and, at a new clock hour only, forgets the hour spent', () => {
    const at = 5 * 3_600_000 + 1_000;
    const b = new CreditBudget(limits({ hourBudget: 8, spentThisHour: 8, remaining: 4, at }));
    expect(b.refusalFor(4)).toBe('hour-budget');
    b.refresh(100, 1_000, at + 3_600_000);
    expect(b.tryReserve(8)).toBeUndefined();
    // A pause inside the same hour (a one-second Retry-After) keeps what this hour has spent.
    const c = new CreditBudget(limits({ hourBudget: 8, spentThisHour: 8, at }));
    c.refresh(100, 1_000, at + 1_000);
    expect(c.refusalFor(1)).toBe('hour-budget');
    c.refresh(100, 1_000, at + 3_598_999);
    expect(c.refusalFor(1)).toBe('hour-budget');
    c.rollHour(at + 3_599_000);
    expect(c.refusalFor(8)).toBeUndefined();
  });

  it('adjust books a refund against the run budget', () => {
    const b = new CreditBudget(limits({ runBudget: 10 }));
    b.tryReserve(10);
    b.settle(10, 10);
    expect(b.refusalFor(4)).toBe('run-budget');
    b.adjust(-4);
    expect(b.spent).toBe(6);
    expect(b.tryReserve(4)).toBeUndefined();
  });
});
