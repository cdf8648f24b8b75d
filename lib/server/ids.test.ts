import { describe, expect, it } from 'vitest';
import { uuidv7 } from './ids';

describe('uuidv7', () => {
  it('is a version 7 RFC 9562 UUID whose order is the order of creation, even within one millisecond', () => {
    const ids = Array.from({ length: 5000 }, () => uuidv7(1_700_000_000_000));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const later = uuidv7(1_700_000_000_000 + 10_000);
    expect(later > ids.at(-1)!).toBe(true);
  });
});
