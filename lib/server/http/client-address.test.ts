import { describe, expect, it } from 'vitest';
import { addressKey } from './client-address';
import { serviceOrigin } from './service-origin';

describe('addressKey', () => {
  it('counts an IPv4 address alone, however it is spelled', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts the addresses of one IPv6 /64 together', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
  });

  it('keeps anything else as it is', () => {
    expect(addressKey('unknown')).toBe('unknown');
  });
});

describe('serviceOrigin', () => {
  it('takes a bare host and port', () => {
    expect(serviceOrigin('https', 'Escrow.Example.com')).toBe('https://escrow.example.com');
    expect(serviceOrigin('http', '127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
    expect(serviceOrigin('http', '[::1]:3000')).toBe('http://[::1]:3000');
  });

  it('passes over values that are not a bare host, and addresses no client reaches a service at', () => {
    for (const host of [undefined, '', 'bad[host', 'a b', 'example.com/path', 'user@example.com', 'example.com?x', 'example.com:99999']) {
      expect(serviceOrigin('http', host), String(host)).toBeUndefined();
    }
    for (const host of ['169.254.169.254', '0xa9fea9fe', '[fe80::1]', '0.0.0.0', '[::ffff:169.254.169.254]', '224.0.0.1']) {
      expect(serviceOrigin('http', host), host).toBeUndefined();
    }
  });
});
