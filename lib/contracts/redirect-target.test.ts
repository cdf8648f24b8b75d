import { describe, expect, it } from 'vitest';
import { sameOriginPath } from './redirect-target';

describe('sameOriginPath', () => {
  it('keeps paths of this origin', () => {
    expect(sameOriginPath('/transactions/abc?tab=1#x')).toBe('/transactions/abc?tab=1#x');
    expect(sameOriginPath('/a/../admin')).toBe('/admin');
  });

  it.each(['//example.invalid/x', '/\\example.invalid/x', '/\texample.invalid/x', '/\t/example.invalid/x', '\\\\example.invalid', 'https://example.invalid/', 'javascript:alert(1)', '/a/..//example.invalid', '/%2e%2e//example.invalid'])(
    'refuses %j',
    (target) => {
      const path = sameOriginPath(target, '/dashboard', 'https://app.example');
      expect(new URL(path, 'https://app.example').origin).toBe('https://app.example');
      expect(path.startsWith('//')).toBe(false);
    },
  );

  it('falls back when there is no target', () => {
    expect(sameOriginPath(undefined)).toBe('/dashboard');
    expect(sameOriginPath('')).toBe('/dashboard');
  });
});
