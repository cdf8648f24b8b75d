/**
 * The request header in which the production server hands every route the address of the client it
 * decided on (scripts/production-server/client-address.ts). The server always writes it and drops any
 * copy a client sent, so a route may trust it; a request without it did not come through that server.
 */
export const CLIENT_ADDRESS_HEADER = 'x-escrow-client-address';
