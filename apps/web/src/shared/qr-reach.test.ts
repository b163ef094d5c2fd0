import { describe, expect, it } from 'vitest';
import { urlReach } from './qr-reach.tsx';

describe('urlReach: whether members phones can open a QR code address', () => {
  it('tells loopback, private and public addresses apart', () => {
    for (const u of ['http://localhost:3000/m/1', 'http://127.0.0.1:8080/', 'http://[::1]:3000/', 'http://0.0.0.0/']) {
      expect(urlReach(u), u).toBe('loopback');
    }
    for (const u of [
      'http://192.168.1.20:3000/',
      'http://10.0.0.5/',
      'http://172.16.0.1/',
      'http://172.31.255.1/',
      'http://169.254.3.3/',
      'http://studio.local/',
    ]) {
      expect(urlReach(u), u).toBe('private');
    }
    for (const u of ['https://yoga.example.com/m/1', 'http://172.32.0.1/', 'http://8.8.8.8/', 'not a url']) {
      expect(urlReach(u), u).toBe('public');
    }
  });
});
