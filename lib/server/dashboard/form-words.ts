import 'server-only';
import type { FieldError } from '@/lib/contracts/dashboard';

/**
 * What a dashboard form is told when it is refused, in the form's own words (issue #27). The API's
 * messages name its fields (`proofs_of_completion`, `milestones.0.due_date`, "must differ from buyer_id"):
 * right for an integrator reading the envelope, never shown to a person here. Every server action's
 * refusal passes through `inFormWords` (./action.ts), once, with the words of the form that sent it.
 */
export type FieldWords = {
  /** The field as a sentence names it; `{n}` is the 1-based position of the list item (`milestones.0.x` → 1). */
  name: string;
  /** The form's sentence for a refusal of this field, by how the API's reason begins; `*` for any reason. */
  says?: Readonly<Record<string, string>>;
  /** The form's field that shows the message when the form names it otherwise (the API's due_date, the form's due_day). */
  field?: string;
};
/** A form's fields by the API's path, a list's index written `*` (`milestones.*.due_date`). */
export type FormWords = Readonly<Record<string, FieldWords>>;

const proofs = (add: string) => ({ 'at least one': add, 'is required': add, 'must be a URL or a list': add, 'at most': 'Attach at most 20 files' });
const PAST_DUE = 'The due date of milestone {n} has passed: choose today or a later day';
const CHOOSE_DUE = 'Choose the due date of milestone {n}';

/** The words every form shares: a field means the same wherever it appears. */
const COMMON: FormWords = {
  buyer_id: { name: 'the buyer' },
  seller_id: { name: 'the seller', says: { 'must differ from buyer_id': 'The seller must be a different person from the buyer' } },
  user_id: { name: 'the customer' },
  amount: { name: 'the amount' },
  dispute_amount: { name: 'the amount' },
  seller_amount: { name: "the seller's share" },
  title: { name: 'the title' },
  description: { name: 'the description' },
  reason: { name: 'the reason' },
  due_date: { name: 'the due date' },
  commission_payer: { name: 'who pays the fee' },
  inspection_duration: { name: 'the inspection period' },
  first_name: { name: 'the first name' },
  last_name: { name: 'the last name' },
  email_address: { name: 'the email address' },
  phone_number: { name: 'the phone number' },
  account_number: { name: 'the account number' },
  bank_code: { name: 'the bank' },
  bank_account_id: { name: 'the bank account' },
  idempotency_key: { name: 'this form', says: { '*': 'This form has expired: reload the page and try again' } },
};

/** Each form's own words, over the common ones. */
export const FORM_WORDS = {
  createTransaction: {
    milestones: { name: 'the milestones' },
    'milestones.*.title': { name: 'the title of milestone {n}' },
    'milestones.*.description': { name: 'what is delivered in milestone {n}' },
    'milestones.*.amount': { name: 'the amount of milestone {n}' },
    'milestones.*.due_date': {
      name: 'the due date of milestone {n}',
      says: { 'must be later than now': PAST_DUE, 'is in the past': PAST_DUE, 'must be a date': CHOOSE_DUE, 'is required': CHOOSE_DUE },
    },
    'milestones.*.inspection_duration': { name: 'the inspection period of milestone {n}' },
  },
  deliver: {
    proofs_of_completion: { name: 'the proof of delivery', says: proofs('Add at least one proof of delivery') },
  },
  rejectDelivery: {
    rejection_reason: { name: 'why you are rejecting it' },
    proofs_of_return: { name: 'the proof of return', says: proofs('Add at least one proof of return') },
  },
  evidence: {
    text: { name: 'your account of what happened' },
    files: { name: 'the files', says: { 'at most': 'Attach at most 20 files' } },
  },
  refund: {
    amount: { name: 'the amount to refund' },
    reason: { name: 'why you are refunding' },
  },
  proposePartialAcceptance: {
    release_amount: { name: 'the amount you pay the seller' },
    reason: { name: 'why you pay only part' },
  },
  requestExtension: {
    due_date: { name: 'the new due date', field: 'due_day' },
    due_day: { name: 'the new due date', says: { 'must be a date': 'Choose the new due date' } },
    reason: { name: 'why you need more time' },
  },
} satisfies Record<string, FormWords>;

const INDEX = /^\d+$/;
/** A field name or path where a person would read words: `buyer_id`, `milestones.0.due_date`. */
const FIELD_MENTION = /\b[a-z][a-z0-9]*(?:(?:_[a-z0-9]+)+(?:\.(?:\d+|[a-z][a-z0-9_]*))*|(?:\.\d+)(?:\.(?:\d+|[a-z][a-z0-9_]*))+)\b/g;
/** A message written for an integrator: it names fields, or is the API's summary of them. */
const SPEAKS_API = /[a-z]+_[a-z_]+|\b[a-z]+\.\d+\.[a-z]|^(Invalid request|Check the form)\b/;

const fill = (text: string, n: number | undefined) => text.replaceAll('{n}', n === undefined ? '' : String(n));
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const sentence = (text: string) => (/[.!?…]$/.test(text) ? text : `${text}.`);

function wordsOf(path: string, words: FormWords): { found?: FieldWords; n?: number; last: string } {
  const segments = path.split('.');
  const index = segments.find((s) => INDEX.test(s));
  const pattern = segments.map((s) => (INDEX.test(s) ? '*' : s)).join('.');
  const last = segments.filter((s) => !INDEX.test(s)).at(-1) ?? path;
  const found = words[pattern] ?? COMMON[pattern] ?? words[last] ?? COMMON[last];
  return { found, n: index === undefined ? undefined : Number(index) + 1, last };
}

/** How a sentence names a field: the form's words, else its name spelled out (`bank_code` → "the bank code"). */
function nameOf(path: string, words: FormWords): string {
  const { found, n, last } = wordsOf(path, words);
  return found ? fill(found.name, n) : `the ${last.replace(/_id$/, '').replaceAll('_', ' ')}`;
}

/** A text with every field it names said in words. */
function withoutFieldNames(text: string, words: FormWords): string {
  return text.replace(FIELD_MENTION, (mention) => nameOf(mention, words));
}

/** One refused field, in the form's words and under the form's own field. */
function fieldInWords(error: FieldError, words: FormWords): FieldError {
  if (error.field === '(form)') return { field: error.field, message: capitalise(withoutFieldNames(error.message, words)) };
  const { found, n } = wordsOf(error.field, words);
  const field = found?.field ?? error.field;
  // The dashboard's own contracts may already speak to the person (a capital letter): kept as written.
  if (/^[A-Z]/.test(error.message)) return { field, message: withoutFieldNames(error.message, words) };
  const says = Object.entries(found?.says ?? {});
  const said = says.find(([reason]) => error.message.startsWith(reason))?.[1] ?? found?.says?.['*'];
  if (said) return { field, message: fill(said, n) };
  return { field, message: capitalise(`${nameOf(error.field, words)} ${withoutFieldNames(error.message, words)}`) };
}

/**
 * A refusal as the form's person reads it: each field's message in the form's words, and the toast's
 * message rebuilt from them when the API's own named fields; a message already in words is kept.
 */
export function inFormWords<R extends { ok: boolean; message: string; errors?: FieldError[] }>(result: R, words: FormWords = {}): R {
  if (result.ok) return result;
  const errors = result.errors?.map((e) => fieldInWords(e, words));
  let message = result.message;
  if (SPEAKS_API.test(message)) {
    message = errors?.length ? [...new Set(errors.map((e) => sentence(e.message)))].join(' ') : capitalise(withoutFieldNames(message, words));
  }
  return { ...result, message, ...(errors ? { errors } : {}) };
}
