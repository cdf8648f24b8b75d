'use client';

import { useState } from 'react';
import { payMilestoneByCard } from '@/lib/actions/checkouts';
import { fundMilestone } from '@/lib/actions/milestones';
import type { MilestoneInTransaction } from '@/lib/contracts/dashboard';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { fetchJson } from '../ui/fetch-json';
import { useIntentKey } from '../ui/intent-key';
import { toast } from '../ui/toast';
import { naira } from './format';
import { feeTerms } from './money';

/**
 * The buyer's funding (docs/decisions.md §16): from the wallet, or by card through a checkout whose payment page
 * brings the browser back to this transaction. The card is always offered, and comes first when the wallet is short.
 * Each way keeps its own Idempotency-Key until it succeeds. The wallet's balance is read as the dialog opens (an admin's
 * page hands in the buyer's), so the page loads without it and the dialog says what the wallet holds now.
 */
export function FundMilestoneDialog({ milestone, description, balance: given, onDone }: { milestone: MilestoneInTransaction; description: string; balance?: number; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const [opening, setOpening] = useState(false);
  const [read, setRead] = useState<number | undefined>(undefined);
  const balance = given ?? read;
  const [sending, setSending] = useState<'wallet' | 'card' | null>(null);
  const [walletKey, renewWalletKey] = useIntentKey();
  const [cardKey] = useIntentKey();
  const due = feeTerms(milestone).buyerPays;
  const short = balance !== undefined && balance < due ? Math.round((due - balance) * 100) / 100 : 0;

  async function fromWallet() {
    setSending('wallet');
    try {
      const result = await fundMilestone({ milestone_id: milestone.id, idempotency_key: walletKey });
      toast.result(result);
      if (result.ok) {
        renewWalletKey();
        setOpen(false);
        onDone();
      }
    } catch {
      toast.error('The request did not go through. Check your connection and try again.');
    } finally {
      setSending(null);
    }
  }

  async function byCard() {
    setSending('card');
    try {
      const result = await payMilestoneByCard({ milestone_id: milestone.id, idempotency_key: cardKey });
      if (result.ok && result.data) {
        // The page is left for the payment page; the button stays busy until the browser goes.
        window.location.assign(result.data.authorization_url);
        return;
      }
      toast.result(result);
    } catch {
      toast.error('The request did not go through. Check your connection and try again.');
    }
    setSending(null);
  }

  async function openDialog() {
    if (given === undefined) {
      setOpening(true);
      // Without the balance the dialog still offers both ways: the wallet's answer says if it was short.
      setRead(await fetchJson<{ balance: number }>('/data/wallet/balance').then((w) => w.balance, () => undefined));
      setOpening(false);
    }
    setOpen(true);
  }

  return (
    <>
      <Button onClick={() => void openDialog()} loading={opening}>
        Fund milestone
      </Button>
      <Dialog open={open} onClose={() => sending === null && setOpen(false)} title={`Fund "${milestone.title}"?`} description={description}>
        <div className="space-y-4">
          {balance !== undefined ? (
            <p className={short > 0 ? 'rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950' : 'text-sm text-slate-700'} data-testid="fund-wallet-balance">
              Your wallet holds {naira(balance)}.
              {short > 0 ? ` That is ${naira(short)} short of the ${naira(due)}: pay by card, or add money to your wallet first.` : ''}
            </p>
          ) : null}
          <p className="text-sm text-slate-700">By card, you pay {naira(due)} on the payment page and come back here; the milestone is funded once the payment is confirmed.</p>
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={sending !== null}>
              Cancel
            </Button>
            <Button variant={short > 0 ? 'primary' : 'secondary'} onClick={() => void byCard()} loading={sending === 'card'} disabled={sending === 'wallet'} data-autofocus={short > 0 || undefined}>
              Pay by card
            </Button>
            <Button variant={short > 0 ? 'secondary' : 'primary'} onClick={() => void fromWallet()} loading={sending === 'wallet'} disabled={sending === 'card'} data-autofocus={short > 0 ? undefined : true}>
              Fund from wallet
            </Button>
          </div>
        </div>
      </Dialog>
    </>
  );
}
