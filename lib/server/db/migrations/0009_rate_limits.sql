-- Rate-limit and sign-in-throttle counters (lib/server/http/rate-limit.ts). UNLOGGED: a row is written on
-- every API request, and a logged write would wait on the WAL flush while it holds the client's row; a
-- crash empties the table, which only forgets counters.
CREATE UNLOGGED TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer NOT NULL,
	"expire" timestamp (3) with time zone
);
