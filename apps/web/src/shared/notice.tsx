import { ExclamationCircleFilled, InfoCircleFilled } from '@ant-design/icons';
import type { ReactNode } from 'react';

/**
 * A page-sized message (a screen that cannot show its thing, a missing record), in place of antd's
 * Result: that one carries large illustrations, and the error boundary that uses this is in the entry.
 */
export function Notice({
  kind = 'info',
  title,
  detail,
  extra,
}: {
  kind?: 'info' | 'warning';
  title: ReactNode;
  detail?: ReactNode;
  extra?: ReactNode;
}) {
  const Icon = kind === 'warning' ? ExclamationCircleFilled : InfoCircleFilled;
  return (
    <div role="status" style={{ padding: '48px 32px', textAlign: 'center' }}>
      <Icon style={{ fontSize: 56, color: kind === 'warning' ? '#faad14' : '#0958d9' }} />
      <div style={{ marginTop: 20, fontSize: 22, color: 'rgba(0,0,0,0.88)' }}>{title}</div>
      {detail && <div style={{ marginTop: 8, fontSize: 14, color: 'rgba(0,0,0,0.65)' }}>{detail}</div>}
      {extra && <div style={{ marginTop: 24 }}>{extra}</div>}
    </div>
  );
}
