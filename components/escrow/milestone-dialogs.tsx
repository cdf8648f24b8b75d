'use client';

import { lazy, useState, type ComponentType } from 'react';
import { Button, type ButtonProps } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { useIntentKey } from '../ui/intent-key';
import { naira } from './format';
import type { ProofUploadItem } from './proof-upload';

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
 * retry after closing is the same intent) and the files chosen, uploaded or still uploading.
 */
function useFormDialog(onDone: () => void) {
  const [open, setOpen] = useState(false);
  const [key, renewKey] = useIntentKey();
  const [proofs, setProofs] = useState<ProofUploadItem[]>([]);
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

/** A button that opens one milestone form in a dialog; the form is handed the dialog's key, files and ways out. */
function MilestoneFormDialog({
  label,
  variant,
  title,
  description,
  Form,
  milestoneId,
  onDone,
}: {
  label: string;
  variant?: ButtonProps['variant'];
  title: string;
  description: string;
  Form: ComponentType<{ milestoneId: string } & ReturnType<typeof useFormDialog>['form']>;
  milestoneId: string;
  onDone: () => void;
}) {
  const dialog = useFormDialog(onDone);
  return (
    <>
      <Button variant={variant} onClick={dialog.show} {...warm}>
        {label}
      </Button>
      <Dialog open={dialog.open} onClose={dialog.hide} title={title} description={description}>
        <Form milestoneId={milestoneId} {...dialog.form} />
      </Dialog>
    </>
  );
}

export function DeliverDialog({ milestoneId, onDone }: Props) {
  const description = 'Attach proof of delivery (a waybill, photos, a signed note). The buyer then inspects it.';
  return <MilestoneFormDialog label="Deliver with proof" title="Deliver this milestone" description={description} Form={DeliverForm} milestoneId={milestoneId} onDone={onDone} />;
}

export function RejectDeliveryDialog({ milestoneId, amount, onDone }: Props) {
  const description = `The ${naira(amount)} stays in escrow. The seller has 7 days to approve the return (you are refunded) or reject it.`;
  return <MilestoneFormDialog label="Reject delivery" variant="danger" title="Reject this delivery" description={description} Form={RejectDeliveryForm} milestoneId={milestoneId} onDone={onDone} />;
}

export function OpenDisputeDialog({ milestoneId, amount, opener, onDone }: Props & { opener: 'buyer' | 'seller' }) {
  const description =
    opener === 'seller'
      ? `Mediation runs for 3 business days: you propose how much of the ${naira(amount)} held you should receive, and the buyer answers.`
      : `Mediation runs for 3 business days: the seller proposes how much of the ${naira(amount)} held it should receive, and you answer or offer your own amount.`;
  return <MilestoneFormDialog label="Open a dispute" variant="danger" title="Open a dispute" description={description} Form={OpenDisputeForm} milestoneId={milestoneId} onDone={onDone} />;
}
