import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import QRCode from 'qrcode';
import { useEffect, useState, type CSSProperties } from 'react';

/** A QR code of `text` as a PNG data URL (the `qrcode` package), or null while it is drawn. */
export function useQrDataUrl(text: string | undefined, width = 320): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setUrl(null);
    if (text) {
      void QRCode.toDataURL(text, { width, margin: 1, errorCorrectionLevel: 'M' }).then((u) => live && setUrl(u));
    }
    return () => {
      live = false;
    };
  }, [text, width]);
  return url;
}

/** A QR code image of `text` (only screens that show one load this module). */
export function QrImage({
  text,
  size = 160,
  style,
  testId,
}: {
  text: string;
  size?: number;
  style?: CSSProperties;
  testId?: string;
}) {
  const url = useQrDataUrl(text, size * 2);
  return url ? (
    <img src={url} alt="二维码" width={size} height={size} style={style} data-testid={testId} data-text={text} />
  ) : (
    <div style={{ width: size, height: size, background: '#f5f5f5', ...style }} />
  );
}

/** A page's QR code shown, with 下载二维码 (a 640 px PNG named `fileName`) under it. */
export function DownloadableQr({ text, testId, fileName }: { text: string; testId: string; fileName: string }) {
  const png = useQrDataUrl(text, 640);
  return (
    <div style={{ textAlign: 'center' }}>
      <QrImage text={text} size={148} testId={testId} />
      <div>
        <Button type="link" icon={<DownloadOutlined />} disabled={!png} href={png ?? undefined} download={fileName}>
          下载二维码
        </Button>
      </div>
    </div>
  );
}
