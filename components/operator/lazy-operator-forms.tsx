'use client';

import { lazyForm } from '../ui/lazy-form';

/** The operator pages' forms: react-hook-form loads right after hydration (issue #6). */
export const NewClientForm = lazyForm(() => import('./operator-forms').then((m) => m.NewClientForm));
export const SettingsForm = lazyForm(() => import('./operator-forms').then((m) => m.SettingsForm));
export const ConnectKeyForm = lazyForm(() => import('./operator-forms').then((m) => m.ConnectKeyForm));
