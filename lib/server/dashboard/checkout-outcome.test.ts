import { describe, expect, it } from 'vitest';
import { AppError } from '../app-error';
import { moneyProviderFor } from '../providers';
import { cardPaymentResult } from './checkout-outcome';

/** The API's refusal as the dashboard's client receives it. */
function refusalOf(attempt: () => unknown) {
  try {
    attempt();
  } catch (error) {
    if (error instanceof AppError) return { ok: false as const, status: error.status, code: error.code, message: error.message };
  }
  throw new Error('expected a refusal');
}

describe('cardPaymentResult', () => {
  it('tells a payer card payments are not set up without naming the server variables the API names to the integrator', () => {
    const refusal = refusalOf(() => moneyProviderFor({ mode: 'live' }));
    expect(refusal.message).toMatch(/ESCROW_PAYMENT_PROVIDER/);
    const said = cardPaymentResult(refusal, () => null);
    expect(said).toEqual({ ok: false, message: expect.stringContaining('this marketplace has not set up its payment provider') });
    expect(JSON.stringify(said)).not.toMatch(/ESCROW_|PAYSTACK_/);
  });

  it('says a provider that did not answer in words, and passes other refusals and answers through', () => {
    const unavailable = cardPaymentResult({ ok: false, status: 503, code: 'PROVIDER_UNAVAILABLE', message: 'The payment provider could not start the payment just now: try again. (ECONNREFUSED)' }, () => null);
    expect(unavailable).toEqual({ ok: false, message: 'The payment provider could not be reached just now. Nothing was charged: try again in a few minutes.' });
    expect(cardPaymentResult({ ok: false, status: 403, code: 'WRONG_PARTY', message: 'Only the buyer pays.' }, () => null)).toMatchObject({ ok: false, message: 'Only the buyer pays.' });
    const paid = cardPaymentResult({ ok: true, status: 200, message: 'Checkout created', data: { authorization_url: 'http://127.0.0.1/checkout/CO_1' } }, (c) => c.authorization_url);
    expect(paid).toMatchObject({ ok: true, data: 'http://127.0.0.1/checkout/CO_1' });
  });
});
