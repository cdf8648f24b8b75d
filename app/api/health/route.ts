import { database } from '@/lib/server/db/client';

/** Liveness for the start script and tests: answers once migrations have run. */
export async function GET() {
  try {
    const { driver } = await database();
    return Response.json({ status: true, message: 'ok', data: { database: driver } });
  } catch (error) {
    return Response.json({ status: false, message: (error as Error).message, code: 'UNAVAILABLE' }, { status: 503 });
  }
}
