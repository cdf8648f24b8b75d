'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { advanceTestClock } from '@/app/(dashboard)/admin/sandbox/actions';
import { AdvanceClockInput, advanceSeconds, type TestClock } from '@/lib/contracts/dashboard-disputes';
import { dateTime } from '../escrow/money';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { SelectField, TextField } from '../ui/field';
import { Dialog } from '../ui/dialog';
import { newIntentKey } from '../ui/intent-key';
import { useToast } from '../ui/toast';

function ahead(ms: number): string {
  if (ms <= 0) return 'in step with real time';
  const hours = Math.round(ms / 3_600_000);
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  const parts = [days ? `${days} day${days === 1 ? '' : 's'}` : '', rest ? `${rest} hour${rest === 1 ? '' : 's'}` : ''].filter(Boolean);
  return `${parts.join(' ') || 'under an hour'} ahead of real time`;
}

export function TestClockControl({ initial }: { initial: TestClock }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [clock, setClock] = useState(initial);
  const blank = () => ({ amount: 1, unit: 'days' as const, idempotency_key: newIntentKey() });
  const form = useForm({ resolver: zodResolver(AdvanceClockInput), defaultValues: blank() });
  const [pending, setPending] = useState<{ label: string; seconds: number; sending: boolean } | null>(null);
  const onSubmit = form.handleSubmit((v) => setPending({ label: `${v.amount} ${v.amount === 1 ? v.unit.replace(/s$/, '') : v.unit}`, seconds: advanceSeconds(v), sending: false }));
  async function confirm() {
    if (!pending) return;
    setPending({ ...pending, sending: true });
    const result = await advanceTestClock(form.getValues());
    toast.result(result);
    setPending(null);
    if (result.ok && result.data) {
      setClock(result.data);
      form.reset(blank());
      // Every page's records may have moved on: lapses settle before the API answers.
      void queryClient.invalidateQueries();
    }
  }
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
            The last move settled {clock.settled} lapsed deadline{clock.settled === 1 ? '' : 's'}.
          </p>
        ) : null}
      </Card>
      <Card>
        <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-end gap-3" aria-label="Advance the test clock">
          <TextField
            label="Advance by"
            type="number"
            min={1}
            step={1}
            className="w-32"
            error={form.formState.errors.amount?.message}
            {...form.register('amount', { valueAsNumber: true })}
          />
          <SelectField label="Unit" className="w-32" {...form.register('unit')}>
            <option value="hours">hours</option>
            <option value="days">days</option>
          </SelectField>
          <Button type="submit">Advance clock</Button>
        </form>
        <p className="mt-3 text-xs text-slate-600">
          Time only moves forward. Every deadline passed on the way acts as it would in real time, for every transaction of this marketplace.
        </p>
      </Card>
      <Dialog
        open={pending !== null}
        onClose={() => !pending?.sending && setPending(null)}
        title={`Advance the clock by ${pending?.label ?? ''}?`}
        description={pending ? `To ${dateTime(new Date(new Date(clock.now).getTime() + pending.seconds * 1000).toISOString())}. Deadlines that pass act at once and cannot be undone.` : undefined}
      >
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setPending(null)} disabled={pending?.sending}>
            Cancel
          </Button>
          <Button onClick={confirm} loading={pending?.sending}>
            Advance
          </Button>
        </div>
      </Dialog>
    </div>
  );
}
