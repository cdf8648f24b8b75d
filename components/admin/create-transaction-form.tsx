'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter } from 'next/navigation';
import { useFieldArray, useForm } from 'react-hook-form';
import { createTransaction } from '@/app/(dashboard)/admin/transactions/actions';
import { CreateTransactionInput, type CreateTransactionInput as Values } from '@/lib/contracts/dashboard';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { SelectField, TextAreaField, TextField } from '../ui/field';
import { newIntentKey } from '../ui/intent-key';
import { useToast } from '../ui/toast';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const blankMilestone = (n: number) => ({ title: '', description: '', amount: '' as unknown as number, due_date: inDays(14 * n), inspection_duration: 3 });

export function CreateTransactionForm({ customers }: { customers: Array<{ id: string; name: string }> }) {
  const toast = useToast();
  const router = useRouter();
  const form = useForm<Values>({
    resolver: zodResolver(CreateTransactionInput),
    defaultValues: { title: '', description: '', buyer_id: '', seller_id: '', commission_payer: 'SELLER_100', milestones: [blankMilestone(1)], idempotency_key: newIntentKey() },
  });
  const milestones = useFieldArray({ control: form.control, name: 'milestones' });
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await createTransaction(values);
    toast.result(result);
    if (result.ok && result.data) router.push(`/transactions/${result.data.transaction_id}`);
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6">
      <Card>
        <CardHeader title="Deal" />
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField label="Title" className="sm:col-span-2" error={errors.title?.message} {...form.register('title')} />
          <TextAreaField label="Description" className="sm:col-span-2" error={errors.description?.message} {...form.register('description')} />
          <SelectField label="Buyer (pays into escrow)" error={errors.buyer_id?.message} {...form.register('buyer_id')}>
            <option value="">Choose the buyer…</option>
            {customers.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </SelectField>
          <SelectField label="Seller (delivers and is paid)" error={errors.seller_id?.message} {...form.register('seller_id')}>
            <option value="">Choose the seller…</option>
            {customers.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </SelectField>
          <SelectField label="Who pays the fee" error={errors.commission_payer?.message} {...form.register('commission_payer')}>
            <option value="SELLER_100">The seller</option>
            <option value="BUYER_100">The buyer</option>
            <option value="SPLIT_50_50">Half each</option>
          </SelectField>
        </div>
      </Card>
      <fieldset className="space-y-4">
        <legend className="mb-2 text-lg font-semibold">Milestones</legend>
        {errors.milestones?.message ? <p className="text-sm text-rose-700">{errors.milestones.message}</p> : null}
        {milestones.fields.map((field, i) => {
          const e = errors.milestones?.[i];
          return (
            <Card key={field.id} aria-label={`Milestone ${i + 1}`} data-testid={`milestone-input-${i + 1}`}>
              <CardHeader
                title={`Milestone ${i + 1}`}
                level={3}
                actions={
                  milestones.fields.length > 1 ? (
                    <Button variant="ghost" size="sm" onClick={() => milestones.remove(i)}>
                      Remove milestone {i + 1}
                    </Button>
                  ) : null
                }
              />
              <div className="grid gap-3 sm:grid-cols-2">
                <TextField label="Title" error={e?.title?.message} {...form.register(`milestones.${i}.title`)} />
                <TextField label="Amount (₦)" type="number" inputMode="decimal" step="0.01" min="0" error={e?.amount?.message} {...form.register(`milestones.${i}.amount`, { valueAsNumber: true })} />
                <TextAreaField label="What is delivered" className="sm:col-span-2" error={e?.description?.message} {...form.register(`milestones.${i}.description`)} />
                <TextField label="Due date" type="date" error={e?.due_date?.message} {...form.register(`milestones.${i}.due_date`)} />
                <TextField
                  label="Inspection period (days)"
                  type="number"
                  min="1"
                  max="30"
                  error={e?.inspection_duration?.message}
                  {...form.register(`milestones.${i}.inspection_duration`, { valueAsNumber: true })}
                />
              </div>
            </Card>
          );
        })}
        <Button variant="secondary" onClick={() => milestones.append(blankMilestone(milestones.fields.length + 1))}>
          Add a milestone
        </Button>
      </fieldset>
      <div className="flex justify-end">
        <Button type="submit" loading={form.formState.isSubmitting}>
          Create transaction
        </Button>
      </div>
    </form>
  );
}
