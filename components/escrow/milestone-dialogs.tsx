'use client';

import { lazy, useState } from 'react';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { useIntentKey } from '../ui/intent-key';
import { naira } from './money';
import type { UploadedProof } from './proof-upload';

// The forms (and the uploader) load when a dialog is first opened, or pointed at: most views of a
// milestone never open one, and the page's first load stays within its budget (issue #6).
const loadForms = () => import('./milestone-forms');
const DeliverForm = lazy(() => loadForms().then((m) => ({ default: m.DeliverForm })));
const RejectDeliveryForm = lazy(() => loadForms().then((m) => ({ default: m.RejectDeliveryForm })));
const OpenDisputeForm = lazy(() => loadForms().then((m) => ({ default: m.OpenDisputeForm })));
const warm = { onPointerEnter: () => void loadForms(), onFocus: () => void loadForms() };

type Props = { milestoneId: string; amount: number; onDone: () => void };

/**
 * A dialog's open state and what it keeps while closed until its intent succeeds: the Idempotency-Key (a
 * retry after closing is the same intent) and the files already uploaded.
 */
function useFormDialog(onDone: () => void) {
  const [open, setOpen] = useState(false);
  const [key, renewKey] = useIntentKey();
  const [proofs, setProofs] = useState<UploadedProof[]>([]);
  return {
    open,
    show: () => setOpen(true),
    hide: () => setOpen(false),
    form: {
      intentKey: key,
      proofs,
      onProofs: setProofs,
      onCancel: () => setOpen(false),
      onDone: () => {
        setOpen(false);
        setProofs([]);
        renewKey();
        onDone();
      },
    },
  };
}

export function DeliverDialog({ milestoneId, onDone }: Props) {
  const dialog = useFormDialog(onDone);
  return (
    <>
      <Button onClick={dialog.show} {...warm}>
        Deliver with proof
      </Button>
      <Dialog open={dialog.open} onClose={dialog.hide} title="Deliver this milestone" description="Attach proof of delivery (a waybill, photos, a signed note). The buyer then inspects it.">
        <DeliverForm milestoneId={milestoneId} {...dialog.form} />
      </Dialog>
    </>
  );
}

export function RejectDeliveryDialog({ milestoneId, amount, onDone }: Props) {
  const dialog = useFormDialog(onDone);
  return (
    <>
      <Button variant="danger" onClick={dialog.show} {...warm}>
        Reject delivery
      </Button>
      <Dialog
        open={dialog.open}
        onClose={dialog.hide}
        title="Reject this delivery"
        description={`The ${naira(amount)} stays in escrow. The seller has 7 days to approve the return (you are refunded) or reject it.`}
      >
        <RejectDeliveryForm milestoneId={milestoneId} {...dialog.form} />
      </Dialog>
    </>
  );
}

export function OpenDisputeDialog({ milestoneId, amount, onDone }: Props) {
  const dialog = useFormDialog(onDone);
  return (
    <>
      <Button variant="danger" onClick={dialog.show} {...warm}>
        Open a dispute
      </Button>
      <Dialog
        open={dialog.open}
        onClose={dialog.hide}
        title="Open a dispute"
        description={`Mediation runs for 3 business days: you propose how much of the ${naira(amount)} held you should receive, and the buyer answers.`}
      >
        <OpenDisputeForm milestoneId={milestoneId} {...dialog.form} />
      </Dialog>
    </>
  );
}
