/**
 * The shapes of a run's figures, apart from the code that measures or renders them, so that the measuring
 * modules and the report import them without importing each other.
 */
import type { Lcp } from './dashboard-lcp';
import type { DashboardPagesResult, PageLoadCost } from './dashboard-pages';
import type { DeadlineStormResult } from './deadline-storm';
import type { LatencySummary } from './load';
import type { SlowSpells } from './slow-spells';
import type { WebhookStormResult } from './webhook-storm';

export type PhaseResult = {
  name: string;
  concurrency: number | null;
  ratePerSecond: number | null;
  seconds: number;
  operationsPerSecond: number;
  /** Lifecycles (or reads) completed per second: the last operation's count. */
  completedPerSecond: number;
  all: LatencySummary;
  latency: Record<string, LatencySummary>;
  errors: number;
  firstErrors: string[];
  peakRssMb: number;
  /** The server's table-maintenance rounds that ended during the phase: ms per table (lib/server/db/table-maintenance.ts). */
  vacuumed?: Record<string, number>;
  /** Where the figure is the median of alternating rounds (bench/two-sizes.ts): each round's op/s (closed) or p99 (open). */
  rounds?: number[];
};

/** GET milestone on the server and on the bare one at one rate, in alternating rounds: each round's p99 (bench/noise-rule.ts). */
export type SameRate = { rate: number; appP99: number[]; bareP99: number[] };

/**
 * One round of the paired throughput measurement (c=32): each figure taken right beside its ceiling, the
 * bare server's lifecycle in one process and in one per core (`processes` of them).
 */
export type PairedRound = {
  getMilestone: number;
  bareGetMilestone: number;
  lifecycle: number;
  bareLifecycle: { oneProcess: number; perCore: number; processes: number };
  errors: number;
  firstErrors?: string[];
};

export type DatabaseResult = {
  phases: PhaseResult[];
  halfPeak: PhaseResult[];
  bare: PhaseResult[];
  /** The bare server at half of its own peak: the lowest read p99 this machine gives an open loop. */
  bareHalfPeak?: PhaseResult;
  sameRate?: SameRate;
  emptyRoute?: PhaseResult;
  paired?: PairedRound[];
  /** Each of the server's processes' own peak over every phase, in MB, by what it is (bench/memory.ts). */
  peakRssByProcessMb?: Record<string, number>;
};

export type BenchResult = {
  date: string;
  quick: boolean;
  /** quick, default or full (bench/settings.ts); absent in runs before the kinds. */
  kind?: 'quick' | 'default' | 'full';
  machine: { cpus: number; cpuModel: string; memoryGb: number; node: string; slowSpells?: SlowSpells };
  settings: Record<string, unknown>;
  pgbench: { tps: number; clients: number; scale: number; seconds: number } | null;
  databases: { postgres?: DatabaseResult; pglite?: DatabaseResult };
  dashboard: {
    firstLoadJs: Array<{ route: string; gzipKb: number; rawKb: number }>;
    lcp: { lcpMs: number[]; medianMs: number; milestones: number; logLines: number } | null;
    /** The ten busiest pages' cost to the API per load, and the customer list's LCP; absent in runs before them. */
    pages?: PageLoadCost[];
    listLcp?: DashboardPagesResult['listLcp'];
  };
  /** On PostgreSQL only. */
  storms?: { deadlines?: DeadlineStormResult; webhooks?: WebhookStormResult };
  /** The same measurements at two sizes of database (bench/two-sizes.ts). */
  sizes?: { postgres?: TwoSizesResult; pglite?: TwoSizesResult };
  /** Seconds per phase: estimated from the settings before the run, and as it went. */
  estimate?: Array<{ phase: string; seconds: number }>;
  elapsed?: Array<{ phase: string; seconds: number }>;
};

export type SizeResult = {
  /** The big client's transactions. */
  transactions: number;
  generation: { seconds: number; databaseBytes: number; auditSeconds: number; auditBalanced: boolean; ledgerEntries: number };
  /** Each operation in a closed loop at c=32. */
  closed: PhaseResult[];
  /** Each operation in an open loop at half of its closed loop's throughput. */
  halfPeak: PhaseResult[];
  /** The server's resident memory once started, before any request, and its peak over every phase. */
  startRssMb: number;
  peakRssMb: number;
  /** Each of the server's processes' own peak over the rounds, in MB, by what it is. */
  peakRssByProcessMb?: Record<string, number>;
  lcp: Lcp | null;
};

export type TwoSizesResult = { database: 'postgres' | 'pglite'; sizes: SizeResult[] };
