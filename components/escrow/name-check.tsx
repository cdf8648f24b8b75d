'use client';

import { useEffect, useState } from 'react';
import type { ActionResult, Bank } from '@/lib/contracts/dashboard';
import type { PersonName } from '@/lib/contracts/dashboard-payouts';
import { namesMatch } from '@/lib/escrow/names';
import { useActionForm } from '../ui/action-form';
import { SelectField, TextField } from '../ui/field';
import { useIntentKey } from '../ui/intent-key';
import { Spinner } from '../ui/spinner';
import { toast } from '../ui/toast';

type Lookup = { for: string; ok: true; name: string; bank: string } | { for: string; ok: false; message: string };
type LookupAction = (input: { bank_code: string; account_number: string }) => Promise<ActionResult<{ account_name: string; bank_name: string }>>;

/**
 * Bank and number followed as they are typed, and the bank's name for the account looked up once both are
 * complete (a moment after the typing stops). The answer counts only for the bank and number it was asked about.
 */
export function useAccountLookup(lookup: LookupAction) {
  const [bankCode, setBankCode] = useState('');
  const [accountNumber, setAccountNumber] = useState('');
  const [answer, setAnswer] = useState<Lookup | null>(null);
  const lookupKey = `${bankCode}:${accountNumber}`;
  const complete = Boolean(bankCode) && /^\d{10}$/.test(accountNumber);

  useEffect(() => {
    if (!complete) return;
    let live = true;
    const timer = setTimeout(async () => {
      let next: Lookup;
      try {
        const result = await lookup({ bank_code: bankCode, account_number: accountNumber });
        next =
          result.ok && result.data
            ? { for: lookupKey, ok: true, name: result.data.account_name, bank: result.data.bank_name }
            : { for: lookupKey, ok: false, message: result.message };
      } catch {
        next = { for: lookupKey, ok: false, message: 'The account name could not be looked up. Check your connection and try again.' };
      }
      if (live) setAnswer(next);
    }, 350);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [complete, bankCode, accountNumber, lookupKey, lookup]);

  const current = complete && answer?.for === lookupKey ? answer : null;
  return {
    bankCode,
    setBankCode,
    accountNumber,
    setAccountNumber,
    current,
    looking: complete && !current,
    reset: () => {
      setBankCode('');
      setAccountNumber('');
      setAnswer(null);
    },
  };
}

/** Whether the looked-up name may be saved as it is, needs a confirmation, or is not known yet. */
export function nameVerdict(current: ReturnType<typeof useAccountLookup>['current'], person: PersonName | null): 'unknown' | 'matches' | 'differs' {
  if (!current?.ok || !person) return 'unknown';
  return namesMatch(person, current.name) ? 'matches' : 'differs';
}

/**
 * The payee check (issue #24 item 7): the bank's name for the account beside the customer's, and, when they
 * differ, a box to tick before the account can be saved. `whose` words the customer ("your", "Ada Obi's").
 */
export function NameCheck({
  lookup,
  person,
  whose,
  accepted,
  onAccept,
  error,
}: {
  lookup: ReturnType<typeof useAccountLookup>;
  person: PersonName | null;
  whose: { yours: boolean; name: string };
  accepted: boolean;
  onAccept: (accepted: boolean) => void;
  error?: string;
}) {
  const { current, looking } = lookup;
  const verdict = nameVerdict(current, person);
  return (
    <div aria-live="polite" className="min-h-6 space-y-2 text-sm" data-testid="account-name-lookup">
      {looking ? <Spinner label="Looking up the account name…" /> : null}
      {current && !current.ok ? <p className="text-rose-700">{current.message}</p> : null}
      {current?.ok ? (
        <dl
          className={verdict === 'differs' ? 'rounded-md bg-amber-50 px-3 py-2 text-amber-950' : 'rounded-md bg-emerald-50 px-3 py-2 text-emerald-950'}
          data-testid="name-comparison"
        >
          <div>
            <dt className="inline">Name at the bank: </dt>
            <dd className="inline">
              <span className="font-semibold break-words" data-testid="account-name">
                {current.name}
              </span>{' '}
              ({current.bank})
            </dd>
          </div>
          {person ? (
            <div>
              <dt className="inline">{whose.yours ? 'Your name: ' : 'Customer’s name: '}</dt>
              <dd className="inline font-semibold break-words" data-testid="customer-name">
                {person.firstName} {person.lastName}
              </dd>
            </div>
          ) : null}
        </dl>
      ) : null}
      {verdict === 'differs' ? (
        <div className="space-y-1" data-testid="name-mismatch">
          <p className="text-amber-900">
            The names differ. Money sent to this account goes to {current?.ok ? current.name : 'its holder'}.
          </p>
          <label className="flex items-start gap-2">
            <input
              type="checkbox"
              name="accept_name_mismatch"
              checked={accepted}
              onChange={(e) => onAccept(e.target.checked)}
              className="mt-0.5 h-4 w-4 shrink-0 accent-emerald-700"
              aria-describedby={error ? 'accept-name-mismatch-error' : undefined}
            />
            <span>{whose.yours ? 'This is my account although the names differ' : `This is ${whose.name}’s account although the names differ`}</span>
          </label>
          {error ? (
            <p id="accept-name-mismatch-error" className="text-rose-700">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** The bank and the account number, bound to a lookup; `onEdit` runs on every change (a confirmation given for the old account no longer holds). */
export function BankAccountFields({
  banks,
  lookup,
  numberLabel,
  onEdit,
  errorOf,
}: {
  banks: Bank[];
  lookup: ReturnType<typeof useAccountLookup>;
  numberLabel: string;
  onEdit: () => void;
  errorOf: (name: string) => string | undefined;
}) {
  return (
    <>
      <SelectField
        label="Bank"
        name="bank_code"
        required
        value={lookup.bankCode}
        onChange={(e) => {
          lookup.setBankCode(e.target.value);
          onEdit();
        }}
        error={errorOf('bank_code')}
      >
        <option value="">Choose a bank…</option>
        {banks.map((b) => (
          <option key={b.code} value={b.code}>
            {b.name}
          </option>
        ))}
      </SelectField>
      <TextField
        label={numberLabel}
        name="account_number"
        required
        inputMode="numeric"
        autoComplete="off"
        maxLength={10}
        value={lookup.accountNumber}
        onChange={(e) => {
          lookup.setAccountNumber(e.target.value);
          onEdit();
        }}
        error={errorOf('account_number')}
      />
    </>
  );
}

type SaveAccount = (body: { bank_code: string; account_number: string; accept_name_mismatch: boolean; idempotency_key: string }) => Promise<ActionResult<unknown>>;

/**
 * A form that saves a bank account once the bank has named it: saving waits for the name, and for the
 * person's confirmation when it is not theirs; a saved account clears the form for the next one.
 */
export function useSaveAccountForm(a: { lookup: LookupAction; person: PersonName | null; save: SaveAccount; onSaved: () => void }) {
  const form = useActionForm();
  const [key, renewKey] = useIntentKey();
  const lookup = useAccountLookup(a.lookup);
  const [accepted, setAccepted] = useState(false);
  const verdict = nameVerdict(lookup.current, a.person);
  const ready = lookup.current?.ok === true && (verdict !== 'differs' || accepted);
  const bound = form.bind(async () => {
    if (!ready) return;
    const result = await a.save({ bank_code: lookup.bankCode, account_number: lookup.accountNumber, accept_name_mismatch: verdict === 'differs' && accepted, idempotency_key: key });
    toast.result(result);
    form.report(result);
    if (result.ok) {
      lookup.reset();
      setAccepted(false);
      renewKey();
      a.onSaved();
    }
  });
  return { form, bound, lookup, accepted, setAccepted, ready };
}
