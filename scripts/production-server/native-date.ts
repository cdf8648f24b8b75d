/**
 * Next's server swaps the global `Date` for a wrapper (next/dist/server/node-environment-extensions/
 * date.js) so that prerenders under `cacheComponents` can notice reads of the clock. This app does not
 * use `cacheComponents`, yet every `new Date(…)` then went through `Reflect.construct` with `arguments`:
 * every timestamp drizzle maps from a row, 5% of the server's CPU on a list of transactions.
 *
 * This module is imported before anything of Next's, so it holds the engine's own Date.
 */
const engineDate = globalThis.Date;

/** Puts the engine's own Date back, once Next has started (and installed its wrapper). */
export function restoreEngineDate(): void {
  if (globalThis.Date === engineDate) return;
  globalThis.Date = engineDate;
  // The wrapper also pointed the prototype's constructor at itself.
  Object.defineProperty(engineDate.prototype, 'constructor', { value: engineDate, writable: true, configurable: true });
}
