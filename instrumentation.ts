export async function register() {
  // Builds prerender in worker processes: none of them may open (and lock) the embedded database.
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const { startServer } = await import('./lib/server/startup');
  try {
    await startServer();
  } catch (error) {
    // A server that cannot reach its database (or whose data directory is in use) must not linger
    // answering 500s: say why and stop.
    console.error(`\nEscrow Desk could not start: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
