import 'server-only';
import type { PaymentProvider } from '../provider';

// Placeholder until h24-paystack lands.
export function paystackProvider(_settings: { secretKey: string; baseUrl: string; dedicatedAccountBank?: string }): PaymentProvider {
  throw new Error('Paystack adapter not built yet');
}
