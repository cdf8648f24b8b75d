'use client';

import { lazyForm } from '../ui/lazy-form';

/** Whole-page admin forms, for server pages: react-hook-form loads right after hydration (issue #6). */
export const CreateTransactionForm = lazyForm(() => import('./create-transaction-form').then((m) => m.CreateTransactionForm));
export const TestClockControl = lazyForm(() => import('./test-clock-control').then((m) => m.TestClockControl));
