'use client';

import { lazyForm } from '../ui/lazy-form';

/** The invite form for the team and operator pages: react-hook-form loads right after hydration (issue #6). */
export const InviteStaffForm = lazyForm(() => import('./invite-staff-form').then((m) => m.InviteStaffForm));
