/**
 * A log line as its reader would say it: the API's "intra-party mediation" is the mediation between the reader and
 * the other party, or between the buyer and the seller for anyone else.
 */
export function mediationWords(text: string, viewer?: 'buyer' | 'seller' | 'admin' | 'staff'): string {
  const between = viewer === 'buyer' ? 'you and the seller' : viewer === 'seller' ? 'you and the buyer' : 'the buyer and the seller';
  return text.replace(/intra-party mediation/gi, (found) => `${found[0] === 'I' ? 'M' : 'm'}ediation between ${between}`);
}
