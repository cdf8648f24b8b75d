/**
 * The life stories the data generator gives its transactions (two milestones each): the steps the
 * parties took, in order, and what each step leaves behind. The steps are checked against the app's own
 * state machine (lib/escrow) when this module loads, so a story the service could not produce fails here,
 * not as odd rows in a benchmark.
 */
import { endingPlan } from '../lib/escrow/ending';
import { allowedExtensionActions } from '../lib/escrow/extensions';
import {
  allowedMilestoneActions,
  decideMilestoneAction,
  transactionProgress,
  type MilestoneAction,
  type MilestoneStatus,
  type TransactionStatus,
} from '../lib/escrow/milestone-machine';
import { allowedPartialOutcomeActions } from '../lib/escrow/partial-outcomes';
import { allowedTransactionActions } from '../lib/escrow/transaction-actions';

export type StepKind = 'create' | 'fund' | 'deliver' | 'accept' | 'reject' | 'approve_return' | 'cancel';

/** `at`: when the step happened, as a fraction of the transaction's active span (0: its creation). */
export type Step = { kind: StepKind; position: 0 | 1 | 2; at: number };

/** Why the buyer may cancel at once (end-transaction.ts words it the same). */
export type CancelWhy = 'no escrow held money' | 'a funded milestone was past its due date undelivered';

export type DatasetState = {
  name: string;
  /** Out of 100: how many transactions of a client tell this story. */
  share: number;
  steps: Step[];
  /** Fraction of the active span at which milestone 1 falls due; milestone 2 is due 30 days after it. */
  firstDueAt?: number;
  /** Stories whose last step starts a running deadline are set in the last few days, so that deadline lies ahead. */
  recent?: boolean;
  cancelWhy?: CancelWhy;
};

const step = (kind: StepKind, position: 0 | 1 | 2, at: number): Step => ({ kind, position, at });
const created = step('create', 0, 0);

export const DATASET_STATES: DatasetState[] = [
  { name: 'unfunded', share: 15, steps: [created] },
  { name: 'funded', share: 15, steps: [created, step('fund', 1, 0.05)] },
  { name: 'under_inspection', share: 5, recent: true, steps: [created, step('fund', 1, 0.1), step('deliver', 1, 0.6)] },
  { name: 'return_awaiting_seller', share: 3, recent: true, steps: [created, step('fund', 1, 0.1), step('deliver', 1, 0.5), step('reject', 1, 0.8)] },
  {
    name: 'second_milestone_in_progress',
    share: 10,
    steps: [created, step('fund', 1, 0.05), step('deliver', 1, 0.2), step('accept', 1, 0.35), step('fund', 2, 0.5)],
  },
  {
    name: 'completed',
    share: 35,
    steps: [created, step('fund', 1, 0.05), step('deliver', 1, 0.2), step('accept', 1, 0.35), step('fund', 2, 0.5), step('deliver', 2, 0.65), step('accept', 2, 0.8)],
  },
  {
    name: 'returned_then_canceled',
    share: 4,
    cancelWhy: 'no escrow held money',
    steps: [created, step('fund', 1, 0.05), step('deliver', 1, 0.2), step('reject', 1, 0.35), step('approve_return', 1, 0.5), step('cancel', 0, 0.6)],
  },
  { name: 'canceled_unfunded', share: 8, cancelWhy: 'no escrow held money', steps: [created, step('cancel', 0, 0.3)] },
  {
    name: 'canceled_past_due',
    share: 5,
    firstDueAt: 0.5,
    cancelWhy: 'a funded milestone was past its due date undelivered',
    steps: [created, step('fund', 1, 0.05), step('cancel', 0, 0.9)],
  },
];

const ACTION_OF: Partial<Record<StepKind, MilestoneAction>> = {
  fund: 'fund',
  deliver: 'deliver',
  accept: 'approve',
  reject: 'reject',
  approve_return: 'approve_return',
};

