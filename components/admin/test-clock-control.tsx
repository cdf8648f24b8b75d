'use client';

import { useState } from 'react';
import { advanceTestClock } from '@/lib/actions/test-clock';
import type { TestClock } from '@/lib/contracts/dashboard-disputes';
import { ADVANCE_UNITS, advanceSeconds } from '@/lib/contracts/dashboard-plain';
import { dateTime } from '../escrow/format';
import { numberOf, textOf } from '../ui/action-form';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { SelectField, TextField } from '../ui/field';
import { ConfirmDialog } from '../ui/dialog';
import { useConfirmedSubmit } from '../ui/confirmed-submit';
import { invalidate } from '../live/live-query';

function ahead(ms: number): string {
  if (ms <= 0) return 'in step with real time';
  const minutes = Math.round(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const plural = (n: number, unit: string) => (n ? `${n} ${unit}${n === 1 ? '' : 's'}` : '');
  const parts = [plural(days, 'day'), plural(hours, 'hour'), days ? '' : plural(rest, 'minute')].filter(Boolean);
  return `${parts.join(' ') || 'under a minute'} ahead of real time`;
}

export function TestClockControl({ initial }: { initial: TestClock }) {
  const [clock, setClock] = useState(initial);
  type Move = { amount: number; unit: (typeof ADVANCE_UNITS)[number] };
  const flow = useConfirmedSubmit({
    read: (data) => {
      const unit = ADVANCE_UNITS.find((u) => u === textOf(data, 'unit')) ?? 'days';
      const move: Move = { amount: numberOf(data, 'amount') ?? 0, unit };
      const label = `${move.amount} ${move.amount === 1 ? move.unit.replace(/s$/, '') : move.unit}`;
      return { move, label, seconds: advanceSeconds(move) };
    },
    send: ({ move }, key) => advanceTestClock({ ...move, idempotency_key: key }),
    onSent: (result) => {
      if (result.data) setClock(result.data);
      // Every page's records may have moved on: lapses settle before the API answers.
      void invalidate();
    },
  });
  const { form, pending } = flow;
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <Card>
        <p className="text-xs uppercase tracking-wide text-slate-500">Your marketplace&apos;s clock</p>
        <p className="mt-1 text-2xl font-semibold text-slate-900" data-testid="test-clock-now">
          <time dateTime={clock.now}>{dateTime(clock.now)}</time>
        </p>
        <p className="mt-1 text-sm text-slate-600" data-testid="test-clock-offset">
          {ahead(clock.offset_ms)}
        </p>
        {clock.settled !== undefined ? (
          <p className="mt-3 text-sm text-slate-700" data-testid="test-clock-settled">
            The last move settled {clock.settled} lapsed deadline{clock.settled === 1 ? '' : 's'}
            {clock.payouts_paid ? ` and paid ${clock.payouts_paid} payout${clock.payouts_paid === 1 ? '' : 's'}` : ''}.
          </p>
        ) : null}
      </Card>
      <Card>
        <form {...flow.bound} className="flex flex-wrap items-end gap-3" aria-label="Advance the test clock">
          <TextField
            label="Advance by"
            name="amount"
            type="number"
            required
            min={1}
            step={1}
            defaultValue={1}
            className="w-32"
            error={form.errorOf('amount')}
          />
          <SelectField label="Unit" name="unit" defaultValue="days" className="w-32">
            {ADVANCE_UNITS.map((unit) => (
              <option key={unit} value={unit}>
                {unit}
              </option>
            ))}
          </SelectField>
          <Button type="submit">Advance clock</Button>
        </form>
        <p className="mt-3 text-xs text-slate-600">
          Time only moves forward. Every deadline passed on the way acts as it would in real time, for every transaction of this marketplace; payouts on
          their way are paid once their minute has passed.
        </p>
      </Card>
      <ConfirmDialog
        open={pending !== null}
        sending={flow.sending}
        onCancel={flow.cancel}
        onConfirm={flow.confirm}
        title={`Advance the clock by ${pending?.label ?? ''}?`}
        description={pending ? `To ${dateTime(new Date(new Date(clock.now).getTime() + pending.seconds * 1000).toISOString())}. Deadlines that pass act at once and cannot be undone.` : undefined}
        confirmLabel="Advance"
      />
    </div>
  );
}
