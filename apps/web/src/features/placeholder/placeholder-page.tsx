import { Empty } from 'antd';
import { useLocation } from 'react-router-dom';

/** A screen that is not built yet. */
export default function PlaceholderPage() {
  const { pathname } = useLocation();
  return (
    <div style={{ padding: 48 }}>
      <Empty description={`该页面（${pathname}）正在建设中`} />
    </div>
  );
}
