import 'server-only';

/** The search, created-day and amount filters a data route read, as the API's list query takes them. */
export function apiListFilters(f: { search?: string; created_from?: string; created_to?: string; amount_min?: number; amount_max?: number }) {
  return {
    ...(f.search ? { search: f.search } : {}),
    ...(f.created_from ? { created_from: f.created_from } : {}),
    ...(f.created_to ? { created_to: f.created_to } : {}),
    ...(f.amount_min !== undefined ? { amount_min: f.amount_min } : {}),
    ...(f.amount_max !== undefined ? { amount_max: f.amount_max } : {}),
  };
}