export type MilestoneOutcome = {
  status: MilestoneStatus;
  funded: boolean;
  delivered: boolean;
  completed: boolean;
  deliveryRejected: boolean;
  returnProofSent: boolean;
  returnApproved: boolean;
  /** Step fractions: when it was delivered, rejected, and last changed. */
  deliveredAt: number | null;
  rejectedAt: number | null;
  updatedAt: number;
};

export type AllowedActions = { buyer: string[]; seller: string[] };

/** A milestone as a step leaves it, for the records its event carries. */
export type MilestoneSnapshot = MilestoneOutcome & {
  /** Whether its escrow holds the buyer's money, and when money last moved in or out of it. */
  held: boolean;
  escrowMovedAt: number | null;
  allowed: AllowedActions;
};

/** The transaction's own columns at some point of its story. */
type TransactionColumns = {
  status: TransactionStatus;
  currentPosition: 1 | 2 | null;
  isCompleted: boolean;
  onLastMilestone: boolean;
  completedAt: number | null;
  canceledAt: number | null;
  updatedAt: number;
};

/** The transaction as a step leaves it: positions whose funding, release and refund have happened so far. */
export type TransactionSnapshot = TransactionColumns & {
  funded: number[];
  released: number[];
  refunded: number[];
  allowed: AllowedActions;
};

export type StepOutcome = Step & {
  sequence: number;
  milestonesAfter: [MilestoneSnapshot, MilestoneSnapshot];
  transactionAfter: TransactionSnapshot;
  milestoneStatus: MilestoneStatus | null;
  transactionStatus: TransactionStatus | 'CANCELED';
  /** For a cancellation: the milestones it cancels, and those of them whose escrow goes back to the buyer. */
  canceled: number[];
  refunded: number[];
};

export type TransactionOutcome = TransactionColumns & {
  milestones: [MilestoneOutcome, MilestoneOutcome];
  steps: StepOutcome[];
};

function freshMilestone(): MilestoneOutcome {
  return {
    status: 'PENDING_FUNDING',
    funded: false,
    delivered: false,
    completed: false,
    deliveryRejected: false,
    returnProofSent: false,
    returnApproved: false,
    deliveredAt: null,
    rejectedAt: null,
    updatedAt: 0,
  };
}

