'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { createTransaction } from '@/lib/actions/transactions';
import { numberOf, textOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { SelectField, TextAreaField, TextField } from '../ui/field';
import { useIntentKey } from '../ui/intent-key';
import { toast } from '../ui/toast';

/** The calendar day in Lagos `days` from now, as a date input holds it (a due day ends at midnight in Lagos). */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Africa/Lagos' });
/** A milestone row: a stable React key and its suggested due date (two weeks apart). */
type Row = { key: number; due: string };

export function CreateTransactionForm({ customers }: { customers: Array<{ id: string; name: string }> }) {
  const router = useRouter();
  const form = useActionForm();
  const [key] = useIntentKey();
  const [rows, setRows] = useState<Row[]>(() => [{ key: 0, due: inDays(14) }]);
  // A due date in the past is refused here (the browser's min) before the action and the API refuse it.
  const [today] = useState(() => inDays(0));
  const bound = form.bind(async (data) => {
    const milestones = rows.map((_, i) => ({
      title: textOf(data, `milestones.${i}.title`),
      description: textOf(data, `milestones.${i}.description`),
      amount: numberOf(data, `milestones.${i}.amount`),
      due_date: textOf(data, `milestones.${i}.due_date`),
      inspection_duration: numberOf(data, `milestones.${i}.inspection_duration`),
    }));
    const result = await createTransaction({
      title: textOf(data, 'title'),
      description: textOf(data, 'description'),
      buyer_id: textOf(data, 'buyer_id'),
      seller_id: textOf(data, 'seller_id'),
      commission_payer: textOf(data, 'commission_payer'),
      milestones,
      idempotency_key: key,
    });
    toast.result(result);
    form.report(result);
    if (result.ok && result.data) router.push(`/transactions/${result.data.transaction_id}`);
  });
  const customerOptions = customers.map((c) => (
    <option key={c.id} value={c.id}>
      {c.name}
    </option>
  ));
  return (
    <form {...bound} className="space-y-6">
      <Card>
        <CardHeader title="Deal" />
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField label="Title" name="title" required className="sm:col-span-2" error={form.errorOf('title')} />
          <TextAreaField label="Description" name="description" required className="sm:col-span-2" error={form.errorOf('description')} />
          <SelectField label="Buyer (pays into escrow)" name="buyer_id" required defaultValue="" error={form.errorOf('buyer_id')}>
            <option value="">Choose the buyer…</option>
            {customerOptions}
          </SelectField>
          <SelectField label="Seller (delivers and is paid)" name="seller_id" required defaultValue="" error={form.errorOf('seller_id')}>
            <option value="">Choose the seller…</option>
            {customerOptions}
          </SelectField>
          <SelectField label="Who pays the fee" name="commission_payer" defaultValue="SELLER_100" error={form.errorOf('commission_payer')}>
            <option value="SELLER_100">The seller</option>
            <option value="BUYER_100">The buyer</option>
            <option value="SPLIT_50_50">Half each</option>
          </SelectField>
        </div>
      </Card>
      <fieldset className="space-y-4">
        <legend className="mb-2 text-lg font-semibold">Milestones</legend>
        {form.ownError('milestones') ? <p className="text-sm text-rose-700">{form.ownError('milestones')}</p> : null}
        {rows.map((row, i) => {
          const field = (name: string) => `milestones.${i}.${name}`;
          return (
            <Card key={row.key} aria-label={`Milestone ${i + 1}`} data-testid={`milestone-input-${i + 1}`}>
              <CardHeader
                title={`Milestone ${i + 1}`}
                level={3}
                actions={
                  rows.length > 1 ? (
                    <Button variant="ghost" size="sm" onClick={() => setRows(rows.filter((r) => r.key !== row.key))}>
                      Remove milestone {i + 1}
                    </Button>
                  ) : null
                }
              />
              <div className="grid gap-3 sm:grid-cols-2">
                <TextField label="Title" name={field('title')} required error={form.errorOf(field('title'))} />
                <TextField label="Amount (₦)" name={field('amount')} type="number" inputMode="decimal" required step="0.01" min="0" error={form.errorOf(field('amount'))} />
                <TextAreaField label="What is delivered" name={field('description')} required className="sm:col-span-2" error={form.errorOf(field('description'))} />
                <TextField
                  label="Due date"
                  name={field('due_date')}
                  type="date"
                  required
                  min={today}
                  data-range-error="The due date has passed: choose today or a later day"
                  defaultValue={row.due}
                  error={form.errorOf(field('due_date'))}
                />
                <TextField
                  label="Inspection period (days)"
                  name={field('inspection_duration')}
                  type="number"
                  min="1"
                  max="30"
                  defaultValue={3}
                  error={form.errorOf(field('inspection_duration'))}
                />
              </div>
            </Card>
          );
        })}
        <Button variant="secondary" onClick={() => setRows([...rows, { key: Math.max(...rows.map((r) => r.key)) + 1, due: inDays(14 * (rows.length + 1)) }])}>
          Add a milestone
        </Button>
      </fieldset>
      <div className="flex justify-end">
        <Button type="submit" loading={form.busy}>
          Create transaction
        </Button>
      </div>
    </form>
  );
}
