'use client';

import { useState } from 'react';
import { lookupAccountName, saveBankAccount } from '@/lib/actions/bank-accounts';
import type { Bank } from '@/lib/contracts/dashboard';
import { BankAccountFields, NameCheck, useSaveAccountForm } from '../escrow/name-check';
import { Button } from '../ui/button';
import { SelectField } from '../ui/field';
import { useOptionsOnIntent, type CustomerOption } from './options-on-intent';
import { pickerStatus } from './picker-status';

/**
 * Pick the customer and the bank, type the NUBAN: the account name is looked up live and set beside the
 * customer's; saving waits for it, and for a ticked box when the two names differ.
 */
export function BankAccountForm({ defaultUserId, onSaved }: { defaultUserId?: string; onSaved: () => void }) {
  // The customers and banks are asked for when the person reaches for the form, not with the page (issue #60).
  const { options: customers, state: customersState, retry: retryCustomers, intent: wantCustomers } = useOptionsOnIntent<CustomerOption>('/data/customers/options');
  const { options: banks, state: banksState, retry: retryBanks, intent: wantBanks } = useOptionsOnIntent<Bank>('/data/banks');
  const status = pickerStatus([customersState, banksState], 'customers and banks', () => (retryCustomers(), retryBanks()));
  const intent = {
    onFocus: () => (wantCustomers.onFocus(), wantBanks.onFocus()),
    onPointerEnter: () => (wantCustomers.onPointerEnter(), wantBanks.onPointerEnter()),
    onPointerDown: () => (wantCustomers.onPointerDown(), wantBanks.onPointerDown()),
  };
  const [userId, setUserId] = useState(defaultUserId ?? '');
  const customer = customers.find((c) => c.id === userId);
  const person = customer?.firstName !== undefined && customer.lastName !== undefined ? { firstName: customer.firstName, lastName: customer.lastName } : null;
  // The customer stays chosen after a save, for their next account.
  const { form, bound, lookup, accepted, setAccepted, ready } = useSaveAccountForm({
    lookup: lookupAccountName,
    person,
    save: (body) => saveBankAccount({ user_id: userId, ...body }),
    onSaved,
  });

  return (
    <form {...bound} {...intent} className="space-y-3" aria-label="Add a bank account">
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
        hint={status}
        aria-busy={customersState === 'loading' || banksState === 'loading'}
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
