export async function register() {
  // Builds prerender in worker processes: none of them may open (and lock) the embedded database.
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  // The production server (scripts/serve.ts) has done the start-up work before Next started: `next dev` has not.
  if ((globalThis as typeof globalThis & { __escrowStarted?: boolean }).__escrowStarted) return;
  const { startServerOrExit } = await import('./lib/server/startup');
  await startServerOrExit();
}
