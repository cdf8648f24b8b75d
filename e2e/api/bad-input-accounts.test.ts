/**
 * Bad input for each operation tagged anything but Transactions, Milestones and Disputes: every field missing, of the wrong type,
 * too long, malformed, every amount bad, bad JSON, content types, path ids and uploads, each refused with a 4xx naming
 * the field and nothing changed (support/bad-input.ts).
 */
import { badInputSuites, reportBadInputCounts } from './support/bad-input';

reportBadInputCounts('bad-input-accounts.test.ts');
badInputSuites('accounts');
