-- An event's data (a milestone record with its transaction and parties) is about 6 kB of JSON, so every
-- event is compressed on its way into the table; with the default pglz that was 1.7% of the machine's CPU
-- under the lifecycle benchmark. lz4 compresses several times faster. A server built without lz4 (PGlite)
-- keeps pglz: the same data, only compressed more slowly.
DO $$
BEGIN
  ALTER TABLE "events" ALTER COLUMN "data" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END $$;