/** Plays a story through the state machine as the services apply it, and says what every row looks like at its end. */
export function playState(state: DatasetState): TransactionOutcome {
  const ms: [MilestoneOutcome, MilestoneOutcome] = [freshMilestone(), freshMilestone()];
  const machineView = () => ms.map((m, i) => ({ id: String(i + 1), status: m.status, position: i + 1 }));
  let progress = transactionProgress(machineView());
  let completedAt: number | null = null;
  let canceledAt: number | null = null;
  let updatedAt = 0;
  const steps: StepOutcome[] = [];
  const held = [false, false];
  const escrowMovedAt: (number | null)[] = [null, null];
  const moved = { funded: [] as number[], released: [] as number[], refunded: [] as number[] };
  // Due dates lie ahead of every step but a past-due cancellation, which ends the transaction (no actions left).
  const farFuture = new Date(8.64e15);
  const columns = (): TransactionColumns => ({
    status: canceledAt !== null ? 'CANCELED' : progress.status,
    currentPosition: progress.current ? (Number(progress.current.id) as 1 | 2) : null,
    isCompleted: progress.isCompleted,
    onLastMilestone: progress.onLastMilestone,
    completedAt,
    canceledAt,
    updatedAt,
  });
  const snapshot = (): Pick<StepOutcome, 'milestonesAfter' | 'transactionAfter'> => {
    const view = machineView();
    const ended = canceledAt !== null ? ('CANCELED' as const) : null;
    const transaction = columns();
    const milestonesAfter = ms.map((m, i) => {
      const steps = allowedMilestoneActions(view[i]!, view);
      const extension = allowedExtensionActions({ status: m.status, extensions: [] });
      // Generated deals see no refunds, proposals or disputes: whether the escrow holds anything is all that counts.
      const terms = { milestoneAmount: 100, milestoneFee: 0, commissionPayer: 'SELLER_100' as const, escrowBalance: held[i] ? 100 : 0 };
      const partial = allowedPartialOutcomeActions({ status: m.status, terms, inspectionDuration: 3, partialAcceptance: null, disputeStatus: null });
      return {
        ...m,
        held: held[i]!,
        escrowMovedAt: escrowMovedAt[i]!,
        allowed: { buyer: [...steps.buyer, ...extension.buyer, ...partial.buyer], seller: [...steps.seller, ...extension.seller, ...partial.seller] },
      };
    }) as [MilestoneSnapshot, MilestoneSnapshot];
    const ending = { ended, milestones: view.map((m) => ({ ...m, dueDate: farFuture })), cancellationRequest: null, hasResolvedDispute: false };
    return {
      milestonesAfter,
      transactionAfter: {
        ...transaction,
        funded: [...moved.funded],
        released: [...moved.released],
        refunded: [...moved.refunded],
        allowed: allowedTransactionActions(ending, { status: transaction.status, hasBuyerRated: false, hasSellerRated: false }, new Date(0)),
      },
    };
  };
  for (const [index, s] of state.steps.entries()) {
    const outcome: StepOutcome = {
      ...s,
      sequence: index + 1,
      milestoneStatus: null,
      transactionStatus: progress.status,
      canceled: [],
      refunded: [],
      ...snapshot(),
    };
    updatedAt = s.at;
    if (s.kind === 'cancel') {
      const plan = endingPlan(machineView());
      outcome.canceled = plan.canceled.map(Number);
      outcome.refunded = plan.refunded.map(Number);
      if ((outcome.refunded.length > 0) !== (state.cancelWhy === 'a funded milestone was past its due date undelivered')) {
        throw new Error(`${state.name}: the cancellation's reason does not fit what escrow holds`);
      }
      for (const position of outcome.canceled) Object.assign(ms[position - 1]!, { status: 'CANCELED', updatedAt: s.at });
      for (const position of outcome.refunded) {
        held[position - 1] = false;
        escrowMovedAt[position - 1] = s.at;
        moved.refunded.push(position);
      }
      outcome.transactionStatus = 'CANCELED';
      canceledAt = s.at;
    } else if (s.kind !== 'create') {
      const m = ms[s.position - 1]!;
      const decision = decideMilestoneAction(ACTION_OF[s.kind]!, machineView()[s.position - 1]!, machineView());
      if (!decision.ok) throw new Error(`${state.name}: step ${index + 1} (${s.kind} ${s.position}) is refused: ${decision.message}`);
      m.status = decision.to;
      m.updatedAt = s.at;
      if (s.kind === 'fund') m.funded = true;
      if (s.kind === 'deliver') Object.assign(m, { delivered: true, deliveredAt: s.at });
      if (s.kind === 'accept') m.completed = true;
      if (s.kind === 'reject') Object.assign(m, { deliveryRejected: true, returnProofSent: true, rejectedAt: s.at });
      if (s.kind === 'approve_return') Object.assign(m, { returnApproved: true, deliveryRejected: false });
      progress = transactionProgress(machineView());
      completedAt = progress.isCompleted ? s.at : null;
      outcome.milestoneStatus = m.status;
      outcome.transactionStatus = progress.status;
      const moves = { fund: 'funded', accept: 'released', approve_return: 'refunded' } as const;
      const move = moves[s.kind as keyof typeof moves];
      if (move) {
        held[s.position - 1] = s.kind === 'fund';
        escrowMovedAt[s.position - 1] = s.at;
        moved[move].push(s.position);
      }
    }
    Object.assign(outcome, snapshot());
    steps.push(outcome);
  }
  return { ...columns(), milestones: ms, steps };
}

if (DATASET_STATES.reduce((sum, s) => sum + s.share, 0) !== 100) throw new Error('dataset state shares must add up to 100');
