import { describe, expect, it } from 'vitest';
import { FORM_WORDS, inFormWords } from './form-words';

const SNAKE = /[a-z]+_[a-z_]+/;

describe('inFormWords', () => {
  it('says what a delivery without proof needs, in the words of the form', () => {
    const refused = inFormWords(
      { ok: false, message: 'Check the form', errors: [{ field: 'proofs_of_completion', message: 'at least one proof is required' }] },
      FORM_WORDS.deliver,
    );
    expect(refused).toEqual({ ok: false, message: 'Add at least one proof of delivery.', errors: [{ field: 'proofs_of_completion', message: 'Add at least one proof of delivery' }] });
  });

  it('keeps an API message already in words, and words its field errors', () => {
    const refused = inFormWords(
      { ok: false, message: 'The buyer and the seller must be different users.', errors: [{ field: 'seller_id', message: 'must differ from buyer_id' }] },
      FORM_WORDS.createTransaction,
    );
    expect(refused.message).toBe('The buyer and the seller must be different users.');
    expect(refused.errors).toEqual([{ field: 'seller_id', message: 'The seller must be a different person from the buyer' }]);
  });

  it('names a milestone by its position, and rebuilds a summary that named fields', () => {
    const refused = inFormWords(
      {
        ok: false,
        message: 'Invalid request: milestones.1.due_date must be later than now (2026-03-10T12:00:00.000Z); milestones.0.amount must be greater than 0.',
        errors: [
          { field: 'milestones.1.due_date', message: 'must be later than now (2026-03-10T12:00:00.000Z)' },
          { field: 'milestones.0.amount', message: 'must be greater than 0' },
        ],
      },
      FORM_WORDS.createTransaction,
    );
    expect(refused.errors).toEqual([
      { field: 'milestones.1.due_date', message: 'The due date of milestone 2 has passed: choose today or a later day' },
      { field: 'milestones.0.amount', message: 'The amount of milestone 1 must be greater than 0' },
    ]);
    expect(refused.message).toBe('The due date of milestone 2 has passed: choose today or a later day. The amount of milestone 1 must be greater than 0.');
  });

  it('shows a refusal under the form’s own field when the form names it otherwise', () => {
    const refused = inFormWords(
      { ok: false, message: 'due_date: The new due date must be in the future.', errors: [{ field: 'due_date', message: 'The new due date must be in the future.' }] },
      FORM_WORDS.requestExtension,
    );
    expect(refused).toEqual({ ok: false, message: 'The new due date must be in the future.', errors: [{ field: 'due_day', message: 'The new due date must be in the future.' }] });
  });

  it('spells out a field no form has words for, and leaves no field name in any message', () => {
    const refused = inFormWords({ ok: false, message: 'Check the form', errors: [{ field: 'user.bank_code', message: 'must be 3 digits' }, { field: '(form)', message: 'send exactly one of buyer_id or seller_id' }] });
    expect(refused.errors?.map((e) => e.message)).toEqual(['The bank must be 3 digits', 'Send exactly one of the buyer or the seller']);
    const unnamed = inFormWords({ ok: false, message: 'account_number must be 10 digits' });
    expect(unnamed.message).toBe('The account number must be 10 digits');
    for (const m of [refused.message, unnamed.message, ...(refused.errors ?? []).map((e) => e.message)]) expect(m).not.toMatch(SNAKE);
  });

  it('leaves successes and messages in words alone', () => {
    const done = { ok: true, message: 'Milestone delivered successfully' };
    expect(inFormWords(done, FORM_WORDS.deliver)).toBe(done);
    expect(inFormWords({ ok: false, message: 'Milestone was not found.' }).message).toBe('Milestone was not found.');
  });
});
