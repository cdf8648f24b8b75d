export type Bank = { code: string; name: string; nibss_code?: string };

// `code` is the bank code Nigerian payment APIs (Paystack's /bank list, mirrored by most
// integrators) accept for transfers and name enquiry: the CBN's 3-digit code for deposit money
// banks, the CBN's 5-digit code for microfinance banks, and provider-specific codes elsewhere.
// `nibss_code` is the 6-digit NIBSS Instant Payment (NIP) institution code, carried only where
// it was found in a NIP institution list and is not contradicted by another source.
//
// Deliberately absent: Heritage Bank (030, licence revoked June 2024), Diamond Bank as a brand
// (merged into Access in 2019; its 063 code survives below because pre-merger account numbers
// were issued against it and still route), and institutions whose payment-API code could not
// be confirmed in more than one place.
const BANKS: Bank[] = [
  // Commercial banks
  { code: '044', name: 'Access Bank', nibss_code: '000014' },
  { code: '063', name: 'Access Bank (Diamond)', nibss_code: '000005' },
  { code: '023', name: 'Citibank Nigeria', nibss_code: '000009' },
  { code: '050', name: 'Ecobank Nigeria', nibss_code: '000010' },
  { code: '070', name: 'Fidelity Bank', nibss_code: '000007' },
  { code: '011', name: 'First Bank of Nigeria', nibss_code: '000016' },
  { code: '214', name: 'First City Monument Bank', nibss_code: '000003' },
  // Paystack lists Globus as "00103"; 103 is its CBN code and what the NUBAN check digit uses.
  { code: '103', name: 'Globus Bank', nibss_code: '000027' },
  { code: '058', name: 'GTBank', nibss_code: '000013' },
  { code: '082', name: 'Keystone Bank', nibss_code: '000002' },
  { code: '107', name: 'Optimus Bank', nibss_code: '000036' },
  { code: '104', name: 'Parallex Bank', nibss_code: '000030' },
  { code: '076', name: 'Polaris Bank', nibss_code: '000008' },
  { code: '105', name: 'PremiumTrust Bank', nibss_code: '000031' },
  { code: '101', name: 'Providus Bank', nibss_code: '000023' },
  { code: '106', name: 'Signature Bank', nibss_code: '000034' },
  { code: '221', name: 'Stanbic IBTC Bank', nibss_code: '000012' },
  { code: '068', name: 'Standard Chartered Bank', nibss_code: '000021' },
  { code: '232', name: 'Sterling Bank', nibss_code: '000001' },
  { code: '100', name: 'SunTrust Bank', nibss_code: '000022' },
  { code: '102', name: 'Titan Trust Bank', nibss_code: '000025' },
  { code: '032', name: 'Union Bank of Nigeria', nibss_code: '000018' },
  { code: '033', name: 'United Bank for Africa', nibss_code: '000004' },
  { code: '215', name: 'Unity Bank', nibss_code: '000011' },
  { code: '035', name: 'Wema Bank', nibss_code: '000017' },
  { code: '057', name: 'Zenith Bank', nibss_code: '000015' },

  // Merchant banks
  { code: '559', name: 'Coronation Merchant Bank', nibss_code: '060001' },
  { code: '501', name: 'FSDH Merchant Bank', nibss_code: '400001' },
  { code: '562', name: 'Greenwich Merchant Bank', nibss_code: '060004' },
  { code: '502', name: 'Rand Merchant Bank', nibss_code: '000024' },

  // Non-interest banks
  { code: '301', name: 'Jaiz Bank', nibss_code: '000006' },
  { code: '303', name: 'Lotus Bank', nibss_code: '000029' },
  { code: '302', name: 'TAJBank', nibss_code: '000026' },
  { code: '000304', name: 'The Alternative Bank', nibss_code: '000037' },

  // Microfinance banks and fintechs with a CBN 5-digit code
  { code: '50126', name: 'Eyowo', nibss_code: '090328' },
  { code: '51318', name: 'FairMoney Microfinance Bank', nibss_code: '090551' },
  { code: '50211', name: 'Kuda Microfinance Bank', nibss_code: '090267' },
  { code: '50304', name: 'Mint MFB', nibss_code: '090281' },
  { code: '50515', name: 'Moniepoint Microfinance Bank', nibss_code: '090405' },
  { code: '51113', name: 'Safe Haven Microfinance Bank', nibss_code: '090286' },
  { code: '51310', name: 'Sparkle Microfinance Bank', nibss_code: '090325' },

  // Microfinance banks that payment APIs know by a provider-assigned code
  { code: '602', name: 'Accion Microfinance Bank', nibss_code: '090134' },
  { code: '565', name: 'Carbon', nibss_code: '100026' },
  { code: '566', name: 'VFD Microfinance Bank', nibss_code: '090110' },

  // Mobile money operators, wallets and payment service banks
  { code: '120001', name: '9mobile 9Payment Service Bank', nibss_code: '120001' },
  { code: '120004', name: 'Airtel Smartcash PSB', nibss_code: '120004' },
  { code: '100022', name: 'GoMoney' },
  { code: '120002', name: 'HopePSB', nibss_code: '120002' },
  { code: '946', name: 'Money Master PSB', nibss_code: '120005' },
  { code: '120003', name: 'MTN MoMo PSB', nibss_code: '120003' },
  { code: '999992', name: 'OPay', nibss_code: '100004' },
  { code: '100002', name: 'Paga', nibss_code: '100002' },
  { code: '999991', name: 'PalmPay', nibss_code: '100033' },
];

export const NIGERIAN_BANKS: readonly Bank[] = Object.freeze(
  BANKS.map((bank) => Object.freeze({ ...bank })).sort((a, b) => a.name.localeCompare(b.name, 'en')),
);

const BY_CODE: ReadonlyMap<string, Bank> = new Map(NIGERIAN_BANKS.map((bank) => [bank.code, bank]));

export function findBank(code: string): Bank | undefined {
  return BY_CODE.get(code);
}
