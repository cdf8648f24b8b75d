'use client';

import { withdraw } from '@/lib/actions/wallet';
import type { SavedBankAccount } from '@/lib/contracts/dashboard-payouts';
import { numberOf, textOf } from '../ui/action-form';
import { Button } from '../ui/button';
import { useConfirmedSubmit } from '../ui/confirmed-submit';
import { ConfirmDialog } from '../ui/dialog';
import { NairaField } from './naira-field';
import { naira } from './format';
import { NameDiffers } from './saved-accounts';

/**
 * Amount and one of the customer's saved accounts; a confirmation that spells out who the bank will pay
 * (the account's name as the bank holds it) before anything is sent.
 */
export function WithdrawForm({ accounts, balance, onDone }: { accounts: SavedBankAccount[]; balance: number; onDone: () => void }) {
  const flow = useConfirmedSubmit({
    read: (data) => ({ amount: numberOf(data, 'amount') ?? 0, account: accounts.find((a) => a.id === textOf(data, 'bank_account_id')) }),
    send: ({ amount, account }, key) => withdraw({ amount, bank_account_id: account?.id ?? '', idempotency_key: key }),
    onSent: onDone,
  });
  const { form, pending } = flow;
  const account = pending?.account;
  return (
    <>
      <form {...flow.bound} className="space-y-4" aria-label="Withdraw">
        <NairaField
          label="Amount (₦)"
          name="amount"
          max={balance > 0 ? balance : undefined}
          rangeError={`Enter an amount between ₦0.01 and ${naira(balance)}, the wallet's balance.`}
          hint={`Available: ${naira(balance)}`}
          error={form.errorOf('amount')}
        />
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-800">To the account</legend>
          {accounts.map((a, i) => (
            <label key={a.id} className="flex items-start gap-3 rounded-md border p-3 text-sm has-[:checked]:border-emerald-600 has-[:checked]:bg-emerald-50">
              <input type="radio" name="bank_account_id" value={a.id} defaultChecked={i === 0} required className="mt-1 h-4 w-4 shrink-0 accent-emerald-700" />
              <span className="min-w-0">
                <span className="flex flex-wrap items-center gap-2">
                  <span className="font-medium break-words">{a.account_name}</span>
                  {a.name_matches === false ? <NameDiffers /> : null}
                </span>
                <span className="block text-slate-600">
                  {a.bank_name} · <span className="font-mono">{a.account_number}</span>
                </span>
              </span>
            </label>
          ))}
          {form.errorOf('bank_account_id') ? <p className="text-sm text-rose-700">{form.errorOf('bank_account_id')}</p> : null}
        </fieldset>
        <Button type="submit" loading={form.busy}>
          Withdraw
        </Button>
      </form>
      <ConfirmDialog
        open={pending !== null}
        sending={flow.sending}
        onCancel={flow.cancel}
        onConfirm={flow.confirm}
        title={pending ? `Withdraw ${naira(pending.amount)}?` : 'Withdraw?'}
        description={
          account ? (
            <div className="space-y-2" data-testid="withdraw-confirmation">
              <p>The bank will pay it to:</p>
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md bg-slate-50 p-3 text-slate-800">
                <dt className="text-slate-500">Account name</dt>
                <dd className="font-semibold break-words" data-testid="withdraw-account-name">
                  {account.account_name}
                </dd>
                <dt className="text-slate-500">Bank</dt>
                <dd className="break-words">{account.bank_name}</dd>
                <dt className="text-slate-500">Account number</dt>
                <dd className="font-mono">{account.account_number}</dd>
              </dl>
              {account.name_matches === false ? <p className="text-amber-900">The bank’s name for this account is not yours. Make sure it is the account you mean.</p> : null}
              <p>The money leaves your wallet now. It cannot be called back once the bank has it.</p>
            </div>
          ) : (
            'Choose the account to pay.'
          )
        }
        confirmLabel={pending ? `Withdraw ${naira(pending.amount)}` : 'Withdraw'}
      />
    </>
  );
}
