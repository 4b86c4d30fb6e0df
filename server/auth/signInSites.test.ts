import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { configuredSites, listenSites, parsePublicUrls, parseSiweDomains, SignInSites } from './signInSites';

const iface = (address: string, family: 'IPv4' | 'IPv6', scopeid?: number): NetworkInterfaceInfo =>
  ({ address, family, netmask: '', mac: '', internal: false, cidr: null, ...(family === 'IPv6' ? { scopeid: scopeid ?? 0 } : {}) }) as NetworkInterfaceInfo;

describe('parseSiweDomains', () => {
  it('behavior: reads comma-separated host[:port], lower-cased, in order', () => {
    expect(parseSiweDomains(' Member.Example , 192.168.1.20:8080,[::1]:8080')).toEqual([
      { host: 'member.example' },
      { host: '192.168.1.20:8080' },
      { host: '[::1]:8080' },
    ]);
  });

  it.each(['https://member.example', 'user@member.example', 'member.example/path', 'member.example:port'])('behavior: refuses %s', (value) => {
    expect(() => parseSiweDomains(value)).toThrow(value);
  });
});

describe('parsePublicUrls', () => {
  it('behavior: keeps the scheme and drops the default port, as the browser’s Host does', () => {
    expect(parsePublicUrls('https://Member.Example/, http://192.168.1.20:8080, https://member.example:443')).toEqual([
      { host: 'member.example', protocol: 'https:' },
      { host: '192.168.1.20:8080', protocol: 'http:' },
      { host: 'member.example', protocol: 'https:' },
    ]);
  });

  it.each(['member.example', 'ftp://member.example', 'https://member.example/app', 'https://member.example/?a=1', 'https://u:p@member.example'])(
    'behavior: refuses %s',
    (value) => {
      expect(() => parsePublicUrls(value)).toThrow();
    },
  );
});

describe('configuredSites', () => {
  it('behavior: PUBLIC_URL first, then SIWE_DOMAIN’s hosts not already named; undefined when neither is set', () => {
    expect(configuredSites({ publicUrl: 'https://member.example', siweDomain: 'member.example,alt.example' })).toEqual([
      { host: 'member.example', protocol: 'https:' },
      { host: 'alt.example' },
    ]);
    expect(configuredSites({})).toBeUndefined();
  });
});

describe('listenSites', () => {
  const interfaces = {
    lo: [iface('127.0.0.1', 'IPv4'), iface('::1', 'IPv6')],
    eth0: [iface('192.168.1.20', 'IPv4'), iface('fe80::1', 'IPv6', 2), iface('2001:db8::20', 'IPv6')],
  };

  it('behavior: on 0.0.0.0, localhost and every interface address at the port, link-local IPv6 left out', () => {
    expect(listenSites([{ address: '0.0.0.0', family: 'IPv4', port: 8080 }], interfaces).map((site) => site.host)).toEqual([
      'localhost:8080',
      '127.0.0.1:8080',
      '[::1]:8080',
      '192.168.1.20:8080',
      '[2001:db8::20]:8080',
    ]);
  });

  it('behavior: on one address, that address only besides loopback; port 80 also without the port', () => {
    expect(listenSites([{ address: '192.168.1.20', family: 'IPv4', port: 80 }], interfaces).map((site) => site.host)).toEqual([
      'localhost',
      'localhost:80',
      '127.0.0.1',
      '127.0.0.1:80',
      '[::1]',
      '[::1]:80',
      '192.168.1.20',
      '192.168.1.20:80',
    ]);
  });

  it('behavior: skips a Unix socket', () => {
    expect(listenSites(['/tmp/md.sock'], interfaces)).toEqual([]);
  });
});

describe('SignInSites', () => {
  it('behavior: a configured list accepts only its hosts, case-insensitively, and never grows', () => {
    const sites = new SignInSites([{ host: 'member.example', protocol: 'https:' }]);
    sites.addListenSites([{ host: 'localhost:8080' }]);
    expect(sites.match('MEMBER.example')).toEqual({ host: 'member.example', protocol: 'https:' });
    expect(sites.match('localhost:8080')).toBeUndefined();
    expect(sites.match('evil.example')).toBeUndefined();
    expect(sites.domainFor('evil.example')).toBe('member.example');
  });

  it('behavior: the embedded default accepts its listen sites and loopback hosts at any port, nothing else', () => {
    const sites = new SignInSites(undefined);
    expect(sites.domainFor('evil.example')).toBe('localhost');
    sites.addListenSites([{ host: 'localhost:8080' }, { host: '192.168.1.20:8080' }]);
    expect(sites.match('192.168.1.20:8080')).toEqual({ host: '192.168.1.20:8080' });
    expect(sites.match('localhost:5173')).toEqual({ host: 'localhost:5173' });
    expect(sites.match('127.0.0.1:41234')).toEqual({ host: '127.0.0.1:41234' });
    expect(sites.match('[::1]:5173')).toEqual({ host: '[::1]:5173' });
    for (const foreign of ['192.168.1.20:9090', 'localhost.evil.example', 'evil@localhost:5173', '127.0.0.2:8080', 'evil.example', '']) {
      expect(sites.match(foreign), foreign).toBeUndefined();
    }
    expect(sites.domainFor('evil.example')).toBe('localhost:8080');
  });
});
