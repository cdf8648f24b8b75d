-- An event's data is the whole transaction as it stood, kilobytes of JSON that PostgreSQL compresses on
-- every write and decompresses on every read of the event list and every webhook sent. lz4 does both
-- several times faster than pglz, the default. It applies to values written from now on; PGlite is built
-- without lz4 and keeps pglz.
DO $$
BEGIN
  ALTER TABLE "events" ALTER COLUMN "data" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END $$;
