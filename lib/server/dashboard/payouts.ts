import 'server-only';
import type { ActionResult } from '@/lib/contracts/dashboard';
import type { MyBankAccountsView, PayoutFilters, PayoutRow, PayoutsView, PersonName } from '@/lib/contracts/dashboard-payouts';
import { namesMatch } from '@/lib/escrow/names';
import { escrowFor, type ApiFailure, type ApiResult } from '../escrow-client';
import { fromApi } from './action';
import { apiListFilters } from './list-filters';
import { withoutIntegrationFields } from './integration-fields';
import type { Actor, ClientActor } from './actor';
import type { View } from './views';

export const PAYOUTS_PAGE_SIZE = 20;

/**
 * A payouts list as this person may read it: a customer its own (whatever user id it asks for), an admin
 * every customer's of its client, each row named with the customer the API's list entry carries.
 */
export async function payoutsView(actor: Actor, filters: PayoutFilters, limit = PAYOUTS_PAGE_SIZE): Promise<View<PayoutsView>> {
  if (!('clientId' in actor)) return { kind: 'not_found' };
  const userId = actor.kind === 'customer' ? actor.escrowUserId : filters.user_id;
  const query = {
    page: filters.page,
    limit,
    ...(userId ? { user_id: userId } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...apiListFilters(filters),
  };
  const list = await escrowFor(actor).call('GET /payouts', { query });
  if (!list.ok) return { kind: 'error', failure: list };
  const customer = actor.kind !== 'customer';
  const payouts: PayoutRow[] = list.data.payouts.map(({ user, ...payout }) =>
    customer ? { ...payout, customer: `${user.first_name} ${user.last_name}` } : withoutIntegrationFields(payout),
  );
  return { kind: 'ok', view: { payouts, pagination: list.data.pagination } };
}

/** A customer's own saved accounts, newest first. */
export async function myBankAccounts(actor: ClientActor, userId: string): Promise<View<MyBankAccountsView>> {
  const list = await escrowFor(actor).call('GET /wallets/banks/list', { query: { user_id: userId, page: 1, limit: 50, sort: 'DESC' } });
  if (!list.ok) return { kind: 'error', failure: list };
  // The list carries each account's user; a customer's page needs only the accounts.
  return { kind: 'ok', view: { bank_accounts: list.data.bank_accounts.map(({ user: _user, ...account }) => account) } };
}

export async function personName(actor: ClientActor, userId: string): Promise<{ ok: true; name: PersonName } | { ok: false; failure: ApiFailure }> {
  const user = await escrowFor(actor).call('GET /users/:id', { param: { id: userId } });
  if (!user.ok) return { ok: false, failure: user };
  return { ok: true, name: { firstName: user.data.first_name, lastName: user.data.last_name } };
}

/**
 * The payee check before an account is saved (issue #24 item 7): the bank's name for the account must be
 * the customer's, or the person saving it must have said it is the customer's anyway. Undefined: go ahead.
 */
export async function nameCheck(actor: ClientActor, body: { user_id: string; account_number: string; bank_code: string; accept_name_mismatch?: boolean }): Promise<ActionResult<never> | undefined> {
  if (body.accept_name_mismatch) return undefined;
  const [lookup, person] = await Promise.all([escrowFor(actor).call('POST /wallets/banks/validate', { json: { account_number: body.account_number, bank_code: body.bank_code } }), personName(actor, body.user_id)]);
  if (!lookup.ok) return fromApi(lookup);
  if (!person.ok) return fromApi(person.failure);
  if (namesMatch(person.name, lookup.data.account_name)) return undefined;
  const { firstName, lastName } = person.name;
  return {
    ok: false,
    message: `${lookup.data.bank_name} holds this account as ${lookup.data.account_name}, not ${firstName} ${lastName}. Tick the box to confirm it is theirs, then save.`,
    errors: [{ field: 'accept_name_mismatch', message: 'Confirm the account is theirs although the names differ' }],
  };
}

/** The API's refusals of a payout in the words of the page the person is on. */
export function payoutResult<T, U>(result: ApiResult<T>, data?: (value: T) => U): ActionResult<U> {
  if (result.ok) return fromApi(result, data);
  const say = (message: string, field?: string): ActionResult<U> => ({ ok: false, message, ...(field ? { errors: [{ field, message }] } : {}) });
  switch (result.code) {
    case 'NO_BANK_ACCOUNT':
      return say('Save a bank account first: withdrawals are paid to a saved account.');
    case 'NOT_FOUND':
      return say('That bank account is no longer saved. Choose another one.', 'bank_account_id');
    case 'INSUFFICIENT_FUNDS':
      return say(result.message, 'amount');
    case 'PROVIDER_NOT_CONFIGURED':
      return say('Withdrawals are not available yet: this marketplace has not set up its payment provider.');
    case 'PROVIDER_UNAVAILABLE':
      return say('The bank could not be reached just now. Try again in a few minutes.');
    default:
      return fromApi(result);
  }
}
