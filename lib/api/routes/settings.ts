import 'server-only';
import { ClientSettingsRecord, UpdateClientSettingsBody } from '@/lib/contracts/payouts';
import { clientSettings, updateClientSettings } from '@/lib/server/services/client-settings';
import { BASE_ERRORS, BODY_ERRORS, jsonBody, operation } from '../operation';
import { ok } from '../respond';
import { router } from '../router';

const getSettings = operation({
  method: 'get', path: '/settings', operationId: 'getSettings', tag: 'Settings', auth: 'client',
  summary: 'Your settings',
  description: 'Your account settings as they are now, such as whether released money is paid out automatically.',
  response: ClientSettingsRecord,
  errors: BASE_ERRORS,
});

const updateSettings = operation({
  method: 'patch', path: '/settings', operationId: 'updateSettings', tag: 'Settings', auth: 'client',
  summary: 'Change your settings',
  description: 'auto_payout: when true, every release of money to a seller with a saved bank account starts a payout of it in the same step.',
  request: { body: jsonBody(UpdateClientSettingsBody) },
  example: { auto_payout: true },
  response: ClientSettingsRecord,
  errors: BODY_ERRORS,
});

export const settingsRoutes = router()
  .openapi(getSettings, async (c) => ok('Settings retrieved successfully', clientSettings(c.var.client)))
  .openapi(updateSettings, async (c) => ok('Settings updated successfully', await updateClientSettings(c.var.db, c.var.client, c.req.valid('json'), new Date())));
