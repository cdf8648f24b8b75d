'use client';

import { createContext, useContext, type ReactNode } from 'react';

/**
 * How far the signed-in client's clock is ahead of real time: a sandbox client's test clock moves its deadlines,
 * so countdowns must count against that clock, as the dates beside them do. Zero for live clients and staff.
 */
const ClockOffset = createContext(0);

export function ClientClockProvider({ offsetMs, children }: { offsetMs: number; children: ReactNode }) {
  return <ClockOffset.Provider value={offsetMs}>{children}</ClockOffset.Provider>;
}

export function useClockOffset(): number {
  return useContext(ClockOffset);
}
