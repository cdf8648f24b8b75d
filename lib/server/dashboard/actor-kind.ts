import 'server-only';

// Apart from actor.ts: audit.ts needs only this type, and actor.ts → auth.ts → audit.ts would close a loop.
type Person = { accountId: string; name: string; email: string };

export type Actor =
  /** Runs the service: the clients, and the dispute team's area across every client. */
  | (Person & { kind: 'operator'; disputeClientId: null })
  /** A client's admin; `readOnly` for a viewer, who sees all an admin sees and changes nothing. */
  | (Person & { kind: 'admin'; clientId: string; readOnly: boolean })
  /** `disputeClientId`: the one client whose disputes this team member may see and decide, or null for every client. */
  | (Person & { kind: 'dispute_team'; disputeClientId: string | null })
  | (Person & { kind: 'customer'; clientId: string; escrowUserId: string });

export type ClientActor = Extract<Actor, { clientId: string }>;
/** Who may open the dispute team's area: its members and the operator. */
export type DisputeDesk = Extract<Actor, { disputeClientId: string | null }>;
