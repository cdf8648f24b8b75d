'use client';

import { createWebhook } from '@/lib/actions/webhooks';
import type { WebhookEndpointWithSecret } from '@/lib/contracts/dashboard-disputes';
import { textOf, useActionForm } from '../ui/action-form';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { useIntentKey } from '../ui/intent-key';
import { toast } from '../ui/toast';

export function NewEndpointForm({ onCreated }: { onCreated: (endpoint: WebhookEndpointWithSecret) => void }) {
  const form = useActionForm();
  const [key, renewKey] = useIntentKey();
  const bound = form.bind(async (data, el) => {
    const result = await createWebhook({ url: textOf(data, 'url'), description: textOf(data, 'description'), idempotency_key: key });
    toast.result(result);
    form.report(result);
    if (result.ok && result.data) {
      onCreated(result.data);
      el.reset();
      renewKey();
    }
  });
  return (
    <form {...bound} aria-label="Add a webhook endpoint" className="grid gap-3 sm:grid-cols-[2fr_1fr_auto] sm:items-end">
      <TextField label="URL" name="url" type="url" required placeholder="https://example.com/escrow/webhooks" error={form.errorOf('url')} />
      <TextField label="Description (optional)" name="description" error={form.errorOf('description')} />
      <Button type="submit" loading={form.busy}>
        Add endpoint
      </Button>
    </form>
  );
}
