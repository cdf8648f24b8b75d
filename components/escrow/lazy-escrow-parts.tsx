'use client';

import { lazyPart } from '../ui/lazy-form';

// The actions on a transaction, its milestones and a dispute are drawn on the server; their code (every
// action's words, dialogs and server actions) loads right after hydration (issue #6).
export const MilestoneActions = lazyPart(() => import('./milestone-actions').then((m) => m.MilestoneActions));
export const MilestonePartial = lazyPart(() => import('./milestone-partial').then((m) => m.MilestonePartial));
export const MilestoneExtension = lazyPart(() => import('./milestone-extension').then((m) => m.MilestoneExtension));
export const TransactionEnding = lazyPart(() => import('./transaction-ending').then((m) => m.TransactionEnding));
export const DisputeActions = lazyPart(() => import('./dispute-actions').then((m) => m.DisputeActions));
