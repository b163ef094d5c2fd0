import { Alert } from 'antd';

/**
 * Whether phones can open `url`: a loopback address (localhost, 127.x, ::1) opens only on this
 * computer; a private one (10.x, 172.16-31.x, 192.168.x, 169.254.x, *.local) only on the studio's
 * own network. Anything else is taken as public.
 */
export function urlReach(url: string): 'public' | 'loopback' | 'private' {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return 'public';
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1' || host === '0.0.0.0') return 'loopback';
  const v4 = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    if (a === 127) return 'loopback';
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)) {
      return 'private';
    }
    return 'public';
  }
  if (host.endsWith('.local') || /^f[cd][0-9a-f]{2}:/.test(host) || host.startsWith('fe80:')) return 'private';
  return 'public';
}

const WHERE = '请店长到 门店设置 → 会员约课页面 → 公开地址 填写会员手机能打开的网址（例如 https://yoga.example.com）。';

/** A member QR code's warning when phones cannot reach its address, pointing to where to set a public one. */
export function QrReachWarning({ url }: { url: string | undefined }) {
  const reach = url ? urlReach(url) : 'public';
  if (reach === 'public') return null;
  const host = new URL(url!).host;
  const what =
    reach === 'loopback'
      ? `二维码里的地址（${host}）只能在这台电脑上打开，会员的手机扫码打不开。`
      : `二维码里的地址（${host}）是门店内网地址，只有连着门店 Wi-Fi 的手机能打开。`;
  return <Alert type="warning" showIcon data-testid="qr-reach-warning" message={what} description={WHERE} />;
}
