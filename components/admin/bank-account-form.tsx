'use client';

import { useState } from 'react';
import { lookupAccountName, saveBankAccount } from '@/app/(dashboard)/admin/bank-accounts/actions';
import type { Bank } from '@/lib/contracts/dashboard';
import { BankAccountFields, NameCheck, nameVerdict, useAccountLookup } from '../escrow/name-check';
import { useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { SelectField } from '../ui/field';
import { useIntentKey } from '../ui/intent-key';
import { useToast } from '../ui/toast';

export type CustomerOption = { id: string; name: string; firstName?: string; lastName?: string };

/**
 * Pick the customer and the bank, type the NUBAN: the account name is looked up live and set beside the
 * customer's; saving waits for it, and for a ticked box when the two names differ.
 */
export function BankAccountForm({ banks, customers, defaultUserId, onSaved }: { banks: Bank[]; customers: CustomerOption[]; defaultUserId?: string; onSaved: () => void }) {
  const toast = useToast();
  const form = useActionForm();
  const [key, renewKey] = useIntentKey();
  const lookup = useAccountLookup(lookupAccountName);
  const [userId, setUserId] = useState(defaultUserId ?? '');
  const [accepted, setAccepted] = useState(false);
  const customer = customers.find((c) => c.id === userId);
  const person = customer?.firstName !== undefined && customer.lastName !== undefined ? { firstName: customer.firstName, lastName: customer.lastName } : null;
  const verdict = nameVerdict(lookup.current, person);
  const ready = lookup.current?.ok === true && (verdict !== 'differs' || accepted);

  const bound = form.bind(async () => {
    if (!ready) return;
    const result = await saveBankAccount({
      user_id: userId,
      bank_code: lookup.bankCode,
      account_number: lookup.accountNumber,
      accept_name_mismatch: verdict === 'differs' && accepted,
      idempotency_key: key,
    });
    toast.result(result);
    form.report(result);
    if (result.ok) {
      // The customer stays chosen, for their next account.
      lookup.reset();
      setAccepted(false);
      renewKey();
      onSaved();
    }
  });

  return (
    <form {...bound} className="space-y-3" aria-label="Add a bank account">
      <SelectField
        label="Customer"
        name="user_id"
        required
        value={userId}
        onChange={(e) => {
          setUserId(e.target.value);
          setAccepted(false);
        }}
        error={form.errorOf('user_id')}
      >
        <option value="">Choose a customer…</option>
        {customers.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </SelectField>
      <BankAccountFields banks={banks} lookup={lookup} numberLabel="Account number (NUBAN)" onEdit={() => setAccepted(false)} errorOf={form.errorOf} />
      <NameCheck
        lookup={lookup}
        person={person}
        whose={{ yours: false, name: person ? `${person.firstName} ${person.lastName}` : 'the customer' }}
        accepted={accepted}
        onAccept={setAccepted}
        error={form.errorOf('accept_name_mismatch')}
      />
      <Button type="submit" disabled={!ready} loading={form.busy}>
        Save bank account
      </Button>
    </form>
  );
}
