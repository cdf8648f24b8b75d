import 'server-only';

// Placeholder until h24-paystack lands.
export type PaystackEvent =
  | { kind: 'transfer'; outcome: 'paid' | 'failed' | 'reversed'; reference: string; transferCode: string; amountKobo: number; reason?: string }
  | { kind: 'funding'; reference: string; amountKobo: number; customerCode: string; paidAt: string; accountNumber?: string }
  | { kind: 'ignored'; event: string };

export function verifyPaystackSignature(_rawBody: string, _signature: string | null, _secretKey: string): boolean {
  return false;
}

export function parsePaystackEvent(_json: unknown): PaystackEvent {
  return { kind: 'ignored', event: 'unknown' };
}
